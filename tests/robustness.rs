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

/// Characters wider than a byte: letters, spaces, a C1 control, a symbol, an emoji. The parser's
/// hints search back and forth through the text by bytes; each must land on a character's start.
const WIDE: &[&str] = &["é", "ø", "\u{a0}", "\u{3000}", "名", "\u{90}", "→", "🎲"];

/// The parser alone, as the `parse` fuzz target has it: a file, or diagnostics whose spans lie
/// inside the text on character boundaries.
fn parse_only(text: &str) {
    if let Err(diags) = turnscript::syntax::parse(text, 0) {
        for d in &diags {
            for (span, _) in &d.labels {
                let (start, end) = (span.start as usize, span.end as usize);
                assert!(
                    start <= end && end <= text.len() && text.is_char_boundary(start) && text.is_char_boundary(end),
                    "{}: a span {start}..{end} outside the text or inside a character",
                    d.code
                );
            }
        }
    }
}

/// Each bundled ruleset with a wide character before every word of its comments (which may hold
/// any text), cut after every `step`th character, through the parser: the parse fails at each cut
/// and the hints search back through the comments for a word's start.
fn wide_characters(step: usize) {
    for (k, (ruleset, _, _)) in BUNDLED.iter().enumerate() {
        let mut wide = String::new();
        for line in ruleset.split_inclusive('\n') {
            let (code, comment) = line.split_at(line.find('#').unwrap_or(line.len()));
            wide.push_str(code);
            for (i, c) in comment.char_indices() {
                let starts_word =
                    c.is_ascii_alphanumeric() && !comment[..i].ends_with(|p: char| p.is_ascii_alphanumeric());
                if starts_word {
                    wide.push_str(WIDE[(k + i) % WIDE.len()]);
                }
                wide.push(c);
            }
        }
        let cuts = wide.char_indices().map(|(i, _)| i).step_by(step);
        for cut in cuts {
            parse_only(&wide[..cut]);
        }
    }
}

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
            match next() % 4 {
                0 => bytes[at] = alphabet[(next() % alphabet.len() as u64) as usize],
                1 => {
                    bytes.remove(at);
                }
                2 => bytes.insert(at, alphabet[(next() % alphabet.len() as u64) as usize]),
                _ => {
                    // A character wider than a byte, at the start of the character there.
                    let at = (0..=at).rev().find(|&i| bytes[i] & 0xC0 != 0x80).unwrap_or(0);
                    let wide = WIDE[(next() % WIDE.len() as u64) as usize];
                    bytes.splice(at..at, wide.bytes());
                }
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
fn a_sample_of_cuts_with_wide_characters_in_comments_is_handled() {
    wide_characters(101);
}

#[test]
#[ignore = "the long sweep: .ci/run runs it with --ignored"]
fn every_13th_cut_with_wide_characters_in_comments_is_handled() {
    wide_characters(13);
}

/// Each input a fuzz run once crashed on, kept in `fuzz/regressions/TARGET/`, through the parser
/// and the whole pipeline.
#[test]
fn every_kept_fuzz_crash_is_handled() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/fuzz/regressions");
    let mut seen = 0;
    for target in std::fs::read_dir(dir).expect("fuzz/regressions") {
        for file in std::fs::read_dir(target.expect("a target").path()).expect("a target's inputs") {
            let bytes = std::fs::read(file.expect("an input").path()).expect("an input");
            let text = String::from_utf8_lossy(&bytes);
            parse_only(&text);
            pipeline(&text, BUNDLED[0].1, BUNDLED[0].2);
            seen += 1;
        }
    }
    assert!(seen > 0, "no kept fuzz inputs found in {dir}");
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

/// `if`s and quantifiers nest without brackets: `else if` chains of statements and of
/// expressions, quantifiers in quantifiers, and the same inside a message's `{...}`. Deep ones are
/// a diagnostic, not a stack overflow (an `else if` chain of 3,000 statements overflowed the
/// stack building its AST, and the parser leaves its own stack probe out).
#[test]
fn deep_ifs_and_quantifiers_are_diagnostics() {
    let play = |body: String| format!("ruleset \"r\"\ncharacter A {{ }}\nplay {{ {body} }}\n");
    for text in [
        play(format!("if true {{ }}{}", " else if true { }".repeat(30_000))),
        format!("ruleset \"r\"\nparam x = {}1\n", "if true then 1 else ".repeat(20_000)),
        format!("ruleset \"r\"\nparam x = {}true\n", "if ".repeat(100_000)),
        format!(
            "ruleset \"r\"\nparam x = {}true\n",
            "any x in characters: ".repeat(20_000)
        ),
        // A comment between a quantifier's words still counts it.
        format!(
            "ruleset \"r\"\nparam x = {}true\n",
            "max #\n x #\n in characters: ".repeat(10_000)
        ),
        play(format!(
            "choose d by A from c in characters unless true because \"{{{}c}}\" {{ }}",
            "if true then c else ".repeat(20_000)
        )),
    ] {
        let (report, clean) = check_texts(&[("deep.turn".into(), text)]);
        assert!(!clean && report.contains("syntax::too_deep"), "{report}");
    }
    // Just under the limit, each is read. (On a thread of 64 MiB: an unoptimised build's frames
    // are many times a release build's, and the test thread's 2 MiB hold 18 `else if`s of it.)
    let texts = [
        play(format!("if true {{ }}{}", " else if true { }".repeat(63))),
        format!(
            "ruleset \"r\"\nparam x = {}1\ncharacter A {{ }}\nplay {{ }}\n",
            "if true then 1 else ".repeat(64)
        ),
        format!(
            "ruleset \"r\"\nparam x = {}true\ncharacter A {{ }}\nplay {{ }}\n",
            "any x in characters: ".repeat(64)
        ),
    ];
    let reports = std::thread::Builder::new()
        .stack_size(64 << 20)
        .spawn(move || texts.map(|text| check_texts(&[("deep.turn".into(), text)]).0))
        .expect("a thread")
        .join()
        .expect("no panic");
    for report in reports {
        assert!(!report.contains("syntax::"), "{report}");
    }
}

/// What does not nest is not counted as nesting (the review of issue 31 found these refused with
/// `syntax::too_deep`): a field's `min` and `max` bounds, and `max`/`min` called as functions, are
/// no quantifiers; a `let` begins a statement, so the `if`s of the lets before it have ended.
#[test]
fn flat_code_is_not_counted_as_nesting() {
    let globals: String = (0..100)
        .map(|i| format!("global g{i} default 5 min 0 max 10\n"))
        .collect();
    let lets: String = (0..100)
        .map(|i| format!("let a{i} = if true then 1 else 0\n"))
        .collect();
    let calls = "max(1, 2) + ".repeat(100);
    for text in [
        format!("ruleset \"r\"\n{globals}character A {{ }}\nplay {{ }}\n"),
        format!("ruleset \"r\"\ncharacter A {{ }}\nplay {{\n{lets}}}\n"),
        format!("ruleset \"r\"\nparam x = {calls}1\ncharacter A {{ }}\nplay {{ }}\n"),
    ] {
        let (report, _) = check_texts(&[("flat.turn".into(), text)]);
        assert!(!report.contains("syntax::too_deep"), "{report}");
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

/// Each session file a fuzz run once crashed on (or an earlier hardening pass found), kept in
/// `fuzz/regressions/session/`, loaded as the `session` fuzz target does: beside copies of the
/// Legends files under the names the seeds use, then stepped through; none may panic.
#[test]
fn every_kept_session_file_is_loaded_without_a_panic() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("robustness-sessions");
    std::fs::create_dir_all(&dir).expect("a scratch folder");
    std::fs::copy(root.join("rulesets/legends.turn"), dir.join("rules.turn")).expect("the ruleset");
    std::fs::copy(
        root.join("rulesets/encounters/legends.turn"),
        dir.join("encounter.turn"),
    )
    .expect("the encounter");
    let mut seen = 0;
    for file in std::fs::read_dir(root.join("fuzz/regressions/session")).expect("fuzz/regressions/session") {
        let path = dir.join("s.tsession");
        std::fs::copy(file.expect("an input").path(), &path).expect("copied");
        turnscript::runtime::on_run_stack(|| {
            let opts = turnscript::repl::Options {
                colour: Some(false),
                ..Default::default()
            };
            let (mut repl, _) = turnscript::repl::Repl::new(opts).expect("a REPL without files");
            let reply = repl.exec(&format!("load {}", path.display()));
            if !reply.error {
                for line in ["redo 1000", "log", "show", "undo 3", "step"] {
                    let _ = repl.exec(line);
                }
            }
        });
        seen += 1;
    }
    assert!(seen > 0, "no kept session files");
}
