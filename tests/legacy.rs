//! One scenario per Legacy rule (LEG-1 … LEG-9), run through `rulesets/legacy.turn` with scripted
//! answers, asserting the exact sequence of turns and the seconds, metres and kilometres.

mod common;
use common::*;

fn legacy(cast: &str, answers: &str) -> Run {
    run(Case {
        ruleset: LEGACY,
        encounter: cast,
        answers,
        ..Case::default()
    })
}

/// Answers, one per line, from a compact list separated by spaces.
fn said(words: &str) -> String {
    words.split_whitespace().collect::<Vec<_>>().join("\n")
}

const THREE_AND_ONE: &str = r#"
encounter "test"
character Ana   { side pcs }
character Bo    { side pcs }
character Cy    { side pcs }
character Grunt { side npcs }
"#;

#[test]
fn leg_1_the_players_choose_who_goes_next_at_each_step() {
    // No sort: the players name Cy, then Ana, then Bo; the Director passes each time.
    let r = legacy(
        THREE_AND_ONE,
        &said("rounds Cy complete pass Ana complete pass Bo complete Grunt complete change_scale close"),
    )
    .ok();
    assert_eq!(r.turns(), v(&["Cy", "Ana", "Bo", "Grunt"]));
    assert!(r.orders().is_empty(), "a chosen order is never sorted");
    // Each step offers exactly the player characters who have not yet acted, in roster order.
    let offered: Vec<String> = r
        .of("decision")
        .iter()
        .filter(|e| e["decision"] == "next")
        .map(|e| format!("{} <- {}", s(&e["picked"]), names(&e["options"]).join("|")))
        .collect();
    assert_eq!(offered, v(&["Cy <- Ana|Bo|Cy", "Ana <- Ana|Bo", "Bo <- Bo"]));
}

#[test]
fn leg_2_no_second_turn_until_everyone_on_both_sides_has_acted() {
    let cast =
        "encounter \"t\"\ncharacter Ana { side pcs }\ncharacter Bo { side pcs }\ncharacter Grunt { side npcs }\n";
    // Asking Ana to act again in the same cycle is refused, naming who could act.
    let r = legacy(cast, &said("rounds Ana complete pass Ana"));
    assert_eq!(r.code, 1);
    assert!(r.stderr.contains("run::bad_answer"), "{}", r.stderr);
    assert!(
        r.stderr
            .contains("the answer `Ana` (answers:5) is not an option of `next` for players"),
        "{}",
        r.stderr
    );
    assert!(r.stderr.contains("the options were: Bo"), "{}", r.stderr);
    // Nothing happened for the refused answer: Ana took one turn only.
    assert_eq!(r.turns(), v(&["Ana"]));
    // Once Bo and Grunt have acted the cycle closes, and Ana may act again.
    let r = legacy(
        cast,
        &said("rounds Ana complete pass Bo complete Grunt complete carry_on Ana complete"),
    );
    assert_eq!(r.turns()[..4].to_vec(), v(&["Ana", "Bo", "Grunt", "Ana"]));
}

#[test]
fn leg_3_a_turn_is_taken_whole_then_declared_complete() {
    // Under the default policy for two rounds: every turn ends before the next begins, and
    // every decision inside a turn belongs to the character whose turn it is.
    let r = run(Case {
        ruleset: LEGACY,
        encounter: THREE_AND_ONE,
        until: Some("round=2"),
        ..Case::default()
    })
    .ok();
    let mut current: Option<String> = None;
    for e in &r.events {
        match e["event"].as_str() {
            Some("turn_start") => {
                assert!(current.is_none(), "a turn began inside another");
                current = Some(s(&e["actor"]));
            }
            Some("turn_end") => {
                assert_eq!(current.take(), Some(s(&e["actor"])));
            }
            Some("decision") if current.is_some() => {
                assert_eq!(Some(s(&e["chooser"])), current);
            }
            _ => {}
        }
    }
    assert_eq!(r.turns().len(), 8);
    // Declaring the turn complete ends it at once, seconds unspent.
    let r = legacy(THREE_AND_ONE, &said("rounds Ana complete")).ok();
    let first = r.after("turn_start", "actor", "Ana");
    assert_eq!(
        first.lines(&["decision", "turn_end", "forfeit"])[..3].to_vec(),
        v(&["decision Ana act complete", "forfeit Ana seconds 6 0", "turn_end Ana"])
    );
}

#[test]
fn leg_4_after_each_pc_turn_the_director_may_bring_in_one_eligible_npc() {
    // After Ana's turn the Director brings in Grunt; after Bo's and Cy's turns Grunt has acted,
    // so the Director has no one to bring in and is not asked.
    let r = legacy(
        THREE_AND_ONE,
        &said("rounds Ana complete Grunt complete Bo complete Cy complete change_scale close"),
    )
    .ok();
    assert_eq!(r.turns(), v(&["Ana", "Grunt", "Bo", "Cy"]));
    let director: Vec<String> = r
        .of("decision")
        .iter()
        .filter(|e| e["decision"] == "npc")
        .map(|e| format!("{} <- {}", s(&e["picked"]), names(&e["options"]).join("|")))
        .collect();
    assert_eq!(director, v(&["Grunt <- Grunt|pass"]));
}

