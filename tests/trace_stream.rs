//! The streamed trace: `turnscript run` writes each event to stdout as it happens, byte for byte
//! the trace the in-memory views give; a closed or full stdout ends it without a panic; and the
//! JSON string escaper writes what `serde_json` writes.

use std::io::Read;
use std::process::{Command, Stdio};

mod common;

use common::{CRISIS_MODE, run_texts};
use turnscript::project::RunOptions;
use turnscript::trace::write_json_str;

const CRISIS_MODE_CAST: &str = "rulesets/encounters/crisis-mode.turn";

/// `turnscript run` itself, from the crate's folder (the bundled rulesets are relative to it).
fn turnscript(args: &[&str]) -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_turnscript"));
    cmd.current_dir(env!("CARGO_MANIFEST_DIR")).arg("run").args(args);
    cmd
}

fn read(path: &str) -> String {
    let full = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(path);
    std::fs::read_to_string(&full).unwrap_or_else(|e| panic!("{}: {e}", full.display()))
}

/// What the binary printed for a run, and what the in-memory view gives for the same run.
fn both(opts: &RunOptions, extra: &[&str], jsonl: bool) -> ((String, String, i32), (String, String, i32)) {
    let seed = opts.seed.to_string();
    let mut args = vec![CRISIS_MODE, "--encounter", CRISIS_MODE_CAST, "--seed", &seed];
    args.extend_from_slice(extra);
    args.extend_from_slice(&["--format", if jsonl { "jsonl" } else { "text" }]);
    let out = turnscript(&args).output().expect("turnscript runs");
    let streamed = (
        String::from_utf8(out.stdout).expect("the trace is UTF-8"),
        String::from_utf8(out.stderr).expect("diagnostics are UTF-8"),
        out.status.code().unwrap_or(-1),
    );
    let files = vec![
        (CRISIS_MODE.to_string(), read(CRISIS_MODE)),
        (CRISIS_MODE_CAST.to_string(), read(CRISIS_MODE_CAST)),
    ];
    (streamed, run_texts(&files, Vec::new(), opts, jsonl))
}

#[test]
fn streamed_run_is_the_in_memory_trace() {
    let opts = RunOptions {
        seed: 7,
        until: Some("turn=3".into()),
        ..RunOptions::default()
    };
    for jsonl in [true, false] {
        let ((out, err, code), (mem_out, mem_err, mem_code)) = both(&opts, &["--until", "turn=3"], jsonl);
        assert_eq!(code, 0, "turnscript run failed:\n{err}");
        assert!(out.lines().count() > 50, "a real trace: {out}");
        assert_eq!(out, mem_out, "jsonl: {jsonl}");
        assert_eq!((err, code), (mem_err, mem_code));
    }
}

#[test]
fn a_failed_run_prints_its_trace_up_to_the_error() {
    let opts = RunOptions {
        seed: 7,
        max_steps: 300,
        ..RunOptions::default()
    };
    for jsonl in [true, false] {
        let ((out, err, code), (mem_out, _, mem_code)) = both(&opts, &["--max-steps", "300"], jsonl);
        assert_eq!((code, mem_code), (1, 1), "the step budget stops the run:\n{err}");
        assert!(err.contains("steps"), "{err}");
        assert!(!out.is_empty());
        assert_eq!(out, mem_out, "jsonl: {jsonl}");
    }
}

/// An encounter for crisis-mode with `n` characters, each with its own Finesse (no dice ties).
fn big_cast(n: usize) -> std::path::PathBuf {
    let mut text = String::from("encounter \"Crowd\"\n");
    for i in 0..n {
        text.push_str(&format!("character C{i} {{ finesse = {i} }}\n"));
    }
    let path = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("trace-stream-crowd-{n}.turn"));
    std::fs::write(&path, text).expect("the scratch encounter is written");
    path
}

#[test]
fn a_closed_pipe_ends_the_run_quietly() {
    let cast = big_cast(300);
    let cast = cast.to_str().expect("a UTF-8 path");
    let mut child = turnscript(&[
        CRISIS_MODE,
        "--encounter",
        cast,
        "--until",
        "turn=5",
        "--max-steps",
        "100000000",
        "--format",
        "jsonl",
    ])
    .stdout(Stdio::piped())
    .stderr(Stdio::piped())
    .spawn()
    .expect("turnscript runs");
    // Read a little, as `head -c` would, then close the pipe.
    let mut stdout = child.stdout.take().expect("piped stdout");
    let mut first = [0u8; 100];
    stdout.read_exact(&mut first).expect("the trace starts");
    drop(stdout);
    let mut err = String::new();
    child
        .stderr
        .take()
        .expect("piped stderr")
        .read_to_string(&mut err)
        .expect("stderr is UTF-8");
    let status = child.wait().expect("turnscript ends");
    assert!(first.starts_with(br#"{"event":"encounter_start""#));
    assert_eq!(err, "", "a broken pipe ends quietly");
    assert_eq!(status.code(), Some(0));
}

#[cfg(target_os = "linux")]
#[test]
fn a_full_disk_is_an_error() {
    let Ok(full) = std::fs::OpenOptions::new().write(true).open("/dev/full") else {
        return;
    };
    let out = turnscript(&[CRISIS_MODE, "--encounter", CRISIS_MODE_CAST, "--until", "turn=3"])
        .stdout(full)
        .output()
        .expect("turnscript runs");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.starts_with("error: cannot write the trace: "), "{err}");
    assert!(!err.contains("panicked"), "{err}");
    assert_eq!(out.status.code(), Some(1));
}

/// `write_json_str` against `serde_json::to_string`, byte for byte.
fn same_as_serde(s: &str) {
    let mut ours = Vec::new();
    write_json_str(&mut ours, s).expect("writing into memory cannot fail");
    let theirs = serde_json::to_string(s).expect("a str serialises");
    assert_eq!(String::from_utf8(ours).expect("UTF-8"), theirs, "for {s:?}");
}

#[test]
fn json_strings_are_escaped_as_serde_json_does() {
    let tricky = [
        "",
        "plain",
        "\"quoted\"",
        "back\\slash\\",
        "\\\"",
        "line\nbreak\r\n\ttab",
        "\u{8}\u{c}\u{0}\u{1}\u{1f}\u{7f}",
        "Zoë · ▸ ↳ 漢字 🎲",
        "\u{2028}\u{2029}\u{feff}",
        "end\\",
        "\"",
        "</script>",
    ];
    for s in tricky {
        same_as_serde(s);
    }
    // Every ASCII character alone, and each between non-ASCII neighbours.
    for c in (0u8..=0x7f).map(char::from) {
        same_as_serde(&c.to_string());
        same_as_serde(&format!("é{c}🎲{c}"));
    }
}
