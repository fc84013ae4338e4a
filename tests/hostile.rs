//! The adversarial corpus: each `tests/hostile/*.hostile` file describes a hostile input and the
//! command it is given to; the test builds the input, runs the binary and snapshots what it says.
//! Every case must end (no hang), exit 1, and say a bounded amount: hostile input must not be
//! amplified into the output.
//!
//! A case is a header, `---`, then a body. Header lines (`#` lines are comments):
//! - `command: ARGS` — the arguments; `FILE` stands for the built input.
//! - `kind: file|fifo|dir` — what to build at `FILE` (default: a file holding the input).
//! - `stdin: FILE` — give the input on standard input instead.
//! - `repeat: N` — the input is the body (without its last newline) N times over.
//! - `prefix: TEXT` — text before the repeated body.
//! - `exit: N` — the exit status expected (default 1; 2 for bad arguments).
//!
//! In the body and the prefix, `\xHH` is a byte and `\n` a newline.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// The most a hostile case may print, stdout and stderr together.
const MOST_OUTPUT: usize = 64 * 1024;

struct Case {
    command: String,
    kind: String,
    stdin: bool,
    input: Vec<u8>,
    exit: i32,
}

fn unescape(text: &str) -> Vec<u8> {
    let mut out = Vec::new();
    let b = text.as_bytes();
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'\\' && b.get(i + 1) == Some(&b'x') && i + 4 <= b.len() {
            let hex = std::str::from_utf8(&b[i + 2..i + 4]).expect("ascii hex");
            out.push(u8::from_str_radix(hex, 16).expect("a hex byte"));
            i += 4;
        } else if b[i] == b'\\' && b.get(i + 1) == Some(&b'n') {
            out.push(b'\n');
            i += 2;
        } else {
            out.push(b[i]);
            i += 1;
        }
    }
    out
}

fn parse(text: &str) -> Case {
    let (header, body) = text.split_once("---\n").expect("a header, then ---");
    let mut case = Case {
        command: String::new(),
        kind: "file".into(),
        stdin: false,
        input: Vec::new(),
        exit: 1,
    };
    let (mut repeat, mut prefix) = (None, String::new());
    for line in header.lines().filter(|l| !l.starts_with('#') && !l.trim().is_empty()) {
        let (key, value) = line.split_once(": ").expect("key: value");
        match key {
            "command" => case.command = value.to_string(),
            "kind" => case.kind = value.to_string(),
            "stdin" => case.stdin = true,
            "repeat" => repeat = Some(value.parse::<usize>().expect("a count")),
            "prefix" => prefix = value.to_string(),
            "exit" => case.exit = value.parse().expect("an exit status"),
            other => panic!("unknown header line {other}"),
        }
    }
    case.input = unescape(&prefix);
    match repeat {
        Some(n) => {
            let one = unescape(body.strip_suffix('\n').unwrap_or(body));
            for _ in 0..n {
                case.input.extend_from_slice(&one);
            }
        }
        None => case.input.extend(unescape(body)),
    }
    case
}

/// Builds the input at a fresh path, as a file, a FIFO or a directory.
fn build(case: &Case, name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("turnscript-hostile-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a scratch folder");
    let path = dir.join(name);
    let _ = std::fs::remove_file(&path);
    let _ = std::fs::remove_dir(&path);
    match case.kind.as_str() {
        "file" => std::fs::write(&path, &case.input).expect("the input is written"),
        "dir" => std::fs::create_dir(&path).expect("a folder"),
        "fifo" => {
            let made = Command::new("mkfifo").arg(&path).status().expect("mkfifo runs");
            assert!(made.success(), "mkfifo made {}", path.display());
        }
        other => panic!("unknown kind {other}"),
    }
    path
}

