//! D&D 5e (rulesets/library/dnd5e.turn): the three scenarios of systems.md section 1, and the
//! corners the ruleset met.

use super::{DND5E, Scenario, play, story, v};
use crate::common::{Run, names};
use serde_json::Value;

const DND_11: &str = "character Ayla   { side pcs, dex = 16 }\n\
    character Goblin { side npcs, dex = 14, tag surprised }\n\
    character Borin  { side pcs, dex = 10 }\n\
    character Wolf   { side npcs, dex = 15 }\n";

const DND_KINDS: [&str; 15] = [
    "round_start",
    "order",
    "turn_start",
    "reset",
    "spend",
    "action",
    "trigger",
    "reaction_start",
    "decision",
    "refused",
    "mark",
    "clear",
    "effect_start",
    "effect_end",
    "ready_end",
];

/// The scenario's story: every kind above, without the turn loop's `act` decisions.
fn dnd_story(run: &Run) -> Vec<String> {
    story(run, &DND_KINDS)
        .into_iter()
        .filter(|l| !l.contains(" act "))
        .collect()
}

#[test]
fn dnd5e_1_1_ties_and_a_surprised_creature() {
    let run = play(
        DND5E,
        Scenario {
            encounter: DND_11,
            // d20: Ayla 12 (+3), Goblin 13 (+2), Borin 15 (+0), Wolf 5 (+2)
            rolls: &[12, 13, 15, 5],
            answers: "round 1, Ayla, act: withdraw\n\
                round 1, Ayla, away_from: Goblin\n\
                round 1, Ayla, act: end_turn\n\
                round 1, Borin, act: withdraw\n\
                round 1, Borin, away_from: Goblin\n\
                round 1, Goblin, opportunity_attack: strike\n\
                round 1, Borin, act: end_turn\n\
                round 1, Wolf, act: end_turn\n\
                round 2, Ayla, act: end_turn\n\
                round 2, Borin, act: end_turn\n\
                round 2, Wolf, act: end_turn\n",
            until: "round=2",
            ..Scenario::default()
        },
    );
    // The three-way tie at 15 goes by Dexterity score, 16 > 14 > 10: no roll-off.
    assert_eq!(run.orders(), vec![v(&["Ayla", "Goblin", "Borin", "Wolf"])]);
    assert_eq!(run.rounds(), vec![v(&["Ayla", "Goblin", "Borin", "Wolf"]); 2]);
    assert_eq!(run.of("roll").len(), 4, "one d20 each, no roll-off");
    let story = dnd_story(&run);
    let round2 = story.iter().position(|l| l == "round 2").expect("round 2");
    assert_eq!(
        story[..round2],
        v(&[
            "effect Goblin surprise until end of Goblin's turn",
            "order Ayla,Goblin,Borin,Wolf",
            "round 1",
            "turn Ayla",
            "reset Ayla movement 30",
            "reset Ayla actions 1",
            "reset Ayla bonus_actions 1",
            "action Ayla withdraw",
            "spend Ayla movement 5 25",
            "decision Ayla away_from Goblin",
            // no opportunity attack: the Goblin has no reaction before its first turn ends
            "trigger leaves_reach(Ayla,Goblin)",
            // the surprised Goblin's turn happens: it moves 0, no action, no bonus action
            "turn Goblin",
            "reset Goblin movement 0",
            "reset Goblin actions 0",
            "reset Goblin bonus_actions 0",
            "effect_end Goblin surprise",
            "turn Borin",
            "reset Borin movement 30",
            "reset Borin actions 1",
            "reset Borin bonus_actions 1",
            "action Borin withdraw",
            "spend Borin movement 5 25",
            "decision Borin away_from Goblin",
            // Borin's move may trigger the Goblin's opportunity attack: taken, reaction spent
            "trigger leaves_reach(Borin,Goblin)",
            "reaction Goblin",
            "decision Goblin opportunity_attack strike",
            "mark Goblin reacted",
            "turn Wolf",
            "reset Wolf movement 30",
            "reset Wolf actions 1",
            "reset Wolf bonus_actions 1",
        ])[..]
    );
    // The Goblin offered nothing but to end its turn in round 1.
    let goblin_acts: Vec<&Value> = run
        .of("decision")
        .into_iter()
        .filter(|e| e["actor"] == "Goblin" && e["decision"] == "act")
        .collect();
    assert_eq!(names(&goblin_acts[0]["options"]), v(&["end_turn"]));
    // Round 2: its reaction is back at the start of its turn, and it acts normally.
    assert_eq!(
        story[round2..],
        v(&[
            "round 2",
            "turn Ayla",
            "reset Ayla movement 30",
            "reset Ayla actions 1",
            "reset Ayla bonus_actions 1",
            "turn Goblin",
            "clear Goblin reacted",
            "reset Goblin movement 30",
            "reset Goblin actions 1",
            "reset Goblin bonus_actions 1",
            "action Goblin attack",
            "spend Goblin actions 1 0",
            "turn Borin",
            "reset Borin movement 30",
            "reset Borin actions 1",
            "reset Borin bonus_actions 1",
            "turn Wolf",
            "reset Wolf movement 30",
            "reset Wolf actions 1",
            "reset Wolf bonus_actions 1",
        ])[..]
    );
}

