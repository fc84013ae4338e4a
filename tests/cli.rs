//! The command line's conventions, through the binary: `-` for standard input, colour by
//! `--color` and `NO_COLOR`, diagnostics at `$COLUMNS`, an example in every `--help`, shell
//! completions and the man page, and the warning of a run with no cast.

use std::io::Write;
use std::process::{Command, Stdio};

/// Runs `turnscript ARGS` from the crate's folder with `stdin` on standard input and the
/// environment variables given (others that matter are cleared); returns stdout, stderr, code.
fn turnscript(args: &[&str], stdin: &str, env: &[(&str, &str)]) -> (String, String, i32) {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_turnscript"));
    cmd.current_dir(env!("CARGO_MANIFEST_DIR"))
        .args(args)
        .env_remove("NO_COLOR")
        .env_remove("COLUMNS")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    for (k, v) in env {
        cmd.env(k, v);
    }
    let mut child = cmd.spawn().expect("the binary runs");
    if let Some(mut i) = child.stdin.take() {
        let _ = i.write_all(stdin.as_bytes());
    }
    let out = child.wait_with_output().expect("the binary ends");
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
        out.status.code().unwrap_or(-1),
    )
}

const BAD: &str = "tests/diagnostics/check-arity.turn";

#[test]
fn colour_follows_the_flag_and_no_color() {
    let (_, always, code) = turnscript(&["--color", "always", "check", BAD], "", &[]);
    assert_eq!(code, 1);
    assert!(always.contains("\x1b["), "--color always colours:\n{always}");
    let (_, never, _) = turnscript(&["--color", "never", "check", BAD], "", &[]);
    assert!(!never.contains('\x1b'), "{never}");
    // Not a terminal: auto is plain; NO_COLOR keeps it plain; an explicit --color wins over it.
    let (_, auto, _) = turnscript(&["check", BAD], "", &[("NO_COLOR", "1")]);
    assert_eq!(auto, never);
    let (_, forced, _) = turnscript(&["check", BAD, "--color", "always"], "", &[("NO_COLOR", "1")]);
    assert_eq!(forced, always);
    insta::assert_snapshot!("check_color_always", always.replace('\x1b', "␛"));
    insta::assert_snapshot!("check_color_never", never);
    // The REPL's views and diagnostics follow the flag too, even when not on a terminal.
    let (out, err, _) = turnscript(
        &[
            "repl",
            "rulesets/encounters/legends.turn",
            "--seed",
            "1",
            "--no-autosave",
            "--color",
            "always",
        ],
        "show 0\nanswer stay\nanswer Raider\nanswer nobody\n",
        &[],
    );
    assert!(out.contains("\x1b[1m"), "{out}");
    assert!(err.contains('\x1b'), "{err}");
    insta::assert_snapshot!("repl_color_always", format!("{out}{err}").replace('\x1b', "␛"));
}

#[test]
fn diagnostics_are_as_wide_as_columns() {
    let forever = "play {\n  round repeat { }\n}\n";
    let args = ["run", "-", "--max-steps", "5", "--format", "jsonl"];
    let (_, narrow, code) = turnscript(&args, forever, &[("COLUMNS", "50")]);
    assert_eq!(code, 1);
    let (_, wide, _) = turnscript(&args, forever, &[("COLUMNS", "160")]);
    // At 160 the help is one line; at 50 it wraps, no line longer than 50.
    assert!(
        wide.contains("help: check that the loop's condition can become false, or raise the budget with --max-steps"),
        "{wide}"
    );
    let diag = narrow.split("run::step_budget").nth(1).expect("the diagnostic");
    for line in diag.lines() {
        assert!(line.chars().count() <= 50, "{line:?} in\n{narrow}");
    }
    insta::assert_snapshot!("run_columns_50", narrow);
}

