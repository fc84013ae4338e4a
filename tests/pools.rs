//! Dice pools (issue 26, family 1): listed faces after a computed count, exploding dice,
//! quantifiers over a roll's faces, and pools kept and read (`roll DICE as p`). Each scenario
//! forces its dice and checks the whole trace.

#[path = "pools/calls.rs"]
mod calls;
mod common;

use common::{check_texts, run_texts};
use turnscript::RunOptions;

fn run_with(src: &str, rolls: &[i64], seed: u64, jsonl: bool) -> (String, String, i32) {
    let files = vec![("t.turn".to_string(), src.to_string())];
    let opts = RunOptions {
        rolls: rolls.to_vec(),
        seed,
        ..RunOptions::default()
    };
    run_texts(&files, Vec::new(), &opts, jsonl)
}

/// The text trace after the header line, which every run prints.
fn run(src: &str, rolls: &[i64]) -> String {
    let (out, err, code) = run_with(src, rolls, 0, false);
    assert_eq!(code, 0, "{err}\n{out}");
    assert!(err.is_empty(), "{err}");
    out.split_once('\n').map_or(out.clone(), |(_, rest)| rest.to_string())
}

fn lines(text: &str) -> Vec<&str> {
    text.lines().map(str::trim_end).collect()
}

#[test]
fn a_computed_count_rolls_listed_faces() {
    let src = "stat pool default 3\nresource hits\ncharacter A { }\n\
               play { gain (A.pool)d[0,0,1,1,2] A.hits }\n";
    let out = run(src, &[2, 0, 1]);
    assert_eq!(
        lines(&out),
        [
            "roll     A     hits       3d[0,0,1,1,2] [2 0 1] = 3",
            "gain     A     hits       +3 → 3",
            "end of encounter: complete",
            "final    A     pool = 3, hits = 3",
        ]
    );
}

#[test]
fn a_computed_count_with_listed_faces_keeps_the_highest_or_lowest() {
    let src = "stat pool default 3\nstat k default 2\nresource hits\ncharacter A { }\n\
               play { gain (A.pool)d[0,1,2]kh(A.k) A.hits\n gain (A.pool)d[0,1,2]kl1 A.hits }\n";
    let out = run(src, &[0, 2, 1, 2, 1, 2]);
    assert_eq!(
        lines(&out),
        [
            "roll     A     hits       3d[0,1,2]kh2 [0 2 1] = 3",
            "gain     A     hits       +3 → 3",
            "roll     A     hits       3d[0,1,2]kl1 [2 1 2] = 1",
            "gain     A     hits       +1 → 4",
            "end of encounter: complete",
            "final    A     pool = 3, k = 2, hits = 4",
        ]
    );
}

#[test]
fn a_computed_count_of_listed_faces_takes_only_forced_rolls_among_them() {
    let src = "stat pool default 2\ncharacter A { }\nplay { let x = (A.pool)d[0,1,2] }\n";
    let (_, err, code) = run_with(src, &[1, 3], 0, false);
    assert_eq!(code, 1);
    assert!(err.contains("run::impossible_roll"), "{err}");
    assert!(err.contains("must be one of their faces: 0, 1, 2"), "{err}");
}

#[test]
fn a_computed_count_of_zero_listed_dice_stops_the_run() {
    let src = "stat pool default 0\ncharacter A { }\nplay { let x = (A.pool)d[0,1,2] }\n";
    let (_, err, code) = run_with(src, &[], 0, false);
    assert_eq!(code, 1);
    assert!(
        err.contains("run::dice") && err.contains("0 dice cannot be rolled"),
        "{err}"
    );
}

#[test]
fn an_exploding_die_rolls_again_on_its_highest_face_and_adds_every_face() {
    let src = "resource hp\ncharacter A { }\nplay { gain d6! A.hp\n gain 3d6! A.hp }\n";
    // d6!: 6, 6, 3. 3d6!: the first die 6 then 2; the second 4; the third 6, 6, 1.
    let out = run(src, &[6, 6, 3, 6, 2, 4, 6, 6, 1]);
    assert_eq!(
        lines(&out),
        [
            "roll     A     hp         d6! [6 6 3] = 15",
            "gain     A     hp         +15 → 15",
            "roll     A     hp         3d6! [6 2 4 6 6 1] = 25",
            "gain     A     hp         +25 → 40",
            "end of encounter: complete",
            "final    A     hp = 40",
        ]
    );
}