fn run(case: &Case, path: &Path) -> (String, String, i32) {
    let args: Vec<String> = case
        .command
        .split_whitespace()
        .map(|a| {
            if a == "FILE" {
                path.display().to_string()
            } else {
                a.to_string()
            }
        })
        .collect();
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_turnscript"));
    cmd.current_dir(env!("CARGO_MANIFEST_DIR"))
        .args(&args)
        .env_remove("NO_COLOR")
        .env("COLUMNS", "100")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    if case.stdin {
        cmd.stdin(std::fs::File::open(path).expect("the input opens"));
    } else {
        cmd.stdin(Stdio::null());
    }
    let out = cmd.output().expect("the binary runs");
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
        out.status.code().unwrap_or(-1),
    )
}

#[test]
fn hostile_inputs_are_refused_briefly() {
    insta::glob!("hostile/*.hostile", |file| {
        let text = std::fs::read_to_string(file).expect("the case reads");
        let case = parse(&text);
        let name = file.file_stem().expect("a name").to_string_lossy().into_owned();
        let path = build(&case, &name);
        let (out, err, code) = run(&case, &path);
        let shown_path = path.display().to_string();
        assert_eq!(code, case.exit, "{name}: exit {}\n{err}", case.exit);
        assert!(
            out.len() + err.len() <= MOST_OUTPUT,
            "{name}: {} bytes of output",
            out.len() + err.len()
        );
        // The REPL's start and echoed commands are not what this corpus is about: keep what
        // follows the first error, and stderr whole.
        let out = match out.find("error") {
            Some(at) => &out[at..],
            None => "",
        };
        let report = format!("exit {code}\n--- stderr\n{err}--- stdout from the first error\n{out}")
            .replace(&shown_path, "FILE");
        insta::assert_snapshot!(report);
        let _ = std::fs::remove_file(&path);
        let _ = std::fs::remove_dir(&path);
    });
    let _ = std::fs::remove_dir(std::env::temp_dir().join(format!("turnscript-hostile-{}", std::process::id())));
}

/// A file is parsed one item at a time: finding the ruleset an encounter names reads up to its
/// `encounter` line and no further, so what follows (here text that does not parse) costs
/// nothing.
#[test]
fn the_ruleset_an_encounter_names_is_found_without_parsing_the_rest() {
    let text = "# my table\nencounter \"Night\" uses \"../rules.turn\"\n}}} not a ruleset at all {{{\n";
    assert_eq!(
        turnscript::project::named_ruleset("tables/night.turn", text).as_deref(),
        Some("rules.turn")
    );
    assert_eq!(turnscript::project::named_ruleset("night.turn", "stat a\n"), None);
}

/// "Did you mean" costs bounded work in all (`Limits::suggest_work`): a near miss among a few
/// names is suggested, but among 6,500 long names of its length, all far from it, the budget runs
/// out before the one it misses is reached, and the error says so plainly rather than search on.
#[test]
fn suggestions_stop_when_their_work_is_spent() {
    // 56 letters each, every one unlike the others (a simple generator, fixed).
    let long = |i: u64| -> String {
        let mut x = i.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        (0..56)
            .map(|_| {
                x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                (b'a' + (x >> 59) as u8 % 26) as char
            })
            .collect()
    };
    let shown = |text: &str| {
        let project = turnscript::Project::load([("r.turn", text)]);
        let Err(errors) = project.compile() else {
            panic!("the unknown name is an error");
        };
        project.render(&errors, turnscript::Style::default())
    };
    let mut near_last = long(6499);
    near_last.replace_range(0..1, if near_last.starts_with('q') { "r" } else { "q" });
    // Two params only: the near miss is found.
    let few = format!(
        "param {} = 1\nparam {} = 1\nparam z = {near_last}\n",
        long(0),
        long(6499)
    );
    assert!(
        shown(&few).contains(&format!("did you mean `{}`?", long(6499))),
        "{}",
        shown(&few)
    );
    // 6,500: each costs 56 x 56 letters compared and 56 looked at, 20,700,000 in all, past the
    // 20,000,000 allowed: the last is never compared.
    let mut many: String = (0..6500).map(|i| format!("param {} = 1\n", long(i))).collect();
    many.push_str(&format!("param z = {near_last}\n"));
    let plain = shown(&many);
    assert!(plain.contains("no name is called this"), "{plain}");
}
