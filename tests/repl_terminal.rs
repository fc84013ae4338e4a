//! The interactive REPL in a real pseudo-terminal, driven through tmux: completion, hints,
//! Ctrl-C, Ctrl-D with the autosave in place, and history that persists across runs.
//! `.ci/run` installs tmux when it is missing.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

struct Tmux {
    socket: String,
}

impl Tmux {
    fn cmd(&self, args: &[&str]) -> String {
        let out = Command::new("tmux")
            .args(["-L", &self.socket])
            .args(args)
            .output()
            .expect("tmux must be installed (.ci/run installs it)");
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

    /// Waits until the pane shows `text`; panics with the pane after 20 seconds.
    fn wait_for(&self, text: &str) -> String {
        let start = Instant::now();
        loop {
            let pane = self.pane();
            if pane.contains(text) {
                return pane;
            }
            if start.elapsed() > Duration::from_secs(20) {
                panic!("the terminal never showed {text:?}; it shows:\n{pane}");
            }
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    fn start(&self, dir: &Path) {
        let root = Path::new(env!("CARGO_MANIFEST_DIR"));
        let command = format!(
            "env TURNSCRIPT_HISTORY={} {} repl {} --encounter {} --seed 7; sleep 30",
            dir.join("history").display(),
            env!("CARGO_BIN_EXE_turnscript"),
            root.join("rulesets/crisis-mode.turn").display(),
            root.join("rulesets/encounters/crisis-mode.turn").display(),
        );
        let dir_s = dir.display().to_string();
        self.cmd(&[
            "new-session",
            "-d",
            "-s",
            "t",
            "-x",
            "160",
            "-y",
            "50",
            "-c",
            &dir_s,
            &command,
        ]);
        self.wait_for("turnscript>");
    }
}

impl Drop for Tmux {
    fn drop(&mut self) {
        self.cmd(&["kill-server"]);
    }
}

#[test]
fn completion_hints_history_and_autosave_in_a_terminal() {
    let dir: PathBuf = Path::new(env!("CARGO_TARGET_TMPDIR")).join("repl-terminal");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch directory");
    let t = Tmux {
        socket: format!("turnscript-test-{}", std::process::id()),
    };
    t.start(&dir);

    // A hint: the usage of the command being typed.
    t.keys(&["und"]);
    t.wait_for("turnscript> undo [N]");
    t.keys(&["C-u"]);
    // Completion of a command, then of one of the ruleset's level names.
    t.keys(&["ste", "Tab"]);
    t.wait_for("turnscript> step");
    t.keys(&[" ro", "Tab"]);
    t.wait_for("turnscript> step round");
    t.keys(&["Enter"]);
    t.wait_for("decision 9: Dmitri decides act");
    // Completion of a character name.
    t.keys(&["remove Co", "Tab"]);
    t.wait_for("turnscript> remove Cole");
    // Ctrl-C cancels the line: nothing runs.
    t.keys(&["C-c"]);
    t.keys(&["show 0", "Enter"]);
    let pane = t.wait_for("pending  Dmitri decides act");
    assert!(!pane.contains("leaves   Cole"), "Ctrl-C ran the line:\n{pane}");
    // A definition spanning lines: the braces are open, so Enter continues it.
    t.keys(&["add character Zed {", "Enter"]);
    t.keys(&["finesse = 3", "Enter"]);
    t.keys(&["}", "Enter"]);
    t.wait_for("joins    Zed");
    // Ctrl-D leaves, with the autosave in place.
    t.keys(&["C-d"]);
    t.wait_for("the session is autosaved in .turnscript-autosave.tsession");
    let autosave = std::fs::read_to_string(dir.join(".turnscript-autosave.tsession")).expect("the autosave");
    assert!(autosave.contains("> \"step round\""), "{autosave}");
    assert!(autosave.contains("character Zed"), "{autosave}");
    let history = std::fs::read_to_string(dir.join("history")).expect("the history file");
    assert!(
        history.contains("step round") && history.contains("show 0"),
        "{history}"
    );

    // History persists: a new run recalls the last command with Up.
    t.cmd(&["kill-session", "-t", "t"]);
    t.start(&dir);
    t.keys(&["Up"]);
    let pane = t.wait_for("turnscript> add character Zed {");
    assert!(pane.contains("finesse = 3"), "the whole definition comes back:\n{pane}");
}