#[test]
fn a_dash_reads_standard_input() {
    let legends = std::fs::read_to_string("rulesets/legends.turn").expect("the ruleset");
    // check -
    let (_, err, code) = turnscript(&["check", "-"], &legends, &[]);
    assert_eq!((err.as_str(), code), ("", 0));
    let (_, err, code) = turnscript(&["check", "-"], "play { frobnicate }\n", &[]);
    assert_eq!(code, 1);
    assert!(err.contains("<stdin>:1:8"), "{err}");
    insta::assert_snapshot!("check_stdin_error", err);
    // run - --encounter FILE gives the trace run FILE --encounter FILE gives.
    let args = [
        "--encounter",
        "rulesets/encounters/legends.turn",
        "--seed",
        "1",
        "--until",
        "round=2",
        "--format",
        "jsonl",
    ];
    let from_file = turnscript(&[&["run", "rulesets/legends.turn"][..], &args].concat(), "", &[]);
    let from_stdin = turnscript(&[&["run", "-"][..], &args].concat(), &legends, &[]);
    assert_eq!(from_file.2, 0, "{}", from_file.1);
    assert_eq!(from_stdin, from_file);
    // --answers -
    let answers = [
        "run",
        "rulesets/encounters/legends.turn",
        "--seed",
        "1",
        "--until",
        "round=1",
    ];
    let (out, err, code) = turnscript(&[&answers[..], &["--answers", "-"]].concat(), "Brute\n", &[]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("choose   Raider  move_down       Brute "), "{out}");
    // sim - too
    let (out, err, code) = turnscript(
        &[
            "sim",
            "-",
            "--encounter",
            "rulesets/encounters/legends.turn",
            "-n",
            "3",
            "--until",
            "round=2",
        ],
        &legends,
        &[],
    );
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("3 encounters"), "{out}");
    // Standard input is read once: `-` for two files is refused.
    let (_, err, code) = turnscript(&["run", "-", "--encounter", "-"], "", &[]);
    assert_eq!(code, 2);
    assert!(err.contains("`-` (standard input) was given 2 times"), "{err}");
    // The REPL reads its commands there.
    let (_, err, code) = turnscript(&["repl", "-"], "", &[]);
    assert_eq!(code, 1);
    assert!(err.contains("reads its commands from standard input"), "{err}");
}

#[test]
fn a_run_with_no_cast_warns() {
    let (out, err, code) = turnscript(&["run", "rulesets/legends.turn", "--until", "round=1"], "", &[]);
    assert_eq!(code, 0);
    assert!(
        out.contains("encounter_end") || out.contains("end of encounter"),
        "{out}"
    );
    insta::assert_snapshot!("run_no_cast", err);
    // An encounter, or a ruleset that declares its own cast: no warning.
    let (_, err, _) = turnscript(
        &["run", "rulesets/encounters/legends.turn", "--until", "round=1"],
        "",
        &[],
    );
    assert_eq!(err, "");
    let (_, err, _) = turnscript(&["run", "tests/repl/kept-order.turn", "--until", "round=1"], "", &[]);
    assert_eq!(err, "");
}

/// A file that does not build gets its diagnostics alone: no warning about a cast it may well
/// declare (the run never starts).
#[test]
fn a_file_that_does_not_build_gets_no_cast_warning() {
    for text in [
        // A syntax error after the cast.
        "ruleset \"r\"\nside good\ncharacter Ann { side good }\nstat hp default 3 +\n",
        // No cast, and an error of the checker.
        "ruleset \"r\"\nside good\nparam p = good + 1\nplay { }\n",
    ] {
        for cmd in ["run", "sim"] {
            let args: &[&str] = if cmd == "sim" {
                &[cmd, "-", "-n", "2"]
            } else {
                &[cmd, "-"]
            };
            let (_, err, code) = turnscript(args, text, &[]);
            assert_eq!(code, 1, "{cmd}: {err}");
            assert!(err.contains("× "), "{cmd}: {err}");
            assert!(!err.contains("warning"), "{cmd}: {err}");
        }
    }
}

