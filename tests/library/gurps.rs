//! 12. GURPS 4th edition (rulesets/library/gurps.turn): the scenarios of systems.md section 12.

use super::{Scenario, play, v};
use crate::common::Run;

pub(crate) const GURPS: &str = "rulesets/library/gurps.turn";

/// The cast of scenario 12.1, and a policy for the scenarios: whoever may act Evaluates (a
/// maneuver), a stunned one Does Nothing; no one defends and the GM goes on, unless an answer
/// says otherwise.
const CAST: &str = "character Archer { side party, tag pc, basic_speed = 6.25, dx = 13, iq = 11, skill = 14 }\n\
    character Knight { side party, tag pc, basic_speed = 5.75, dx = 12 }\n\
    character Goblin { side foes, basic_speed = 5.75, dx = 11, iq = 9 }\n\
    character Orc    { side foes, basic_speed = 5.75, dx = 11, iq = 8 }\n\
    character Priest { side party, tag pc, basic_speed = 5.00, dx = 10 }\n\
    character Troll  { side foes, basic_speed = 5.00, dx = 10, iq = 7 }\n\
    policy scripted { maneuver: evaluate, do_nothing  defense: no_defense  outcome: fights_on  go_on: next_second }\n\
    default policy scripted\n";

/// The GM orders the Goblin before the Orc; the start-of-combat roll-off: Priest 2, Troll 5.
const GOBLIN_FIRST: &str = "sequence: Goblin\n";
const ROLL_OFF: [i64; 2] = [2, 5];
const SEQUENCE: [&str; 6] = ["Archer", "Knight", "Goblin", "Orc", "Troll", "Priest"];

/// The lines of the events of these kinds, in order; a turn of one second is `second N`.
fn story(run: &Run, kinds: &[&str]) -> Vec<String> {
    super::story(run, kinds)
        .into_iter()
        .zip(
            run.events
                .iter()
                .filter(|e| kinds.contains(&e["event"].as_str().unwrap_or(""))),
        )
        .map(|(l, e)| match e["event"].as_str() {
            Some("round_start") => format!("second {}", e["round"]),
            _ => l,
        })
        .collect()
}

/// The maneuver each turn took, one line per turn in order: `Archer evaluate`.
fn maneuvers(run: &Run) -> Vec<String> {
    run.of("decision")
        .into_iter()
        .filter(|e| e["decision"] == "maneuver")
        .map(|e| {
            format!(
                "{} {}",
                e["actor"].as_str().unwrap_or(""),
                e["picked"].as_str().unwrap_or("")
            )
        })
        .collect()
}

#[test]
fn gurps_12_1_basic_speed_order_and_every_tie_rule() {
    // In turn 3 a spell lowers the Knight's Basic Speed to 4.75 (the scenario's event).
    let encounter = format!("{CAST}on start of second where second.number == 3 {{ set Knight.basic_speed = 4.75 }}\n");
    let run = play(
        GURPS,
        Scenario {
            encounter: &encounter,
            rolls: &ROLL_OFF,
            answers: GOBLIN_FIRST,
            until: "second=4",
            ..Scenario::default()
        },
    );
    // The GM orders only the Goblin and the Orc: the Knight's DX (a PC is involved) put him first.
    let asked = run.of("decision");
    assert_eq!(asked[0]["decision"], "sequence");
    assert_eq!(asked[0]["chooser"], "gm");
    assert_eq!(crate::common::names(&asked[0]["options"]), v(&["Goblin", "Orc"]));
    // The Priest and the Troll, tied on Basic Speed and DX, roll off once; the Troll wins.
    assert_eq!(
        story(&run, &["roll"]),
        v(&["roll Priest sequence 2", "roll Troll sequence 5"])
    );
    // One sequence, set once, the same in turns 1 to 4; the Knight's new Basic Speed moves no one.
    assert_eq!(run.orders(), vec![v(&SEQUENCE)]);
    assert_eq!(run.rounds(), vec![v(&SEQUENCE); 4]);
    let speed: Vec<String> = story(&run, &["round_start", "set"])
        .into_iter()
        .filter(|l| l.starts_with("second") || l.contains("basic_speed"))
        .collect();
    assert_eq!(
        speed,
        v(&[
            "second 1",
            "second 2",
            "second 3",
            "set Knight basic_speed 4.75",
            "second 4",
        ])
    );
}

