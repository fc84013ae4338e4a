//! The dice stream is locked: a test vector for a fixed seed, and byte-identical traces.

mod common;
use turnscript::runtime::dice::{DiceStream, ImpossibleRoll};

#[test]
fn dice_test_vector_for_seed_42() {
    let mut d = DiceStream::new(42, &[]);
    let d6: Vec<u32> = (0..12).map(|_| d.die(6).expect("no forced rolls")).collect();
    let d20: Vec<u32> = (0..8).map(|_| d.die(20).expect("no forced rolls")).collect();
    let d1000: Vec<u32> = (0..4).map(|_| d.die(1000).expect("no forced rolls")).collect();
    insta::assert_snapshot!(format!("d6 {d6:?}\nd20 {d20:?}\nd1000 {d1000:?}"));
}

#[test]
fn every_face_comes_up_and_none_outside() {
    let mut d = DiceStream::new(7, &[]);
    let mut seen = [0u32; 7];
    for _ in 0..6000 {
        let f = d.die(6).expect("no forced rolls");
        assert!((1..=6).contains(&f));
        seen[f as usize] += 1;
    }
    assert!(seen[1..].iter().all(|n| (850..1150).contains(n)), "faces: {seen:?}");
}

#[test]
fn forced_rolls_come_first_and_impossible_ones_are_refused() {
    let mut d = DiceStream::new(1, &[4, 2, 12]);
    assert_eq!(d.die(6), Ok(4));
    assert_eq!(d.die(6), Ok(2));
    assert_eq!(d.die(10), Err(ImpossibleRoll { value: 12, sides: 10 }));
    assert_eq!(d.forced_left(), 0);
}

#[test]
fn the_same_seed_gives_a_byte_identical_trace() {
    use turnscript::RunOptions;
    let opts = RunOptions {
        seed: 99,
        until: Some("turn=3".into()),
        policy: Some("random".into()),
        ..RunOptions::default()
    };
    let files: Vec<(String, String)> = [common::CRISIS_MODE, "rulesets/encounters/crisis-mode.turn"]
        .iter()
        .map(|f| (f.to_string(), std::fs::read_to_string(f).expect("bundled file")))
        .collect();
    let run = |opts: &RunOptions| common::run_texts(&files, Vec::new(), opts, true);
    let a = run(&opts);
    let b = run(&opts);
    assert_eq!(a.2, 0, "{}", a.1);
    assert!(a.0.lines().count() > 100);
    assert_eq!(a.0, b.0);
    let other = run(&RunOptions {
        seed: 100,
        ..opts.clone()
    });
    assert_ne!(a.0, other.0, "a different seed gives a different trace");
}
