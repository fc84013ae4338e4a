//! Every ```turn example in docs/language.md passes the checker: alone, after the page's running
//! example (its first two blocks), or, for a fragment of statements, inside
//! `play { for each c in characters { ... } }` after the running example.
//!
//! Every ```turn example in docs/patterns.md is a whole file (ruleset and cast) that checks and
//! runs to its end without error; a leading `# until: LEVEL=N` or `# seed: N` comment says how.

mod common;

use common::{check_texts, run_texts, turn_blocks};
use turnscript::project::RunOptions;

fn clean(files: &[(&str, String)]) -> bool {
    let files: Vec<(String, String)> = files.iter().map(|(n, t)| (n.to_string(), t.clone())).collect();
    check_texts(&files).1
}

#[test]
fn every_example_in_the_language_guide_checks() {
    let doc = std::fs::read_to_string("docs/language.md").expect("docs/language.md is readable");
    let examples = turn_blocks(&doc);
    assert!(examples.len() > 20, "the guide should have its examples");
    let ruleset = examples[0].clone();
    let cast = examples[1].clone();
    let mut failed = Vec::new();
    for ex in &examples {
        let alone = clean(&[("example.turn", ex.clone())]);
        let after = || {
            clean(&[
                ("ruleset.turn", format!("{ruleset}\n{ex}")),
                ("cast.turn", cast.clone()),
            ])
        };
        let inside = || {
            let wrapped = format!("{ruleset}\nplay {{ for each c in characters {{\n{ex}\n}} }}\n");
            clean(&[("ruleset.turn", wrapped), ("cast.turn", cast.clone())])
        };
        if !(alone || after() || inside()) {
            failed.push(ex.clone());
        }
    }
    assert!(
        failed.is_empty(),
        "these examples do not check:\n{}",
        failed.join("\n----\n")
    );
}

/// The run options a pattern asks for in its leading comments (`# until: round=3`, `# seed: 13`).
fn options_of(example: &str) -> RunOptions {
    let mut opts = RunOptions::default();
    for line in example.lines().map(str::trim).take_while(|l| l.starts_with('#')) {
        let Some((key, value)) = line.trim_start_matches('#').split_once(':') else {
            continue;
        };
        match key.trim() {
            "until" => opts.until = Some(value.trim().to_string()),
            "seed" => opts.seed = value.trim().parse().expect("`# seed:` takes a number"),
            _ => {}
        }
    }
    opts
}

#[test]
fn every_pattern_checks_and_runs_to_its_end() {
    let doc = std::fs::read_to_string("docs/patterns.md").expect("docs/patterns.md is readable");
    let examples = turn_blocks(&doc);
    assert!(examples.len() >= 16, "one example per family of turn system");
    let mut failed = Vec::new();
    for (i, ex) in examples.iter().enumerate() {
        let files = vec![(format!("pattern-{}.turn", i + 1), ex.clone())];
        let (report, clean) = check_texts(&files);
        if !clean {
            failed.push(format!("example {} does not check:\n{report}\n{ex}", i + 1));
            continue;
        }
        let (out, stderr, code) = run_texts(&files, Vec::new(), &options_of(ex), true);
        let ended = out.lines().any(|l| l.starts_with(r#"{"event":"encounter_end""#));
        if code != 0 || !ended {
            failed.push(format!(
                "example {} does not run to its end (exit {code}):\n{stderr}\n{ex}",
                i + 1
            ));
        }
    }
    assert!(failed.is_empty(), "{}", failed.join("\n----\n"));
}

/// The bundled rulesets cite only what ships in the repository: every `docs/*.md` a comment
/// names exists, no comment points outside the repository, and every rule ID a ruleset cites is
/// in the rules catalogue, docs/rules.md.
#[test]
fn ruleset_comments_cite_only_what_ships() {
    let catalogue = std::fs::read_to_string("docs/rules.md").expect("docs/rules.md ships");
    let mut rulesets: Vec<_> = std::fs::read_dir("rulesets")
        .expect("rulesets/")
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "turn"))
        .collect();
    rulesets.sort();
    assert!(rulesets.len() >= 5, "{rulesets:?}");
    for path in rulesets {
        let text = std::fs::read_to_string(&path).expect("a ruleset");
        for (n, line) in text.lines().enumerate() {
            let Some((_, comment)) = line.split_once('#') else {
                continue;
            };
            assert!(
                !comment.contains("../") && !comment.contains("design/") && !comment.contains("seeds/"),
                "{}:{}: cites a file outside the repository: {line}",
                path.display(),
                n + 1
            );
            for word in comment.split(|c: char| c.is_whitespace() || c == ',' || c == ';' || c == '(' || c == ')') {
                let word = word.trim_end_matches(['.', ':']);
                if word.starts_with("docs/") {
                    assert!(
                        std::path::Path::new(word).exists(),
                        "{}:{}: {word} does not exist",
                        path.display(),
                        n + 1
                    );
                }
                let is_id = word.split_once('-').is_some_and(|(p, k)| {
                    ["CM", "LEG", "CAP", "LGD", "FOT"].contains(&p)
                        && !k.is_empty()
                        && k.chars().all(|c| c.is_ascii_digit())
                });
                if is_id {
                    assert!(
                        catalogue.contains(&format!("- {word} ")),
                        "{}:{}: {word} is not in docs/rules.md",
                        path.display(),
                        n + 1
                    );
                }
            }
        }
    }
}