#[test]
fn dice_explode_on_n_or_more_with_a_literal_or_computed_threshold() {
    let src = "stat t default 5\nstat n default 2\nresource hp\ncharacter A { }\n\
               play { gain 2d10!9 A.hp\n gain (A.n)d(6)!(A.t) A.hp\n gain d[1,2,3]! A.hp }\n";
    let out = run(src, &[9, 10, 2, 5, 6, 1, 5, 3, 3, 3, 2]);
    assert_eq!(
        lines(&out),
        [
            "roll     A     hp         2d10!9 [9 10 2 5] = 26",
            "gain     A     hp         +26 → 26",
            "roll     A     hp         2d6!5 [6 1 5 3] = 15",
            "gain     A     hp         +15 → 41",
            "roll     A     hp         d[1,2,3]! [3 3 2] = 8",
            "gain     A     hp         +8 → 49",
            "end of encounter: complete",
            "final    A     t = 5, n = 2, hp = 49",
        ]
    );
}

#[test]
fn the_json_trace_names_exploding_dice_with_their_mark() {
    let src = "resource hp\ncharacter A { }\nplay { gain d10!9 A.hp\n gain d8! A.hp }\n";
    let (out, err, code) = run_with(src, &[9, 1, 2], 0, true);
    assert_eq!(code, 0, "{err}");
    let rolls: Vec<&str> = out.lines().filter(|l| l.contains(r#""event":"roll""#)).collect();
    assert_eq!(
        rolls,
        [
            r#"{"event":"roll","actor":"A","for":"hp","dice":"d10!9","faces":[9,1],"total":10}"#,
            r#"{"event":"roll","actor":"A","for":"hp","dice":"d8!","faces":[2],"total":2}"#,
        ]
    );
}

#[test]
fn not_equal_written_against_dice_stays_a_comparison() {
    // `d6!=3` is `d6 != 3`, as before exploding dice: one die, compared.
    let src = "resource hp\ncharacter A { }\nplay { if d6!=3 { gain 1 A.hp }\n if d6!=3 { gain 10 A.hp } }\n";
    let out = run(src, &[3, 6]);
    assert_eq!(
        lines(&out),
        [
            "roll           roll       d6 [3] = 3",
            "roll           roll       d6 [6] = 6",
            "gain     A     hp         +10 → 10",
            "end of encounter: complete",
            "final    A     hp = 10",
        ]
    );
}

#[test]
fn exploding_dice_that_do_not_ace_take_the_same_seeded_dice_as_plain_dice() {
    // With seed 42 the first d6 are 4 4 5 1 3 3 ... (tests/dice.rs): no 6, so no extra die.
    let plain = "character A { }\nplay { let x = 6d6 }\n";
    let aces = "character A { }\nplay { let x = 6d6! }\n";
    let (p, _, _) = run_with(plain, &[], 42, false);
    let (a, _, _) = run_with(aces, &[], 42, false);
    assert!(p.contains("6d6 [4 4 5 1 3 3] = 20"), "{p}");
    assert!(a.contains("6d6! [4 4 5 1 3 3] = 20"), "{a}");
}

#[test]
fn a_quantifier_over_a_roll_counts_and_sums_its_faces_after_one_roll() {
    let src = "stat wits default 2\nstat aw default 2\nresource s\ncharacter A { }\n\
               play {\n gain count f in (A.wits + A.aw)d10 where f >= 7 A.s\n\
               gain sum f in 4d10 where f >= 7: if f == 10 then 2 else 1 A.s\n\
               if any f in 3d6: f == 6 { gain 100 A.s }\n\
               if all f in 2d6: f > 1 { gain 1000 A.s }\n\
               gain (max f in 2d6: f) - (min f in 2d6: f) A.s }\n";
    let out = run(src, &[7, 10, 1, 3, 10, 7, 2, 10, 1, 2, 6, 1, 4, 5, 2, 3, 3]);
    assert_eq!(
        lines(&out),
        [
            "roll     A     s          4d10 [7 10 1 3] = 21",
            "gain     A     s          +2 → 2",
            "roll     A     s          4d10 [10 7 2 10] = 29",
            "gain     A     s          +5 → 7",
            "roll           roll       3d6 [1 2 6] = 9",
            "gain     A     s          +100 → 107",
            "roll           roll       2d6 [1 4] = 5",
            "roll     A     s          2d6 [5 2] = 7",
            "roll     A     s          2d6 [3 3] = 6",
            "gain     A     s          +2 → 109",
            "end of encounter: complete",
            "final    A     wits = 2, aw = 2, s = 109",
        ]
    );
}

#[test]
fn quantifiers_over_faces_nest_each_with_its_own_roll() {
    // For each face of 2d6, a fresh 2d6: how many faces are beaten by some die of theirs.
    let src = "resource s\ncharacter A { }\n\
               play { gain count f in 2d6 where (count g in 2d6 where g > f) > 0 A.s }\n";
    let out = run(src, &[3, 5, 4, 1, 2, 2]);
    assert_eq!(
        lines(&out),
        [
            "roll     A     s          2d6 [3 5] = 8",
            "roll     A     s          2d6 [4 1] = 5",
            "roll     A     s          2d6 [2 2] = 4",
            "gain     A     s          +1 → 1",
            "end of encounter: complete",
            "final    A     s = 1",
        ]
    );
}

#[test]
fn quantifiers_over_exploding_dice_read_every_face() {
    let src = "resource s\ncharacter A { }\nplay { gain count f in 2d6! where f == 6 A.s }\n";
    let out = run(src, &[6, 6, 1, 6, 2]);
    assert_eq!(
        lines(&out),
        [
            "roll     A     s          2d6! [6 6 1 6 2] = 21",
            "gain     A     s          +3 → 3",
            "end of encounter: complete",
            "final    A     s = 3",
        ]
    );
}

/// "Roll five command dice; each 1-4 activates a unit of that rank, 5s build points, two 6s keep
/// the phase, three end the turn."
#[test]
fn command_dice_are_rolled_once_into_a_pool_and_read_by_each_rule() {
    let src = "stat rank default 0\nresource points\nflag acted\nflag kept\ncharacter HQ { }\n\
               character Lancers { rank = 1 }\ncharacter Guns { rank = 3 }\n\
               play {\n roll 5d6 as cmd\n\
               for each f in cmd where f <= 4 { for each u in characters where u.rank == f { mark u.acted } }\n\
               gain count f in cmd where f == 5 HQ.points\n\
               if (count f in cmd where f == 6) == 2 { mark HQ.kept }\n\
               if (count f in cmd where f == 6) >= 3 { end encounter because \"three 6s\" } }\n";
    let out = run(src, &[3, 5, 6, 1, 6]);
    assert_eq!(
        lines(&out),
        [
            "roll              roll       5d6 [3 5 6 1 6] = 21",
            "mark     Guns     acted",
            "mark     Lancers  acted",
            "gain     HQ       points     +1 → 1",
            "mark     HQ       kept",
            "end of encounter: complete",
            "final    HQ       rank = 0, points = 1, acted = 0, kept = 1",
            "final    Lancers  rank = 1, points = 0, acted = 1, kept = 0",
            "final    Guns     rank = 3, points = 0, acted = 1, kept = 0",
        ]
    );
    let out = run(src, &[6, 6, 2, 6, 5]);
    assert!(out.contains("end of encounter: three 6s"), "{out}");
}

#[test]
fn remove_takes_out_the_first_die_showing_the_face_and_the_pool_shrinks() {
    let src = "resource s\ncharacter A { }\n\
               play {\n roll 5d6 as p\n remove 6 from p\n gain p.size A.s\n\
               for each f in p { gain f A.s }\n remove (min f in p: f) from p\n gain 10 * p.size A.s }\n";
    let out = run(src, &[6, 2, 6, 1, 4]);
    assert_eq!(
        lines(&out),
        [
            "roll           roll       5d6 [6 2 6 1 4] = 19",
            "gain     A     s          +4 → 4",
            "gain     A     s          +2 → 6",
            "gain     A     s          +6 → 12",
            "gain     A     s          +1 → 13",
            "gain     A     s          +4 → 17",
            "gain     A     s          +30 → 47",
            "end of encounter: complete",
            "final    A     s = 47",
        ]
    );
}

#[test]
fn an_empty_pool_counts_nothing_and_walks_nothing() {
    let src = "resource s\ncharacter A { }\n\
               play {\n roll d6 as p\n remove 3 from p\n gain p.size + (count f in p) + (sum f in p: f) + (max f in p: f) A.s\n\
               if any f in p { gain 100 A.s }\n if all f in p: f > 6 { gain 1 A.s }\n for each f in p { gain 1000 A.s } }\n";
    let out = run(src, &[3]);
    assert_eq!(
        lines(&out),
        [
            "roll           roll       d6 [3] = 3",
            "gain     A     s          +0 → 0",
            "gain     A     s          +1 → 1",
            "end of encounter: complete",
            "final    A     s = 1",
        ]
    );
}

#[test]
fn removing_a_face_the_pool_does_not_show_stops_the_run() {
    let src = "character A { }\nplay { roll 2d6 as p\n remove 6 from p }\n";
    let (_, err, code) = run_with(src, &[1, 2], 0, false);
    assert_eq!(code, 1);
    assert!(
        err.contains("run::pool") && err.contains("no die in the pool shows 6"),
        "{err}"
    );
}

#[test]
fn a_pool_rolled_in_a_loop_is_new_each_time_and_ends_with_its_block() {
    let src = "resource s\ncharacter A { }\n\
               play {\n repeat until A.s > 20 {\n roll 2d6 as p\n gain sum f in p: f A.s } }\n";
    let out = run(src, &[1, 2, 3, 4, 6, 6]);
    assert_eq!(
        lines(&out),
        [
            "roll           roll       2d6 [1 2] = 3",
            "gain     A     s          +3 → 3",
            "roll           roll       2d6 [3 4] = 7",
            "gain     A     s          +7 → 10",
            "roll           roll       2d6 [6 6] = 12",
            "gain     A     s          +12 → 22",
            "end of encounter: complete",
            "final    A     s = 22",
        ]
    );
}

#[test]
fn a_pool_rolled_in_a_routine_leaves_the_callers_pool_as_it_was() {
    let src = "resource s\nroutine aside(c) { roll 3d6 as p\n remove 1 from p\n gain 100 * p.size c.s }\n\
               character A { }\n\
               play {\n roll 2d6 as p\n do aside(A)\n gain sum f in p: f A.s\n gain p.size A.s }\n";
    let out = run(src, &[4, 5, 1, 1, 1]);
    assert_eq!(
        lines(&out),
        [
            "roll           roll       2d6 [4 5] = 9",
            "roll           roll       3d6 [1 1 1] = 3",
            "gain     A     s          +200 → 200",
            "gain     A     s          +9 → 209",
            "gain     A     s          +2 → 211",
            "end of encounter: complete",
            "final    A     s = 211",
        ]
    );
}

#[test]
fn a_pool_walk_left_by_end_repeat_gives_its_dice_back() {
    let src = "resource s\ncharacter A { }\n\
               play {\n repeat {\n roll 3d6 as p\n for each f in p { if f == 6 { end repeat }\n gain f A.s } }\n\
               roll 2d6 as q\n gain 10 * q.size + (sum f in q: f) A.s }\n";
    let out = run(src, &[2, 6, 3, 1, 4]);
    assert_eq!(
        lines(&out),
        [
            "roll           roll       3d6 [2 6 3] = 11",
            "gain     A     s          +2 → 2",
            "roll           roll       2d6 [1 4] = 5",
            "gain     A     s          +25 → 27",
            "end of encounter: complete",
            "final    A     s = 27",
        ]
    );
}

#[test]
fn a_pool_is_read_only_through_its_faces_and_size() {
    for (body, code) in [
        ("let q = p", "check::pool"),
        ("gain p A.s", "check::pool"),
        ("gain p.sum A.s", "check::pool"),
        ("for each f in p { remove 1 from p }", "check::pool"),
        ("gain first f in p A.s", "check::faces"),
        ("ready A on join(x) { gain p.size x.s }", "check::pool"),
        ("gain f A.s", "check::unknown"),
    ] {
        let src = format!("resource s\ncharacter A {{ }}\nplay {{ roll 3d6 as p\n {body} }}\n");
        let (report, clean) = check_texts(&[("t.turn".to_string(), src)]);
        assert!(!clean && report.contains(code), "{body}: {report}");
    }
}

#[test]
fn a_pool_rolled_inside_a_later_block_is_read_there() {
    // Rolled inside the readied response itself: its block is running when it is read.
    let src = "resource s\ntrigger hit(c)\ncharacter A { }\n\
               play { ready A on hit(x) { roll 2d6 as p\n gain p.size x.s }\n raise hit(A) }\n";
    let (report, clean) = check_texts(&[("t.turn".to_string(), src.to_string())]);
    assert!(clean, "{report}");
}

#[test]
fn old_spellings_keep_their_meaning_and_new_ones_are_refused_clearly() {
    for (src, code) in [
        ("param x = d10!>=9\n", "syntax::explode"),
        ("param x = 4d6!kh3\n", "syntax::explode"),
        ("param x = d6!1\n", "syntax::dice"),
        ("param x = d[2,2]!\n", "syntax::dice"),
    ] {
        let (report, clean) = check_texts(&[("t.turn".to_string(), src.to_string())]);
        assert!(!clean && report.contains(code), "{src}: {report}");
    }
    for src in [
        "param x = d6!=3\n",
        "param x = d6! >= 3\n",
        "param x = 6d10>=7\n",
        "param x = highest(d8!, d6!)\n",
    ] {
        let (report, clean) = check_texts(&[("t.turn".to_string(), src.to_string())]);
        assert!(clean, "{src}: {report}");
    }
}

#[test]
fn the_pools_held_at_once_are_bounded() {
    // 101 pools of 1000 dice in one block: past the 100 000 faces the arena holds.
    let mut src = String::from("character A { }\nplay {\n");
    for i in 0..=100 {
        src.push_str(&format!("  roll 1000d6 as p{i}\n"));
    }
    src.push_str("}\n");
    let (_, err, code) = run_with(&src, &[], 0, false);
    assert_eq!(code, 1);
    assert!(
        err.contains("run::pool") && err.contains("more than 100000 dice"),
        "{err}"
    );
    assert!(err.contains("roll 1000d6 as p100"), "{err}");
}

/// Over many seeds, a pool read twice gives what one quantifier over the same dice gives once,
/// and the dice are the same: rolling into a pool takes nothing else from the stream.
#[test]
fn a_pool_reads_the_same_faces_a_quantifier_over_the_same_dice_reads() {
    let quantified = "resource s\ncharacter A { }\n\
                      play { gain count f in 6d6! where f >= 5 A.s }\n";
    let pooled = "resource s\ncharacter A { }\n\
                  play { roll 6d6! as p\n gain count f in p where f >= 5 A.s\n gain 0 * (sum f in p: f) A.s }\n";
    for seed in 0..64 {
        let (q, _, qc) = run_with(quantified, &[], seed, false);
        let (p, _, pc) = run_with(pooled, &[], seed, false);
        assert_eq!((qc, pc), (0, 0));
        // The dice and their faces (the label differs: the roll is the gain's, or the pool's).
        let roll = |t: &str| t.lines().find_map(|l| l.find("6d6!").map(|at| l[at..].to_string()));
        assert_eq!(roll(&q), roll(&p), "seed {seed}");
        assert_eq!(q.lines().last(), p.lines().last(), "seed {seed}");
    }
}

/// Listed faces that would explode for ever (every face the highest) are refused when checking,
/// whether the count is written or worked out: `d[2,2]!` and `(n)d[2,2]!` alike (the second ran
/// into the explosions limit at run time).
#[test]
fn listed_faces_that_always_explode_are_refused_with_a_computed_count_too() {
    for dice in ["d[2,2]!", "(n)d[2,2]!", "(n)d[1,3]!1"] {
        let src = format!("param n = 2\nglobal x\nplay {{ set x = {dice} }}\n");
        let (report, clean) = check_texts(&[("t.turn".to_string(), src)]);
        assert!(!clean, "{dice} accepted");
        assert!(
            report.contains("explode") || report.contains("syntax::dice"),
            "{dice}: {report}"
        );
    }
    let (report, clean) = check_texts(&[(
        "t.turn".to_string(),
        "param n = 2\nglobal x\nplay { set x = (n)d[1,2]! }\n".to_string(),
    )]);
    assert!(clean, "{report}");
}

/// A pool of no dice is a pool: "roll your ability dice" with none of a colour is an empty pool
/// (its `roll` event shows no faces), and a quantifier over no faces gives what it gives over
/// nothing. A sum of no dice (`(n)d6` as a number) still stops the run: it stands where a number
/// was rolled. Found writing the Star Wars (FFG) library ruleset, which guarded each colour.
#[test]
fn a_pool_or_a_faces_quantifier_of_no_dice_is_empty() {
    let src = "global n default 0\nglobal size\nglobal hits\nglobal any6\n\
               play {\n roll (n)d[0,1,1,2] as p\n set size = p.size + count f in p where f > 0\n\
               set hits = count f in (n)d6 where f >= 5\n set any6 = if (any f in (n)d6: f == 6) then 1 else 0\n}\n";
    assert_eq!(
        lines(&run(src, &[])),
        [
            "roll           roll       0d[0,1,1,2] [] = 0",
            "set            size       = 0",
            "roll           hits       0d6 [] = 0",
            "set            hits       = 0",
            "roll           any6       0d6 [] = 0",
            "set            any6       = 0",
            "end of encounter: complete",
            "final          n = 0, size = 0, hits = 0, any6 = 0",
        ]
    );
    let (_, err, code) = run_with("global n default 0\nglobal x\nplay { set x = (n)d6 }\n", &[], 0, false);
    assert_ne!(code, 0);
    assert!(err.contains("run::dice"), "{err}");
}
