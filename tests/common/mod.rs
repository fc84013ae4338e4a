//! Helpers for the tests, on the library API the CLI stands on: run files as `turnscript run`
//! does and read the JSON lines trace back; check files as `turnscript check` does.
#![allow(dead_code)]

use serde_json::Value;
use turnscript::project::{Answer, RunOptions, Style, View, check_set, parse_answers, play};

/// The REPL's options for the Legends example (seed 1), with no autosave and no colour.
pub fn legends_repl() -> turnscript::repl::Options {
    turnscript::repl::Options {
        ruleset: Some("rulesets/legends.turn".into()),
        encounter: Some("rulesets/encounters/legends.turn".into()),
        seed: 1,
        autosave: None,
        colour: Some(false),
        width: 0,
    }
}

/// Runs already-read files as `turnscript run` does (no colour): (stdout, stderr, exit code).
pub fn run_texts(
    files: &[(String, String)],
    answers: Vec<Answer>,
    opts: &RunOptions,
    jsonl: bool,
) -> (String, String, i32) {
    let opts = RunOptions {
        answers,
        ..opts.clone()
    };
    let (view, result) = play(files, &opts, |p| View::new(jsonl, p));
    let out = view.map(|v| v.out().to_string()).unwrap_or_default();
    match result {
        Ok((_, warnings)) => (out, warnings, 0),
        Err(f) => (out, f.render(Style::default()), f.exit_code()),
    }
}

/// Checks files as `turnscript check` does (no colour): the report and whether all are clean.
pub fn check_texts(files: &[(String, String)]) -> (String, bool) {
    let report = check_set(files);
    (report.render(Style::default()), report.is_clean())
}

pub const CRISIS_MODE: &str = "rulesets/crisis-mode.turn";
pub const FLOW_OF_TIME: &str = "rulesets/flow-of-time.turn";
pub const LEGACY: &str = "rulesets/legacy.turn";
pub const LEGENDS: &str = "rulesets/legends.turn";
pub const CAPES: &str = "rulesets/capes.turn";

/// A finished run: its events, what it printed to stderr and its exit code.
pub struct Run {
    pub events: Vec<Value>,
    pub stderr: String,
    pub code: i32,
}

/// What to run: a ruleset file, an encounter text, forced rolls, answers (one per line), `--until`.
pub struct Case<'a> {
    pub ruleset: &'a str,
    pub encounter: &'a str,
    pub rolls: &'a [i64],
    pub answers: &'a str,
    pub until: Option<&'a str>,
    pub seed: u64,
    pub policy: Option<&'a str>,
}

impl Default for Case<'_> {
    fn default() -> Self {
        Case {
            ruleset: CRISIS_MODE,
            encounter: "",
            rolls: &[],
            answers: "",
            until: None,
            seed: 0,
            policy: None,
        }
    }
}

pub fn run(case: Case<'_>) -> Run {
    let ruleset = std::fs::read_to_string(case.ruleset).expect("bundled ruleset is readable");
    let texts = vec![
        (case.ruleset.to_string(), ruleset),
        ("encounter.turn".to_string(), case.encounter.to_string()),
    ];
    let opts = RunOptions {
        seed: case.seed,
        rolls: case.rolls.to_vec(),
        until: case.until.map(str::to_string),
        policy: case.policy.map(str::to_string),
        ..RunOptions::default()
    };
    let (out, stderr, code) = run_texts(&texts, parse_answers(case.answers, "answers"), &opts, true);
    let events = out
        .lines()
        .map(|l| serde_json::from_str(l).expect("every trace line is JSON"))
        .collect();
    Run { events, stderr, code }
}

impl Run {
    /// The run finished without error.
    pub fn ok(self) -> Self {
        assert_eq!(self.code, 0, "run failed:\n{}", self.stderr);
        self
    }

    pub fn of(&self, kind: &str) -> Vec<&Value> {
        self.events.iter().filter(|e| e["event"] == kind).collect()
    }

    /// Actors of every `turn_start`, in order.
    pub fn turns(&self) -> Vec<String> {
        self.of("turn_start").iter().map(|e| s(&e["actor"])).collect()
    }

