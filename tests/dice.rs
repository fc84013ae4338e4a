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

/// Dice whose count, size and number kept are computed roll like literal dice of those values:
/// the same faces from the same stream, and the same trace text.
#[test]
fn computed_dice_roll_as_the_literal_dice_they_come_to() {
    let run = |play: &str| {
        let src = format!(
            "stat pool default 3\nstat die default 8\nresource hp\ncharacter A {{ pool = 2, die = 6 }}\nplay {{ for each c in characters {{ {play} }} }}\n"
        );
        let files = vec![("t.turn".to_string(), src)];
        let opts = turnscript::RunOptions {
            seed: 3,
            ..turnscript::RunOptions::default()
        };
        let (out, err, code) = common::run_texts(&files, Vec::new(), &opts, true);
        assert_eq!(code, 0, "{err}");
        out.lines()
            .filter(|l| l.contains("\"roll\""))
            .map(String::from)
            .collect::<Vec<_>>()
    };
    let computed = run(
        "gain (c.pool)d6 c.hp  gain d(c.die) c.hp  gain (c.pool + 1)d(c.die)kh(c.pool) c.hp  gain 2d(c.die)kl1 c.hp",
    );
    let literal = run("gain 2d6 c.hp  gain d6 c.hp  gain 3d6kh2 c.hp  gain 2d6kl1 c.hp");
    assert_eq!(computed, literal);
    assert!(computed[2].contains(r#""dice":"3d6kh2""#), "{computed:?}");
}

/// Dice with listed faces: each face by its place in the list is equally likely (a die of as many
/// sides, drawn from the same stream), forced values are faces, and totals may be negative.
#[test]
fn dice_with_listed_faces_roll_their_faces() {
    let run = |play: &str, rolls: &[i64]| {
        let src = format!("resource hp\ncharacter A {{ hp = 0 }}\nplay {{ for each c in characters {{ {play} }} }}\n");
        let files = vec![("t.turn".to_string(), src)];
        let opts = turnscript::RunOptions {
            seed: 5,
            rolls: rolls.to_vec(),
            ..turnscript::RunOptions::default()
        };
        common::run_texts(&files, Vec::new(), &opts, true)
    };
    // The faces of `4d[-1,0,1]` are those of `4d3` less 2, from the same stream.
    let (listed, err, code) = run("gain 4d[-1,0,1] + 10 c.hp", &[]);
    assert_eq!(code, 0, "{err}");
    let (plain, _, _) = run("gain 4d3 + 10 c.hp", &[]);
    let faces = |out: &str| -> Vec<i64> {
        let line = out.lines().find(|l| l.contains("\"roll\"")).unwrap_or("");
        let v: serde_json::Value = serde_json::from_str(line).unwrap_or_default();
        v["faces"]
            .as_array()
            .map(|a| a.iter().filter_map(|x| x.as_i64()).collect())
            .unwrap_or_default()
    };
    let shifted: Vec<i64> = faces(&plain).iter().map(|f| f - 2).collect();
    assert_eq!(faces(&listed), shifted);
    assert!(listed.contains(r#""dice":"4d[-1,0,1]""#), "{listed}");
    // Forced values are faces; keep-highest keeps the highest faces.
    let (out, err, code) = run("gain 3d[1,5,9]kh1 c.hp", &[5, 1, 5]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains(r#""faces":[5,1,5],"total":5"#), "{out}");
    let (_, err, code) = run("gain d[0,0,1,2] c.hp", &[3]);
    assert_eq!(code, 1);
    assert!(err.contains("the forced roll 3 cannot come up on these dice"), "{err}");
}
