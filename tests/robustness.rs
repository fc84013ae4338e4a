//! Any input gets a result or a diagnostic, never a panic: prefixes of each bundled ruleset, and
//! byte-level mutations of it, go through the whole pipeline.
//!
//! `cargo test` runs a sample (every 101st prefix, 120 mutations: a few seconds). The sweep
//! (every 13th prefix, 1,200 mutations) is `#[ignore]`d; `.ci/run` runs it with
//! `cargo test --test robustness -- --ignored`.

mod common;

use common::{check_texts, run_texts};
use turnscript::RunOptions;

/// Each bundled ruleset, its example encounter, and how far to run it.
const BUNDLED: &[(&str, &str, &str)] = &[
    (
        include_str!("../rulesets/crisis-mode.turn"),
        include_str!("../rulesets/encounters/crisis-mode.turn"),
        "turn=1",
    ),
    (
        include_str!("../rulesets/flow-of-time.turn"),
        include_str!("../rulesets/encounters/flow-of-time.turn"),
        "round=1",
    ),
    (
        include_str!("../rulesets/legacy.turn"),
        include_str!("../rulesets/encounters/legacy.turn"),
        "round=1",
    ),
    (
        include_str!("../rulesets/legends.turn"),
        include_str!("../rulesets/encounters/legends.turn"),
        "round=2",
    ),
    (
        include_str!("../rulesets/capes.turn"),
        include_str!("../rulesets/encounters/capes.turn"),
        "page=1",
    ),
];

fn pipeline(text: &str, encounter: &str, until: &str) {
    let files = vec![
        ("r.turn".to_string(), text.to_string()),
        ("e.turn".to_string(), encounter.to_string()),
    ];
    let (report, clean) = check_texts(&files[..1]);
    assert!(clean || !report.is_empty(), "a failed check must say why");
    let opts = RunOptions {
        until: Some(until.into()),
        max_steps: 20_000,
        ..RunOptions::default()
    };
    let (_, err, code) = run_texts(&files, Vec::new(), &opts, false);
    assert!(code == 0 || !err.is_empty(), "a failed run must say why");
}

fn prefixes(step: usize) {
    for (ruleset, encounter, until) in BUNDLED {
        let cuts: Vec<usize> = (0..ruleset.len())
            .step_by(step)
            .filter(|i| ruleset.is_char_boundary(*i))
            .collect();
        for cut in cuts {
            pipeline(&ruleset[..cut], encounter, until);
        }
    }
}

/// `count` mutated rulesets, each of 1 to 4 byte changes. A small deterministic generator: no
/// dependency, the same mutations on every machine; the sample is the sweep's first `count`.
fn mutations(count: usize) {
    let mut state: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let alphabet = b"{}()=:,.#\"+-*/<>!0123456789 \nabcdxyz_";
    for i in 0..count {
        let (ruleset, encounter, until) = BUNDLED[i % BUNDLED.len()];
        let mut bytes = ruleset.as_bytes().to_vec();
        for _ in 0..(next() % 4 + 1) {
            let at = (next() % bytes.len() as u64) as usize;
            match next() % 3 {
                0 => bytes[at] = alphabet[(next() % alphabet.len() as u64) as usize],
                1 => {
                    bytes.remove(at);
                }
                _ => bytes.insert(at, alphabet[(next() % alphabet.len() as u64) as usize]),
            }
        }
        if let Ok(text) = String::from_utf8(bytes) {
            pipeline(&text, encounter, until);
        }
    }
}

#[test]
fn a_sample_of_prefixes_is_handled() {
    prefixes(101);
}

#[test]
fn a_sample_of_mutated_rulesets_is_handled() {
    mutations(120);
}

#[test]
#[ignore = "the long sweep: .ci/run runs it with --ignored"]
fn every_13th_prefix_of_the_rulesets_is_handled() {
    prefixes(13);
}

#[test]
#[ignore = "the long sweep: .ci/run runs it with --ignored"]
fn a_sweep_of_mutated_rulesets_is_handled() {
    mutations(1200);
}

#[test]
fn deep_nesting_and_long_input_are_diagnostics() {
    for text in [
        "(".repeat(100_000),
        "{".repeat(100_000),
        format!("param x = {}1", "-".repeat(100_000)),
    ] {
        let (report, clean) = check_texts(&[("x.turn".into(), text)]);
        assert!(!clean && !report.is_empty());
    }
}

/// Parentheses nested just under the limit are each read once. (When a parenthesis could also
/// begin dice counted by it, `(n)d6`, it was read twice at every level, and this took time
/// doubling with the depth: minutes at 30. A regression here hangs rather than fails.)
#[test]
fn deeply_nested_parentheses_are_read_once() {
    let depth = 60;
    let src = format!(
        "global g default {}1{}\ncharacter A {{ }}\nplay {{ }}\n",
        "(".repeat(depth),
        ")".repeat(depth)
    );
    let (report, clean) = check_texts(&[("deep.turn".to_string(), src)]);
    assert!(clean, "{report}");
    let dice = format!(
        "global g default {}2{}d6\ncharacter A {{ }}\nplay {{ }}\n",
        "(".repeat(depth),
        ")".repeat(depth)
    );
    let (report, clean) = check_texts(&[("dice.turn".to_string(), dice)]);
    assert!(clean, "{report}");
}

/// A malformed die nested in itself (`d(d(d(1)a)a)a`) is read once per level, not once as a die
/// and again as a call. (It took time doubling with each level: 15 s at 18. A regression here
/// hangs rather than fails.)
#[test]
fn malformed_nested_dice_are_read_once() {
    let depth = 40;
    let src = format!(
        "global g default 0\ncharacter A {{ }}\nplay {{ set g = {}1{} }}\n",
        "d(".repeat(depth),
        ")a".repeat(depth)
    );
    let (report, clean) = check_texts(&[("dice.turn".to_string(), src)]);
    assert!(!clean, "malformed dice must not check");
    assert!(report.contains("syntax::"), "{report}");
}