const DND_12: &str = "character Fighter { side pcs, dex = 14 }\n\
    character Rogue   { side pcs, dex = 18 }\n\
    character Dragon  { side npcs, dex = 10, legendary_max = 3 }\n\
    character Lair    { tag lair }\n\
    character Cleric  { side pcs, dex = 10 }\n\
    legendary_option Detect { owner = Dragon, cost = 1 }\n\
    legendary_option Tail   { owner = Dragon, cost = 1 }\n\
    legendary_option Wing   { owner = Dragon, cost = 2 }\n\
    lair_effect Magma { }\n\
    lair_effect Tremor { }\n\
    lair_effect Fog { }\n";

#[test]
fn dnd5e_1_2_lair_action_and_legendary_budget() {
    let run = play(
        DND5E,
        Scenario {
            encounter: DND_12,
            // d20: Fighter 20 (+2) = 22, Rogue 16 (+4) = 20, Dragon 20 (+0) = 20, Cleric 9 (+0)
            rolls: &[20, 16, 20, 9],
            answers: "round 1, Dragon, legendary: Tail\n\
                round 1, Dragon, legendary: Wing\n\
                round 1, Dragon, legendary: Tail\n\
                round 1, Dragon, legendary: pass\n\
                round 1, Lair, lair_action: Magma\n\
                round 1, Dragon, legendary: Detect\n\
                round 2, Dragon, legendary: Wing\n\
                round 2, Dragon, legendary: Tail\n\
                round 2, Dragon, legendary: pass\n\
                round 2, Dragon, legendary: pass\n\
                round 2, Lair, lair_action: Magma\n\
                round 2, Lair, lair_action: Fog\n\
                round 2, Dragon, legendary: pass\n",
            until: "round=2",
            ..Scenario::default()
        },
    );
    // Rogue beats Dragon on Dex; the lair loses every tie at 20.
    let order = v(&["Fighter", "Rogue", "Dragon", "Lair", "Cleric"]);
    assert_eq!(run.orders(), vec![order.clone()]);
    assert_eq!(run.rounds(), vec![order.clone(), order]);
    let kinds = ["round_start", "turn_start", "reset", "spend", "refused", "decision"];
    let story: Vec<String> = story(&run, &kinds)
        .into_iter()
        .filter(|l| {
            let budget = (l.starts_with("reset") || l.starts_with("spend")) && !l.contains("legendary");
            !l.contains(" act ") && !budget
        })
        .collect();
    assert_eq!(
        story,
        v(&[
            // the pool at combat start: 3
            "reset Dragon legendary 3",
            "round 1",
            "turn Fighter",
            "decision Dragon legendary Tail", // 1 allowed
            "spend Dragon legendary 1 2",
            "turn Rogue",
            "decision Dragon legendary Wing", // 2 allowed
            "spend Dragon legendary 2 0",
            "turn Dragon",
            "reset Dragon legendary 3", // refill at the start of its turn
            // 3 rejected: it is the Dragon's own turn
            "refused Dragon legendary Tail: it is Dragon's own turn: legendary actions come at the end of another creature's turn",
            "decision Dragon legendary pass",
            "turn Lair",
            "decision Lair lair_action Magma", // 4 allowed
            "turn Cleric",
            "decision Dragon legendary Detect", // 5 allowed
            "spend Dragon legendary 1 2",
            "round 2",
            "turn Fighter",
            "decision Dragon legendary Wing", // 6 allowed
            "spend Dragon legendary 2 0",
            "turn Rogue",
            // 7 rejected: the pool is 0
            "refused Dragon legendary Tail: Dragon has 0 legendary actions left, Tail costs 1",
            "decision Dragon legendary pass",
            "turn Dragon",
            "reset Dragon legendary 3", // refill
            "decision Dragon legendary pass",
            "turn Lair",
            // 8 rejected: the same effect two rounds in a row; Tremor or Fog would be allowed
            "refused Lair lair_action Magma: Magma was used last round",
            "decision Lair lair_action Fog",
            "turn Cleric",
            "decision Dragon legendary pass",
        ])
    );
    let offered: Vec<Vec<String>> = run
        .of("decision")
        .into_iter()
        .filter(|e| e["decision"] == "lair_action")
        .map(|e| names(&e["options"]))
        .collect();
    assert_eq!(offered, vec![v(&["Magma", "Tremor", "Fog"]), v(&["Tremor", "Fog"])]);
}