/// The codes `Diag::new` is given in `src/` (every string literal `"syntax::..."`, `"check::..."`
/// or `"run::..."`), but those never shown to a user.
fn emitted_codes() -> std::collections::BTreeSet<String> {
    // A control's pause is a `Diag` the REPL turns into a paused run, never a message; the
    // simulator's `run::setup` stands for options refused before its workers start (`sim`
    // reports those itself), a fallback no run reaches.
    const INTERNAL: &[&str] = &["run::paused", "run::setup", "run::unwind"];
    let mut out = std::collections::BTreeSet::new();
    let mut dirs = vec![std::path::PathBuf::from("src")];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())) {
            let path = entry.expect("a directory entry").path();
            if path.is_dir() {
                dirs.push(path);
                continue;
            }
            if path.extension().is_none_or(|x| x != "rs") {
                continue;
            }
            let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            for stage in ["syntax", "check", "run"] {
                let open = format!("\"{stage}::");
                for (at, _) in text.match_indices(&open) {
                    let rest = &text[at + open.len()..];
                    let name: String = rest
                        .chars()
                        .take_while(|c| c.is_ascii_lowercase() || *c == '_')
                        .collect();
                    if !name.is_empty() && rest[name.len()..].starts_with('"') {
                        let code = format!("{stage}::{name}");
                        if !INTERNAL.contains(&code.as_str()) {
                            out.insert(code);
                        }
                    }
                }
            }
        }
    }
    out
}

/// The codes the table of docs/language.md's "Diagnostics" section lists.
fn documented_codes() -> std::collections::BTreeSet<String> {
    let doc = std::fs::read_to_string("docs/language.md").expect("docs/language.md");
    let section = doc.split("\n## Diagnostics\n").nth(1).expect("a Diagnostics section");
    let section = section.split("\n## ").next().unwrap_or(section);
    section
        .lines()
        .filter(|l| l.starts_with("| syntax |") || l.starts_with("| check |") || l.starts_with("| run |"))
        .flat_map(|l| l.split('`').skip(1).step_by(2).map(str::to_string).collect::<Vec<_>>())
        .collect()
}

#[test]
fn the_diagnostics_table_lists_every_code_the_language_emits_and_no_other() {
    let emitted = emitted_codes();
    let documented = documented_codes();
    assert!(emitted.len() > 40, "found only {emitted:?}: is the scan of src/ right?");
    let missing: Vec<&String> = emitted.difference(&documented).collect();
    let stale: Vec<&String> = documented.difference(&emitted).collect();
    assert!(
        missing.is_empty(),
        "emitted in src/ but not in docs/language.md's Diagnostics table: {missing:?}"
    );
    assert!(
        stale.is_empty(),
        "in the Diagnostics table but never emitted: {stale:?}"
    );
}

/// The rows of the table under `heading` in docs/language.md: the backticked names of each row's
/// first cell.
fn table_names(doc: &str, heading: &str) -> Vec<String> {
    let at = doc
        .find(heading)
        .unwrap_or_else(|| panic!("`{heading}` is in the guide"));
    let mut names = Vec::new();
    let mut in_table = false;
    for line in doc[at..].lines().skip(1) {
        if line.starts_with('|') {
            in_table = true;
            let first = line.split('|').nth(1).unwrap_or("");
            names.extend(first.split('`').skip(1).step_by(2).map(str::to_string));
        } else if in_table {
            break;
        }
    }
    names
}

/// Issue 24, item 7: the text view's table listed neither `join` nor `leave`. Every event of the
/// JSON lines table has its row in the text view's table, or is one of those the text view
/// shows by its layout (starts and ends of levels, turns, reactions and walks).
#[test]
fn every_event_has_its_text_view() {
    let doc = std::fs::read_to_string("docs/language.md").expect("the guide");
    let events = table_names(&doc, "| `\"event\"` | Keys after");
    assert!(events.len() > 30, "{events:?}");
    let text = table_names(&doc, "| Event | Text |");
    // Shown by layout: a level, phase or round start opens an indented block ("level / round
    // start", "phase start"), its end closes it ("level end"); a turn, reaction or together walk
    // ends where its indentation does.
    let by_layout = [
        "level_start",
        "level_end",
        "phase_start",
        "phase_end",
        "round_start",
        "round_end",
        "turn_end",
        "reaction_end",
        "together_end",
    ];
    let missing: Vec<&String> = events
        .iter()
        .filter(|e| !text.contains(e) && !by_layout.contains(&e.as_str()))
        .collect();
    assert!(
        missing.is_empty(),
        "events with no row in the text view's table: {missing:?}"
    );
}
