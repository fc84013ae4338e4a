//! Session files: each input is a session file, loaded by the REPL (`load`) beside copies of the
//! bundled Legends ruleset and encounter (`rules.turn`, `encounter.turn`, the names the seeds in
//! fuzz/seeds/session/ use), then stepped through its undone commands and back; none may panic.
#![no_main]

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use libfuzzer_sys::fuzz_target;
use turnscript::repl::{Options, Repl};

/// A folder of this process's own, with the two files a session names.
fn folder() -> &'static PathBuf {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
        let dir = std::env::temp_dir().join(format!("turnscript-fuzz-session-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("a temporary folder");
        std::fs::copy(root.join("rulesets/legends.turn"), dir.join("rules.turn")).expect("the ruleset");
        std::fs::copy(root.join("rulesets/encounters/legends.turn"), dir.join("encounter.turn")).expect("the encounter");
        dir
    })
}

fuzz_target!(|data: &[u8]| {
    let file = folder().join("s.tsession");
    if std::fs::write(&file, data).is_err() {
        return;
    }
    let opts = Options {
        ruleset: None,
        encounter: None,
        seed: 0,
        autosave: None,
        colour: Some(false),
        width: 0,
    };
    turnscript::runtime::on_run_stack(|| {
        let Ok((mut repl, _)) = Repl::new(opts) else {
            return;
        };
        let reply = repl.exec(&format!("load {}", file.display()));
        if !reply.error {
            for line in ["redo 1000", "log", "show", "undo 3", "step"] {
                let _ = repl.exec(line);
            }
        }
    });
});