#[test]
fn every_help_has_an_example() {
    for sub in [
        &[][..],
        &["check"],
        &["run"],
        &["repl"],
        &["sim"],
        &["completions"],
        &["man"],
    ] {
        let (out, _, code) = turnscript(&[sub, &["--help"][..]].concat(), "", &[]);
        assert_eq!(code, 0);
        assert!(
            out.contains("Examples:\n  turnscript "),
            "`turnscript {} --help`:\n{out}",
            sub.join(" ")
        );
    }
}

#[test]
fn completions_and_the_man_page_come_from_the_same_definitions() {
    for shell in ["bash", "zsh", "fish", "elvish", "powershell"] {
        let (out, err, code) = turnscript(&["completions", shell], "", &[]);
        assert_eq!(code, 0, "{err}");
        for word in ["turnscript", "check", "repl", "encounter", "color"] {
            assert!(out.contains(word), "{shell}: no {word}");
        }
    }
    let (man, _, code) = turnscript(&["man"], "", &[]);
    assert_eq!(code, 0);
    assert!(man.contains(".TH turnscript 1"), "{man}");
    for word in ["check", "run", "repl", "sim", "completions", "\\-\\-color"] {
        assert!(man.contains(word), "the man page has no {word}");
    }
    let (_, err, code) = turnscript(&["completions", "tcsh"], "", &[]);
    assert_eq!(code, 2, "{err}");
}

/// Long field, decision and option names stay in line in the text trace (Legends has
/// `mobility_injury`, `turn_margin`, `prepare_chase`): every `choose` line's options start in
/// the same column after its indentation, and so do the values of every `set` line.
#[test]
fn long_names_stay_in_line_in_the_text_trace() {
    let (out, err, code) = turnscript(
        &[
            "run",
            "rulesets/encounters/legends.turn",
            "--seed",
            "1",
            "--until",
            "round=3",
        ],
        "",
        &[],
    );
    assert_eq!(code, 0, "{err}");
    let column = |kind: &str, mark: &str| -> Vec<usize> {
        out.lines()
            .map(str::trim_start)
            .filter(|l| l.starts_with(kind))
            .filter_map(|l| l.find(mark).map(|i| l[..i].chars().count()))
            .collect()
    };
    for (kind, mark) in [("choose ", " of "), ("set ", " = "), ("roll ", " d")] {
        let cols = column(kind, mark);
        assert!(cols.len() > 3, "{kind}: {cols:?}\n{out}");
        assert!(
            cols.iter().all(|c| *c == cols[0]),
            "{kind} lines out of line: {cols:?}\n{out}"
        );
    }
}

/// `check --help` and the README say the same about how encounters are paired with rulesets.
#[test]
fn check_help_and_the_readme_pair_encounters_alike() {
    let (help, _, _) = turnscript(&["check", "--help"], "", &[]);
    let readme = std::fs::read_to_string("README.md").expect("the README");
    let flat = |s: &str| s.split_whitespace().collect::<Vec<_>>().join(" ");
    let (help, readme) = (flat(&help), flat(&readme));
    for phrase in [
        "uses \"PATH\"`, read from disk if not given",
        "else with the ruleset of the same file name when one is given",
        "else with every ruleset given",
    ] {
        assert!(help.contains(phrase), "check --help lacks {phrase:?}: {help}");
        assert!(readme.contains(phrase), "the README lacks {phrase:?}");
    }
}

/// Runs `turnscript ARGS` in a pseudo-terminal (util-linux `script`, in Debian's essential
/// `bsdutils`), from the crate's folder: what the terminal showed, `\r\n` made `\n`.
fn on_a_terminal(args: &str) -> String {
    let command = format!(
        "cd '{}' && '{}' {args}",
        env!("CARGO_MANIFEST_DIR"),
        env!("CARGO_BIN_EXE_turnscript")
    );
    let out = Command::new("script")
        .args(["-qec", &command, "/dev/null"])
        .env_remove("NO_COLOR")
        .env("TERM", "dumb")
        .stdin(Stdio::null())
        .output()
        .expect("util-linux `script` runs (Debian: bsdutils)");
    String::from_utf8_lossy(&out.stdout).replace("\r\n", "\n")
}

