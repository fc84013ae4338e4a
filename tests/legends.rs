//! One scenario per Legends rule (LGD-1 … LGD-16), run through `rulesets/legends.turn` with
//! forced rolls and scripted answers, asserting the order, margins, phases and effects.

mod common;
use common::*;

/// Ana and Bo are heroes, Cy and Dax foes.
const CAST: &str = r#"
encounter "test"
character Ana { side heroes, dex = 6, spd = 5 }
character Bo  { side heroes, dex = 4, spd = 4 }
character Cy  { side foes,   dex = 5, spd = 3 }
character Dax { side foes,   dex = 3, spd = 6 }
"#;

/// Turn order rolls 1, 1, 4, 3: margins 5, 3, 1, 0 - the list is Ana, Bo, Cy, Dax.
const ABCD: &[i64] = &[1, 1, 4, 3];
/// The three initial move-down decisions (Cy, Bo, Ana), all declined.
const STAY3: &str = "stay stay stay";

fn lgd(cast: &str, rolls: &[i64], answers: &str, until: &str) -> Run {
    run(Case {
        ruleset: LEGENDS,
        encounter: cast,
        rolls,
        answers: &answers.split_whitespace().collect::<Vec<_>>().join("\n"),
        until: Some(until),
        ..Case::default()
    })
}

/// The names of one phase's events of a kind, in the n-th round (from 1).
fn in_round(r: &Run, round: i64, kinds: &[&str]) -> Vec<String> {
    let start = r
        .events
        .iter()
        .position(|e| e["event"] == "round_start" && e["round"] == round);
    let start = start.unwrap_or_else(|| panic!("no round {round}"));
    r.events[start + 1..]
        .iter()
        .take_while(|e| e["event"] != "round_end")
        .filter(|e| kinds.contains(&e["event"].as_str().unwrap_or("")))
        .map(compact)
        .collect()
}

#[test]
fn lgd_1_a_round_is_a_movement_phase_then_an_action_phase_of_one_turn_each() {
    let r = lgd(CAST, ABCD, STAY3, "round=2").ok();
    assert_eq!(
        in_round(&r, 2, &["phase_start", "turn_start", "time"]),
        v(&[
            "time 5 second 10",
            "phase_start movement",
            "phase_start action_phase",
            "turn_start Ana",
            "turn_start Bo",
            "turn_start Cy",
            "turn_start Dax"
        ])
    );
}

#[test]
fn lgd_2_the_list_is_ordered_by_margin_a_smaller_failure_above_a_worse_one() {
    // d12 on DEX: Ana 6-8 = -2, Bo 4-9 = -5, Cy 5-2 = 3, Dax 3-1 = 2.
    let r = lgd(CAST, &[8, 9, 2, 1], STAY3, "round=1").ok();
    assert_eq!(
        r.lines(&["set"])[..4].to_vec(),
        v(&[
            "set Ana turn_margin -2",
            "set Bo turn_margin -5",
            "set Cy turn_margin 3",
            "set Dax turn_margin 2"
        ])
    );
    assert_eq!(r.orders()[0], v(&["Cy", "Dax", "Ana", "Bo"]));
}

#[test]
fn lgd_3_ties_are_broken_with_a_d2() {
    // Ana and Bo both succeed by 0; the d2 gives Ana 1, Bo 2: Bo first.
    let r = lgd(CAST, &[6, 4, 12, 12, 1, 2], STAY3, "round=1").ok();
    let d2: Vec<String> = r
        .of("roll")
        .iter()
        .filter(|e| e["dice"] == "d2")
        .map(|e| format!("{} {}", s(&e["actor"]), e["total"]))
        .collect();
    assert_eq!(d2, v(&["Ana 1", "Bo 2"]));
    assert_eq!(r.orders()[0], v(&["Bo", "Ana", "Cy", "Dax"]));
}

