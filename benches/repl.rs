//! What one REPL command costs as the session grows: a `set` after 10, 1,000 and 5,000 earlier
//! commands on the Legends example (`auto foes` first, no autosave). A command goes on from where
//! the run waits, so the cost should not grow with the log; a replay of the whole log per command
//! would grow with it.
//!
//! `cargo bench --bench repl`; the figures are in docs/performance.md.

use divan::Bencher;
use turnscript::repl::{Options, Repl, script};

fn main() {
    divan::main();
}

#[divan::bench(args = [10, 1_000, 5_000])]
fn set_after(bencher: Bencher, earlier: usize) {
    let root = env!("CARGO_MANIFEST_DIR");
    let opts = Options {
        ruleset: Some(format!("{root}/rulesets/legends.turn").into()),
        encounter: Some(format!("{root}/rulesets/encounters/legends.turn").into()),
        seed: 1,
        autosave: None,
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
    let mut i = 0;
    bencher.bench_local(|| {
        i += 1;
        script(&mut repl, &format!("set Kessa.dex = {}\n", i % 20 + 1))
    });
}