#[test]
fn gurps_12_1_without_a_pc_in_the_tie_the_gm_orders_it() {
    let encounter = CAST.replace("Knight { side party, tag pc,", "Knight { side foes,");
    let run = play(
        GURPS,
        Scenario {
            encounter: &encounter,
            rolls: &ROLL_OFF,
            answers: "sequence: Orc\nsequence: Knight\n",
            until: "second=1",
            ..Scenario::default()
        },
    );
    let asked: Vec<Vec<String>> = run
        .of("decision")
        .into_iter()
        .filter(|e| e["decision"] == "sequence")
        .map(|e| crate::common::names(&e["options"]))
        .collect();
    assert_eq!(asked, vec![v(&["Knight", "Goblin", "Orc"]), v(&["Knight", "Goblin"])]);
    assert_eq!(
        run.orders(),
        vec![v(&["Archer", "Orc", "Knight", "Goblin", "Troll", "Priest"])]
    );
}

/// Scenario 12.2's answers: the Archer Waits for the Orc to move toward an ally, with an attack
/// as its response; the Orc moves toward the Priest (when `orc_moves`).
fn wait_answers(orc_moves: bool) -> String {
    let mut answers = format!(
        "{GOBLIN_FIRST}second 1, Archer, maneuver: wait\n\
         second 1, Archer, watch: Orc\n\
         second 1, Archer, wait_for: nears_an_ally\n"
    );
    if orc_moves {
        answers.push_str(
            "second 1, Orc, maneuver: move\n\
             second 1, Orc, toward: Priest\n\
             second 1, Archer, response: attack\n\
             second 1, Archer, target: Orc\n",
        );
    }
    answers
}

#[test]
fn gurps_12_2_wait_interrupts_but_keeps_the_slot() {
    let answers = wait_answers(true);
    // The roll-off, then the Archer's attack roll: 3d6 = 9, at most its skill 14.
    let run = play(
        GURPS,
        Scenario {
            encounter: CAST,
            rolls: &[2, 5, 3, 3, 3],
            answers: &answers,
            until: "second=2",
            ..Scenario::default()
        },
    );
    let lines = story(
        &run,
        &[
            "round_start",
            "turn_start",
            "turn_end",
            "action",
            "trigger",
            "ready",
            "ready_end",
            "reaction_start",
            "reaction_end",
            "set",
        ],
    );
    let turn_one: Vec<String> = lines
        .into_iter()
        .take_while(|l| l != "second 2")
        .filter(|l| !l.contains(" evaluate"))
        .collect();
    assert_eq!(
        turn_one,
        v(&[
            "second 1",
            "turn Archer",
            "action Archer wait",
            "ready Archer on moves_toward",
            "turn_end Archer",
            "turn Knight",
            "turn_end Knight",
            "turn Goblin",
            "turn_end Goblin",
            "turn Orc",
            "action Orc move",
            "trigger moves_toward(Orc,Priest)",
            "ready_end Archer moves_toward fired",
            "reaction Archer",
            "set Archer attack_roll 9",
            "set Orc hits 1",
            "reaction_end Archer",
            "turn_end Orc",
            "turn Troll",
            "turn_end Troll",
            "turn Priest",
            "turn_end Priest",
        ])
    );
    // Turn 2: the Archer is first again.
    assert_eq!(run.rounds(), vec![v(&SEQUENCE); 2]);
}

