//! Sorting by an order's keys, pinned exactly (issue 31: orders that key each member once): which
//! members are keyed, the dice a sort rolls and in what order, the order made, and the steps it
//! charges. The expectations were taken from the sort as it was before issue 31 and hold for every
//! rewrite of it: each key looks only at the groups earlier keys left tied, a group of one is never
//! keyed, tied runs roll again at once (depth first, left to right), and the next dice after the
//! sort are the ones it did not use.

use serde_json::Value;
use turnscript::project::{RunOptions, Style, View, play};

/// What a run did: its `roll`, `order`, `turn_start` and `together_start` events as short lines,
/// its steps and unused forced rolls (or the error it stopped with).
struct Sorted {
    lines: Vec<String>,
    steps: u64,
    unused: usize,
    error: String,
}

fn sorted(src: &str, rolls: &[i64]) -> Sorted {
    let files = vec![("t.turn".to_string(), src.to_string())];
    let opts = RunOptions {
        rolls: rolls.to_vec(),
        ..RunOptions::default()
    };
    let (view, result) = play(&files, &opts, |p| View::new(true, p));
    let out = view.map(|v| v.out().to_string()).unwrap_or_default();
    let lines = out
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).expect("every trace line is JSON"))
        .filter_map(|e| {
            let name = |v: &Value| v.as_str().unwrap_or("-").to_string();
            let list = |v: &Value| {
                v.as_array()
                    .map(|a| a.iter().map(name).collect::<Vec<_>>().join(","))
                    .unwrap_or_default()
            };
            match e["event"].as_str()? {
                "roll" => Some(format!("roll {} {}", name(&e["actor"]), e["total"])),
                "order" => Some(format!("order {}", list(&e["order"]))),
                "turn_start" => Some(format!("turn {}", name(&e["actor"]))),
                "together_start" => Some(format!("together {}", list(&e["actors"]))),
                _ => None,
            }
        })
        .collect();
    match result {
        Ok((outcome, _)) => Sorted {
            lines,
            steps: outcome.steps,
            unused: outcome.unused_rolls,
            error: String::new(),
        },
        Err(f) => Sorted {
            lines,
            steps: 0,
            unused: 0,
            error: f.render(Style::default()),
        },
    }
}

/// A ruleset with an order `o` of the given keys, a walk by it, and one roll after the walk (the
/// die that shows which forced roll the sort left), over the characters given.
fn ruleset(keys: &str, walk: &str, cast: &str) -> String {
    format!(
        "stat f default 0\nstat seat default 0\nstat partner: character\n\
         order o(c) {{\n{keys}\n}}\n\
         play {{\n  {walk} {{ turn c {{ }} }}\n  if d6 > 0 {{ }}\n}}\n{cast}"
    )
}

const ROLL_OFF: &str = "c.f desc\nroll d6 desc until settled";
const WALK: &str = "for each c in characters by o";

#[test]
fn all_members_tied_roll_off_together_and_the_tied_runs_again() {
    let cast = "character A { f = 1 }\ncharacter B { f = 1 }\ncharacter C { f = 1 }\ncharacter D { f = 1 }\n";
    // All four tie (4s), then B and C tie on 5 and roll twice more; the last forced roll is unused.
    let run = sorted(
        &ruleset(ROLL_OFF, WALK, cast),
        &[4, 4, 4, 4, 2, 5, 5, 1, 3, 3, 6, 2, 4, 1],
    );
    assert_eq!(run.error, "");
    assert_eq!(
        run.lines,
        [
            "roll A 4",
            "roll B 4",
            "roll C 4",
            "roll D 4",
            "roll A 2",
            "roll B 5",
            "roll C 5",
            "roll D 1",
            "roll B 3",
            "roll C 3",
            "roll B 6",
            "roll C 2",
            "order B,C,A,D",
            "turn B",
            "turn C",
            "turn A",
            "turn D",
            "roll - 4"
        ]
    );
    assert_eq!(run.unused, 1);
    assert_eq!(run.steps, 30);
}

