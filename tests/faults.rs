//! Fault injection for every command that writes: standard output or error on `/dev/full` or on a
//! pipe whose reader is gone, unwritable folders, a link planted at the temporary name, and a
//! full disk (a small tmpfs, where this machine lets us mount one; the test says so and is
//! skipped where it does not). Each case checks the exit status (never 101, a panic), the message
//! and that the user's file is intact.
#![cfg(target_os = "linux")]

mod common;

use std::ffi::OsStr;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};

const LEGENDS: &str = "rulesets/legends.turn";
const LEGENDS_CAST: &str = "rulesets/encounters/legends.turn";

/// Where a stream of the child goes.
#[derive(Clone, Copy, PartialEq, Eq)]
enum To {
    /// Read back by the test.
    Kept,
    /// `/dev/full`: every write fails with "No space left on device".
    Full,
    /// A pipe whose reader was closed before the child started: every write fails (EPIPE).
    Closed,
}

fn stream(to: To) -> Stdio {
    match to {
        To::Kept => Stdio::piped(),
        To::Full => std::fs::OpenOptions::new()
            .write(true)
            .open("/dev/full")
            .expect("/dev/full")
            .into(),
        To::Closed => {
            let (reader, writer) = std::io::pipe().expect("a pipe");
            drop(reader);
            writer.into()
        }
    }
}

/// What a finished command left: its exit code, stdout and stderr (when kept).
struct Done {
    code: Option<i32>,
    out: String,
    err: String,
}

/// Runs turnscript in `dir` with `args`, `input` on stdin, stdout and stderr as told.
fn turnscript<S: AsRef<OsStr>>(dir: &Path, args: &[S], input: &str, out: To, err: To) -> Done {
    let mut child = Command::new(env!("CARGO_BIN_EXE_turnscript"))
        .current_dir(dir)
        .args(args)
        .env("NO_COLOR", "1")
        .stdin(Stdio::piped())
        .stdout(stream(out))
        .stderr(stream(err))
        .spawn()
        .expect("turnscript starts");
    if let Some(mut stdin) = child.stdin.take() {
        // A child that ended early has closed its end: that is its answer, not the test's error.
        let _ = stdin.write_all(input.as_bytes());
    }
    let o = child.wait_with_output().expect("turnscript ends");
    Done {
        code: o.status.code(),
        out: String::from_utf8_lossy(&o.stdout).into_owned(),
        err: String::from_utf8_lossy(&o.stderr).into_owned(),
    }
}

/// The repository's root, where the bundled files are.
fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// A fresh scratch folder under the target folder.
fn scratch(name: &str) -> PathBuf {
    common::scratch("faults", name)
}

/// A failed write ends with status 1 and says so on stderr, never a panic.
fn says_cannot_write(d: &Done, what: &str) {
    assert!(!d.err.contains("panicked"), "a panic: {}", d.err);
    assert!(
        d.err.contains(&format!("error: cannot write {what}")),
        "expected `error: cannot write {what}` on stderr, got: {}",
        d.err
    );
    assert_eq!(d.code, Some(1), "stderr: {}", d.err);
}

/// With stderr gone nothing can be said: the status alone is 1, never 101 (a panic) or 0.
fn fails_quietly(d: &Done) {
    assert_eq!(d.code, Some(1), "stdout: {}", d.out);
}

// ---- standard output and standard error ------------------------------------------------------

#[test]
fn the_repl_with_stdout_full_or_closed_says_so_and_exits_1() {
    for to in [To::Full, To::Closed] {
        let d = turnscript(
            &root(),
            &["repl", LEGENDS, "--encounter", LEGENDS_CAST, "--no-autosave"],
            "show\nstep\n",
            to,
            To::Kept,
        );
        says_cannot_write(&d, "to standard output");
    }
}

#[test]
fn the_repl_with_stderr_full_or_closed_exits_1() {
    for to in [To::Full, To::Closed] {
        // A refused command writes its error to stderr.
        let d = turnscript(
            &root(),
            &["repl", LEGENDS, "--encounter", LEGENDS_CAST, "--no-autosave"],
            "frobnicate\n",
            To::Kept,
            to,
        );
        fails_quietly(&d);
    }
}