#[test]
fn lgd_4_surprised_characters_go_below_all_others_ordered_among_themselves() {
    let cast = CAST
        .replace("dex = 5, spd = 3", "dex = 5, spd = 3, enemies_seen = 0")
        .replace("dex = 6, spd = 5", "dex = 6, spd = 5, enemies_seen = 0");
    // Ana (margin 5) and Cy (margin 4) see no enemy: both below Bo (2) and Dax (1), Ana above Cy.
    let r = lgd(&cast, &[1, 2, 1, 2], STAY3, "round=1").ok();
    assert_eq!(r.orders()[0], v(&["Bo", "Dax", "Ana", "Cy"]));
}

#[test]
fn lgd_5_turns_are_adjacent_only_with_no_one_between() {
    // List Ana, Cy, Bo, Dax: Cy and Dax are enemies of Ana but not adjacent (Bo is between),
    // so Ana may move below any of them.
    // Margins: Ana 5, Cy 4, Bo 2, Dax 0.
    let r = lgd(CAST, &[1, 2, 1, 3], STAY3, "round=1").ok();
    assert_eq!(r.orders()[0], v(&["Ana", "Cy", "Bo", "Dax"]));
    let ana = r.of("decision").into_iter().find(|e| e["actor"] == "Ana").cloned();
    assert_eq!(
        names(&ana.expect("Ana decides")["options"]),
        v(&["Cy", "Bo", "Dax", "stay"])
    );
}

#[test]
fn lgd_6_right_after_the_list_is_made_characters_may_move_down_from_the_second_to_last_up() {
    // Cy decides first (Dax, last, cannot move down), then Bo, who moves below Dax, then Ana.
    let r = lgd(CAST, ABCD, "stay Dax stay", "round=1").ok();
    let deciders: Vec<String> = r
        .of("decision")
        .iter()
        .filter(|e| e["decision"] == "move_down")
        .map(|e| format!("{}: {}", s(&e["actor"]), names(&e["options"]).join("|")))
        .collect();
    // Only places below one's own are offered (and never between two adjacent enemies, LGD-8).
    assert_eq!(deciders, v(&["Cy: Dax|stay", "Bo: Dax|stay", "Ana: Dax|Bo|stay"]));
    assert_eq!(
        r.orders(),
        vec![v(&["Ana", "Bo", "Cy", "Dax"]), v(&["Ana", "Cy", "Dax", "Bo"])]
    );
    // The new list is the one round 1 plays.
    assert_eq!(r.turns(), v(&["Ana", "Cy", "Dax", "Bo"]));
}

const A4: &str = "attack attack attack attack";
const S4: &str = "stay stay stay stay";

/// Round 1: Dax begins a three-turn focus. Round 2: Bo and Dax forfeit their turns to move.
/// Round 3: Dax (lower in the old order) decides first and goes to the top; Bo stays.
fn forfeit_and_move() -> Run {
    let answers = format!(
        "{STAY3}  attack attack attack focus  {S4} attack forfeit_to_move attack forfeit_to_move  \
         {S4} to_top stay {A4}  {S4} {A4}"
    );
    lgd(CAST, ABCD, &answers, "round=4").ok()
}

#[test]
fn lgd_7_a_forfeited_turn_buys_a_move_at_the_next_rounds_action_phase_never_in_round_one() {
    let r = forfeit_and_move();
    let acts = |round: i64| -> Vec<String> {
        let start = r
            .events
            .iter()
            .position(|e| e["event"] == "round_start" && e["round"] == round)
            .unwrap_or(0);
        r.events[start..]
            .iter()
            .find(|e| e["event"] == "decision" && e["decision"] == "act")
            .map(|e| names(&e["options"]))
            .unwrap_or_default()
    };
    assert_eq!(acts(1), v(&["attack", "guard", "focus"]));
    assert_eq!(acts(2), v(&["attack", "guard", "focus", "forfeit_to_move"]));
    // Round 3: after the movement phase, before anyone's turn; Dax (earlier in the walk from the
    // bottom, so later in the old order) decides first, Bo last.
    assert_eq!(
        in_round(&r, 3, &["phase_start", "decision", "order", "turn_start"])[..9].to_vec(),
        v(&[
            "phase_start movement",
            "decision Ana movement stay",
            "decision Bo movement stay",
            "decision Cy movement stay",
            "decision Dax movement stay",
            "phase_start action_phase",
            "decision Dax reposition to_top",
            "order Dax,Ana,Bo,Cy",
            "decision Bo reposition stay",
        ])
    );
    assert_eq!(r.rounds()[2], v(&["Dax", "Ana", "Bo", "Cy"]));
}

