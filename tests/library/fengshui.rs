//! 5. Feng Shui 2: the scenarios of systems.md section 5.

use super::{Scenario, play, story, v};
use crate::common::{Run, s};

pub(crate) const FENGSHUI: &str = "rulesets/library/fengshui.turn";

/// The cast of every scenario, in the GM's roster order (Boss before the Mooks). The scenario
/// policy plays the actions the scenarios do not name: each costs 3 shots, and no one dodges.
const CAST: &str = "character Boss  { side npcs, speed = 7 }\n\
    character Jack  { side pcs, speed = 8 }\n\
    character Mei   { side pcs, speed = 7 }\n\
    character Mooks { side npcs, speed = 5, members = 2 }\n\
    policy scenario { act: other  target: Boss  dodge: take_it }\n\
    default policy scenario\n";

/// Each shot of the run, counted down, with who acted on it: `13: Boss`, `7: Boss, Mooks`.
fn shots(run: &Run) -> Vec<String> {
    let mut out: Vec<(String, Vec<String>)> = Vec::new();
    for e in &run.events {
        match e["event"].as_str() {
            Some("round_start") => out.push((e["round"].to_string(), Vec::new())),
            Some("turn_start") => {
                if let Some((_, acting)) = out.last_mut() {
                    acting.push(s(&e["actor"]))
                }
            }
            _ => {}
        }
    }
    out.into_iter()
        .map(|(shot, acting)| format!("{shot}: {}", acting.join(", ")))
        .collect()
}

/// How many turns (actions) each of the cast took, in the roster's order.
fn actions(run: &Run) -> Vec<usize> {
    let turns = run.turns();
    ["Boss", "Jack", "Mei", "Mooks"]
        .iter()
        .map(|who| turns.iter().filter(|t| t == who).count())
        .collect()
}

/// The marker each of the cast was last left at, in the roster's order.
fn markers(run: &Run) -> Vec<i64> {
    ["Boss", "Jack", "Mei", "Mooks"]
        .iter()
        .map(|who| run.left(who, "shots"))
        .collect()
}

/// The events after the first one of this kind whose numeric `key` is `n`.
fn from(run: &Run, kind: &str, key: &str, n: i64) -> Run {
    let i = run
        .events
        .iter()
        .position(|e| e["event"] == kind && e[key] == n)
        .unwrap_or_else(|| panic!("no {kind} with {key}={n}"));
    Run {
        events: run.events[i + 1..].to_vec(),
        stderr: String::new(),
        code: 0,
    }
}

#[test]
fn fengshui_5_1_the_basic_countdown() {
    let run = play(
        FENGSHUI,
        Scenario {
            encounter: CAST,
            rolls: &[6, 4, 4, 2], // Boss 7+6, Jack 8+4, Mei 7+4, Mooks 5+2 (one roll for the group)
            until: "sequence=1",
            ..Scenario::default()
        },
    );
    assert_eq!(
        shots(&run),
        v(&[
            "13: Boss",
            "12: Jack",
            "11: Mei",
            "10: Boss",
            "9: Jack",
            "8: Mei",
            "7: Boss, Mooks",
            "6: Jack",
            "5: Mei",
            "4: Boss, Mooks",
            "3: Jack",
            "2: Mei",
            "1: Boss, Mooks",
        ])
    );
    // Boss and the Mooks on one shot: roster order, no one asked
    assert!(story(&run, &["decision"]).iter().all(|d| !d.contains("on_a_shot")));
    // the Sequence ends after shot 1: the GM is asked whether the fight goes on
    let last: Vec<String> = story(&run, &["round_start", "decision"]);
    assert_eq!(last.last().map(String::as_str), Some("decision gm go_on next_sequence"));
    assert_eq!(markers(&run), vec![-2, 0, -1, -2]);
    assert_eq!(actions(&run), vec![5, 4, 4, 3]);
}

