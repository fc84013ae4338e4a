//! Pathfinder 2e (rulesets/library/pf2e.turn): the three scenarios of systems.md section 10.

use super::{PF2E, Scenario, play, story, v};
use crate::common::{Run, names};

/// Initiative 22, 18, 18, 18, 12: d20 14, 16, 12, 14, 7 on Perception +8, +2, +6, +4, +5.
const ROLLS: [i64; 5] = [14, 16, 12, 14, 7];

fn cast(conditions: bool) -> String {
    let (mer, kyra, val) = if conditions {
        (", quickened = true", ", stunned = 2", ", slowed = 1")
    } else {
        ("", "", "")
    };
    format!(
        "character Merisiel {{ side pcs, perception = 8{mer} }}\n\
         character \"Goblin Warrior\" {{ side foes, perception = 2 }}\n\
         character Kyra {{ side pcs, perception = 6{kyra} }}\n\
         character Valeros {{ side pcs, perception = 4{val} }}\n\
         character \"Goblin Commando\" {{ side foes, perception = 5 }}\n"
    )
}

const ORDER: [&str; 5] = ["Merisiel", "Goblin Warrior", "Kyra", "Valeros", "Goblin Commando"];

fn pf2_story(run: &Run) -> Vec<String> {
    story(
        run,
        &[
            "round_start",
            "order",
            "turn_start",
            "reset",
            "set",
            "trigger",
            "mark",
            "clear",
            "effect_start",
            "effect_end",
        ],
    )
    .into_iter()
    .filter(|l| !l.contains("initiative"))
    .collect()
}

#[test]
fn pf2e_10_1_tie_rules_and_action_counts() {
    let encounter = cast(true);
    let run = play(
        PF2E,
        Scenario {
            encounter: &encounter,
            rolls: &ROLLS,
            answers: "initiative_order: Kyra\n",
            until: "round=2",
            ..Scenario::default()
        },
    );
    // The foe goes before the PCs tied with it at 18; Kyra before Valeros by the players' choice.
    let chosen = run.of("decision");
    assert_eq!(chosen[0]["decision"], "initiative_order");
    assert_eq!(names(&chosen[0]["options"]), v(&["Kyra", "Valeros"]));
    assert_eq!(run.orders(), vec![v(&ORDER)]);
    assert_eq!(run.rounds(), vec![v(&ORDER); 2]);
    assert_eq!(
        pf2_story(&run),
        v(&[
            "order Merisiel,Goblin Warrior,Kyra,Valeros,Goblin Commando",
            "round 1",
            "turn Merisiel",
            "reset Merisiel actions 4",
            "turn Goblin Warrior",
            "reset Goblin Warrior actions 3",
            "turn Kyra",
            "reset Kyra actions 1",
            "set Kyra stunned 0",
            "turn Valeros",
            "reset Valeros actions 2",
            "turn Goblin Commando",
            "reset Goblin Commando actions 3",
            "round 2",
            "turn Merisiel",
            "reset Merisiel actions 4",
            "turn Goblin Warrior",
            "reset Goblin Warrior actions 3",
            "turn Kyra",
            "reset Kyra actions 3",
            "turn Valeros",
            "reset Valeros actions 2",
            "turn Goblin Commando",
            "reset Goblin Commando actions 3",
        ])
    );
}

#[test]
fn pf2e_10_1_one_reaction_refreshed_at_the_start_of_its_own_turn() {
    let encounter = cast(false);
    let run = play(
        PF2E,
        Scenario {
            encounter: &encounter,
            rolls: &ROLLS,
            answers: "initiative_order: Kyra\n\
                round 1, after Merisiel, Kyra: react_now\n\
                round 1, after Goblin Warrior, Kyra: react_now\n\
                round 2, after Kyra, Kyra: react_now\n",
            until: "round=2",
            ..Scenario::default()
        },
    );
    let lines = story(&run, &["round_start", "turn_start", "mark", "clear", "attempt_refused"]);
    assert_eq!(
        lines,
        v(&[
            "round 1",
            "turn Merisiel",
            "mark Kyra reacted",
            "turn Goblin Warrior",
            "refused Kyra react_now: react_now is not open now: its `when` does not hold",
            "turn Kyra",
            "clear Kyra reacted",
            "turn Valeros",
            "turn Goblin Commando",
            "round 2",
            "turn Merisiel",
            "turn Goblin Warrior",
            "turn Kyra",
            "mark Kyra reacted",
            "turn Valeros",
            "turn Goblin Commando",
        ])
    );
}

