//! The REPL's command handling: each line of the input is a command to a session on the bundled
//! Legends example; none may panic.
#![no_main]

use libfuzzer_sys::fuzz_target;
use turnscript::repl::{Options, Repl};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let opts = Options {
        ruleset: Some(root.join("rulesets/legends.turn")),
        encounter: Some(root.join("rulesets/encounters/legends.turn")),
        seed: 0,
        autosave: None,
        colour: Some(false),
        width: 0,
    };
    turnscript::runtime::on_run_stack(|| {
        let Ok((mut repl, _)) = Repl::new(opts) else {
            return;
        };
        // Commands that write files are left out: the fuzzer must not fill the disk.
        for line in text.lines().take(64) {
            let head = line.split_whitespace().next().unwrap_or("");
            if matches!(head, "save" | "load" | "autosave") {
                continue;
            }
            let _ = repl.exec(line);
        }
    });
});