#[test]
fn completions_and_man_on_a_full_stdout_say_so_and_exit_1() {
    for args in [
        &["completions", "bash"][..],
        &["man"],
        &["--help"],
        &["check", "--help"],
    ] {
        let d = turnscript(&root(), args, "", To::Full, To::Kept);
        says_cannot_write(&d, "to standard output");
    }
}

#[test]
fn check_with_stderr_full_or_closed_exits_1() {
    let dir = scratch("check-stderr");
    std::fs::write(dir.join("bad.turn"), "ruleset \"x\"\nparam p = nowhere\n").expect("a file");
    for to in [To::Full, To::Closed] {
        let d = turnscript(&dir, &["check", "bad.turn"], "", To::Kept, to);
        fails_quietly(&d);
    }
}

#[test]
fn fmt_with_stderr_full_exits_1() {
    let dir = scratch("fmt-stderr");
    std::fs::write(dir.join("bad.turn"), "ruleset {{{\n").expect("a file");
    let d = turnscript(&dir, &["fmt", "bad.turn"], "", To::Kept, To::Full);
    fails_quietly(&d);
}

#[test]
fn sim_with_stderr_full_or_closed_exits_1() {
    for to in [To::Full, To::Closed] {
        let d = turnscript(&root(), &["sim", LEGENDS_CAST, "-n", "2"], "", To::Kept, to);
        assert!(d.out.contains("encounters"), "the report is written: {}", d.out);
        fails_quietly(&d);
    }
}

#[test]
fn sim_with_a_full_stdout_says_so_and_exits_1() {
    let d = turnscript(&root(), &["sim", LEGENDS_CAST, "-n", "2"], "", To::Full, To::Kept);
    says_cannot_write(&d, "the report");
}

#[test]
fn sim_that_cannot_start_its_threads_says_so() {
    // An address space too small for a run stack: the thread cannot be made.
    without_room(&format!("sim {LEGENDS_CAST} -n 4"), "error: cannot start");
}

// ---- fmt's read -----------------------------------------------------------------------------

#[test]
fn fmt_refuses_a_device_a_fifo_and_a_file_past_the_source_limit() {
    let dir = scratch("fmt-read");
    let fifo = dir.join("pipe.turn");
    let made = Command::new("mkfifo").arg(&fifo).status().expect("mkfifo runs");
    assert!(made.success());
    let big = dir.join("big.turn");
    let file = std::fs::File::create(&big).expect("a file");
    // Sparse: 100 MB that take no disk.
    file.set_len(100 * 1024 * 1024).expect("a sparse file");
    for (path, says) in [
        ("/dev/zero", "not a file"),
        (fifo.to_str().expect("UTF-8"), "not a file"),
        (big.to_str().expect("UTF-8"), "larger than the limit"),
    ] {
        let d = turnscript(&dir, &["fmt", path], "", To::Kept, To::Kept);
        assert!(
            d.err.contains(&format!("error: cannot read {path}")),
            "{path}: {}",
            d.err
        );
        assert!(d.err.contains(says), "{path}: {}", d.err);
        assert_eq!(d.code, Some(1), "{path}: {}", d.err);
    }
    assert_eq!(std::fs::metadata(&big).expect("still there").len(), 100 * 1024 * 1024);
}

// ---- a full disk, a read-only folder -------------------------------------------------------

/// A small tmpfs mounted for one test, unmounted when dropped.
struct Tmpfs(PathBuf);

impl Tmpfs {
    /// A tmpfs of `kib` KiB at a scratch folder, or `None` (the reason printed) where this
    /// machine refuses to mount one: the test is then skipped, saying so.
    fn mount(name: &str, kib: u32) -> Option<Tmpfs> {
        let dir = scratch(name);
        let mounted = Command::new("mount")
            .args(["-t", "tmpfs", "-o", &format!("size={kib}k"), "tmpfs"])
            .arg(&dir)
            .output();
        match mounted {
            Ok(o) if o.status.success() => Some(Tmpfs(dir)),
            Ok(o) => {
                eprintln!(
                    "skipped: cannot mount a tmpfs here ({}): the full-disk case is not tested",
                    String::from_utf8_lossy(&o.stderr).trim()
                );
                None
            }
            Err(e) => {
                eprintln!("skipped: cannot run mount ({e}): the full-disk case is not tested");
                None
            }
        }
    }