#[test]
fn pf2e_10_2_delay_permanent_re_entry_and_a_forfeited_delay() {
    let encounter = cast(false).replace("perception = 4", "perception = 4, persistent_damage = true");
    let run = play(
        PF2E,
        Scenario {
            encounter: &encounter,
            rolls: &ROLLS,
            answers: "initiative_order: Kyra\n\
                round 1, Merisiel, begin_turn: delay\n\
                round 1, Merisiel, return: come_back\n\
                round 2, Valeros, begin_turn: delay\n\
                round 2, after Goblin Commando, Valeros: react_now\n",
            until: "round=3",
            ..Scenario::default()
        },
    );
    let new_order = ["Goblin Warrior", "Merisiel", "Kyra", "Valeros", "Goblin Commando"];
    assert_eq!(run.orders(), vec![v(&ORDER), v(&new_order)]);
    // Round 1 realised order: Merisiel's turn begins, she Delays and comes back after the Goblin Warrior.
    assert_eq!(
        run.rounds(),
        vec![
            v(&[
                "Merisiel",
                "Goblin Warrior",
                "Merisiel",
                "Kyra",
                "Valeros",
                "Goblin Commando"
            ]),
            v(&["Goblin Warrior", "Merisiel", "Kyra", "Valeros", "Goblin Commando"]),
            v(&new_order),
        ]
    );
    let lines = story(
        &run,
        &[
            "round_start",
            "order",
            "turn_start",
            "decision",
            "trigger",
            "mark",
            "clear",
            "attempt_refused",
        ],
    );
    let lines: Vec<String> = lines
        .into_iter()
        .filter(|l| !l.contains(" act ") && !l.contains("begin_turn act") && !l.contains("initiative"))
        .collect();
    assert_eq!(
        lines,
        v(&[
            "order Merisiel,Goblin Warrior,Kyra,Valeros,Goblin Commando",
            "round 1",
            "turn Merisiel",
            "decision Merisiel begin_turn delay",
            "mark Merisiel delaying",
            "turn Goblin Warrior",
            "decision Merisiel return come_back",
            "clear Merisiel delaying",
            "order Goblin Warrior,Merisiel,Kyra,Valeros,Goblin Commando",
            "turn Merisiel",
            "turn Kyra",
            "turn Valeros",
            "trigger persistent(Valeros)",
            "turn Goblin Commando",
            "round 2",
            "turn Goblin Warrior",
            "turn Merisiel",
            "turn Kyra",
            // Valeros Delays: out of the order; his persistent damage is resolved once, now
            "turn Valeros",
            "decision Valeros begin_turn delay",
            "mark Valeros delaying",
            "trigger persistent(Valeros)",
            "turn Goblin Commando",
            "decision Valeros return wait",
            // no reaction while delayed
            "refused Valeros react_now: react_now is not open now: its `when` does not hold",
            "round 3",
            "turn Goblin Warrior",
            "decision Valeros return wait",
            "turn Merisiel",
            "decision Valeros return wait",
            "turn Kyra",
            "decision Valeros return wait",
            // his original position: the round 2 turn is forfeit, his initiative unchanged
            "clear Valeros delaying",
            "turn Valeros",
            "trigger persistent(Valeros)",
            "turn Goblin Commando",
        ])
    );
    // Valeros's initiative is unchanged: the lapsed Delay moved nothing.
    let fin = run.of("final");
    let valeros = fin[0]["entities"]
        .as_array()
        .and_then(|es| es.iter().find(|e| e["name"] == "Valeros"))
        .map(|e| e["fields"]["initiative"].clone());
    assert_eq!(valeros, Some(serde_json::json!(18)));
}

#[test]
fn pf2e_10_3_duration_bookkeeping() {
    let encounter = cast(false);
    let run = play(
        PF2E,
        Scenario {
            encounter: &encounter,
            rolls: &ROLLS,
            answers: "initiative_order: Kyra\n\
                round 1, Merisiel, act: frighten\n\
                round 1, Merisiel, whom: Goblin Warrior\n\
                round 1, Kyra, act: cast\n\
                round 1, Kyra, on_whom: Kyra\n\
                round 1, Valeros, act: raise_shield\n\
                round 1, Goblin Commando, act: feint\n\
                round 1, Goblin Commando, whom: Kyra\n",
            until: "round=4",
            ..Scenario::default()
        },
    );
    let lines: Vec<String> = story(
        &run,
        &[
            "round_start",
            "turn_start",
            "set",
            "effect_start",
            "effect_tick",
            "effect_end",
        ],
    )
    .into_iter()
    .filter(|l| !l.contains("initiative"))
    .collect();
    assert_eq!(
        lines,
        v(&[
            "round 1",
            "turn Merisiel",
            "set Goblin Warrior frightened 2",
            "turn Goblin Warrior",
            "set Goblin Warrior frightened 1",
            "turn Kyra",
            "effect Kyra spell until start of Kyra's turn",
            "turn Valeros",
            "effect Valeros shield_raised until start of Valeros's turn",
            "turn Goblin Commando",
            "effect Kyra off_guard until end of Goblin Commando's turn",
            "effect_tick Kyra off_guard 1",
            "round 2",
            "turn Merisiel",
            "turn Goblin Warrior",
            "set Goblin Warrior frightened 0",
            "turn Kyra",
            "effect_tick Kyra spell 2",
            "turn Valeros",
            "effect_end Valeros shield_raised",
            "turn Goblin Commando",
            "effect_end Kyra off_guard",
            "round 3",
            "turn Merisiel",
            "turn Goblin Warrior",
            "turn Kyra",
            "effect_tick Kyra spell 1",
            "turn Valeros",
            "turn Goblin Commando",
            "round 4",
            "turn Merisiel",
            "turn Goblin Warrior",
            "turn Kyra",
            "effect_end Kyra spell",
            "turn Valeros",
            "turn Goblin Commando",
        ])
    );
    let counts: Vec<i64> = run
        .of("effect_start")
        .iter()
        .map(|e| e["for"].as_i64().unwrap_or(0))
        .collect();
    assert_eq!(counts, vec![3, 1, 2]);
}
