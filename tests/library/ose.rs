//! Old-School Essentials (rulesets/library/ose.turn): the three scenarios of systems.md section 9,
//! and the corners the ruleset met.

use super::{OSE, Scenario, play, story, v};

const OSE_PARTY_AND_GOBLINS: &str = "side goblins\n\
    character Fighter { side party, slow_weapon = true }\n\
    character Cleric  { side party }\n\
    character MU      { side party, tag caster, weapon = unarmed }\n\
    character G1 { side goblins, tag monster }\n\
    character G2 { side goblins, tag monster }\n\
    character G3 { side goblins, tag monster }\n\
    character GA { side goblins, tag monster, weapon = missile }\n";

fn ose_encounter(params: &str) -> String {
    format!("param surprise_check = false\n{params}{OSE_PARTY_AND_GOBLINS}")
}

const OSE_KINDS: [&str; 8] = [
    "round_start",
    "set",
    "phase_start",
    "together_start",
    "turn_start",
    "attempt",
    "mark",
    "decision",
];

#[test]
fn ose_9_1_side_initiative_phase_order_slow_weapon_spell_disruption() {
    let encounter = ose_encounter("");
    let run = play(
        OSE,
        Scenario {
            encounter: &encounter,
            // round 1: Party 5, Goblins 2; round 2: Party 2, Goblins 4
            rolls: &[5, 2, 2, 4],
            // the MU declares sleep each round (the default policy); GA hits him in round 2
            answers: "round 2, missile 1, after GA, MU: hit\n",
            until: "round=2",
            ..Scenario::default()
        },
    );
    let story: Vec<String> = story(&run, &OSE_KINDS)
        .into_iter()
        .filter(|l| !l.starts_with("together"))
        .collect();
    assert_eq!(
        story,
        v(&[
            "round 1",
            "decision MU declare spell",
            "mark MU casting",
            "set party initiative 5",
            "set goblins initiative 2",
            // the Party's phases: movement (a caster does not move), missile (none), spells, melee
            "phase movement",
            "turn Fighter",
            "turn Cleric",
            "phase missile",
            "phase spells",
            "turn MU",
            "mark MU cast",
            "phase melee",
            "turn Cleric",
            // then the Goblins': morale (none triggered), movement, missile, spells (none), melee
            "phase morale",
            "phase movement",
            "turn G1",
            "turn G2",
            "turn G3",
            "turn GA",
            "phase missile",
            "turn GA",
            "phase spells",
            "phase melee",
            "turn G1",
            "turn G2",
            "turn G3",
            // the slow two-handed sword, last in the round
            "phase slow",
            "turn Fighter",
            "round 2",
            "decision MU declare spell",
            "mark MU casting",
            "set party initiative 2",
            "set goblins initiative 4",
            // the Goblins first; GA hits the MU in their missile phase
            "phase morale",
            "phase movement",
            "turn G1",
            "turn G2",
            "turn G3",
            "turn GA",
            "phase missile",
            "turn GA",
            "attempt MU hit",
            "mark MU spell_lost",
            "phase spells",
            "phase melee",
            "turn G1",
            "turn G2",
            "turn G3",
            // the Party: the MU's spell is lost (no turn in the spells phase); the Cleric melees
            "phase movement",
            "turn Fighter",
            "turn Cleric",
            "phase missile",
            "phase spells",
            "phase melee",
            "turn Cleric",
            "phase slow",
            "turn Fighter",
        ])
    );
}

#[test]
fn ose_9_2_tied_initiative_under_each_option() {
    // Option A (the default): tied sides act at once, phase by phase.
    let encounter = ose_encounter("");
    let run = play(
        OSE,
        Scenario {
            encounter: &encounter,
            rolls: &[3, 3],
            answers: "no_spell\n",
            until: "round=1",
            ..Scenario::default()
        },
    );
    let kinds = ["phase_start", "together_start", "turn_start", "set"];
    let together: Vec<String> = story(&run, &kinds)
        .into_iter()
        .filter(|l| !l.starts_with("turn"))
        .collect();
    assert_eq!(
        together,
        v(&[
            "set party initiative 3",
            "set goblins initiative 3",
            "phase morale",
            "phase movement",
            "together Fighter,Cleric,MU,G1,G2,G3,GA",
            "phase missile",
            "together GA",
            "phase spells",
            "phase melee",
            "together Cleric,G1,G2,G3",
            "phase slow",
            "together Fighter",
        ])
    );
    // Option B: roll again (Party 6, Goblins 1): Party phases, Goblin phases, then the Fighter.
    let encounter = ose_encounter("param ties_act_at_once = false\n");
    let run = play(
        OSE,
        Scenario {
            encounter: &encounter,
            rolls: &[3, 3, 6, 1],
            answers: "no_spell\n",
            until: "round=1",
            ..Scenario::default()
        },
    );
    let story: Vec<String> = story(&run, &kinds)
        .into_iter()
        .filter(|l| !l.starts_with("together"))
        .collect();
    assert_eq!(
        story,
        v(&[
            "set party initiative 3",
            "set goblins initiative 3",
            "set party initiative 6",
            "set goblins initiative 1",
            "phase movement",
            "turn Fighter",
            "turn Cleric",
            "turn MU",
            "phase missile",
            "phase spells",
            "phase melee",
            "turn Cleric",
            "phase morale",
            "phase movement",
            "turn G1",
            "turn G2",
            "turn G3",
            "turn GA",
            "phase missile",
            "turn GA",
            "phase spells",
            "phase melee",
            "turn G1",
            "turn G2",
            "turn G3",
            "phase slow",
            "turn Fighter",
        ])
    );
}

