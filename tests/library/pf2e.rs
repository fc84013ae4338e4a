//! Pathfinder 2e (rulesets/library/pf2e.turn): the three scenarios of systems.md section 10.

use super::{Scenario, play, story, v};
use crate::common::{Run, names};

const PF2E: &str = "rulesets/library/pf2e.turn";

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
