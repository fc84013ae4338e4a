//! One scenario per Flow of Time rule (FOT-1 … FOT-8), run through `rulesets/flow-of-time.turn`
//! with forced rolls and scripted answers, asserting the exact order and tick counts in the trace.

mod common;
use common::*;

/// Ilse (Level 2, +3 initiative), Tomas (Level 0, +2) and a Bandit (Level 1, +2).
const CAST: &str = r#"
encounter "test"
character Ilse   { side heroes, level = 2, finesse = 3, cognition = 1 }
character Tomas  { side heroes, level = 0, finesse = 1, cognition = 2 }
character Bandit { side foes,   level = 1, finesse = 2, cognition = 0 }
"#;

fn fot(rolls: &[i64], answers: &str, until: &str) -> Run {
    run(Case {
        ruleset: FLOW_OF_TIME,
        encounter: CAST,
        rolls,
        answers,
        until: Some(until),
        ..Case::default()
    })
    .ok()
}

/// Initiative rolls 5, 3, 15: Ilse 8, Tomas 5, Bandit 17 - the order is Bandit, Ilse, Tomas.
const BANDIT_FIRST: &[i64] = &[5, 3, 15];

#[test]
fn fot_1_a_round_is_twelve_seconds_in_which_every_entity_takes_its_turn() {
    // The GM starts the order; the table policy plays the rest.
    let r = fot(BANDIT_FIRST, "initiative", "round=3");
    assert_eq!(
        r.rounds(),
        vec![
            v(&["Bandit", "Ilse", "Tomas"]),
            v(&["Bandit", "Ilse", "Tomas"]),
            v(&["Bandit", "Ilse", "Tomas"])
        ]
    );
    // Each round moves the clock on twelve seconds, as it starts.
    assert_eq!(
        r.lines(&["round_start", "time"]),
        v(&[
            "round_start 1",
            "time 12 second 12",
            "round_start 2",
            "time 12 second 24",
            "round_start 3",
            "time 12 second 36"
        ])
    );
    // Between turns, entities react with their reserved ticks: in round 1 the Bandit, whose
    // reserved ticks are left, dodges Ilse's strike inside Ilse's turn.
    let acts = r.lines(&["turn_start", "turn_end", "reaction_start", "reaction_end", "action"]);
    assert_eq!(
        acts[..10].to_vec(),
        v(&[
            "turn_start Bandit",
            "action Bandit strike",
            "turn_end Bandit",
            "turn_start Ilse",
            "action Ilse strike",
            "reaction_start Bandit",
            "action Bandit dodge",
            "reaction_end Bandit",
            "turn_end Ilse",
            "turn_start Tomas",
        ])
    );
}

#[test]
fn fot_2_a_level_0_character_has_3_ticks_and_a_level_2_character_4() {
    // Everyone aims until the ticks run out; the Bandit ends its turn at once.
    let answers = "initiative\nend_turn\naim\naim\naim\naim\naim\naim\naim\nleave_order\nwrap_up";
    let r = fot(BANDIT_FIRST, answers, "scene=2");
    // The tick changes within one character's first turn.
    let ticks = |who: &str| -> Vec<String> {
        r.after("turn_start", "actor", who)
            .events
            .iter()
            .take_while(|e| e["event"] != "turn_end")
            .filter(|e| e["event"] == "spend" || e["event"] == "reset")
            .map(compact)
            .collect()
    };
    assert_eq!(
        ticks("Ilse"),
        v(&[
            "reset Ilse ticks 4 4",
            "spend Ilse ticks 1 3",
            "spend Ilse ticks 1 2",
            "spend Ilse ticks 1 1",
            "spend Ilse ticks 1 0"
        ])
    );
    assert_eq!(
        ticks("Tomas"),
        v(&[
            "reset Tomas ticks 3 3",
            "spend Tomas ticks 1 2",
            "spend Tomas ticks 1 1",
            "spend Tomas ticks 1 0"
        ])
    );
    // With no ticks left the turn ends: no one is asked for an activity with nothing to spend.
    let activities: Vec<String> = r
        .of("decision")
        .iter()
        .filter(|e| e["decision"] == "activity")
        .map(|e| s(&e["actor"]))
        .collect();
    assert_eq!(
        activities,
        v(&["Bandit", "Ilse", "Ilse", "Ilse", "Ilse", "Tomas", "Tomas", "Tomas"])
    );
}

