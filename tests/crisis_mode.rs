//! One scenario per Crisis Mode rule (CM-1 … CM-11), run through `rulesets/crisis-mode.turn`
//! with forced rolls and scripted answers, asserting the exact order and resources in the trace.

mod common;
use common::*;

/// Four characters: Ana and Brick share Finesse 4; Cole has 2, Dmitri 3.
const CAST: &str = r#"
encounter "test"
character Ana    { finesse = 4 }
character Brick  { finesse = 4 }
character Cole   { finesse = 2 }
character Dmitri { finesse = 3 }
"#;

fn cm(rolls: &[i64], answers: &str) -> Run {
    run(Case {
        encounter: CAST,
        rolls,
        answers,
        until: Some("turn=1"),
        ..Case::default()
    })
    .ok()
}

#[test]
fn cm_1_a_turn_is_an_action_phase_then_a_reset_phase() {
    let r = run(Case {
        encounter: CAST,
        until: Some("turn=2"),
        seed: 3,
        ..Case::default()
    })
    .ok();
    assert_eq!(
        r.lines(&["level_start", "phase_start", "level_end"]),
        v(&[
            "level_start",
            "phase_start action_phase",
            "phase_start reset_phase",
            "level_end",
            "level_start",
            "phase_start action_phase",
            "phase_start reset_phase",
            "level_end"
        ])
    );
    // Nobody takes a turn in the Reset Phase.
    let reset = r.after("phase_start", "phase", "reset_phase");
    let upto_next = reset
        .events
        .iter()
        .take_while(|e| e["event"] != "phase_end")
        .filter(|e| e["event"] == "turn_start")
        .count();
    assert_eq!(upto_next, 0);
    assert_eq!(s(&r.of("encounter_end")[0]["reason"]), "until turn=2");
}

#[test]
fn cm_2_action_points_are_rolled_and_free_steps_made_ready_before_the_first_turn() {
    let r = cm(&[3, 4, 6, 6, 1, 2, 5, 5], "");
    let before_first_turn: Vec<String> = r
        .events
        .iter()
        .take_while(|e| e["event"] != "level_start")
        .filter(|e| e["event"] != "encounter_start")
        .map(compact)
        .collect();
    assert_eq!(
        before_first_turn,
        v(&[
            "roll Ana ap 7",
            "reset Ana ap 7 7",
            "reset Ana steps 1 1",
            "roll Brick ap 12",
            "reset Brick ap 12 12",
            "reset Brick steps 1 1",
            "roll Cole ap 3",
            "reset Cole ap 3 3",
            "reset Cole steps 1 1",
            "roll Dmitri ap 10",
            "reset Dmitri ap 10 10",
            "reset Dmitri steps 1 1"
        ])
    );
    let first_roll = r.of("roll")[0];
    assert_eq!(first_roll["dice"], "2d6");
    assert_eq!(first_roll["faces"], serde_json::json!([3, 4]));
}

#[test]
fn cm_3_each_character_with_ap_gets_exactly_one_opportunity_per_round() {
    // AP: Ana 2, Brick 4, Cole 3, Dmitri 5.
    let answers = "take\nattack\n take\nattack\n keep\nmove\n take\nattack\n\
                   attack\n pass\n take\npass\n\
                   pass\n pass\n pass\n";
    let r = cm(&[1, 1, 2, 2, 1, 2, 2, 3], answers);
    assert_eq!(
        r.rounds(),
        vec![
            v(&["Dmitri", "Brick", "Cole", "Ana"]),
            v(&["Dmitri", "Brick", "Cole"]),
            v(&["Brick", "Cole", "Dmitri"])
        ]
    );
    // Free Steps are offered until taken, once per opportunity, and never again this turn.
    let steps: Vec<String> = r
        .of("decision")
        .iter()
        .filter(|e| e["decision"] == "free_steps")
        .map(|e| format!("{} {}", s(&e["actor"]), s(&e["picked"])))
        .collect();
    assert_eq!(
        steps,
        v(&["Dmitri take", "Brick take", "Cole keep", "Ana take", "Cole take"])
    );
    // Ana spent her last AP in round 1 and has no opportunity after it.
    assert!(r.lines(&["spend"]).contains(&"spend Ana ap 2 0".to_string()));
}