#[test]
fn lgd_8_no_move_may_split_two_adjacent_enemies_and_the_refusal_names_them() {
    // Bo asks to move below Cy: that would put Bo between Cy and Dax, adjacent enemies.
    // The refusal is traced with the rule's reason, and Bo is asked again: he stays.
    let r = lgd(CAST, ABCD, "stay Cy stay stay", "round=1").ok();
    let refused = r.of("refused");
    assert_eq!(refused.len(), 1);
    assert_eq!(s(&refused[0]["actor"]), "Bo");
    assert_eq!(s(&refused[0]["option"]), "Cy");
    assert_eq!(
        names(&refused[0]["reasons"]),
        v(&["Bo cannot move between Cy and Dax: their turns are adjacent and both are enemies of Bo"])
    );
    // The refused place is never offered, so a policy cannot pick it; the decision asked again
    // offers the same places, and nothing moved.
    let bo = r.of("decision").into_iter().find(|e| e["actor"] == "Bo").cloned();
    assert_eq!(names(&bo.expect("Bo decides")["options"]), v(&["Dax", "stay"]));
    // The refused attempt changed nothing: the orders are those of a round where all three stay.
    assert_eq!(r.orders(), lgd(CAST, ABCD, STAY3, "round=1").ok().orders());
    let ok = lgd(CAST, ABCD, STAY3, "round=1").ok();
    let bo = ok.of("decision").into_iter().find(|e| e["actor"] == "Bo").cloned();
    assert_eq!(names(&bo.expect("Bo decides")["options"]), v(&["Dax", "stay"]));
}

#[test]
fn lgd_9_one_round_ends_before_the_owners_next_turn_three_turns_before_the_fourth() {
    let answers = format!("{STAY3} guard focus attack attack  {S4} {A4}  {S4} {A4}  {S4} {A4}");
    let r = lgd(CAST, ABCD, &answers, "round=4").ok();
    // Ana's one-round guard lasts through the next movement phase and ends right before her turn.
    assert_eq!(
        in_round(&r, 2, &["phase_start", "effect_end", "turn_start"])[..4].to_vec(),
        v(&[
            "phase_start movement",
            "phase_start action_phase",
            "effect_end Ana",
            "turn_start Ana"
        ])
    );
    // Bo's three-turn focus: effective on turns 1 to 3, ending right before the fourth.
    let ends: Vec<String> = r
        .events
        .windows(2)
        .filter(|w| w[0]["event"] == "effect_end")
        .map(|w| format!("{} {} -> {}", s(&w[0]["actor"]), s(&w[0]["effect"]), compact(&w[1])))
        .collect();
    assert_eq!(
        ends,
        v(&["Ana guarded -> turn_start Ana", "Bo focused -> turn_start Bo"])
    );
    let bo_end = r
        .events
        .iter()
        .position(|e| e["event"] == "effect_end" && e["actor"] == "Bo");
    let round4 = r
        .events
        .iter()
        .position(|e| e["event"] == "round_start" && e["round"] == 4);
    assert!(bo_end > round4, "the focus ends in round 4");
}

#[test]
fn lgd_10_a_duration_begun_in_the_movement_phase_ticks_at_each_movement_phase() {
    // Round 2: Ana moves (d12 on SPD 5: 3) and rushes, winded for one round counted at the start
    // of each movement phase: it ends as round 3's movement phase begins.
    let answers = format!("{STAY3} {A4}  move rush stay stay stay {A4}  {S4} {A4}");
    let mut rolls = ABCD.to_vec();
    rolls.push(3);
    let r = lgd(CAST, &rolls, &answers, "round=3").ok();
    assert_eq!(
        r.lines(&["effect_start", "effect_end"]),
        v(&["effect_start Ana", "effect_end Ana"])
    );
    assert_eq!(s(&r.of("effect_start")[0]["counted_at"]), "start of movement");
    assert_eq!(
        in_round(&r, 3, &["phase_start", "effect_end", "decision"])[..3].to_vec(),
        v(&["phase_start movement", "effect_end Ana", "decision Ana movement stay"])
    );
}

