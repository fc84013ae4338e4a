//! 3. Shadowrun 5th edition (rulesets/library/shadowrun.turn): the scenarios of systems.md section 3.

use super::{Scenario, play, story, v};
use crate::common::{Run, s};
use std::collections::BTreeMap;

pub(crate) const SHADOWRUN: &str = "rulesets/library/shadowrun.turn";

/// The cast of scenarios 3.1 and 3.3, and a policy that takes no actions, defends as usual and
/// inflicts no wound unless an answer says otherwise, so only the scenario's events move a score.
const CAST_31: &str = "character Sam    { side runners, reaction = 5, intuition = 4, init_dice = 3, edge = 3 }\n\
    character Troll  { side opposition, reaction = 4, intuition = 3, edge = 2 }\n\
    character Mage   { side runners, reaction = 3, intuition = 5, edge = 4 }\n\
    character Ganger { side opposition, reaction = 3, intuition = 3, edge = 1 }\n\
    policy scripted { act: end_phase  defend: as_usual  wound: no_wound  go_on: next_turn }\n\
    default policy scripted\n";

/// Sam 3d6 = 6, 5, 4 (24); Troll 1d6 = 5 (12); Mage 1d6 = 3 (11); Ganger 1d6 = 4 (10).
const ROLLS_31: [i64; 6] = [6, 5, 4, 5, 3, 4];

/// The turns of each Initiative Pass, one list per pass, in order.
fn passes(run: &Run) -> Vec<Vec<String>> {
    let mut out: Vec<Vec<String>> = Vec::new();
    for e in &run.events {
        match e["event"].as_str() {
            Some("phase_start") if e["phase"] == "pass" => out.push(Vec::new()),
            Some("turn_start") => {
                if let Some(p) = out.last_mut() {
                    p.push(s(&e["actor"]))
                }
            }
            _ => {}
        }
    }
    out
}

/// Every character's score as each pass ends (after its -10), one line per pass: `Sam 14, ...`.
fn scores_after_passes(run: &Run, cast: &[&str]) -> Vec<String> {
    let mut score: BTreeMap<String, i64> = BTreeMap::new();
    let mut out = Vec::new();
    for e in &run.events {
        match e["event"].as_str() {
            Some("set") if e["stat"] == "score" => {
                score.insert(s(&e["actor"]), e["left"].as_i64().expect("a score is a number"));
            }
            Some("phase_end") if e["phase"] == "pass" => out.push(
                cast.iter()
                    .map(|c| format!("{c} {}", score[*c]))
                    .collect::<Vec<_>>()
                    .join(", "),
            ),
            _ => {}
        }
    }
    out
}

/// How many passes each Combat Turn had.
fn passes_per_turn(run: &Run) -> Vec<usize> {
    let mut out: Vec<usize> = Vec::new();
    for e in &run.events {
        match (e["event"].as_str(), e["phase"].as_str()) {
            (Some("round_start"), _) => out.push(0),
            (Some("phase_start"), Some("pass")) => {
                if let Some(n) = out.last_mut() {
                    *n += 1
                }
            }
            _ => {}
        }
    }
    out
}

const FOUR: [&str; 4] = ["Sam", "Troll", "Mage", "Ganger"];

#[test]
fn shadowrun_3_1_passes_and_a_delayed_action_variant() {
    // Combat Turn 2 rolls again: the same dice, forced.
    let rolls: Vec<i64> = ROLLS_31.iter().chain(ROLLS_31.iter()).copied().collect();
    let run = play(
        SHADOWRUN,
        Scenario {
            encounter: CAST_31,
            rolls: &rolls,
            until: "combat_turn=2",
            ..Scenario::default()
        },
    );
    let turn_one = [v(&FOUR), v(&["Sam", "Troll", "Mage"]), v(&["Sam"])];
    assert_eq!(passes(&run)[..3], turn_one);
    assert_eq!(
        scores_after_passes(&run, &FOUR)[..3],
        v(&[
            "Sam 14, Troll 2, Mage 1, Ganger 0",
            "Sam 4, Troll -8, Mage -9, Ganger -10",
            "Sam -6, Troll -18, Mage -19, Ganger -20",
        ])
    );
    // Combat Turn 1 ends after pass 3, and initiative is rolled again as Combat Turn 2 begins.
    assert_eq!(passes_per_turn(&run), vec![3, 3]);
    let turn_two = run
        .events
        .iter()
        .position(|e| e["event"] == "round_start" && e["round"] == 2)
        .expect("Combat Turn 2 begins");
    let first_rolls: Vec<String> = run.events[turn_two + 1..turn_two + 9].iter().map(super::line).collect();
    assert_eq!(
        first_rolls,
        v(&[
            "roll Sam score 15",
            "set Sam score 24",
            "roll Troll score 5",
            "set Troll score 12",
            "roll Mage score 3",
            "set Mage score 11",
            "roll Ganger score 4",
            "set Ganger score 10",
        ])
    );
    // Action Phases taken in Combat Turn 1: Sam 3, Troll 2, Mage 2, Ganger 1.
    let phases: Vec<usize> = FOUR
        .iter()
        .map(|c| turn_one.iter().flatten().filter(|a| a == c).count())
        .collect();
    assert_eq!(phases, vec![3, 2, 2, 1]);
}