#[test]
fn cm_4_order_is_by_current_ap_descending_and_recomputed_every_round() {
    // AP: Ana 9, Brick 7, Cole 8, Dmitri 3.
    let answers = format!(
        "keep\npower\n keep\nmove\n keep\npass\n keep\nattack\n{}",
        "keep\npass\n".repeat(4)
    );
    let r = cm(&[5, 4, 4, 3, 4, 4, 1, 2], &answers);
    let orders = r.orders();
    assert_eq!(orders[0], v(&["Ana", "Cole", "Brick", "Dmitri"]));
    // After round 1: Ana 6, Cole 7, Brick 7, Dmitri 1; Brick beats Cole on Finesse.
    assert_eq!(orders[1], v(&["Brick", "Cole", "Ana", "Dmitri"]));
    assert_eq!(r.rounds().len(), 2);
}

#[test]
fn cm_5_equal_ap_goes_to_finesse_then_to_finesse_check_dice_rolled_until_settled() {
    // AP: Ana 6, Brick 6, Cole 6, Dmitri 4. Ana and Brick tie on AP and Finesse: their Finesse
    // Check Dice tie at 7, then Brick rolls 9 to Ana's 3.
    let answers = "keep\npass\n".repeat(4);
    let r = cm(&[3, 3, 2, 4, 5, 1, 2, 2, 7, 7, 3, 9], &answers);
    assert_eq!(r.orders()[0], v(&["Brick", "Ana", "Cole", "Dmitri"]));
    let tie_rolls: Vec<String> = r
        .of("roll")
        .iter()
        .filter(|e| e["for"] == "by_ap")
        .map(|e| format!("{} {}", s(&e["actor"]), e["total"]))
        .collect();
    assert_eq!(tie_rolls, v(&["Ana 7", "Brick 7", "Ana 3", "Brick 9"]));
    // Cole shares their AP but not their Finesse: he rolls nothing and goes after them.
    assert!(
        r.of("roll")
            .iter()
            .all(|e| !(e["for"] == "by_ap" && e["actor"] == "Cole"))
    );
}

#[test]
fn cm_6_passing_keeps_the_ap_and_gives_no_second_chance_in_the_round() {
    // AP: Ana 6, Brick 4, Cole 2, Dmitri 2.
    // Brick kept his Free Steps, so each of his opportunities offers them again.
    let answers =
        "keep\npass\n keep\nattack\n keep\nattack\n keep\nattack\n take\nattack\n keep\npass\n pass\n keep\npass\n";
    let r = cm(&[3, 3, 2, 2, 1, 1, 1, 1], answers);
    let rounds = r.rounds();
    assert_eq!(rounds[0], v(&["Ana", "Brick", "Dmitri", "Cole"]));
    assert_eq!(rounds[1], v(&["Ana", "Brick"]));
    let ana: Vec<String> = r
        .lines(&["round_start", "spend"])
        .into_iter()
        .filter(|l| l.starts_with("round") || l.contains("Ana ap"))
        .collect();
    assert_eq!(
        ana,
        v(&["round_start 1", "round_start 2", "spend Ana ap 2 4", "round_start 3"])
    );
}

#[test]
fn cm_7_the_action_phase_ends_when_every_character_has_spent_all_ap() {
    // Everyone has 2 AP and attacks; Ana and Brick tie and roll 5 to 2.
    let answers = "keep\nattack\n".repeat(4);
    let r = cm(&[1, 1, 1, 1, 1, 1, 1, 1, 5, 2], &answers);
    assert_eq!(r.rounds(), vec![v(&["Ana", "Brick", "Dmitri", "Cole"])]);
    assert_eq!(
        r.lines(&["phase_start", "phase_end", "round_start", "round_end"]),
        v(&[
            "phase_start action_phase",
            "round_start 1",
            "round_end 1",
            "phase_end action_phase",
            "phase_start reset_phase",
            "phase_end reset_phase"
        ])
    );
}

#[test]
fn cm_8_the_action_phase_ends_at_once_when_everyone_with_ap_passes_in_the_same_round() {
    // AP: Ana 6, Brick 2, Cole 5, Dmitri 3. Brick spends his last AP; all the others pass.
    let answers = "keep\npass\n keep\npass\n keep\npass\n keep\nattack\n";
    let r = cm(&[3, 3, 1, 1, 2, 3, 1, 2], answers);
    assert_eq!(r.rounds(), vec![v(&["Ana", "Cole", "Dmitri", "Brick"])]);
    assert_eq!(
        r.lines(&["phase_end"]),
        v(&[
            "phase_end action_phase (everyone with AP passed)",
            "phase_end reset_phase"
        ])
    );
}