const DND_13: &str = "character Ranger  { side pcs, bonus_attack = true }\n\
    character \"Orc A\" { side npcs }\n\
    character \"Orc B\" { side npcs }\n\
    character Mage    { side pcs }\n";

#[test]
fn dnd5e_1_3_ready_and_one_reaction_per_round() {
    let run = play(
        DND5E,
        Scenario {
            encounter: DND_13,
            rolls: &[17, 12, 10, 8],
            answers: "round 1, Ranger, act: ready\n\
                round 1, Ranger, ready_on: a_creature_approaches\n\
                round 1, Ranger, watch: \"Orc A\"\n\
                round 1, Ranger, near: Mage\n\
                round 1, Ranger, act: end_turn\n\
                round 1, \"Orc A\", act: approach\n\
                round 1, \"Orc A\", toward: Mage\n\
                round 1, \"Orc A\", act: attack\n\
                round 1, \"Orc A\", act: end_turn\n\
                round 1, \"Orc B\", act: withdraw\n\
                round 1, \"Orc B\", away_from: Ranger\n\
                round 1, \"Orc B\", act: end_turn\n\
                round 1, Mage, act: end_turn\n\
                round 2, Ranger, act: offhand_attack\n\
                round 2, Ranger, act: ready\n\
                round 2, Ranger, ready_on: a_creature_casts\n\
                round 2, Ranger, watch: \"Orc B\"\n\
                round 2, Ranger, act: end_turn\n\
                round 2, \"Orc A\", act: withdraw\n\
                round 2, \"Orc A\", away_from: Ranger\n\
                round 2, \"Orc A\", act: end_turn\n\
                round 2, \"Orc B\", act: withdraw\n\
                round 2, \"Orc B\", away_from: Ranger\n\
                round 2, \"Orc B\", act: end_turn\n\
                round 2, Mage, act: end_turn\n",
            until: "round=2",
            ..Scenario::default()
        },
    );
    let kinds = [
        "round_start",
        "turn_start",
        "action",
        "trigger",
        "reaction_start",
        "mark",
        "clear",
        "ready",
        "ready_end",
    ];
    assert_eq!(
        story(&run, &kinds),
        v(&[
            "round 1",
            "turn Ranger",
            "action Ranger ready",
            "ready Ranger on approaches",
            "turn Orc A",
            "action Orc A approach",
            // Orc A moves adjacent to the Mage: the Ranger's readied attack, reaction spent
            "trigger approaches(Orc A,Mage)",
            "ready_end Ranger approaches fired",
            "reaction Ranger",
            "mark Ranger reacted",
            // Orc A continues and attacks the Mage
            "action Orc A attack",
            "turn Orc B",
            "action Orc B withdraw",
            // no opportunity attack: the reaction is already spent
            "trigger leaves_reach(Orc B,Ranger)",
            "turn Mage",
            "round 2",
            "turn Ranger",
            // at the start of the Ranger's turn its reaction is available again
            "clear Ranger reacted",
            "action Ranger offhand_attack",
            "action Ranger ready",
            "ready Ranger on casts",
            "turn Orc A",
            "action Orc A withdraw",
            "trigger leaves_reach(Orc A,Ranger)",
            "reaction Ranger",
            "mark Ranger reacted",
            "turn Orc B",
            "action Orc B withdraw",
            "trigger leaves_reach(Orc B,Ranger)",
            "turn Mage",
        ])
    );
}