const OSE_93: &str = "param individual_initiative = true\n\
    side goblins\n\
    character Thief      { side party, dex_mod = 1 }\n\
    character Fighter    { side party, dex_mod = 1, slow_weapon = true }\n\
    character Cleric     { side party }\n\
    character \"Goblin A\" { side goblins, tag monster }\n\
    character \"Goblin B\" { side goblins, tag monster }\n";

#[test]
fn ose_9_3_surprise_then_optional_individual_initiative() {
    let run = play(
        OSE,
        Scenario {
            encounter: OSE_93,
            // surprise: Party 4 (not surprised), Goblins 1 (surprised); then each one's d6
            rolls: &[4, 1, 5, 3, 4, 4, 2],
            until: "round=1",
            ..Scenario::default()
        },
    );
    let kinds = ["round_start", "mark", "set", "together_start", "turn_start", "order"];
    assert_eq!(
        story(&run, &kinds),
        v(&[
            "set party surprise 4",
            "set goblins surprise 1",
            "mark goblins surprised",
            // the surprise round: only the Party acts, by phases
            "surprise round",
            "together Thief,Fighter,Cleric",
            "turn Thief",
            "turn Fighter",
            "turn Cleric",
            "together Thief,Cleric",
            "turn Thief",
            "turn Cleric",
            "together Fighter",
            "turn Fighter",
            // round 1: 1d6 + DEX modifier, the goblins unmodified
            "round 1",
            "set Thief initiative 6",
            "set Fighter initiative 4",
            "set Cleric initiative 4",
            "set Goblin A initiative 4",
            "set Goblin B initiative 2",
            // Thief, {Cleric, Goblin A}, Goblin B; the Fighter's 4 ties them, his slow weapon
            // puts him last
            "order Thief,Cleric,Goblin A,Goblin B",
            "turn Thief",
            "together Cleric,Goblin A",
            "turn Cleric",
            "turn Goblin A",
            "turn Goblin B",
            "together Fighter",
            "turn Fighter",
        ])
    );
    assert!(
        !run.of("turn_start")[..4]
            .iter()
            .any(|e| e["actor"] == "Goblin A" || e["actor"] == "Goblin B"),
        "the goblins take no action in the surprise round"
    );
}

#[test]
fn ose_9_3_variant_both_sides_surprised_no_surprise_round() {
    let run = play(
        OSE,
        Scenario {
            encounter: OSE_93,
            rolls: &[2, 1, 5, 3, 4, 4, 2],
            until: "round=1",
            ..Scenario::default()
        },
    );
    assert!(
        run.of("round_start").iter().all(|e| e["level"] == "round"),
        "no surprise round"
    );
    assert_eq!(
        run.rounds(),
        vec![v(&["Thief", "Cleric", "Goblin A", "Goblin B", "Fighter"])]
    );
}

#[test]
fn ose_a_monster_that_fails_its_morale_check_leaves_the_fight() {
    // OSE-4: the referee calls for G1's morale check; in the Goblins' morale phase it rolls 2d6
    // against its morale 7, rolls 11 and flees. A check for the MU (no monster) is refused.
    let encounter = ose_encounter("").replace(
        "character G1 { side goblins, tag monster }",
        "character G1 { side goblins, tag monster, morale = 7 }",
    );
    let run = play(
        OSE,
        Scenario {
            encounter: &encounter,
            rolls: &[2, 5, 6, 5],
            answers: "start of round 1, G1: check_morale\nstart of round 1, MU: check_morale\n",
            until: "round=1",
            ..Scenario::default()
        },
    );
    let kinds = [
        "attempt",
        "attempt_refused",
        "mark",
        "phase_start",
        "turn_start",
        "roll",
        "leave",
    ];
    let story: Vec<String> = story(&run, &kinds)
        .into_iter()
        .take_while(|l| l != "phase spells")
        .collect();
    assert_eq!(
        story,
        v(&[
            "attempt G1 check_morale",
            "mark G1 morale_due",
            "refused MU check_morale: check_morale is not open now: its `when` does not hold",
            "mark MU casting",
            "roll party initiative 2",
            "roll goblins initiative 5",
            "phase morale",
            "turn G1",
            "roll G1 roll 11",
            "leave G1",
            "phase movement",
            "turn G2",
            "turn G3",
            "turn GA",
            "phase missile",
            "turn GA",
        ])
    );
    assert_eq!(
        run.rounds(),
        vec![v(&[
            "G1", "G2", "G3", "GA", "GA", "G2", "G3", "Fighter", "Cleric", "MU", "Cleric", "Fighter"
        ])]
    );
}