#[test]
fn lgd_11_moving_in_the_order_does_not_move_a_duration() {
    // Dax's three-turn focus began at place 4. Dax forfeits in round 2 and moves to the top in
    // round 3; the focus still ends at place 4 in round 4 - right before Cy's turn, not Dax's.
    let r = forfeit_and_move();
    assert_eq!(s(&r.of("effect_start")[0]["counted_at"]), "place 4 of turn_order");
    assert_eq!(
        in_round(&r, 4, &["turn_start", "effect_end"]),
        v(&[
            "turn_start Dax",
            "turn_start Ana",
            "turn_start Bo",
            "effect_end Dax",
            "turn_start Cy"
        ])
    );
}

#[test]
fn lgd_12_no_movement_phase_in_round_one_unless_a_whole_side_is_surprised() {
    let r = lgd(CAST, ABCD, STAY3, "round=2").ok();
    assert_eq!(in_round(&r, 1, &["phase_start"]), v(&["phase_start action_phase"]));
    // The foes see no one: they are surprised, and only the heroes get a round-one movement phase.
    let cast = CAST
        .replace("dex = 5, spd = 3", "dex = 5, spd = 3, enemies_seen = 0")
        .replace("dex = 3, spd = 6", "dex = 3, spd = 6, enemies_seen = 0");
    let r = lgd(&cast, ABCD, STAY3, "round=1").ok();
    assert_eq!(
        in_round(&r, 1, &["phase_start", "decision"])[..4].to_vec(),
        v(&[
            "phase_start movement",
            "decision Ana movement stay",
            "decision Bo movement stay",
            "phase_start action_phase"
        ])
    );
}

#[test]
fn lgd_13_in_the_movement_phase_characters_decide_top_first_and_take_no_turn_or_action() {
    let answers = format!("{STAY3} {A4}  move no_rush stay stay stay");
    let mut rolls = ABCD.to_vec();
    rolls.push(5);
    let r = lgd(CAST, &rolls, &answers, "round=2").ok();
    let movement: Vec<String> = r
        .after("phase_start", "phase", "movement")
        .events
        .iter()
        .take_while(|e| e["event"] != "phase_end")
        .map(compact)
        .collect();
    assert_eq!(
        movement,
        v(&[
            "decision Ana movement move",
            "roll Ana move_margin 5",
            "set Ana move_margin 0",
            "set Ana distance 1",
            "decision Ana rush no_rush",
            "mark Ana moved",
            "decision Bo movement stay",
            "decision Cy movement stay",
            "decision Dax movement stay"
        ])
    );
}