    /// Actors of the turns in each round, one list per round, in order.
    pub fn rounds(&self) -> Vec<Vec<String>> {
        let mut out: Vec<Vec<String>> = Vec::new();
        for e in &self.events {
            match e["event"].as_str() {
                Some("round_start") => out.push(Vec::new()),
                Some("turn_start") => {
                    if let Some(r) = out.last_mut() {
                        r.push(s(&e["actor"]))
                    }
                }
                _ => {}
            }
        }
        out
    }

    /// Every `order` event's names.
    pub fn orders(&self) -> Vec<Vec<String>> {
        self.of("order").iter().map(|e| names(&e["order"])).collect()
    }

    /// The value a resource was last left at for a character.
    pub fn left(&self, actor: &str, resource: &str) -> i64 {
        self.events
            .iter()
            .rev()
            .find_map(|e| {
                if e["actor"] == actor && e["resource"] == resource {
                    e["left"].as_i64()
                } else if e["to"] == actor && e["to_resource"] == resource {
                    e["to_left"].as_i64()
                } else {
                    None
                }
            })
            .unwrap_or_else(|| panic!("no change of {resource} for {actor}"))
    }

    /// Compact lines `event actor detail` for exact sequence assertions.
    pub fn lines(&self, kinds: &[&str]) -> Vec<String> {
        self.events
            .iter()
            .filter(|e| kinds.contains(&e["event"].as_str().unwrap_or("")))
            .map(compact)
            .collect()
    }

    /// Events after the first one matching `kind` and `key == value`.
    pub fn after(&self, kind: &str, key: &str, value: &str) -> Run {
        let i = self
            .events
            .iter()
            .position(|e| e["event"] == kind && e[key] == value)
            .unwrap_or_else(|| panic!("no {kind} with {key}={value}"));
        Run {
            events: self.events[i + 1..].to_vec(),
            stderr: self.stderr.clone(),
            code: self.code,
        }
    }
}

pub fn s(v: &Value) -> String {
    v.as_str().unwrap_or("").to_string()
}

pub fn names(v: &Value) -> Vec<String> {
    v.as_array().map(|a| a.iter().map(s).collect()).unwrap_or_default()
}

/// One event as a short line: `spend Ana ap 2 4`, `decision Ana act attack`, `roll Ana ap 9`.
pub fn compact(e: &Value) -> String {
    let kind = s(&e["event"]);
    let actor = s(&e["actor"]);
    let tail = match kind.as_str() {
        "spend" | "gain" | "reset" | "forfeit" => format!("{} {} {}", s(&e["resource"]), e["amount"], e["left"]),
        "decision" => format!("{} {}", s(&e["decision"]), s(&e["picked"])),
        "roll" => format!("{} {}", s(&e["for"]), e["total"]),
        "action" => s(&e["action"]),
        "order" => names(&e["order"]).join(","),
        "phase_start" | "phase_end" => {
            let r = s(&e["reason"]);
            if r.is_empty() {
                s(&e["phase"])
            } else {
                format!("{} ({r})", s(&e["phase"]))
            }
        }
        "round_start" | "round_end" => e["round"].to_string(),
        "encounter_end" => s(&e["reason"]),
        "transfer" => format!(
            "{} {} {} -> {} {} {}",
            s(&e["resource"]),
            e["amount"],
            e["left"],
            s(&e["to"]),
            s(&e["to_resource"]),
            e["to_left"]
        ),
        "trigger" => format!("{}({})", s(&e["trigger"]), names(&e["args"]).join(",")),
        "time" => format!("{} {} {}", e["amount"], s(&e["unit"]), e["clock"]),
        "set" => format!("{} {}", s(&e["stat"]), e["left"]),
        "create" | "destroy" => s(&e["name"]),
        "mark" | "clear" => s(&e["flag"]),
        "effect_tick" => format!("{} {}", s(&e["effect"]), e["left"]),
        "refused" => format!(
            "{} {}: {}",
            s(&e["decision"]),
            s(&e["option"]),
            names(&e["reasons"]).join("; ")
        ),
        _ => String::new(),
    };
    [kind, actor, tail]
        .iter()
        .filter(|x| !x.is_empty())
        .cloned()
        .collect::<Vec<_>>()
        .join(" ")
}