#[test]
fn shadowrun_3_1b_a_delayed_action_acts_after_the_ganger_at_minus_one_die() {
    let run = play(
        SHADOWRUN,
        Scenario {
            encounter: CAST_31,
            rolls: &ROLLS_31,
            answers: "combat_turn 1, pass 1, Sam, action_phase, Troll: act_now\n\
                combat_turn 1, pass 1, Troll, action_phase: delay\n\
                combat_turn 1, pass 1, after Ganger, Troll: act_now\n",
            until: "combat_turn=1",
            ..Scenario::default()
        },
    );
    // Pass 1 realised order: Sam, Mage, Ganger, Troll; pass 2 as before: Sam, Troll, Mage.
    assert_eq!(
        passes(&run),
        vec![
            v(&["Sam", "Mage", "Ganger", "Troll"]),
            v(&["Sam", "Troll", "Mage"]),
            v(&["Sam"])
        ]
    );
    let pass_one: Vec<String> = story(
        &run,
        &[
            "turn_start",
            "decision",
            "refused",
            "attempt",
            "effect_start",
            "effect_end",
            "phase_end",
        ],
    )
    .into_iter()
    .filter(|l| !l.ends_with(" act end_phase") && !l.ends_with("action_phase act"))
    .take_while(|l| !l.starts_with("phase_end"))
    .collect();
    assert_eq!(
        pass_one,
        v(&[
            "refused Troll action_phase act_now: Troll has no Delayed Action",
            "turn Sam",
            "decision Troll action_phase delay",
            "turn Mage",
            "turn Ganger",
            "attempt Troll act_now",
            "turn Troll",
            "effect Troll delayed until end of Troll's turn",
            "effect_end Troll delayed",
        ])
    );
    // The Troll keeps its 12: 2 after pass 1.
    assert_eq!(scores_after_passes(&run, &FOUR)[0], "Sam 14, Troll 2, Mage 1, Ganger 0");
}

#[test]
fn shadowrun_3_1b_a_delayer_acts_at_the_same_time_as_the_ganger() {
    let run = play(
        SHADOWRUN,
        Scenario {
            encounter: CAST_31,
            rolls: &ROLLS_31,
            answers: "combat_turn 1, pass 1, Troll, action_phase: delay\n\
                combat_turn 1, pass 1, Sam, action_phase, Mage: act_with\n\
                combat_turn 1, pass 2, Sam, action_phase, Troll: act_with\n\
                combat_turn 1, pass 1, Ganger, action_phase, Troll: act_with\n",
            until: "combat_turn=1",
            ..Scenario::default()
        },
    );
    let lines = story(
        &run,
        &[
            "phase_start",
            "turn_start",
            "together_start",
            "together_end",
            "attempt",
            "refused",
        ],
    );
    assert_eq!(
        lines[..9],
        v(&[
            "phase pass",
            "refused Mage action_phase act_with: Mage has no Delayed Action",
            "turn Sam",
            "turn Mage",
            "attempt Troll act_with",
            "together Troll,Ganger",
            "turn Troll",
            "turn Ganger",
            "together end",
        ])
    );
    assert_eq!(passes(&run)[1], v(&["Sam", "Troll", "Mage"]));
}