    /// Fills what is left of it with one file.
    fn fill(&self) {
        let mut f = std::fs::File::create(self.0.join("filler")).expect("a filler file");
        let block = vec![0u8; 4096];
        while f.write_all(&block).is_ok() {}
    }

    /// Makes it read-only.
    fn read_only(&self) {
        let done = Command::new("mount")
            .args(["-o", "remount,ro"])
            .arg(&self.0)
            .status()
            .expect("mount runs");
        assert!(done.success(), "remount read-only");
    }

    /// The files in it whose names end in `.tmp`.
    fn temporaries(&self) -> Vec<String> {
        std::fs::read_dir(&self.0)
            .expect("the tmpfs")
            .flatten()
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .filter(|n| n.ends_with(".tmp"))
            .collect()
    }
}

impl Drop for Tmpfs {
    fn drop(&mut self) {
        let _ = Command::new("umount").arg(&self.0).status();
    }
}

/// The bundled Legends ruleset and encounter, by absolute path.
fn legends() -> (String, String) {
    (
        root().join(LEGENDS).display().to_string(),
        root().join(LEGENDS_CAST).display().to_string(),
    )
}

/// The arguments of a REPL at the Legends table autosaving to `fight.tsession` in the folder it
/// runs in.
fn autosaving() -> [String; 6] {
    let (rules, cast) = legends();
    ["repl", &rules, "--encounter", &cast, "--autosave", "fight.tsession"].map(String::from)
}

/// The REPL at the Legends table autosaving to `fight.tsession` in `dir`, started with its stdin
/// and stdout piped and stderr as given.
fn spawn_autosaving(dir: &Path, stderr: Stdio) -> Child {
    Command::new(env!("CARGO_BIN_EXE_turnscript"))
        .current_dir(dir)
        .args(autosaving())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(stderr)
        .spawn()
        .expect("turnscript starts")
}

/// `burst` written to the child's stdin on a thread of its own. The child may end (a signal)
/// before it reads all of it: the rest has no reader, and that is not an error.
fn feed(child: &mut Child, burst: String) -> std::thread::JoinHandle<()> {
    let mut stdin = child.stdin.take().expect("stdin");
    std::thread::spawn(move || {
        let _ = stdin.write_all(burst.as_bytes());
    })
}

/// The REPL autosaving on `disk` (a full one) given `input`: the autosave cannot be written.
/// It says so, exits 1, claims no save, and leaves no temporary file.
fn autosave_refused(disk: &Tmpfs, input: &str) {
    let d = turnscript(&disk.0, &autosaving(), input, To::Kept, To::Kept);
    assert!(
        d.err.contains("error: cannot write the autosave fight.tsession"),
        "{}",
        d.err
    );
    assert!(
        !d.out.contains("autosaved in"),
        "a claim of a save that failed: {}",
        d.out
    );
    assert_eq!(d.code, Some(1), "{}", d.err);
    assert_eq!(disk.temporaries(), Vec::<String>::new());
}

#[test]
fn an_autosave_on_a_full_disk_is_refused_at_the_start() {
    let Some(disk) = Tmpfs::mount("autosave-full-start", 64) else {
        return;
    };
    disk.fill();
    autosave_refused(&disk, "step\n");
}

#[test]
fn an_autosave_that_stops_fitting_is_an_error_and_claims_nothing() {
    // Room for the start and a few commands, not for a long fight.
    let Some(disk) = Tmpfs::mount("autosave-full-later", 8) else {
        return;
    };
    autosave_refused(&disk, "step\nauto all\ncontinue until round=40\n");
    // The last autosave that fitted is whole.
    let kept = std::fs::read_to_string(disk.0.join("fight.tsession")).expect("the last autosave");
    assert!(
        kept.starts_with("turnscript session 1\n") && kept.contains("> \"auto all\""),
        "{kept}"
    );
    // The command that did not fit was appended in part and cut back off: the file ends in the
    // blank line after a whole command.
    assert!(kept.ends_with("\n\n"), "{kept}");
}