#[test]
fn fot_3_activities_cost_ticks_and_long_activities_take_minutes_or_hours() {
    // In the order: a strike costs 2 ticks, a step 1. Outside it: a search takes 10 minutes, a
    // rest an hour, and no tick is spent.
    let answers = "initiative\nstrike\nIlse\nstep\nend_turn\nend_turn\nend_turn\nleave_order\n\
                   narration\nIlse\nsearch\nnarration\nTomas\nrest\nwrap_up";
    let r = fot(BANDIT_FIRST, answers, "scene=4");
    assert_eq!(
        r.lines(&["action", "spend", "time"]),
        v(&[
            "time 12 second 12",
            "action Bandit strike",
            "spend Bandit ticks 2 2",
            "action Bandit step",
            "spend Bandit ticks 1 1",
            "action Ilse search",
            "time 10 minute 612",
            "action Tomas rest",
            "time 1 hour 4212",
        ])
    );
    assert_eq!(s(&r.of("encounter_end")[0]["reason"]), "the GM ends the session");
}

#[test]
fn fot_4_initiative_is_d20_plus_the_higher_of_finesse_and_cognition_kept_for_every_round() {
    let r = fot(&[5, 3, 15], "initiative", "round=3");
    // Ilse adds Finesse 3, Tomas Cognition 2, the Bandit Finesse 2.
    assert_eq!(
        r.lines(&["roll", "set"]),
        v(&[
            "roll Ilse initiative_score 5",
            "set Ilse initiative_score 8",
            "roll Tomas initiative_score 3",
            "set Tomas initiative_score 5",
            "roll Bandit initiative_score 15",
            "set Bandit initiative_score 17",
        ])
    );
    // Sorted once, descending, before the first round; the same order every round after.
    assert_eq!(r.orders(), vec![v(&["Bandit", "Ilse", "Tomas"])]);
    let first_round = r.events.iter().position(|e| e["event"] == "round_start").unwrap_or(0);
    let order_at = r
        .events
        .iter()
        .position(|e| e["event"] == "order")
        .unwrap_or(usize::MAX);
    assert!(order_at < first_round);
    assert_eq!(r.rounds().len(), 3);
    assert!(r.rounds().iter().all(|round| *round == v(&["Bandit", "Ilse", "Tomas"])));
}

#[test]
fn fot_5_a_three_way_tie_rolls_unmodified_d20s_until_settled() {
    // 10+3, 11+2, 11+2: all three on 13. First tie roll: 8, 8, 3 - the Bandit is last, Ilse and
    // Tomas tie again. Second: 4, 6 - Tomas before Ilse.
    let r = fot(
        &[10, 11, 11, 8, 8, 3, 4, 6],
        "initiative\nend_turn\nend_turn\nend_turn",
        "round=1",
    );
    let ties: Vec<String> = r
        .of("roll")
        .iter()
        .filter(|e| e["for"] == "initiative")
        .map(|e| format!("{} {} {}", s(&e["actor"]), s(&e["dice"]), e["total"]))
        .collect();
    assert_eq!(
        ties,
        v(&["Ilse d20 8", "Tomas d20 8", "Bandit d20 3", "Ilse d20 4", "Tomas d20 6"])
    );
    assert_eq!(r.orders(), vec![v(&["Tomas", "Ilse", "Bandit"])]);
    // The tie rolls settle the order only: the Initiative Scores stay 13.
    assert_eq!(
        r.lines(&["set"]),
        v(&[
            "set Ilse initiative_score 13",
            "set Tomas initiative_score 13",
            "set Bandit initiative_score 13"
        ])
    );
}

/// The Bandit reserves two ticks and aims, leaving one unspent; Ilse steps, and the Bandit jabs
/// her with one reserved tick, inside her turn; then Ilse and Tomas end their turns.
const RESERVE_AND_REACT: &str = "initiative\nreserve\nreserve\naim\nend_turn\n\
                                 step\njab\nIlse\nend_turn\nend_turn\nnext_round";