/// `vec!["a", "b"]` as owned strings.
pub fn v(items: &[&str]) -> Vec<String> {
    items.iter().map(|s| s.to_string()).collect()
}

/// The ```turn blocks of a Markdown file, in order.
pub fn turn_blocks(doc: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut current: Option<String> = None;
    for line in doc.lines() {
        match (&mut current, line.trim_start()) {
            (None, "```turn") => current = Some(String::new()),
            (Some(_), "```") => out.push(current.take().unwrap_or_default()),
            (Some(b), _) => {
                b.push_str(line);
                b.push('\n');
            }
            _ => {}
        }
    }
    out
}

/// The `sim` report of one ruleset text played `n` times on `threads` workers (seed 0), as
/// `turnscript sim` makes it; a ruleset that does not compile fails the test with its diagnostics.
pub fn sim_report(src: &str, n: u64, threads: usize) -> turnscript::sim::Report {
    use turnscript::sim::{Report, SimOptions, simulate};
    use turnscript::{Project, Style};
    let project = Project::load(vec![("r.turn".to_string(), src.to_string())]);
    let program = project
        .compile()
        .unwrap_or_else(|d| panic!("{}", project.render(&d, Style::default())));
    let opts = SimOptions {
        n,
        threads,
        ..SimOptions::default()
    };
    let stats = simulate(&program, &opts, None).unwrap_or_else(|e| panic!("{e}")).stats;
    Report::new(&program, &opts, &stats, |_| String::new())
}

/// A fresh scratch folder `GROUP-NAME` under the target folder, emptied of what a run before
/// left in it: each test writes its files in a folder of its own.
pub fn scratch(group: &str, name: &str) -> std::path::PathBuf {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("{group}-{name}"));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a scratch folder");
    dir
}

/// Every bundled ruleset with its example encounter: (ruleset path, encounter path), for the
/// tests that run them all two ways (`tests/compiled.rs`, `tests/policy_path.rs`).
pub fn bundled() -> Vec<(String, String)> {
    let mut out = Vec::new();
    for dir in ["rulesets", "rulesets/library"] {
        let mut names: Vec<String> = std::fs::read_dir(format!("{}/{dir}/encounters", env!("CARGO_MANIFEST_DIR")))
            .expect("the encounters folder")
            .map(|e| e.expect("an entry").file_name().to_string_lossy().into_owned())
            .filter(|n| n.ends_with(".turn"))
            .collect();
        names.sort();
        out.extend(
            names
                .into_iter()
                .map(|n| (format!("{dir}/{n}"), format!("{dir}/encounters/{n}"))),
        );
    }
    out
}

/// A bundled file's text, its path from the crate's root.
pub fn read_bundled(path: &str) -> String {
    std::fs::read_to_string(format!("{}/{path}", env!("CARGO_MANIFEST_DIR"))).expect("a bundled file")
}

/// `program` run with `seed`, the default options and a budget of `max_steps` steps by `go` (a
/// run function with its decider, given the run's configuration and the sink): the trace (JSON
/// lines) and how the run ended.
pub fn run_traced(
    program: &turnscript::Program,
    seed: u64,
    max_steps: u64,
    go: impl FnOnce(
        &turnscript::RunConfig,
        &mut turnscript::trace::JsonLines,
    ) -> Result<turnscript::Outcome, turnscript::Diag>,
) -> (String, Result<turnscript::Outcome, turnscript::Diag>) {
    let options = RunOptions {
        seed,
        until: None,
        ..RunOptions::default()
    };
    let mut config = options.prepare(program).expect("the default options apply").config;
    config.max_steps = max_steps;
    let mut sink = turnscript::trace::JsonLines::default();
    let ended = go(&config, &mut sink);
    (sink.out().to_string(), ended)
}