// ---- temporary files ------------------------------------------------------------------------

/// The id of a process that has ended (and been reaped).
fn dead_pid() -> u32 {
    let mut child = Command::new("true").spawn().expect("true runs");
    let pid = child.id();
    child.wait().expect("true ends");
    pid
}

#[test]
fn stale_temporary_files_of_dead_sessions_are_removed_at_the_start_and_only_they() {
    let dir = scratch("stale-temporaries");
    let dead = dead_pid();
    let stale = format!(".fight.tsession.{dead}.tmp");
    // Kept: a live process's (this test's), a name that is no PID's, another file's, a plain file.
    let kept = [
        format!(".fight.tsession.{}.tmp", std::process::id()),
        ".fight.tsession.x1.tmp".to_string(),
        format!(".other.tsession.{dead}.tmp"),
        format!("fight.tsession.{dead}.tmp"),
        format!(".fight.tsession.{dead}.tmp.keep"),
    ];
    for name in kept.iter().chain([&stale]) {
        std::fs::write(dir.join(name), "partial").expect("a file");
    }
    let d = turnscript(&dir, &autosaving(), "quit\n", To::Kept, To::Kept);
    assert_eq!(d.code, Some(0), "{}", d.err);
    assert!(!dir.join(&stale).exists(), "the dead session's temporary file is left");
    for name in &kept {
        assert!(dir.join(name).exists(), "{name} was removed");
    }
}

#[test]
fn a_link_planted_at_the_temporary_name_is_not_written_through() {
    let dir = scratch("planted-link");
    let victim = dir.join("victim.txt");
    std::fs::write(&victim, "the victim's text").expect("a file");
    let target = dir.join("fight.tsession");
    std::fs::write(&target, "old").expect("a file");
    // The name this process would write its temporary file under.
    let tmp = turnscript::files::temp_beside(&target);
    std::os::unix::fs::symlink(&victim, &tmp).expect("a link");
    turnscript::files::write_whole(&target, "new").expect("written");
    assert_eq!(
        std::fs::read_to_string(&victim).expect("the victim"),
        "the victim's text"
    );
    assert_eq!(std::fs::read_to_string(&target).expect("the file"), "new");
    assert!(std::fs::symlink_metadata(&tmp).is_err(), "the link is gone");
}

// ---- signals --------------------------------------------------------------------------------

/// A burst of piped commands, then SIGTERM or SIGHUP once `after` were answered: the autosave
/// holds every command the REPL answered.
fn signal_during_a_burst(name: &str, signal: &str, after: usize) {
    use std::io::{BufRead, BufReader};
    let dir = scratch(name);
    let mut child = spawn_autosaving(&dir, Stdio::piped());
    let burst: String = (0..40_000)
        .map(|i| format!("set Kessa.dex = {}\n", i % 9 + 1))
        .collect();
    // The REPL ends on the signal: the rest of the burst has no reader.
    let writer = feed(&mut child, burst);
    let pid = child.id().to_string();
    let mut answered = 0;
    let mut signalled = false;
    for line in BufReader::new(child.stdout.take().expect("stdout")).lines() {
        let Ok(line) = line else { break };
        if line.starts_with("manual ") {
            answered += 1;
        }
        if answered == after && !signalled {
            let sent = Command::new("kill")
                .args(["-s", signal, &pid])
                .status()
                .expect("kill runs");
            assert!(sent.success());
            signalled = true;
        }
    }
    let status = child.wait().expect("turnscript ends");
    let _ = writer.join();
    assert!(signalled, "the burst ended before the signal ({answered} answered)");
    assert!(answered < 40_000, "the signal did not stop the REPL");
    let saved = std::fs::read_to_string(dir.join("fight.tsession")).expect("the autosave");
    let logged = saved.lines().filter(|l| l.starts_with("> \"set Kessa.dex")).count();
    assert_eq!(
        logged, answered,
        "answered {answered}, autosaved {logged}; status {status:?}"
    );
    assert!(!status.success(), "a signal is not a success: {status:?}");
}