#[test]
fn dnd5e_1_3_the_readied_action_lapses_at_the_start_of_the_next_turn() {
    // Round 3 of scenario 1.3: the round 2 readied action lapses unused, the reaction is back.
    let run = play(
        DND5E,
        Scenario {
            encounter: DND_13,
            rolls: &[17, 12, 10, 8],
            answers: "round 1, Ranger, act: end_turn\n\
                round 2, Ranger, act: ready\n\
                round 2, Ranger, ready_on: a_creature_casts\n\
                round 2, Ranger, watch: \"Orc B\"\n\
                round 2, Ranger, act: end_turn\n\
                round 2, \"Orc A\", act: withdraw\n\
                round 2, \"Orc A\", away_from: Ranger\n",
            until: "round=3",
            ..Scenario::default()
        },
    );
    let kinds = ["round_start", "turn_start", "ready_end", "clear"];
    let story = story(&run, &kinds);
    let round3 = story.iter().position(|l| l == "round 3").expect("round 3");
    assert_eq!(
        story[round3..round3 + 4],
        v(&[
            "round 3",
            "turn Ranger",
            "ready_end Ranger casts expired",
            "clear Ranger reacted"
        ])[..]
    );
}

#[test]
fn dnd5e_a_group_of_identical_creatures_shares_one_roll_whoever_is_declared_first() {
    // DND-2: the kobolds roll once, on their leader's d20, even one declared before its leader.
    let encounter = "character \"Kobold 2\" { side npcs, dex = 15, shares_roll_of = \"Kobold 1\" }\n\
        character Ayla { side pcs, dex = 16 }\n\
        character \"Kobold 1\" { side npcs, dex = 15 }\n";
    let run = play(
        DND5E,
        Scenario {
            encounter,
            // Ayla 10 (+3) = 13, the kobolds 9 (+2) = 11; their tie: roll-off 4 and 6
            rolls: &[10, 9, 4, 6],
            until: "round=1",
            ..Scenario::default()
        },
    );
    assert_eq!(
        story(&run, &["set", "order"]),
        v(&[
            "set Ayla initiative 13",
            "set Kobold 1 initiative 11",
            "set Kobold 2 initiative 11",
            "order Ayla,Kobold 1,Kobold 2",
        ])
    );
}

#[test]
fn dnd5e_a_group_declared_in_one_line_rolls_once_unless_each_rolls_its_own() {
    // DND-2: `character 3 × Kobold` rolls one d20, Kobold 1's, for the three; tied, they are
    // ordered by the roll-off (DND-3). With `group_rolls_once = false` each rolls its own.
    let encounter = "character Ayla { side pcs, dex = 16 }\ncharacter 3 × Kobold { side npcs, dex = 15 }\n";
    let run = play(
        DND5E,
        Scenario {
            encounter,
            // Ayla 10 (+3) = 13, the kobolds 12 (+2) = 14; their tie: roll-off 4, 6, 5
            rolls: &[10, 12, 4, 6, 5],
            until: "round=1",
            ..Scenario::default()
        },
    );
    assert_eq!(
        story(&run, &["set", "order"]),
        v(&[
            "set Ayla initiative 13",
            "set Kobold 1 initiative 14",
            "set Kobold 2 initiative 14",
            "set Kobold 3 initiative 14",
            "order Kobold 2,Kobold 3,Kobold 1,Ayla",
        ])
    );
    let apart = format!("param group_rolls_once = false\n{encounter}");
    let run = play(
        DND5E,
        Scenario {
            encounter: &apart,
            rolls: &[10, 12, 3, 15],
            until: "round=1",
            ..Scenario::default()
        },
    );
    assert_eq!(
        story(&run, &["set", "order"]),
        v(&[
            "set Ayla initiative 13",
            "set Kobold 1 initiative 14",
            "set Kobold 2 initiative 5",
            "set Kobold 3 initiative 17",
            "order Kobold 3,Kobold 1,Ayla,Kobold 2",
        ])
    );
}
