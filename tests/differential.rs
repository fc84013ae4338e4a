//! A differential check of the interpreter: Crisis Mode written by hand in Rust
//! (`benches/native_crisis.rs`, no interpreter) must write the very same JSON lines trace as the
//! interpreter running `rulesets/crisis-mode.turn`, byte for byte, for several seeds and casts,
//! with `--until turn=K` and with the default limit.

#[path = "../benches/native_crisis.rs"]
mod native;

use native::{Cast, Count, Json};
use turnscript::project::{RunOptions, Style, play};
use turnscript::trace::JsonLines;

const RULESET: &str = include_str!("../rulesets/crisis-mode.turn");
const ROOFTOP: &str = include_str!("../rulesets/encounters/crisis-mode.turn");

const SEEDS: [u64; 5] = [0, 1, 7, 2024, u64::MAX];

/// The interpreter's trace of the ruleset with `encounter`, as `turnscript run --format jsonl`.
fn interpreted(encounter: &str, seed: u64, until: Option<u64>) -> String {
    let files = [
        ("rulesets/crisis-mode.turn".to_string(), RULESET.to_string()),
        ("encounter.turn".to_string(), encounter.to_string()),
    ];
    let opts = RunOptions {
        seed,
        until: until.map(|k| format!("turn={k}")),
        ..RunOptions::default()
    };
    let (view, result) = play(&files, &opts, |_| JsonLines::default());
    match result {
        Ok((_, warnings)) => assert_eq!(warnings, "", "the run left something unused"),
        Err(f) => panic!("the interpreter failed:\n{}", f.render(Style::default())),
    }
    view.expect("a run that finished has its view").out().to_string()
}

/// The hand-written program's trace.
fn native(cast: &Cast, seed: u64, until: Option<u64>) -> String {
    let mut out = Json::new(Vec::new());
    native::run(cast, seed, until, &mut out);
    assert!(out.error.is_none(), "writing into memory failed");
    String::from_utf8(out.w).expect("the trace is UTF-8")
}

/// Where two traces part: the first line that differs, with both versions; `None` if they are
/// the same bytes.
fn difference(native: &str, interpreted: &str) -> Option<String> {
    if native == interpreted {
        return None;
    }
    let (n, i): (Vec<&str>, Vec<&str>) = (native.lines().collect(), interpreted.lines().collect());
    let at = n
        .iter()
        .zip(&i)
        .position(|(a, b)| a != b)
        .unwrap_or(n.len().min(i.len()));
    Some(format!(
        "the traces part at line {} of {} (native) / {} (interpreter)\n  native:      {}\n  interpreter: {}",
        at + 1,
        n.len(),
        i.len(),
        n.get(at).unwrap_or(&"(end)"),
        i.get(at).unwrap_or(&"(end)"),
    ))
}

/// Both traces of one case are the same, and they end as the stop says.
fn check(cast: &Cast, encounter: &str, seed: u64, until: Option<u64>) -> String {
    let what = format!("{} (seed {seed}, until {until:?})", cast.encounter);
    let n = native(cast, seed, until);
    if let Some(d) = difference(&n, &interpreted(encounter, seed, until)) {
        panic!("{what}: {d}");
    }
    let end = match until {
        Some(k) => format!(r#"{{"event":"encounter_end","reason":"until turn={k}"}}"#),
        None => r#"{"event":"encounter_end","reason":"limit turn=10"}"#.to_string(),
    };
    let lines: Vec<&str> = n.lines().collect();
    assert_eq!(lines[lines.len() - 2], end, "{what}");
    assert!(lines[lines.len() - 1].starts_with(r#"{"event":"final""#), "{what}");
    n
}

/// How often the Finesse Check Dice were rolled, and how often a tied group rolled again (a
/// character rolled twice for one order).
fn finesse_rolls(trace: &str) -> (usize, usize) {
    let (mut rolls, mut again) = (0, 0);
    let mut rolled: Vec<&str> = Vec::new();
    for line in trace.lines() {
        if line.starts_with(r#"{"event":"order""#) {
            rolled.clear();
        } else if line.contains(r#""for":"by_ap""#) {
            rolls += 1;
            let actor = line
                .split(r#""actor":"#)
                .nth(1)
                .and_then(|s| s.split(',').next())
                .unwrap_or("");
            if rolled.contains(&actor) {
                again += 1;
            }
            rolled.push(actor);
        }
    }
    (rolls, again)
}

#[test]
fn the_bundled_encounter_is_the_native_rooftop() {
    let cast = Cast::rooftop();
    // The same encounter file, up to comments, spacing and the ruleset it names (`uses`).
    let lines = |t: &str| -> Vec<String> {
        t.lines()
            .map(|l| {
                let l = l.split('#').next().unwrap_or("");
                let l = l.split(" uses ").next().unwrap_or(l);
                l.split_whitespace().collect::<Vec<_>>().join(" ")
            })
            .filter(|l| !l.is_empty())
            .collect()
    };
    assert_eq!(lines(ROOFTOP), lines(&cast.encounter_text()));
    let mut rerolls = 0;
    for seed in SEEDS {
        for until in [Some(1), Some(3), None] {
            let trace = check(&cast, ROOFTOP, seed, until);
            rerolls += finesse_rolls(&trace).1;
        }
    }
    // Ana and Brick, Cole and Dmitri share a Finesse: their ties are rolled off, and some again.
    assert!(rerolls > 0, "no tie was rolled again");
}

#[test]
fn small_casts_match_for_every_seed() {
    let casts = [Cast::distinct(1), Cast::distinct(6), Cast::equal(6)];
    for cast in &casts {
        let text = cast.encounter_text();
        for seed in SEEDS {
            check(cast, &text, seed, Some(3));
            check(cast, &text, seed, None);
        }
    }
    // A stop past the default limit is honoured too.
    check(&casts[2], &casts[2].encounter_text(), 3, Some(12));
    // A lone character never ties; six with three Finesse values tie and roll.
    assert_eq!(finesse_rolls(&native(&casts[0], 1, None)).0, 0);
    assert!(finesse_rolls(&native(&casts[2], 1, None)).0 > 0);
}

#[test]
fn large_casts_match() {
    for cast in [Cast::distinct(100), Cast::equal(100)] {
        let text = cast.encounter_text();
        for seed in [5, 99] {
            check(&cast, &text, seed, Some(2));
        }
        check(&cast, &text, 11, None);
    }
    let (rolls, again) = finesse_rolls(&native(&Cast::equal(100), 5, Some(2)));
    assert!(rolls > 100 && again > 0, "{rolls} rolls, {again} again");
}

#[test]
fn counting_counts_every_line() {
    let cast = Cast::equal(6);
    let mut count = Count::default();
    native::run(&cast, 7, Some(3), &mut count);
    assert_eq!(count.events, native(&cast, 7, Some(3)).lines().count() as u64);
}

#[test]
fn the_check_can_fail() {
    // Another seed, another trace: the comparison above is not blind.
    let cast = Cast::rooftop();
    let wrong = native(&cast, 8, Some(3));
    let right = interpreted(ROOFTOP, 7, Some(3));
    let d = difference(&wrong, &right).expect("seed 8 and seed 7 give different traces");
    // They part at the first roll, right after `encounter_start`, which names the seed.
    assert!(d.starts_with("the traces part at line 1 of"), "{d}");
    assert_eq!(difference(&right, &right), None);
    // Past the seed itself, the dice differ too.
    let rest = |t: &str| t.lines().skip(1).collect::<Vec<_>>().join("\n");
    assert!(difference(&rest(&wrong), &rest(&right)).is_some());
}
