//! The interactive REPL in a real pseudo-terminal, driven through tmux: completion, hints,
//! Ctrl-C, Ctrl-D with the autosave in place, and history that persists across runs.
//! `.ci/run` installs tmux when it is missing.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

/// One tmux server of this test's own, on a socket in a scratch directory: no other test, user
/// or earlier run shares it, and it is killed and its socket removed when the value is dropped.
struct Tmux {
    dir: PathBuf,
    socket: PathBuf,
}

/// Gives every server its own socket, even within one process.
static SERVERS: AtomicUsize = AtomicUsize::new(0);

impl Tmux {
    /// A new server, running the REPL in the scratch directory `work`; waits for its prompt.
    fn start(work: &Path) -> Tmux {
        let root = Path::new(env!("CARGO_MANIFEST_DIR"));
        let command = format!(
            "env TURNSCRIPT_HISTORY={} {} repl {} --encounter {} --seed 7; sleep 60",
            work.join("history").display(),
            env!("CARGO_BIN_EXE_turnscript"),
            root.join("rulesets/crisis-mode.turn").display(),
            root.join("rulesets/encounters/crisis-mode.turn").display(),
        );
        let t = Tmux::running(work, &command);
        t.ready();
        t
    }

    /// A new server running `command` (a shell command) in `work`, in a 160×50 terminal.
    fn running(work: &Path, command: &str) -> Tmux {
        let n = SERVERS.fetch_add(1, Ordering::SeqCst);
        // Under the system's temporary directory: a socket's path must stay short (108 bytes).
        let dir = std::env::temp_dir().join(format!("turnscript-tmux-{}-{n}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("a directory for the tmux socket");
        let t = Tmux {
            socket: dir.join("socket"),
            dir,
        };
        let work = work.display().to_string();
        t.cmd(&[
            "new-session",
            "-d",
            "-s",
            "t",
            "-x",
            "160",
            "-y",
            "50",
            "-c",
            &work,
            command,
        ]);
        t
    }

    /// Runs a tmux command on this server; panics with its status and stderr if it fails.
    fn try_cmd(&self, args: &[&str]) -> std::io::Result<Output> {
        Command::new("tmux")
            .arg("-S")
            .arg(&self.socket)
            .args(["-f", "/dev/null"])
            .args(args)
            .env("TERM", "xterm-256color")
            .output()
    }

    fn cmd(&self, args: &[&str]) -> String {
        let out = self
            .try_cmd(args)
            .unwrap_or_else(|e| panic!("tmux {args:?} could not start ({e}); .ci/run installs tmux"));
        assert!(
            out.status.success(),
            "tmux {args:?} failed ({}): {}",
            out.status,
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8_lossy(&out.stdout).into_owned()
    }

    fn keys(&self, keys: &[&str]) {
        let mut args = vec!["send-keys", "-t", "t"];
        args.extend_from_slice(keys);
        self.cmd(&args);
    }

    fn pane(&self) -> String {
        self.cmd(&["capture-pane", "-p", "-t", "t"])
    }

    /// The pane with its colours (escape sequences kept).
    fn pane_coloured(&self) -> String {
        self.cmd(&["capture-pane", "-p", "-e", "-t", "t"])
    }

    /// Waits until the pane shows `text`; panics with the pane after 30 seconds.
    fn wait_for(&self, text: &str) -> String {
        self.wait_until(&format!("{text:?}"), |pane| pane.contains(text))
    }

    /// Waits until the REPL waits for a new line: the last line is a bare prompt. Keys sent
    /// before that can be lost (the line editor reads the terminal's answer to its cursor
    /// query as it starts a line, and drops what else it reads), so a test sends keys only to
    /// a prompt it has seen.
    fn ready(&self) -> String {
        self.wait_until("a bare prompt on the last line", |pane| {
            // The prompt says where the fight is: `round 1 · Dmitri>`.
            pane.lines()
                .rev()
                .find(|l| !l.trim().is_empty())
                .map(str::trim_end)
                .is_some_and(|l| l.ends_with('>'))
        })
    }

    /// Types a line, waits to see it echoed, sends Enter, then waits until the REPL is ready for
    /// the next (seeing the echo first keeps the old prompt from passing for the new one).
    fn line(&self, text: &str) -> String {
        self.keys(&[text]);
        self.wait_until(&format!("{text:?} typed"), |pane| {
            pane.lines()
                .rev()
                .find(|l| !l.trim().is_empty())
                .map(str::trim_end)
                .is_some_and(|l| l.ends_with(text))
        });
        self.keys(&["Enter"]);
        self.ready()
    }

    fn wait_until(&self, what: &str, done: impl Fn(&str) -> bool) -> String {
        let start = Instant::now();
        loop {
            let pane = self.pane();
            if done(&pane) {
                return pane;
            }
            if start.elapsed() > Duration::from_secs(30) {
                panic!("the terminal never showed {what}; it shows:\n{pane}");
            }
            std::thread::sleep(Duration::from_millis(25));
        }
    }
}

impl Drop for Tmux {
    fn drop(&mut self) {
        // The server may be gone already; either way the socket and its directory go.
        let _ = self.try_cmd(&["kill-server"]);
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

#[test]
fn completion_hints_history_and_autosave_in_a_terminal() {
    let dir: PathBuf = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("repl-terminal-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch directory");
    let t = Tmux::start(&dir);
    // The prompt says where the fight is.
    t.wait_for("round 1 · Dmitri>");

    // A hint: the usage of the command being typed.
    t.keys(&["und"]);
    t.wait_for("Dmitri> undo [N]");
    t.keys(&["C-u"]);
    // Completion of a command, then of one of the ruleset's level names.
    t.keys(&["ste", "Tab"]);
    t.wait_for("Dmitri> step");
    t.keys(&[" ro", "Tab"]);
    t.wait_for("Dmitri> step round");
    t.keys(&["Enter"]);
    t.wait_for("decision 9: Dmitri decides act");
    t.ready();
    // Completion of a character name.
    t.keys(&["remove Co", "Tab"]);
    t.wait_for("Dmitri> remove Cole");
    // Ctrl-C cancels the line: nothing runs.
    t.keys(&["C-c"]);
    t.ready();
    let pane = t.line("show 0");
    assert!(pane.contains("pending  Dmitri decides act"), "{pane}");
    assert!(!pane.contains("leaves   Cole"), "Ctrl-C ran the line:\n{pane}");
    // Several candidates: Tab completes what they share, and a second Tab lists them all
    // (rather than cycling through them inline).
    t.keys(&["answer ", "Tab", "Tab"]);
    // The listing: the options side by side on a line of their own (the decision's line has
    // `·` between them, the trace's `|`).
    t.wait_until("the options listed", |pane| {
        pane.lines().any(|l| {
            ["move", "attack", "defend", "power", "pass"]
                .iter()
                .all(|o| l.contains(o))
                && !l.contains(['·', '|'])
        })
    });
    t.keys(&["C-u"]);
    // A definition spanning lines: the braces are open, so Enter continues it.
    t.keys(&["add character Zed {", "Enter"]);
    t.keys(&["finesse = 3", "Enter"]);
    let pane = t.line("}");
    assert!(pane.contains("joins    Zed"), "{pane}");
    // Ctrl-D leaves, with the autosave in place.
    t.keys(&["C-d"]);
    t.wait_for("the session is autosaved in .turnscript-autosave-crisis-mode.tsession");
    let autosave =
        std::fs::read_to_string(dir.join(".turnscript-autosave-crisis-mode.tsession")).expect("the autosave");
    assert!(autosave.contains("> \"step round\""), "{autosave}");
    assert!(autosave.contains("character Zed"), "{autosave}");
    let history = std::fs::read_to_string(dir.join("history")).expect("the history file");
    assert!(
        history.contains("step round") && history.contains("show 0"),
        "{history}"
    );

    // History persists: a new run (a new terminal, on a server of its own) recalls the last
    // command with Up.
    drop(t);
    let t = Tmux::start(&dir);
    t.keys(&["Up"]);
    let pane = t.wait_for("Dmitri> add character Zed {");
    assert!(pane.contains("finesse = 3"), "the whole definition comes back:\n{pane}");
    drop(t);
    let _ = std::fs::remove_dir_all(&dir);
}

/// On a terminal, colour is on unless `NO_COLOR` is set (or `--color never`): for diagnostics and
/// for the REPL's prompt and views.
#[test]
fn no_color_turns_colour_off_in_a_terminal() {
    let dir: PathBuf = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("no-color-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch directory");
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let bin = env!("CARGO_BIN_EXE_turnscript");
    let bad = root.join("tests/diagnostics/check-arity.turn");
    let rules = root.join("rulesets/encounters/legends.turn");
    for (env, flag, coloured) in [
        ("", "", true),
        ("NO_COLOR=1", "", false),
        ("", "--color never", false),
        ("NO_COLOR=1", "--color always", true),
    ] {
        let check = format!("env {env} {bin} {flag} check {}; echo checked; sleep 60", bad.display());
        let t = Tmux::running(&dir, &check);
        t.wait_for("checked");
        let pane = t.pane_coloured();
        assert_eq!(
            pane.contains("\x1b["),
            coloured,
            "check with `{env}` `{flag}`:\n{pane:?}"
        );
        drop(t);
        let repl = format!(
            "env TURNSCRIPT_HISTORY={} {env} {bin} {flag} repl {} --no-autosave; sleep 60",
            dir.join("history").display(),
            rules.display()
        );
        let t = Tmux::running(&dir, &repl);
        t.ready();
        let pane = t.pane_coloured();
        assert_eq!(
            pane.contains("\x1b[1m"),
            coloured,
            "the REPL with `{env}` `{flag}`:\n{pane:?}"
        );
        drop(t);
    }
    let _ = std::fs::remove_dir_all(&dir);
}