#[test]
fn shadowrun_3_2_eric_tie_breaking() {
    let cast = "character Ana { side runners, reaction = 4, intuition = 4, edge = 3 }\n\
        character Bo  { side runners, reaction = 5, intuition = 3, edge = 3 }\n\
        character Cy  { side runners, reaction = 3, intuition = 5, edge = 5 }\n\
        character Dee { side runners, reaction = 4, intuition = 4, edge = 3 }\n\
        policy scripted { act: end_phase  go_on: next_turn }\n\
        default policy scripted\n";
    // Every score 12 (1d6 = 4); coin 1: Ana 1, Dee 2 (Dee wins); coin 2: Ana 2, Dee 1 (Ana wins).
    let run = play(
        SHADOWRUN,
        Scenario {
            encounter: cast,
            rolls: &[4, 4, 4, 4, 1, 2, 2, 1],
            until: "combat_turn=1",
            ..Scenario::default()
        },
    );
    assert_eq!(
        passes(&run),
        vec![v(&["Cy", "Bo", "Dee", "Ana"]), v(&["Cy", "Bo", "Ana", "Dee"])]
    );
    // One coin per pass: the tie is kept while the walk sorts again before each phase.
    let coins: Vec<String> = story(&run, &["roll", "phase_start"])
        .into_iter()
        .filter(|l| !l.contains(" score "))
        .collect();
    assert_eq!(
        coins,
        v(&[
            "phase pass",
            "roll Ana initiative 1",
            "roll Dee initiative 2",
            "phase pass",
            "roll Ana initiative 2",
            "roll Dee initiative 1",
        ])
    );
    let four = ["Ana", "Bo", "Cy", "Dee"];
    assert_eq!(
        scores_after_passes(&run, &four),
        v(&["Ana 2, Bo 2, Cy 2, Dee 2", "Ana -8, Bo -8, Cy -8, Dee -8"])
    );
    assert_eq!(passes_per_turn(&run), vec![2]);
}

#[test]
fn shadowrun_3_3_seize_the_initiative_and_re_sorting_after_an_interrupt() {
    let run = play(
        SHADOWRUN,
        Scenario {
            encounter: CAST_31,
            rolls: &ROLLS_31,
            answers: "combat_turn 1, start of pass 1, Ganger: seize\n\
                combat_turn 1, start of pass 2, Ganger: seize\n\
                combat_turn 1, pass 1, Sam, act: fire_weapon\n\
                combat_turn 1, pass 1, Sam, target: Troll\n\
                combat_turn 1, pass 1, Troll, defend: dodge\n\
                combat_turn 1, pass 1, Troll, act: fire_weapon\n\
                combat_turn 1, pass 1, Troll, target: Mage\n\
                combat_turn 1, pass 1, gm, wound: no_wound\n\
                combat_turn 1, pass 1, gm, wound: minus_2\n",
            until: "combat_turn=1",
            ..Scenario::default()
        },
    );
    // Realised order: Ganger (seized), Sam, then the Mage above the dodging Troll.
    assert_eq!(
        passes(&run),
        vec![v(&["Ganger", "Sam", "Mage", "Troll"]), v(&["Sam"]), v(&["Sam"])]
    );
    let lines = story(
        &run,
        &[
            "attempt",
            "attempt_refused",
            "spend",
            "mark",
            "turn_start",
            "set",
            "decision",
        ],
    );
    let lines: Vec<String> = lines
        .into_iter()
        .filter(|l| {
            !l.starts_with("set up")
                && !l.ends_with(" action_phase act")
                && !l.ends_with(" act end_phase")
                && !l.contains("go_on")
        })
        .collect();
    assert_eq!(
        lines,
        v(&[
            "set Sam score 24",
            "set Troll score 12",
            "set Mage score 11",
            "set Ganger score 10",
            "attempt Ganger seize",
            "spend Ganger edge_points 1 0",
            "mark Ganger seized",
            "turn Ganger",
            "turn Sam",
            "decision Sam act fire_weapon",
            "spend Sam actions 1 1",
            "decision Sam target Troll",
            "decision Troll defend dodge",
            "set Troll score 7",
            "decision gm wound no_wound",
            "turn Mage",
            "turn Troll",
            "decision Troll act fire_weapon",
            "spend Troll actions 1 1",
            "decision Troll target Mage",
            "decision Mage defend as_usual",
            "decision gm wound minus_2",
            "set Mage wound_modifier -2",
            "set Mage score 9",
            "set Sam score 14",
            "set Troll score -3",
            "set Mage score -1",
            "set Ganger score 0",
            "refused Ganger seize: Ganger has no Edge left; Ganger has seized the initiative this Combat Turn already",
            "turn Sam",
            "set Sam score 4",
            "set Troll score -13",
            "set Mage score -11",
            "set Ganger score -10",
            "turn Sam",
            "set Sam score -6",
            "set Troll score -23",
            "set Mage score -21",
            "set Ganger score -20",
        ])
    );
    assert_eq!(
        scores_after_passes(&run, &["Sam", "Mage", "Troll", "Ganger"])[0],
        "Sam 14, Mage -1, Troll -3, Ganger 0"
    );
    assert_eq!(passes_per_turn(&run), vec![3]);
}