#[test]
fn sigterm_during_a_burst_keeps_every_answered_command() {
    signal_during_a_burst("sigterm", "TERM", 2000);
}

#[test]
fn sighup_during_a_burst_keeps_every_answered_command() {
    signal_during_a_burst("sighup", "HUP", 3000);
}

#[test]
fn sigterm_while_the_repl_waits_for_input_ends_it_with_everything_written() {
    use std::io::{BufRead, BufReader};
    let dir = scratch("sigterm-waiting");
    let mut child = spawn_autosaving(&dir, Stdio::null());
    // Kept open: the REPL waits for more.
    let mut stdin = child.stdin.take().expect("stdin");
    stdin
        .write_all(b"set Kessa.dex = 4\nset Kessa.dex = 5\nshow\n")
        .expect("written");
    let mut lines = BufReader::new(child.stdout.take().expect("stdout")).lines();
    let mut answered = 0;
    while answered < 2 {
        let line = lines.next().expect("a line").expect("UTF-8");
        answered += usize::from(line.starts_with("manual "));
    }
    // `show` answered too: the REPL is at its next read, or about to be.
    while !lines.next().expect("a line").expect("UTF-8").starts_with("> show") {}
    let sent = Command::new("kill")
        .args(["-s", "TERM", &child.id().to_string()])
        .status();
    assert!(sent.expect("kill runs").success());
    let status = child.wait().expect("turnscript ends");
    drop(stdin);
    assert_eq!(status.code(), Some(143), "{status:?}");
    let saved = std::fs::read_to_string(dir.join("fight.tsession")).expect("the autosave");
    assert_eq!(saved.lines().filter(|l| l.starts_with("> \"set")).count(), 2, "{saved}");
}

// ---- every command that writes a file, on a full disk and in a read-only folder --------------

/// The files the commands below would replace, with the text they hold.
const KEPT: [(&str, &str); 3] = [
    ("fight.svg", "the old plot\n"),
    ("saved.tsession", "the old session\n"),
    ("enc.turn", "the old encounter\n"),
];

/// Runs every command that writes a file in `disk` (full or read-only): each fails with status 1
/// and `error: cannot write F` (`the autosave F`), every file is as it was, and no temporary file is left.
fn every_writer_fails_cleanly(disk: &Tmpfs, break_it: impl Fn(&Tmpfs)) {
    let (rules, cast) = legends();
    // Not in the canonical layout: `fmt` would rewrite it.
    let unformatted = std::fs::read_to_string(&rules)
        .expect("the ruleset")
        .replace("\n\n", "\n\n\n");
    std::fs::write(disk.0.join("rules.turn"), &unformatted).expect("a file");
    for (name, text) in KEPT {
        std::fs::write(disk.0.join(name), text).expect("a file");
    }
    break_it(disk);
    let cases: [(&[&str], &str, &str); 6] = [
        (&["fmt", "rules.turn"], "", "rules.turn"),
        (
            &["repl", &rules, "--encounter", &cast, "--autosave", "auto.tsession"],
            "step\n",
            "the autosave auto.tsession",
        ),
        (&["sim", &cast, "-n", "2", "--plot", "fight.svg"], "", "fight.svg"),
        (
            &["repl", &rules, "--encounter", &cast, "--no-autosave"],
            "step\nsave saved.tsession\n",
            "saved.tsession",
        ),
        (
            &["new", "encounter", "--uses", &rules, "--out", "enc.turn", "--force"],
            "",
            "enc.turn",
        ),
        (
            &["new", "encounter", "--uses", &rules, "--out", "fresh.turn"],
            "",
            "fresh.turn",
        ),
    ];
    for (args, input, file) in cases {
        says_cannot_write(&turnscript(&disk.0, args, input, To::Kept, To::Kept), file);
    }
    assert_eq!(
        std::fs::read_to_string(disk.0.join("rules.turn")).expect("kept"),
        unformatted
    );
    for (name, text) in KEPT {
        assert_eq!(
            std::fs::read_to_string(disk.0.join(name)).expect("kept"),
            text,
            "{name}"
        );
    }
    assert!(!disk.0.join("fresh.turn").exists(), "a half-written new file");
    assert!(!disk.0.join("auto.tsession").exists(), "a half-written autosave");
    assert_eq!(disk.temporaries(), Vec::<String>::new());
}