/// Issue 28: `check` printed nothing on success, so a newcomer could not tell it had checked
/// anything. On a terminal it says what it checked; piped or with `--quiet` it stays silent.
#[test]
fn check_says_what_it_checked_on_a_terminal_only() {
    let files = "rulesets/crisis-mode.turn rulesets/encounters/crisis-mode.turn rulesets/encounters/legends.turn";
    // The encounter of Legends names its ruleset, which is read from disk and checked too.
    assert_eq!(
        on_a_terminal(&format!("check {files}")),
        "checked 2 rulesets, 2 encounters: no problems\n"
    );
    assert_eq!(on_a_terminal(&format!("check --quiet {files}")), "");
    assert_eq!(on_a_terminal("check -q rulesets/capes.turn"), "");
    let piped = turnscript(&["check", "rulesets/crisis-mode.turn"], "", &[]);
    assert_eq!(piped, (String::new(), String::new(), 0));
    // With errors: the diagnostics, then the line.
    let shown = on_a_terminal(&format!("--color never check {BAD} rulesets/legacy.turn"));
    assert!(
        shown.ends_with("\nchecked 2 rulesets, 0 encounters: 1 error (above)\n"),
        "{shown}"
    );
    let (_, err, code) = turnscript(&["check", BAD], "", &[]);
    assert!(code == 1 && !err.contains("checked"), "{err}");
}

/// The Rust the README asks for is the `rust-version` of Cargo.toml.
#[test]
fn the_readme_asks_for_the_rust_version_of_cargo_toml() {
    let root = env!("CARGO_MANIFEST_DIR");
    let toml = std::fs::read_to_string(format!("{root}/Cargo.toml")).unwrap_or_default();
    let version = toml
        .lines()
        .find_map(|l| l.strip_prefix("rust-version = \""))
        .and_then(|v| v.strip_suffix('"'))
        .expect("Cargo.toml has a rust-version");
    let readme = std::fs::read_to_string(format!("{root}/README.md")).unwrap_or_default();
    assert!(
        readme.contains(&format!("**Rust {version} or newer**")),
        "README.md must ask for Rust {version} or newer"
    );
}

/// Every `$ turnscript ...` example in the README (`$ echo '...' | turnscript ...` gives it
/// standard input) is run, and the lines shown under it must come out: each run of lines between
/// `...` lines as they are, one after another, in order. The REPL's transcript is a session, not
/// one command, and is left to tests/repl.rs; `serve` runs until stopped and says a fresh token
/// each time, and tests/serve.rs checks what it says.
#[test]
fn the_readmes_examples_print_what_it_shows() {
    let readme = std::fs::read_to_string(format!("{}/README.md", env!("CARGO_MANIFEST_DIR"))).unwrap_or_default();
    let mut ran = 0;
    for block in readme.split("```").skip(1).step_by(2) {
        let mut lines = block.lines().skip(1);
        let Some(command) = lines.next().and_then(|l| l.strip_prefix("$ ")) else {
            continue;
        };
        let (stdin, command) = match command.split_once(" | ") {
            Some((echo, rest)) => {
                let text = echo.strip_prefix("echo '").and_then(|e| e.strip_suffix('\''));
                (
                    format!("{}\n", text.expect("only `echo '...' |` feeds a README example")),
                    rest,
                )
            }
            None => (String::new(), command),
        };
        let args: Vec<&str> = command.split_whitespace().collect();
        assert_eq!(args.first(), Some(&"turnscript"), "{command}");
        if matches!(args.get(1), Some(&"repl" | &"serve")) {
            continue;
        }
        let (out, err, code) = turnscript(&args[1..], &stdin, &[]);
        assert_eq!(code, 0, "README: `{command}` failed:\n{err}");
        let shown: Vec<&str> = lines.collect();
        let got: Vec<&str> = out.lines().collect();
        let mut at = 0;
        for chunk in shown.split(|l| *l == "...").filter(|c| !c.is_empty()) {
            let found = (at..=got.len().saturating_sub(chunk.len())).find(|&i| got[i..].starts_with(chunk));
            let Some(i) = found else {
                panic!(
                    "README: `{command}` no longer prints\n{}\n\nit prints:\n{out}",
                    chunk.join("\n")
                );
            };
            at = i + chunk.len();
        }
        ran += 1;
    }
    // The text trace, the JSON lines and the simulation report.
    assert_eq!(ran, 3, "README examples run");
}