#[test]
fn leg_5_when_the_pcs_are_used_up_the_remaining_npcs_act_before_anyone_again() {
    let cast = "encounter \"t\"\ncharacter Ana { side pcs }\ncharacter Bo { side pcs }\n\
                character G1 { side npcs }\ncharacter G2 { side npcs }\n\
                character G3 { side npcs }\ncharacter G4 { side npcs }\n";
    let r = legacy(
        cast,
        &said("rounds Ana complete G1 complete Bo complete G2 complete G3 complete G4 complete carry_on Bo complete"),
    );
    // G3 and G4 act back to back; only then does a new cycle let a PC act.
    assert_eq!(r.turns()[..7].to_vec(), v(&["Ana", "G1", "Bo", "G2", "G3", "G4", "Bo"]));
    // With the PCs used up, the Director cannot pass: the remaining NPCs must act.
    let npc: Vec<String> = r
        .of("decision")
        .iter()
        .filter(|e| e["decision"] == "npc")
        .map(|e| names(&e["options"]).join("|"))
        .collect();
    assert_eq!(
        npc[..4].to_vec(),
        v(&["G1|G2|G3|G4|pass", "G2|G3|G4|pass", "G3|G4", "G4"])
    );
    // And when the NPCs are used up first, the PCs go on without them.
    let r = legacy(
        "encounter \"t\"\ncharacter Ana { side pcs }\ncharacter Bo { side pcs }\ncharacter Cy { side pcs }\ncharacter G { side npcs }\n",
        &said("rounds Ana complete G complete Bo complete Cy complete change_scale close"),
    )
    .ok();
    assert_eq!(r.turns(), v(&["Ana", "G", "Bo", "Cy"]));
}

#[test]
fn leg_6_a_solo_monster_may_act_after_every_pc_turn() {
    let cast = "encounter \"t\"\ncharacter Ana { side pcs }\ncharacter Bo { side pcs }\ncharacter Cy { side pcs }\n\
                character Troll { side npcs, tag solo }\n";
    let r = legacy(
        cast,
        &said("rounds Ana complete Troll complete Bo complete Troll complete Cy complete Troll complete change_scale close"),
    )
    .ok();
    assert_eq!(r.turns(), v(&["Ana", "Troll", "Bo", "Troll", "Cy", "Troll"]));
    // One cycle: a single round, the Troll offered after each PC turn although it had acted.
    assert_eq!(r.rounds().len(), 1);
}

#[test]
fn leg_7_a_turn_holds_six_seconds_unused_seconds_are_abandoned_a_round_is_ten() {
    let r = legacy(
        THREE_AND_ONE,
        &said("rounds Ana move attack complete pass Bo aim cast complete Grunt complete Cy complete carry_on"),
    );
    let ana = r.after("turn_start", "actor", "Ana");
    let ana: Vec<String> = ana
        .events
        .iter()
        .take_while(|e| e["event"] != "turn_end")
        .filter(|e| ["reset", "spend", "forfeit"].contains(&e["event"].as_str().unwrap_or("")))
        .map(compact)
        .collect();
    assert_eq!(
        ana,
        v(&[
            "reset Ana seconds 6 6",
            "spend Ana seconds 2 4",
            "spend Ana seconds 3 1",
            "forfeit Ana seconds 1 0"
        ])
    );
    // Bo: aim (1) and cast (4) use up the six seconds; the turn ends by itself.
    let bo = r.after("turn_start", "actor", "Bo");
    assert_eq!(
        bo.lines(&["spend", "turn_end"])[..3].to_vec(),
        v(&["spend Bo seconds 1 5", "spend Bo seconds 4 1", "turn_end Bo"])
    );
    // With 1 second left, only the 1-second action (or completing) was offered.
    let last = bo.of("decision")[2].clone();
    assert_eq!(names(&last["options"]), v(&["aim", "complete"]));
    // Each round moves the clock on ten seconds.
    assert_eq!(
        r.lines(&["time"])[..2].to_vec(),
        v(&["time 10 second 10", "time 10 second 20"])
    );
}

const PARTY: &str = r#"
encounter "test"
character Aldra { side pcs, speed = 6, recoveries = 3 }
character Bren  { side pcs, speed = 4, recoveries = 2 }
character Cyrus { side pcs, speed = 5, recoveries = 2 }
character Gob   { side npcs, speed = 3 }
"#;

#[test]
fn leg_8_in_minutes_the_party_moves_first_five_times_its_slowest_speed_in_metres() {
    let r = legacy(PARTY, &said("minutes search rest first_aid change_scale close")).ok();
    // Speeds 6, 4 and 5: the slowest is 4, so 20 metres - before anyone selects an action.
    // (Gob, a non-player character, is not in the party.)
    assert_eq!(
        r.lines(&["time", "gain", "decision", "action"])[..6].to_vec(),
        v(&[
            "decision director scale minutes",
            "time 1 minute 60",
            "gain metres_moved 20 20",
            "decision Aldra task search",
            "action Aldra search",
            "decision Bren task rest",
        ])
    );
}

#[test]
fn leg_9_in_hours_travel_covers_the_slowest_speed_in_km_for_an_hour_and_recoveries() {
    let r = legacy(PARTY, &said("hours travel carry_on travel change_scale close")).ok();
    assert_eq!(
        r.lines(&["time", "gain", "spend"])[..5].to_vec(),
        v(&[
            "spend Aldra recoveries 1 2",
            "spend Bren recoveries 1 1",
            "spend Cyrus recoveries 1 1",
            "time 1 hour 3600",
            "gain kilometres_travelled 4 4",
        ])
    );
    let km = r.of("gain").last().map(|e| e["left"].clone());
    assert_eq!(km, Some(serde_json::json!(8)));
    // Bren has no recovery left after two journeys: travel is no longer offered.
    let r = legacy(
        PARTY,
        &said("hours travel carry_on travel carry_on stay change_scale close"),
    )
    .ok();
    let journeys: Vec<String> = r
        .of("decision")
        .iter()
        .filter(|e| e["decision"] == "journey")
        .map(|e| names(&e["options"]).join("|"))
        .collect();
    assert_eq!(journeys, v(&["travel|stay", "travel|stay", "stay"]));
}