#[test]
fn lgd_14_a_movement_roll_is_a_d12_on_spd_rushing_adds_spd_for_6_fatigue() {
    // Bo carries two degrees of encumbrance: he may not rush.
    let cast = CAST.replace("dex = 4, spd = 4", "dex = 4, spd = 4, encumbrance = 2");
    let answers = format!("{STAY3} {A4}  move rush move no_rush stay move rush");
    let mut rolls = ABCD.to_vec();
    rolls.extend([3, 9, 2]);
    let r = lgd(&cast, &rolls, &answers, "round=2").ok();
    let moves: Vec<String> = r
        .events
        .iter()
        .filter(|e| {
            (e["event"] == "set" && (e["stat"] == "move_margin" || e["stat"] == "distance"))
                || (e["event"] == "gain" && e["resource"] == "fatigue")
                || (e["event"] == "decision" && e["decision"] == "rush")
        })
        .map(|e| match s(&e["event"]).as_str() {
            "decision" => format!(
                "{} rush? {} of {}",
                s(&e["actor"]),
                s(&e["picked"]),
                names(&e["options"]).join("|")
            ),
            _ => compact(e),
        })
        .collect();
    assert_eq!(
        moves,
        v(&[
            // Ana: SPD 5, roll 3: margin 2, short range; rushing: +5 = 7, still short; 6 fatigue.
            "set Ana move_margin 2",
            "set Ana distance 1",
            "Ana rush? rush of rush|no_rush",
            "gain Ana fatigue 6 6",
            "set Ana move_margin 7",
            "set Ana distance 1",
            // Bo: SPD 4, roll 9: failed by 5; encumbered, so rushing is not offered.
            "set Bo move_margin -5",
            "set Bo distance 0",
            "Bo rush? no_rush of no_rush",
            // Dax: SPD 6, roll 2: margin 4; rushing: +6 = 10, medium range.
            "set Dax move_margin 4",
            "set Dax distance 1",
            "Dax rush? rush of rush|no_rush",
            "gain Dax fatigue 6 6",
            "set Dax move_margin 10",
            "set Dax distance 2",
        ])
    );
}

#[test]
fn lgd_15_reactive_movement_answers_a_lower_characters_escape_and_may_be_declined() {
    // Ana prepares to chase; Dax (below her) escapes; Ana reacts inside Dax's movement with a
    // roll of her own. Her chase raises nothing, so it can trigger no reaction in turn.
    let answers = format!("{STAY3} {A4}  prepare_chase stay stay escape no_rush chase no_rush");
    let mut rolls = ABCD.to_vec();
    rolls.extend([4, 2]);
    let r = lgd(CAST, &rolls, &answers, "round=2").ok();
    assert_eq!(
        r.lines(&["trigger", "reaction_start", "reaction_end", "roll"])[4..].to_vec(),
        v(&[
            "roll Dax move_margin 4",
            "trigger escapes(Dax)",
            "reaction_start Ana",
            "roll Ana move_margin 2",
            "reaction_end Ana",
        ])
    );
    // The order is unchanged by the reaction.
    assert_eq!(r.orders().len(), 1);
    // Declined: no roll for Ana.
    let answers = format!("{STAY3} {A4}  prepare_chase stay stay escape no_rush decline");
    let mut rolls = ABCD.to_vec();
    rolls.push(4);
    let r = lgd(CAST, &rolls, &answers, "round=2").ok();
    assert_eq!(r.of("roll").iter().filter(|e| e["actor"] == "Ana").count(), 1);
    // A character below the escaper cannot react to it: Dax prepares, Ana escapes, nothing.
    let answers = format!("{STAY3} {A4}  escape no_rush stay stay prepare_chase");
    let mut rolls = ABCD.to_vec();
    rolls.push(4);
    let r = lgd(CAST, &rolls, &answers, "round=2").ok();
    assert!(r.of("reaction_start").is_empty());
}

#[test]
fn lgd_16_a_group_moving_together_rolls_at_its_last_members_place() {
    // Ana and Bo are grouped up. Ana says move: nothing rolls yet. At Bo's place, both roll.
    let cast = CAST
        .replace("dex = 6, spd = 5", "dex = 6, spd = 5, group = 1")
        .replace("dex = 4, spd = 4", "dex = 4, spd = 4, group = 1");
    let answers = format!("{STAY3} {A4}  move move no_rush no_rush stay stay");
    let mut rolls = ABCD.to_vec();
    rolls.extend([3, 4]);
    let r = lgd(&cast, &rolls, &answers, "round=2").ok();
    let movement: Vec<String> = r
        .after("phase_start", "phase", "movement")
        .lines(&["decision", "roll"])
        .into_iter()
        .take(6)
        .collect();
    assert_eq!(
        movement,
        v(&[
            "decision Ana movement move",
            "decision Bo movement move",
            "roll Ana move_margin 3",
            "decision Ana rush no_rush",
            "roll Bo move_margin 4",
            "decision Bo rush no_rush",
        ])
    );
}