#[test]
fn fengshui_5_2_active_dodges_change_the_timeline() {
    let run = play(
        FENGSHUI,
        Scenario {
            encounter: "character Boss { side npcs, speed = 8 }\n\
                character Jack { side pcs, speed = 8 }\n\
                character Mei  { side pcs, speed = 7 }\n\
                policy scenario { act: other  target: Boss  dodge: take_it }\n\
                default policy scenario\n",
            rolls: &[5, 4, 1], // Boss 13, Jack 12, Mei 8
            answers: "shot 13, Boss, act: attack\n\
                shot 13, Boss, target: Jack\n\
                shot 13, Jack, dodge: active_dodge\n\
                shot 11, Jack, act: attack\n\
                shot 10, Boss, act: long_attack\n\
                shot 10, Boss, target: Jack\n\
                shot 10, Jack, dodge: active_dodge\n\
                shot 7, Jack, act: attack\n\
                shot 6, Boss, act: attack\n\
                shot 6, Boss, target: Mei\n\
                shot 4, Jack, act: attack\n\
                shot 3, Boss, act: attack\n\
                shot 3, Boss, target: Jack\n\
                shot 3, Jack, dodge: active_dodge\n\
                shot 2, Mei, act: attack\n\
                shot 2, Boss, dodge: active_dodge\n",
            until: "sequence=1",
            ..Scenario::default()
        },
    );
    let acting: Vec<String> = shots(&run).into_iter().filter(|l| !l.ends_with(": ")).collect();
    assert_eq!(
        acting,
        v(&[
            "13: Boss", "11: Jack", "10: Boss", "8: Mei", "7: Jack", "6: Boss", "5: Mei", "4: Jack", "3: Boss",
            "2: Mei",
        ])
    );
    // Jack's marker: 12 -> 11 (dodge) -> 8 -> 7 (dodge) -> 4 -> 1 -> 0 (dodge)
    let jack: Vec<String> = story(&run, &["reset", "spend"])
        .into_iter()
        .filter(|l| l.contains(" Jack "))
        .collect();
    assert_eq!(
        jack,
        v(&[
            "reset Jack shots 12",
            "spend Jack shots 1 11",
            "spend Jack shots 3 8",
            "spend Jack shots 1 7",
            "spend Jack shots 3 4",
            "spend Jack shots 3 1",
            "spend Jack shots 1 0",
        ])
    );
    // the dodges are taken out of turn, in the attacker's turn
    assert_eq!(run.of("reaction_start").len(), 3);
    // no action for Jack on shot 1: his last shot went on the dodge at shot 3
    assert_eq!(shots(&run).last().map(String::as_str), Some("1: "));
    // FS-10 [CONVENTION] the Boss, at 0, cannot dodge Mei's attack at shot 2
    assert_eq!(
        story(&run, &["refused"]),
        v(&["refused Boss dodge active_dodge: Boss has no shots left this sequence: no dodge"])
    );
    assert_eq!(["Boss", "Jack", "Mei"].map(|who| run.left(who, "shots")), [0, 0, -1]);
}

#[test]
fn fengshui_5_3_new_sequence_re_roll_and_a_group_removed_mid_sequence() {
    let run = play(
        FENGSHUI,
        Scenario {
            encounter: CAST,
            // Sequence 1 as in 5.1; Sequence 2: Boss 7+3, Jack 8+3, Mei 7+5, Mooks 5+5
            rolls: &[6, 4, 4, 2, 3, 3, 5, 5],
            answers: "sequence 1, after Mei, Mooks: down\n\
                sequence 2, shot 8, Jack, act: attack\n\
                sequence 2, shot 8, Jack, target: Mooks\n\
                sequence 2, shot 8, after Jack, Mooks: down\n",
            until: "sequence=2",
            ..Scenario::default()
        },
    );
    // the first mook goes down in Sequence 1; the group stays, with one left
    assert_eq!(run.left("Mooks", "members"), 1);
    let second = from(&run, "level_start", "n", 2);
    // the re-roll: new markers for everyone
    assert_eq!(
        story(&second, &["reset"]),
        v(&[
            "reset Boss shots 10",
            "reset Jack shots 11",
            "reset Mei shots 12",
            "reset Mooks shots 10"
        ])
    );
    assert_eq!(
        shots(&second),
        v(&[
            "12: Mei",
            "11: Jack",
            "10: Boss, Mooks",
            "9: Mei",
            "8: Jack",
            "7: Boss",
            "6: Mei",
            "5: Jack",
            "4: Boss",
            "3: Mei",
            "2: Jack",
            "1: Boss",
        ])
    );
    // Jack's attack at shot 8 takes out the last mook: the group leaves play
    let at_8 = from(&second, "round_start", "round", 8);
    let lines = story(&at_8, &["turn_start", "attempt", "leave"]);
    assert_eq!(
        lines[..4],
        v(&["turn Jack", "attempt Mooks down", "leave Mooks", "turn Boss"])[..]
    );
    assert_eq!(second.left("Jack", "shots"), -1, "Jack at shot 2: marker -1, allowed");
    assert_eq!(second.left("Boss", "shots"), -2);
    assert_eq!(actions(&second), vec![4, 4, 4, 1]);
}