#[test]
fn every_writer_on_a_full_disk_fails_and_keeps_the_files() {
    if let Some(disk) = Tmpfs::mount("writers-full", 256) {
        every_writer_fails_cleanly(&disk, Tmpfs::fill);
    }
}

#[test]
fn every_writer_in_a_read_only_folder_fails_and_keeps_the_files() {
    if let Some(disk) = Tmpfs::mount("writers-read-only", 256) {
        every_writer_fails_cleanly(&disk, Tmpfs::read_only);
    }
}

#[test]
fn documents_on_stdout_to_a_full_disk_fail_and_to_a_closed_pipe_end_quietly() {
    let (rules, cast) = legends();
    let cases: [(&[&str], &str); 5] = [
        (&["run", &cast, "--until", "round=2"], "the trace"),
        (&["fmt", "-"], "the formatted text"),
        (&["new", "encounter", "--uses", &rules], "to standard output"),
        (&["completions", "zsh"], "to standard output"),
        (&["man"], "to standard output"),
    ];
    let ruleset = std::fs::read_to_string(&rules).expect("the ruleset");
    for (args, what) in cases {
        let input = if args[0] == "fmt" { ruleset.as_str() } else { "" };
        let d = turnscript(&root(), args, input, To::Full, To::Kept);
        says_cannot_write(&d, what);
        if args[0] != "fmt" {
            // `... | head`: the reader is done; no error.
            let d = turnscript(&root(), args, input, To::Closed, To::Kept);
            assert_eq!((d.code, d.err.as_str()), (Some(0), ""), "{args:?}");
        }
    }
}

/// `turnscript ARGS` in an address space too small for the run stack: the thread cannot be
/// made, and it says so with status 1, never a panic.
fn without_room_for_the_run_thread(args: &str) {
    without_room(args, "error: cannot start the run thread");
}

/// `turnscript ARGS` in an address space too small for a run stack: it `says` so on stderr with
/// status 1, never a panic.
fn without_room(args: &str, says: &str) {
    let bin = env!("CARGO_BIN_EXE_turnscript");
    let o = Command::new("sh")
        .current_dir(root())
        .arg("-c")
        .arg(format!("ulimit -v 200000 && exec {bin} {args}"))
        .output()
        .expect("sh runs");
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(!err.contains("panicked"), "{args}: a panic: {err}");
    assert!(err.contains(says), "{args}: {err}");
    assert_eq!(o.status.code(), Some(1), "{args}: {err}");
}

#[test]
fn a_repl_that_cannot_start_its_run_thread_says_so() {
    without_room_for_the_run_thread(&format!("repl {LEGENDS_CAST} --no-autosave < /dev/null"));
}

#[test]
fn a_run_that_cannot_start_its_run_thread_says_so() {
    without_room_for_the_run_thread(&format!("run {LEGENDS_CAST} --until round=1"));
}

