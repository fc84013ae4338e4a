//! What one REPL command costs as the session grows: a `set` after 10, 1,000 and 5,000 earlier
//! commands on the Legends example (`auto foes` first). A command goes on from where the run
//! waits, so the cost should not grow with the log; a replay of the whole log per command would
//! grow with it.
//!
//! `set_after`: no autosave. `set_after_autosaved`: with the autosave on, each command followed
//! by what the REPL does before its next prompt (`flush_autosave`), so the bench measures what a
//! command typed at human pace costs, the autosave's write included, and not only the path that
//! defers the write while piped commands come fast. Target (issue 31): ≤ 0.3 ms after 5,000.
//!
//! `cargo bench --bench repl`; the figures are in docs/performance.md.

use divan::Bencher;
use turnscript::repl::{Options, Repl, script};

fn main() {
    divan::main();
}

/// A Legends table after `auto foes` and `earlier` sets, autosaving to `autosave` if given.
fn table(earlier: usize, autosave: Option<std::path::PathBuf>) -> Repl {
    let root = env!("CARGO_MANIFEST_DIR");
    let opts = Options {
        ruleset: Some(format!("{root}/rulesets/legends.turn").into()),
        encounter: Some(format!("{root}/rulesets/encounters/legends.turn").into()),
        seed: 1,
        autosave,
        colour: Some(false),
        width: 0,
    };
    // The run itself is on a thread of its own, with the run stack.
    let (mut repl, _) = Repl::new(opts).unwrap_or_else(|e| panic!("{e}"));
    let mut setup = String::from("auto foes\n");
    for i in 0..earlier {
        setup.push_str(&format!("set Kessa.dex = {}\n", i % 20 + 1));
    }
    let out = script(&mut repl, &setup);
    assert!(out.ends_with("exit 0\n"), "{out}");
    repl
}

#[divan::bench(args = [10, 1_000, 5_000])]
fn set_after(bencher: Bencher, earlier: usize) {
    let mut repl = table(earlier, None);
    let mut i = 0;
    bencher.bench_local(|| {
        i += 1;
        script(&mut repl, &format!("set Kessa.dex = {}\n", i % 20 + 1))
    });
}

#[divan::bench(args = [10, 1_000, 5_000])]
fn set_after_autosaved(bencher: Bencher, earlier: usize) {
    let dir = std::env::temp_dir().join(format!("turnscript-bench-repl-{}-{earlier}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
    let mut repl = table(earlier, Some(dir.join("bench.tsession")));
    let mut i = 0;
    bencher.bench_local(|| {
        i += 1;
        let out = script(&mut repl, &format!("set Kessa.dex = {}\n", i % 20 + 1));
        // What the REPL does before it prompts for the next command.
        (out, repl.flush_autosave())
    });
    assert_eq!(repl.take_errors(), "");
    let _ = std::fs::remove_dir_all(&dir);
}