#[test]
fn gurps_12_2_variant_the_wait_lapses_and_the_archer_picks_anew() {
    let answers = wait_answers(false);
    let run = play(
        GURPS,
        Scenario {
            encounter: CAST,
            rolls: &ROLL_OFF,
            answers: &answers,
            until: "second=2",
            ..Scenario::default()
        },
    );
    let lines = story(
        &run,
        &["round_start", "turn_start", "ready_end", "reaction_start", "decision"],
    );
    let archer: Vec<String> = lines
        .into_iter()
        .filter(|l| l.starts_with("second") || l.contains("Archer"))
        .collect();
    assert_eq!(
        archer,
        v(&[
            "second 1",
            "turn Archer",
            "decision Archer maneuver wait",
            "decision Archer watch Orc",
            "decision Archer wait_for nears_an_ally",
            "second 2",
            "turn Archer",
            "ready_end Archer moves_toward expired",
            "decision Archer maneuver evaluate",
        ])
    );
    assert_eq!(run.rounds(), vec![v(&SEQUENCE); 2]);
}

#[test]
fn gurps_12_3_surprise_and_mental_stun() {
    let encounter = format!("{CAST}global lost_surprise default foes\n");
    // The roll-off, then IQ rolls at the end of each stunned turn: turn 1 Goblin 8 (IQ 9),
    // Orc 12 (IQ 8), Troll 6 (IQ 7); turn 2 Orc 7.
    let rolls = [2, 5, 3, 3, 2, 4, 4, 4, 2, 2, 2, 3, 2, 2];
    let run = play(
        GURPS,
        Scenario {
            encounter: &encounter,
            rolls: &rolls,
            answers: "sequence: Goblin\nsecond 1, Goblin, maneuver: attack\n",
            until: "second=3",
            ..Scenario::default()
        },
    );
    let per_turn: Vec<String> = story(&run, &["round_start", "refused", "roll", "clear"])
        .into_iter()
        .filter(|l| !l.contains(" sequence "))
        .collect();
    assert_eq!(
        per_turn,
        v(&[
            "second 1",
            "refused Goblin maneuver attack: Goblin is mentally stunned and must Do Nothing",
            "roll Goblin roll 8",
            "clear Goblin stunned",
            "roll Orc roll 12",
            "roll Troll roll 6",
            "clear Troll stunned",
            "second 2",
            "roll Orc roll 7",
            "clear Orc stunned",
            "second 3",
        ])
    );
    let acts = |range: std::ops::Range<usize>| maneuvers(&run)[range].to_vec();
    assert_eq!(
        acts(0..6),
        v(&[
            "Archer evaluate",
            "Knight evaluate",
            "Goblin do_nothing",
            "Orc do_nothing",
            "Troll do_nothing",
            "Priest evaluate",
        ])
    );
    assert_eq!(
        acts(6..12),
        v(&[
            "Archer evaluate",
            "Knight evaluate",
            "Goblin evaluate",
            "Orc do_nothing",
            "Troll evaluate",
            "Priest evaluate",
        ])
    );
    assert!(acts(12..18).iter().all(|m| m.ends_with(" evaluate")));
}

#[test]
fn gurps_active_defenses_a_block_once_between_its_turns() {
    // The roll-off; the Archer's attack 9 (skill 14) and the Orc's Block 18 (defense 8, fails);
    // the Knight's attack 10 (skill 12): the Orc's second Block is refused, it takes no defense.
    let run = play(
        GURPS,
        Scenario {
            encounter: CAST,
            rolls: &[2, 5, 3, 3, 3, 6, 6, 6, 4, 3, 3],
            answers: "sequence: Goblin\n\
                second 1, Archer, maneuver: attack\n\
                second 1, Archer, target: Orc\n\
                second 1, Orc, defense: block\n\
                second 1, Knight, maneuver: attack\n\
                second 1, Knight, target: Orc\n\
                second 1, Orc, defense: block\n",
            until: "second=1",
            ..Scenario::default()
        },
    );
    let lines: Vec<String> = story(&run, &["refused", "mark", "set"])
        .into_iter()
        .filter(|l| !l.contains("basic_speed"))
        .collect();
    assert_eq!(
        lines,
        v(&[
            "set Archer attack_roll 9",
            "mark Orc blocked",
            "set Orc defense_roll 18",
            "set Orc hits 1",
            "set Knight attack_roll 10",
            "refused Orc defense block: Orc has blocked once this turn",
            "set Orc hits 2",
        ])
    );
}