/// The library's `turnscript::run` in an address space too small for the run stack: an error
/// with its code and help, never a panic. The test binary runs this same test again as the child
/// (`TURNSCRIPT_FAULTS_CHILD`), under `ulimit -v`.
#[test]
fn the_library_run_that_cannot_start_its_thread_returns_an_error() {
    if std::env::var_os("TURNSCRIPT_FAULTS_CHILD").is_some() {
        let files = [LEGENDS, LEGENDS_CAST].map(|p| (p, common::read_bundled(p)));
        let program = turnscript::Project::load(files).compile().expect("it compiles");
        let config = turnscript::RunConfig::default();
        let mut decider = turnscript::runtime::decide::Policy::new(turnscript::compile::PolicyRef::First, 0);
        let mut sink = turnscript::trace::JsonLines::default();
        match turnscript::run(&program, &config, &mut decider, &mut sink) {
            Ok(_) => println!("CHILD: it ran"),
            Err(d) => println!("CHILD: {} {} / {}", d.code, d.message, d.help.unwrap_or_default()),
        }
        return;
    }
    let me = std::env::current_exe().expect("this test's binary");
    let o = Command::new("sh")
        .current_dir(root())
        .env("TURNSCRIPT_FAULTS_CHILD", "1")
        .arg("-c")
        .arg(format!(
            "ulimit -v 200000 && exec {} --exact the_library_run_that_cannot_start_its_thread_returns_an_error --nocapture --test-threads 1",
            me.display()
        ))
        .output()
        .expect("sh runs");
    let (out, err) = (String::from_utf8_lossy(&o.stdout), String::from_utf8_lossy(&o.stderr));
    assert!(
        !err.contains("panicked") && !out.contains("panicked"),
        "a panic: {out}{err}"
    );
    assert!(
        out.contains("CHILD: run::thread cannot start the run thread: ") && out.contains("/ free memory"),
        "{out}{err}"
    );
}

/// A burst of piped commands mixing changes with undos and redos, then SIGKILL once `after`
/// commands were echoed: every command whose reply was printed is in the autosave (the kill
/// gives the REPL no chance to write what it was deferring). No timing is asserted: the commands
/// answered on stdout are compared with the file, wherever the kill lands.
#[test]
fn sigkill_during_a_burst_with_undos_loses_no_answered_command() {
    use std::io::{BufRead, BufReader};
    let dir = scratch("sigkill-undo");
    let mut child = spawn_autosaving(&dir, Stdio::null());
    // Three changes and an undo, over and over (a redo now and then): after each undo the file
    // must be written whole before the next change is answered.
    let commands: Vec<String> = (0..20_000)
        .map(|i| match i % 9 {
            3 | 7 => "undo".to_string(),
            8 if i % 27 == 8 => "redo".to_string(),
            _ => format!("set Kessa.dex = {}", i % 9 + 1),
        })
        .collect();
    let burst: String = commands.iter().map(|c| format!("{c}\n")).collect();
    // The REPL is killed: the rest of the burst has no reader.
    let writer = feed(&mut child, burst);
    let mut echoed = 0;
    let mut killed = false;
    for line in BufReader::new(child.stdout.take().expect("stdout")).lines() {
        let Ok(line) = line else { break };
        if line.starts_with("> ") {
            echoed += 1;
        }
        if echoed == 1500 && !killed {
            child.kill().expect("SIGKILL sent");
            killed = true;
        }
    }
    let _ = child.wait();
    let _ = writer.join();
    assert!(killed, "the burst ended before the kill ({echoed} echoed)");
    // A command is echoed before it runs: the last one echoed may not have been answered.
    let answered = &commands[..echoed - 1];
    let saved = std::fs::read_to_string(dir.join("fight.tsession")).expect("the autosave");
    let in_file: Vec<String> = saved
        .lines()
        .take_while(|l| *l != "redo")
        .filter_map(|l| l.strip_prefix("> "))
        .map(|l| serde_json::from_str(l).expect("a command line"))
        .collect();
    // The session those commands make; an undo or a redo answered last may still be waiting to be
    // written (docs/repl.md says so), never a change.
    let in_play = |cmds: &[String]| {
        let (mut log, mut cursor) = (Vec::<String>::new(), 0usize);
        for c in cmds {
            match c.as_str() {
                "undo" => cursor = cursor.saturating_sub(1),
                "redo" => cursor = (cursor + 1).min(log.len()),
                _ => {
                    log.truncate(cursor);
                    log.push(c.clone());
                    cursor += 1;
                }
            }
        }
        log.truncate(cursor);
        log
    };
    let last_change = answered
        .iter()
        .rposition(|c| c.starts_with("set "))
        .expect("a change answered");
    let fits = (last_change + 1..=answered.len()).any(|n| in_play(&answered[..n]) == in_file);
    assert!(
        fits,
        "answered {} commands ({} in play), the autosave holds {} in play",
        answered.len(),
        in_play(answered).len(),
        in_file.len()
    );
}
