//! The streamed trace: `turnscript run` writes each event to stdout as it happens, byte for byte
//! the trace the in-memory views give; a closed or full stdout ends it without a panic; and the
//! JSON string escaper writes what `serde_json` writes.

use std::io::{Read, Write};
use std::process::{Command, Stdio};

mod common;

use common::{CRISIS_MODE, run_texts};
use turnscript::project::RunOptions;
use turnscript::trace::{Event, JsonLines, Sink, World, write_json_str};
use turnscript::{Program, Project};

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

/// A long streamed run (1,000 characters, many buffers of stdout) is the in-memory trace.
#[test]
fn a_long_streamed_run_is_the_in_memory_trace() {
    let cast = big_cast(1000);
    let cast = cast.to_str().expect("a UTF-8 path");
    let out = turnscript(&[CRISIS_MODE, "--encounter", cast, "--seed", "3", "--until", "turn=2"])
        .args(["--max-steps", "100000000", "--format", "jsonl"])
        .output()
        .expect("turnscript runs");
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let files = vec![
        (CRISIS_MODE.to_string(), read(CRISIS_MODE)),
        (cast.to_string(), std::fs::read_to_string(cast).expect("the cast")),
    ];
    let opts = RunOptions {
        seed: 3,
        until: Some("turn=2".into()),
        max_steps: 100_000_000,
        ..RunOptions::default()
    };
    let (mem, _, code) = run_texts(&files, Vec::new(), &opts, true);
    assert_eq!(code, 0);
    assert!(
        out.stdout.len() > 4 * 64 * 1024,
        "several buffers: {} bytes",
        out.stdout.len()
    );
    assert!(
        out.stdout == mem.as_bytes(),
        "the streamed trace differs from the in-memory one"
    );
}

/// Names that JSON writes with a backslash, that are not ASCII, and that are long: around the 32 bytes a short
/// name is copied in at once (30 and 31 bytes, 32 and 33 quoted), and far past them.
const ODD_NAMES: [&str; 6] = [
    r"Back\slash",
    "Zoë 漢字 🎲",
    "Ada",
    "abcdefghijklmnopqrstuvwxyz0123",
    "abcdefghijklmnopqrstuvwxyz01234",
    "A name far longer than any copied at once, as long as a sentence that names a whole crew",
];

/// Crisis Mode with a cast of `names`, each with its own Finesse.
fn crisis_with(names: &[&str]) -> Program {
    let mut cast = String::from("encounter \"Names\"\n");
    for (i, n) in names.iter().enumerate() {
        cast.push_str(&format!("character \"{n}\" {{ finesse = {i} }}\n"));
    }
    let files = [
        (CRISIS_MODE.to_string(), read(CRISIS_MODE)),
        ("names.turn".to_string(), cast),
    ];
    Project::load(files)
        .compile()
        .unwrap_or_else(|d| panic!("the cast compiles: {d:?}"))
}

/// Runs `p` for two turns, seed 3, into `sink`.
fn run_into(p: &Program, sink: &mut dyn Sink) {
    let opts = RunOptions {
        seed: 3,
        until: Some("turn=2".into()),
        ..RunOptions::default()
    };
    let mut prepared = opts.prepare(p).expect("turn is a level");
    turnscript::runtime::run(p, &prepared.config, &mut prepared.decider, sink).expect("the run finishes");
}

/// Each event into two JSON views: `once`, as any view is fed a run; and `each`, whose events
/// (after the run's start) come with a copy of the program, at another address, so the names it
/// wrote for the run's program are never given to it: it writes every name from the program.
struct Twice<'a> {
    once: JsonLines,
    each: JsonLines,
    copy: &'a Program,
}

impl Sink for Twice<'_> {
    fn event(&mut self, w: &World<'_>, e: &Event<'_>) {
        self.once.event(w, e);
        let copy = World {
            p: self.copy,
            made: w.made,
            values: w.values,
            types: w.types,
        };
        let started = matches!(e, Event::EncounterStart { .. });
        self.each.event(if started { w } else { &copy }, e);
    }
}

/// The names the JSON view writes once, as a run starts, are the bytes of each name written
/// from the program: characters, decisions, options, actions, fields and roll labels.
#[test]
fn names_written_once_are_the_names_written_from_the_program() {
    let p = crisis_with(&ODD_NAMES);
    let copy = p.clone();
    let mut twice = Twice {
        once: JsonLines::default(),
        each: JsonLines::default(),
        copy: &copy,
    };
    run_into(&p, &mut twice);
    let (once, each) = (twice.once.out(), twice.each.out());
    assert!(once.lines().count() > 50, "a real trace: {once}");
    assert_eq!(once, each);
    for name in ODD_NAMES {
        let mut quoted = Vec::new();
        write_json_str(&mut quoted, name).expect("into memory");
        let actor = format!(r#""actor":{}"#, String::from_utf8(quoted).expect("UTF-8"));
        assert!(once.contains(&actor), "{actor} in {once}");
    }
    for word in [
        r#""decision":"act""#,
        r#""take""#,
        r#""attack""#,
        r#""resource":"ap""#,
        r#""for":"ap""#,
    ] {
        assert!(once.contains(word), "{word}");
    }
}

/// A view fed two runs of one program whose names changed between them (the same program, at
/// the same address) names each run from the program it ran; and an event given to the view by
/// hand once the run is over names from the program as it is then.
#[test]
fn a_view_names_each_run_from_its_own_program() {
    let mut p = crisis_with(&["Ana", "Bo"]);
    let mut view = JsonLines::default();
    run_into(&p, &mut view);
    let first = view.out().len();
    assert!(view.out().contains(r#""actor":"Ana""#));
    p.characters[0].name = "Cyd".into();
    run_into(&p, &mut view);
    let mut fresh = JsonLines::default();
    run_into(&p, &mut fresh);
    assert!(fresh.out().contains(r#""actor":"Cyd""#));
    assert_eq!(&view.out()[first..], fresh.out());
    p.characters[0].name = "Dee".into();
    view.event(&World::of(&p), &Event::TurnStart { actor: 0 });
    assert!(view.out().ends_with("{\"event\":\"turn_start\",\"actor\":\"Dee\"}\n"));
}

/// Each write a writer was given.
struct Writes(Vec<Vec<u8>>);

impl Write for Writes {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.push(buf.to_vec());
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// A buffered view hands its writer whole lines, `batch` bytes or more at a time, and the rest
/// when it is flushed: together, the trace of a view that writes each event as it happens.
#[test]
fn a_buffered_view_writes_whole_lines_in_batches() {
    let p = crisis_with(&ODD_NAMES);
    let mut each = JsonLines::default();
    run_into(&p, &mut each);
    let mut batched = JsonLines::buffered(Writes(Vec::new()), 1000);
    run_into(&p, &mut batched);
    let held = batched.get_ref().0.len();
    assert!(held > 3, "several batches: {held}");
    for w in &batched.get_ref().0 {
        assert!(w.len() >= 1000 && w.ends_with(b"\n"), "{}", String::from_utf8_lossy(w));
    }
    batched.flush().expect("into memory");
    let writes = batched.into_inner().0;
    assert!(
        writes.iter().skip(held).all(|w| w.ends_with(b"\n")),
        "the rest, when flushed"
    );
    assert!(writes.concat() == each.out().as_bytes(), "the batches are the trace");
}