/// Issue 29: the 80-character cut for quoted user text (`limits::clip`) was not applied to
/// command-line errors: `--until`, `--draws`, `--policy` and `--rolls` echoed a 100 KB argument
/// whole, some twice.
#[test]
fn long_arguments_are_cut_in_their_errors() {
    let long = "x".repeat(100_000);
    let run = "rulesets/encounters/crisis-mode.turn";
    let cases: Vec<Vec<String>> = vec![
        vec!["--until".into(), format!("{long}=3")],
        vec!["--until".into(), format!("round={long}")],
        vec!["--until".into(), format!("round={}", "9".repeat(100_000))],
        vec!["--draws".into(), long.clone()],
        vec!["--policy".into(), long.clone()],
        vec!["--policy".into(), format!("{long}=first")],
        vec!["--policy".into(), long.clone(), "--policy".into(), "first".into()],
        vec!["--rolls".into(), format!("1,{long}")],
    ];
    let mut all = String::new();
    for args in &cases {
        let mut argv = vec!["run", run];
        argv.extend(args.iter().map(String::as_str));
        let (_, err, code) = turnscript(&argv, "", &[]);
        assert!(code != 0, "{args:?} ran");
        assert!(err.len() < 1000, "{} bytes of error for {}", err.len(), args[0]);
        all.push_str(&err);
    }
    insta::assert_snapshot!("long_arguments_cut", all);
}

/// Issue 29: an answers file's errors quoted the answer whole (a 4 MB name wrote 8 MB to stderr),
/// and a level's iteration too large was "neither a level ... nor a character or role" where
/// `--until` says "too large".
#[test]
fn answers_file_errors_are_cut_and_say_too_large() {
    let run = "rulesets/encounters/crisis-mode.turn";
    let long = "N".repeat(100_000);
    let answers = [
        format!("round 1, {long}, act: pass\n"),
        format!("round 1, act: {long}\n"),
        format!("{long}: pass\n"),
        format!("round 1, before {long}, Ana: pass\n"),
        "round 99999999999999999999999, act: pass\n".to_string(),
        format!("round {}, act: pass\n", "9".repeat(100_000)),
    ];
    let mut all = String::new();
    for a in &answers {
        let (_, err, code) = turnscript(&["run", run, "--answers", "-", "--until", "round=1"], a, &[]);
        assert!(code != 0, "{a:.100} was taken");
        assert!(err.len() < 1000, "{} bytes of error for {a:.100}", err.len());
        all.push_str(&err);
    }
    insta::assert_snapshot!("answers_errors_cut", all);
}

/// Issue 29: `uses "."` and `uses ""` said "cannot read : No such file or directory"; they are
/// said to be a folder and an empty path, at the `uses` line, by `check`, `run` and `repl`.
#[test]
fn uses_naming_a_folder_or_nothing_is_said_at_the_uses_line() {
    for (file, what) in [
        ("tests/diagnostics/check-uses-folder.turn", "a folder"),
        ("tests/diagnostics/check-uses-empty.turn", "no file"),
    ] {
        for args in [
            vec!["check", file],
            vec!["run", file],
            vec!["repl", file, "--no-autosave"],
        ] {
            let (_, err, code) = turnscript(&args, "", &[]);
            assert_ne!(code, 0, "{args:?}");
            assert!(err.contains("check::uses") && err.contains(what), "{args:?}: {err}");
            assert!(!err.contains("cannot read"), "{args:?}: {err}");
        }
    }
}