#[test]
fn shadowrun_3_3_an_interrupt_is_refused_beyond_the_score_and_full_defense_lasts_the_turn() {
    let run = play(
        SHADOWRUN,
        Scenario {
            encounter: CAST_31,
            rolls: &ROLLS_31,
            answers: "combat_turn 1, pass 1, Sam, act: fire_weapon\n\
                combat_turn 1, pass 1, Sam, target: Ganger\n\
                combat_turn 1, pass 1, Ganger, defend: full_defense\n\
                combat_turn 1, pass 2, Sam, act: fire_weapon\n\
                combat_turn 1, pass 2, Sam, target: Ganger\n\
                combat_turn 1, pass 2, Ganger, defend: full_defense\n\
                combat_turn 1, pass 2, Ganger, defend: dodge\n",
            until: "combat_turn=1",
            ..Scenario::default()
        },
    );
    let lines: Vec<String> = story(&run, &["refused", "effect_start", "effect_end"]);
    assert_eq!(
        lines,
        v(&[
            "effect Ganger full_defense until end of combat_turn",
            "refused Ganger defend full_defense: Ganger has a score of -10, less than 10; Ganger is on Full Defense already",
            "refused Ganger defend dodge: Ganger has a score of -10, less than 5",
            "effect_end Ganger full_defense",
        ])
    );
    // Full Defense cost 10 at once: the Ganger, 10, is at 0 and out of pass 1's remaining phases.
    assert_eq!(passes(&run)[0], v(&["Sam", "Troll", "Mage"]));
}

#[test]
fn shadowrun_blitz_rolls_the_most_dice_and_a_late_arrival_subtracts_the_passes_completed() {
    // The Ganger Blitzes (5d6 = 1, 2, 3, 4, 5: 6 + 15 = 21); a rigger arrives as pass 2 begins:
    // 4 + 4 + 1d6 = 6 is 14, less 10 for the pass completed: 4, and it acts in pass 2.
    let encounter = format!(
        "{CAST_31}character Rigger {{ side runners, reaction = 4, intuition = 4, absent }}\n\
         on start of pass where pass.number == 2 {{ join Rigger }}\n"
    );
    let run = play(
        SHADOWRUN,
        Scenario {
            encounter: &encounter,
            rolls: &[6, 5, 4, 5, 3, 1, 2, 3, 4, 5, 6],
            answers: "start of combat_turn 1, Ganger: blitz\n\
                start of combat_turn 1, Ganger: blitz\n",
            until: "combat_turn=1",
            ..Scenario::default()
        },
    );
    let lines: Vec<String> = story(&run, &["attempt", "attempt_refused", "spend", "roll", "set", "join"])
        .into_iter()
        .filter(|l| !l.starts_with("set up") && (l.contains("Ganger") || l.contains("Rigger")))
        .take(10)
        .collect();
    assert_eq!(
        lines,
        v(&[
            "attempt Ganger blitz",
            "spend Ganger edge_points 1 0",
            "refused Ganger blitz: Ganger has no Edge left",
            "roll Ganger score 15",
            "set Ganger score 21",
            "set Ganger score 11",
            "join Rigger",
            "roll Rigger score 6",
            "set Rigger score 14",
            "set Rigger score 4",
        ])
    );
    assert_eq!(
        passes(&run)[..2],
        [
            v(&["Sam", "Ganger", "Troll", "Mage"]),
            v(&["Sam", "Ganger", "Rigger", "Troll", "Mage"])
        ]
    );
}
