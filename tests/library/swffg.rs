//! 11. Star Wars Roleplaying (FFG), slot initiative: the scenarios of systems.md section 11.

use super::{Scenario, play, story, v};
use crate::common::Run;

pub(crate) const SWFFG: &str = "rulesets/library/swffg.turn";

/// The slots a run filled, in order: `PC` or `NPC`, by the decision that filled each.
fn slots(run: &Run) -> Vec<String> {
    run.of("decision")
        .into_iter()
        .filter_map(|e| match e["decision"].as_str() {
            Some("pc_slot") => Some("PC".to_string()),
            Some("npc_slot") => Some("NPC".to_string()),
            _ => None,
        })
        .collect()
}

// Ability dice faces: 0 blank, 1 success, 2 two successes, 3 advantage, 4 two advantages,
// 5 success and advantage, 6 Triumph (Proficiency only).
const SWF_111: &str = "character Han      { side pcs }\n\
    character Troopers { side npcs, tag minion_group }\n\
    character Leia     { side pcs }\n\
    character Officer  { side npcs }\n\
    character Chewie   { side pcs }\n";

#[test]
fn swffg_11_1_slots_and_free_choice_of_who_fills_them() {
    let run = play(
        SWFFG,
        Scenario {
            encounter: SWF_111,
            // two Ability dice each: Han 2s1a, Troopers 2s1a, Leia 1s3a, Officer 1s1a, Chewie 1s0a
            rolls: &[2, 3, 2, 3, 5, 4, 5, 0, 1, 0],
            answers: "round 1, pc_slot: Chewie\n\
                round 1, npc_slot: Officer\n\
                round 1, pc_slot: Chewie\n\
                round 1, pc_slot: Leia\n\
                round 1, npc_slot: Troopers\n\
                round 1, pc_slot: Han\n\
                round 2, pc_slot: Han\n\
                round 2, npc_slot: Troopers\n\
                round 2, pc_slot: Chewie\n\
                round 2, npc_slot: Officer\n\
                round 2, pc_slot: Leia\n",
            until: "round=2",
            ..Scenario::default()
        },
    );
    // Han wins the 2s1a tie with the Troopers: a PC ranks higher. Ranked once, no re-roll.
    assert_eq!(run.orders(), vec![v(&["Han", "Troopers", "Leia", "Officer", "Chewie"])]);
    assert_eq!(run.of("roll").len(), 5, "one check each, once");
    assert_eq!(
        slots(&run),
        v(&["PC", "NPC", "PC", "NPC", "PC", "PC", "NPC", "PC", "NPC", "PC"])
    );
    assert_eq!(
        run.rounds(),
        vec![
            v(&["Chewie", "Officer", "Leia", "Troopers", "Han"]),
            v(&["Han", "Troopers", "Chewie", "Officer", "Leia"]),
        ]
    );
    let fills: Vec<String> = story(&run, &["round_start", "decision", "refused"])
        .into_iter()
        .filter(|l| l.contains("_slot") || l.starts_with("round"))
        .collect();
    assert_eq!(
        fills[..5],
        v(&[
            "round 1",
            "decision players pc_slot Chewie",
            "decision gm npc_slot Officer",
            // the third slot (a PC slot): Chewie has acted this round, so he is rejected
            "refused players pc_slot Chewie: Chewie has already acted this round",
            "decision players pc_slot Leia",
        ])[..]
    );
}

const SWF_112: &str = "character Lando  { side pcs, cool_ability = 1, cool_proficiency = 1 }\n\
    character Bossk  { side npcs }\n\
    character Luke   { side pcs }\n\
    character Greedo { side npcs }\n";

#[test]
fn swffg_11_2_triumph_counts_as_a_success_advantage_breaks_ties() {
    let run = play(
        SWFFG,
        Scenario {
            encounter: SWF_112,
            // Lando: a success (Ability) and a Triumph (Proficiency); Bossk 2 x success and
            // advantage; Luke and Greedo 2 x advantage
            rolls: &[1, 6, 5, 5, 3, 3, 3, 3],
            answers: "round 1, npc_slot: Greedo\n\
                round 1, pc_slot: Luke\n\
                round 1, pc_slot: Lando\n\
                round 1, npc_slot: Bossk\n",
            until: "round=1",
            ..Scenario::default()
        },
    );
    let net: Vec<String> = story(&run, &["set"]);
    assert_eq!(
        net[..2],
        v(&["set Lando successes 1", "set Lando advantages 0"])[..],
        "the Ability die"
    );
    assert_eq!(net[2], "set Lando successes 2", "the Triumph counts as a success");
    assert_eq!(run.orders(), vec![v(&["Bossk", "Lando", "Luke", "Greedo"])]);
    assert_eq!(slots(&run), v(&["NPC", "PC", "PC", "NPC"]));
    assert_eq!(run.rounds(), vec![v(&["Greedo", "Luke", "Lando", "Bossk"])]);
}