#[test]
fn fot_6_an_entity_reserves_up_to_two_ticks_and_reacts_between_other_turns() {
    let r = fot(BANDIT_FIRST, RESERVE_AND_REACT, "round=1");
    // Reserving moves ticks aside, two at most: the third choice no longer offers it.
    assert_eq!(
        r.lines(&["transfer"]),
        v(&[
            "transfer Bandit ticks 1 3 -> Bandit reserved 1",
            "transfer Bandit ticks 1 2 -> Bandit reserved 2"
        ])
    );
    let third = r
        .of("decision")
        .into_iter()
        .filter(|e| e["actor"] == "Bandit")
        .nth(2)
        .cloned();
    let third = third.expect("a third decision");
    assert_eq!(
        names(&third["options"]),
        v(&["step", "strike", "jab", "dodge", "aim", "end_turn"])
    );
    // The reaction interrupts Ilse's turn, is paid from the reserve, and her turn resumes.
    assert_eq!(
        r.lines(&[
            "turn_start",
            "turn_end",
            "reaction_start",
            "reaction_end",
            "trigger",
            "spend"
        ]),
        v(&[
            "turn_start Bandit",
            "spend Bandit ticks 1 1",
            "turn_end Bandit",
            "turn_start Ilse",
            "spend Ilse ticks 1 3",
            "trigger moves(Ilse)",
            "reaction_start Bandit",
            "spend Bandit reserved 1 1",
            "trigger targeted(Ilse,Bandit)",
            "reaction_end Bandit",
            "turn_end Ilse",
            "turn_start Tomas",
            "turn_end Tomas",
        ])
    );
    // Only enemies react to a move: Tomas, on Ilse's side, was never asked.
    let reactions: Vec<String> = r.of("reaction_start").iter().map(|e| s(&e["actor"])).collect();
    assert_eq!(reactions, v(&["Bandit"]));
}

#[test]
fn fot_7_leftover_and_unused_reserved_ticks_are_forfeited_at_the_start_of_the_next_turn() {
    let r = fot(BANDIT_FIRST, RESERVE_AND_REACT, "round=2");
    // At the end of round 1 the Bandit still holds 1 tick and 1 reserved tick: nothing is lost
    // when the round ends ...
    let start = r
        .events
        .iter()
        .position(|e| e["event"] == "round_start" && e["round"] == 2);
    let round2 = Run {
        events: r.events[start.expect("a round 2")..].to_vec(),
        stderr: String::new(),
        code: 0,
    };
    let before_turn: Vec<String> = round2
        .events
        .iter()
        .take_while(|e| e["event"] != "turn_start")
        .map(compact)
        .collect();
    assert_eq!(before_turn, v(&["round_start 2", "time 12 second 24"]));
    // ... but at the start of its own next turn, before anything else.
    let bandit = round2.after("turn_start", "actor", "Bandit");
    assert_eq!(
        bandit.events.iter().take(3).map(compact).collect::<Vec<_>>(),
        v(&[
            "forfeit Bandit ticks 1 0",
            "forfeit Bandit reserved 1 0",
            "reset Bandit ticks 4 4"
        ])
    );
}

#[test]
fn fot_8_the_gm_switches_between_free_narration_and_the_initiative_order() {
    let answers = "narration\nTomas\nsearch\ninitiative\nreserve\nend_turn\nend_turn\nend_turn\nleave_order\n\
                   narration\nIlse\nnothing\nwrap_up";
    let r = fot(BANDIT_FIRST, answers, "scene=10");
    let gm: Vec<String> = r
        .of("decision")
        .iter()
        .filter(|e| e["chooser"] == "gm")
        .map(|e| format!("{} {}", s(&e["decision"]), s(&e["picked"])))
        .collect();
    assert_eq!(
        gm,
        v(&[
            "mode narration",
            "who Tomas",
            "mode initiative",
            "next leave_order",
            "mode narration",
            "who Ilse",
            "mode wrap_up"
        ])
    );
    // Narration has no order and no turns; the order exists only inside the combat level.
    assert_eq!(r.orders().len(), 1);
    assert_eq!(r.turns(), v(&["Bandit", "Ilse", "Tomas"]));
    let combat_end = r.of("level_end").into_iter().find(|e| e["level"] == "combat").cloned();
    assert_eq!(
        s(&combat_end.expect("combat ended")["reason"]),
        "the GM leaves the initiative order"
    );
    // Leaving the order, the Bandit's reserved tick and its unspent ticks are let go.
    let after_combat = r.after("turn_end", "actor", "Tomas");
    // (The Bandit reserved one tick and ended its turn; the others ended theirs at once.)
    assert_eq!(
        after_combat.lines(&["forfeit", "level_end"])[..5].to_vec(),
        v(&[
            "forfeit Ilse ticks 4 0",
            "forfeit Tomas ticks 3 0",
            "forfeit Bandit ticks 3 0",
            "forfeit Bandit reserved 1 0",
            "level_end",
        ])
    );
    assert_eq!(s(&after_combat.of("level_end")[0]["level"]), "combat");
}