#[test]
fn cm_8_a_round_where_one_character_acts_is_not_the_end() {
    // AP: Ana 6, Brick 2, Cole 5, Dmitri 3. Ana acts and keeps AP: a second Round follows.
    let answers = format!("keep\nattack\n{}", "keep\npass\n".repeat(7));
    let r = cm(&[3, 3, 1, 1, 2, 3, 1, 2], &answers);
    assert_eq!(r.rounds().len(), 2);
    assert_eq!(r.orders()[1], v(&["Cole", "Ana", "Dmitri", "Brick"]));
}

#[test]
fn cm_9_there_is_no_limit_on_the_number_of_rounds() {
    // Ana has 12 AP and moves one AP at a time: twelve Rounds.
    let answers = format!(
        "take\nmove\n keep\nattack\n keep\nattack\n keep\nattack\n{}",
        "move\n".repeat(11)
    );
    let r = cm(&[6, 6, 1, 1, 1, 1, 1, 1], &answers);
    let rounds = r.rounds();
    assert_eq!(rounds.len(), 12);
    assert!(rounds[1..].iter().all(|r| *r == v(&["Ana"])));
    let ana_spends = r
        .lines(&["spend"])
        .into_iter()
        .filter(|l| l.starts_with("spend Ana ap"))
        .count();
    assert_eq!(ana_spends, 12);
}

#[test]
fn cm_10_leftover_ap_and_free_steps_are_forfeited_and_new_ap_rolled_in_the_reset_phase() {
    let answers = "keep\npass\n keep\npass\n keep\npass\n keep\nattack\n";
    let r = cm(&[3, 3, 1, 1, 2, 3, 1, 2, 4, 4, 6, 5, 1, 1, 2, 6], answers);
    let reset = r.after("phase_start", "phase", "reset_phase");
    let lines: Vec<String> = reset
        .events
        .iter()
        .take_while(|e| e["event"] != "phase_end")
        .map(compact)
        .collect();
    assert_eq!(
        lines,
        v(&[
            "forfeit Ana ap 6 0",
            "forfeit Ana steps 1 0",
            "reset Ana steps 1 1",
            "roll Ana ap 8",
            "reset Ana ap 8 8",
            "forfeit Brick steps 1 0",
            "reset Brick steps 1 1",
            "roll Brick ap 11",
            "reset Brick ap 11 11",
            "forfeit Cole ap 5 0",
            "forfeit Cole steps 1 0",
            "reset Cole steps 1 1",
            "roll Cole ap 2",
            "reset Cole ap 2 2",
            "forfeit Dmitri ap 3 0",
            "forfeit Dmitri steps 1 0",
            "reset Dmitri steps 1 1",
            "roll Dmitri ap 8",
            "reset Dmitri ap 8 8"
        ])
    );
}

#[test]
fn cm_11_actions_cost_different_amounts_and_only_affordable_ones_are_offered() {
    // Ana has 3 AP: every action is offered; after a move (1 AP) the 3-AP power is not.
    let answers = "keep\nmove\n keep\nattack\n keep\nattack\n keep\nattack\n keep\nattack\n";
    let r = cm(&[1, 2, 1, 1, 1, 1, 1, 1], answers);
    let offers: Vec<String> = r
        .of("decision")
        .iter()
        .filter(|e| e["decision"] == "act" && e["actor"] == "Ana")
        .map(|e| names(&e["options"]).join(" "))
        .collect();
    assert_eq!(offers, v(&["move attack defend power pass", "move attack defend pass"]));
    let ana: Vec<String> = r
        .lines(&["spend"])
        .into_iter()
        .filter(|l| l.starts_with("spend Ana ap"))
        .collect();
    assert_eq!(ana, v(&["spend Ana ap 1 2", "spend Ana ap 2 0"]));
}

#[test]
fn cm_11_the_catalogue_is_a_parameter_an_encounter_can_change() {
    let cast = format!("{CAST}\nparam attack_cost = 3\n");
    let answers = "keep\nattack\n".repeat(4);
    let r = run(Case {
        encounter: &cast,
        rolls: &[2, 2, 3, 3, 6, 6, 5, 5],
        answers: &answers,
        until: Some("turn=1"),
        ..Case::default()
    })
    .ok();
    assert_eq!(
        r.lines(&["spend"])
            .into_iter()
            .filter(|l| l.contains(" ap "))
            .take(4)
            .collect::<Vec<_>>(),
        v(&[
            "spend Cole ap 3 9",
            "spend Dmitri ap 3 7",
            "spend Brick ap 3 3",
            "spend Ana ap 3 1"
        ])
    );
}