#[test]
fn ties_of_three_roll_again_depth_first_group_by_group() {
    // f: G 3; B, D, F 2; A, C, E 1. The group of 2s settles completely (three rolls of three,
    // then of two) before the group of 1s rolls at all.
    let cast = "character A { f = 1 }\ncharacter B { f = 2 }\ncharacter C { f = 1 }\ncharacter D { f = 2 }\n\
                character E { f = 1 }\ncharacter F { f = 2 }\ncharacter G { f = 3 }\n";
    let rolls = [3, 3, 3, 3, 3, 1, 2, 2, 4, 1, 6, 6, 6, 1, 1, 1, 5, 2, 5, 3, 3, 2, 6, 5];
    let run = sorted(&ruleset(ROLL_OFF, WALK, cast), &rolls);
    assert_eq!(run.error, "");
    assert_eq!(
        run.lines,
        [
            "roll B 3",
            "roll D 3",
            "roll F 3",
            "roll B 3",
            "roll D 3",
            "roll F 1",
            "roll B 2",
            "roll D 2",
            "roll B 4",
            "roll D 1",
            "roll A 6",
            "roll C 6",
            "roll E 6",
            "roll A 1",
            "roll C 1",
            "roll E 1",
            "roll A 5",
            "roll C 2",
            "roll E 5",
            "roll A 3",
            "roll E 3",
            "roll A 2",
            "roll E 6",
            "order G,B,D,F,E,A,C",
            "turn G",
            "turn B",
            "turn D",
            "turn F",
            "turn E",
            "turn A",
            "turn C",
            "roll - 5"
        ]
    );
    assert_eq!(run.unused, 0);
    assert_eq!(run.steps, 53);
}

#[test]
fn an_empty_walk_sorts_nothing_and_rolls_nothing() {
    let cast = "character A { f = 1 }\ncharacter B { f = 1 }\n";
    let walk = "for each c in characters where c.f > 5 by o";
    let run = sorted(&ruleset(ROLL_OFF, walk, cast), &[2, 3]);
    assert_eq!(run.error, "");
    assert_eq!(run.lines, ["roll - 2"]);
    assert_eq!(run.unused, 1);
    assert_eq!(run.steps, 4);
}

#[test]
fn one_member_is_ordered_and_never_keyed() {
    // A value key that would stop the run (A's partner is `none`) is never read for a group of one.
    let cast = "character A { f = 1 }\ncharacter B { f = 7 }\n";
    let keys = "c.partner.f desc\nroll d6 desc until settled";
    let walk = "for each c in characters where c.f < 5 by o";
    let run = sorted(&ruleset(keys, walk, cast), &[2, 3]);
    assert_eq!(run.error, "");
    assert_eq!(run.lines, ["order A", "turn A", "roll - 2"]);
    assert_eq!(run.unused, 1);
    assert_eq!(run.steps, 6);
}

#[test]
fn a_key_that_is_none_sorts_as_none_and_one_read_through_none_only_where_tied() {
    // `c.partner == none` as a key: those with no partner (A) first among the tied; read through
    // (`c.partner.f`) a partner that is `none` stops the run, but only when the member is in a
    // group the earlier keys left tied.
    let cast = "character A { f = 1 }\ncharacter B { f = 2, partner = C }\ncharacter C { f = 2, partner = A }\n\
                character D { f = 1, partner = B }\n";
    let keys = "c.f desc\nc.partner == none desc\nroll d6 desc until settled";
    let run = sorted(&ruleset(keys, WALK, cast), &[5, 3, 2]);
    assert_eq!(run.error, "");
    // B and C both have a partner: tied on the second key, they roll off.
    assert_eq!(
        run.lines,
        [
            "roll B 5",
            "roll C 3",
            "order B,C,A,D",
            "turn B",
            "turn C",
            "turn A",
            "turn D",
            "roll - 2"
        ]
    );
    assert_eq!(run.steps, 24);

    // A's partner is none, but A is settled by f before the second key: no error (B reads C's
    // f of 2, C reads D's of 1).
    let cast = "character A { f = 3 }\ncharacter B { f = 2, partner = C }\ncharacter C { f = 2, partner = D }\n\
                character D { f = 1, partner = A }\n";
    let keys = "c.f desc\nc.partner.f desc";
    let run = sorted(&ruleset(keys, WALK, cast), &[5]);
    assert_eq!(run.error, "");
    assert_eq!(
        run.lines,
        ["order A,B,C,D", "turn A", "turn B", "turn C", "turn D", "roll - 5"]
    );
    assert_eq!(run.steps, 20);

    // Tied with D on f, A's partner is read: `run::none`, before any order is traced.
    let cast = "character A { f = 1 }\ncharacter B { f = 2, partner = C }\ncharacter C { f = 2, partner = D }\n\
                character D { f = 1, partner = A }\n";
    let run = sorted(&ruleset(keys, WALK, cast), &[5]);
    assert!(run.error.contains("run::none"), "{}", run.error);
    assert!(run.lines.is_empty(), "{:?}", run.lines);
}