const SWF_113: &str = "character Officer  { side npcs }\n\
    character Han      { side pcs, strain = 3 }\n\
    character Leia     { side pcs }\n\
    character Troopers { side npcs, tag minion_group }\n";

#[test]
fn swffg_11_3_maneuver_budget_and_end_of_round_expiry() {
    let run = play(
        SWFFG,
        Scenario {
            encounter: SWF_113,
            // Officer 2s, Han 1s1a, Leia 1s, Troopers 0s
            rolls: &[2, 0, 5, 0, 1, 0, 0, 0],
            answers: "round 1, npc_slot: Officer\n\
                round 1, Officer, act: command\n\
                round 1, Officer, act: end_turn\n\
                round 1, pc_slot: Han\n\
                round 1, Han, act: maneuver\n\
                round 1, Han, maneuver: aim\n\
                round 1, Han, act: maneuver\n\
                round 1, Han, maneuver: move\n\
                round 1, Han, second_maneuver: for_strain\n\
                round 1, Han, act: attack\n\
                round 1, Han, act: maneuver\n\
                round 1, Han, act: end_turn\n\
                round 1, pc_slot: Leia\n\
                round 1, Leia, act: maneuver\n\
                round 1, Leia, maneuver: move\n\
                round 1, Leia, act: maneuver\n\
                round 1, Leia, maneuver: move\n\
                round 1, Leia, second_maneuver: for_action\n\
                round 1, Leia, act: end_turn\n",
            until: "round=2",
            ..Scenario::default()
        },
    );
    assert_eq!(run.orders(), vec![v(&["Officer", "Han", "Leia", "Troopers"])]);
    let kinds = [
        "round_start",
        "turn_start",
        "decision",
        "refused",
        "spend",
        "gain",
        "effect_start",
        "effect_end",
    ];
    let lines = story(&run, &kinds);
    let han = lines.iter().position(|l| l == "turn Han").expect("Han's turn");
    let troopers = lines
        .iter()
        .position(|l| l == "turn Troopers")
        .expect("the Troopers' turn");
    assert_eq!(
        lines[han..troopers],
        v(&[
            "turn Han",
            "decision Han act maneuver",
            "decision Han maneuver aim",
            "gain Han maneuvers 1 1",
            "decision Han act maneuver",
            "decision Han maneuver move",
            "decision Han second_maneuver for_strain",
            "gain Han strain 2 5", // 3 -> 5
            "gain Han maneuvers 1 2",
            "decision Han act attack",
            "spend Han actions 1 0",
            // a third maneuver is rejected: 2 per turn
            "refused Han act maneuver: Han has taken 2 maneuvers this turn: never more than 2",
            "decision Han act end_turn",
            "decision players pc_slot Leia",
            "turn Leia",
            "decision Leia act maneuver",
            "decision Leia maneuver move",
            "gain Leia maneuvers 1 1",
            "decision Leia act maneuver",
            "decision Leia maneuver move",
            // she trades her action: no strain, and no action this turn
            "decision Leia second_maneuver for_action",
            "spend Leia actions 1 0",
            "gain Leia maneuvers 1 2",
            "decision Leia act end_turn",
            "decision gm npc_slot Troopers",
        ])[..]
    );
    assert!(lines.iter().all(|l| !l.starts_with("gain Leia strain")));
    // the Officer's bonus: begun in round 1, ended after its last slot, absent in round 2
    let round2 = lines.iter().position(|l| l == "round 2").expect("round 2");
    let bonus: Vec<&String> = lines.iter().filter(|l| l.contains("bonus")).collect();
    assert_eq!(
        bonus,
        vec!["effect Troopers bonus until end of round", "effect_end Troopers bonus",]
    );
    let last_end = lines.iter().rposition(|l| l.starts_with("effect_end")).expect("ends");
    let last_turn = lines[..round2]
        .iter()
        .rposition(|l| l.starts_with("turn "))
        .expect("a turn");
    assert!(last_turn < last_end && last_end < round2, "{lines:#?}");
}
