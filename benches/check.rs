//! `turnscript check RULESET ENCOUNTER` in process (`check_set`, text already in memory): each
//! bundled ruleset with its encounter, and Crisis Mode with a generated encounter of 1,000
//! characters (`thousand`), the input of docs/performance.md's "Issue 31, third pass: once".
//!
//! `cargo bench --bench check`; the figures are in docs/performance.md.

use divan::Bencher;
use turnscript::check_set;

const RULESETS: [&str; 5] = ["capes", "crisis-mode", "flow-of-time", "legacy", "legends"];

fn main() {
    divan::main();
}

fn read(path: &str) -> (String, String) {
    let text = std::fs::read_to_string(format!("{}/{path}", env!("CARGO_MANIFEST_DIR")))
        .unwrap_or_else(|e| panic!("{path}: {e}"));
    (path.to_string(), text)
}

/// `encounter "Thousand"` and 1,000 lines `character CN { finesse = N mod 7 }`.
fn thousand() -> (String, String) {
    let mut s = String::from("encounter \"Thousand\"\n");
    for i in 0..1_000 {
        s.push_str(&format!("character C{i} {{ finesse = {} }}\n", i % 7));
    }
    ("enc1000.turn".to_string(), s)
}

fn bench(bencher: Bencher, files: Vec<(String, String)>) {
    let report = check_set(&files);
    assert!(report.is_clean(), "{}", report.render(Default::default()));
    assert_eq!((report.rulesets, report.encounters), (1, 1));
    bencher.bench_local(|| check_set(&files).failures.len());
}

/// `check rulesets/NAME.turn rulesets/encounters/NAME.turn`.
#[divan::bench(args = RULESETS)]
fn pair(bencher: Bencher, name: &str) {
    let files = vec![
        read(&format!("rulesets/{name}.turn")),
        read(&format!("rulesets/encounters/{name}.turn")),
    ];
    bench(bencher, files);
}

/// `check rulesets/crisis-mode.turn enc1000.turn`: the encounter of 1,000 characters.
#[divan::bench]
fn crisis_thousand(bencher: Bencher) {
    bench(bencher, vec![read("rulesets/crisis-mode.turn"), thousand()]);
}