#[test]
fn a_value_key_that_rolls_rolls_only_for_the_members_left_tied() {
    // The second key rolls dice as a value (not a roll-off): only B and C, tied on f, roll it, in
    // their order; a tie on it falls to the seat, with no roll again.
    let cast = "character A { f = 3 }\ncharacter B { f = 2, seat = 2 }\ncharacter C { f = 2, seat = 1 }\n\
                character D { f = 1 }\ncharacter E { f = 2, seat = 3 }\n";
    let keys = "c.f desc\nd6 desc\nc.seat asc";
    let run = sorted(&ruleset(keys, WALK, cast), &[4, 4, 1, 6]);
    assert_eq!(run.error, "");
    assert_eq!(
        run.lines,
        [
            "roll B 4",
            "roll C 4",
            "roll E 1",
            "order A,C,B,E,D",
            "turn A",
            "turn C",
            "turn B",
            "turn E",
            "turn D",
            "roll - 6"
        ]
    );
    assert_eq!(run.unused, 0);
    assert_eq!(run.steps, 27);
}

#[test]
fn a_roll_off_at_most_once_leaves_a_tie_for_the_next_key() {
    let cast = "character A { f = 1, seat = 3 }\ncharacter B { f = 1, seat = 1 }\ncharacter C { f = 1, seat = 2 }\n\
                character D { f = 2 }\n";
    let keys = "c.f desc\nroll d6 desc until settled at most 1\nc.seat asc";
    let run = sorted(&ruleset(keys, WALK, cast), &[5, 2, 5, 3]);
    assert_eq!(run.error, "");
    assert_eq!(
        run.lines,
        [
            "roll A 5",
            "roll B 2",
            "roll C 5",
            "order D,C,A,B",
            "turn D",
            "turn C",
            "turn A",
            "turn B",
            "roll - 3"
        ]
    );
    assert_eq!(run.steps, 23);
}

#[test]
fn ties_together_act_as_one_moment_between_members_alone() {
    // The runs tied on the value keys (before the roll-off): B and C, then E and F; A, D alone.
    let cast = "character A { f = 4 }\ncharacter B { f = 3 }\ncharacter C { f = 3 }\ncharacter D { f = 2 }\n\
                character E { f = 1 }\ncharacter F { f = 1 }\n";
    let walk = "for each c in characters by o ties together";
    let run = sorted(&ruleset(ROLL_OFF, walk, cast), &[2, 5, 3, 3, 4, 1, 6]);
    assert_eq!(run.error, "");
    assert_eq!(
        run.lines,
        [
            "roll B 2",
            "roll C 5",
            "roll E 3",
            "roll F 3",
            "roll E 4",
            "roll F 1",
            "order A,C,B,D,E,F",
            "turn A",
            "together C,B",
            "turn C",
            "turn B",
            "turn D",
            "together E,F",
            "turn E",
            "turn F",
            "roll - 6"
        ]
    );
    assert_eq!(run.steps, 32);
}
