//! 6. Exalted 2nd edition (rulesets/library/exalted.turn): the scenarios of systems.md section 6.

use super::{Scenario, play, v};
use crate::common::{Run, names, s};

pub(crate) const EXALTED: &str = "rulesets/library/exalted.turn";

/// The ticks on which someone acted, as the scenarios' tables write them: `8 {Jamal, Peony}`,
/// each set of those acting at one moment in braces (names sorted: a set has no order). Two
/// separate moments on one tick would read `8 {Jamal} {Peony}`.
fn timeline(run: &Run) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut tick = String::new();
    let mut sets: Vec<Vec<String>> = Vec::new();
    let mut open = false;
    let flush = |out: &mut Vec<String>, tick: &str, sets: &mut Vec<Vec<String>>| {
        if !sets.is_empty() {
            let shown: Vec<String> = sets
                .iter_mut()
                .map(|set| {
                    set.sort();
                    format!("{{{}}}", set.join(", "))
                })
                .collect();
            out.push(format!("{tick} {}", shown.join(" ")));
        }
        sets.clear();
    };
    for e in &run.events {
        match s(&e["event"]).as_str() {
            "level_start" if e["level"] == "tick" => {
                flush(&mut out, &tick, &mut sets);
                tick = e["n"].to_string();
            }
            "together_start" => {
                sets.push(Vec::new());
                open = true;
            }
            "together_end" => open = false,
            "turn_start" => {
                let actor = s(&e["actor"]);
                match sets.last_mut() {
                    Some(set) if open => set.push(actor),
                    _ => sets.push(vec![actor]),
                }
            }
            _ => {}
        }
    }
    flush(&mut out, &tick, &mut sets);
    out
}

/// Each character's stat as last set (`next_tick`, `dv_penalty`), in the cast's order.
fn last_set(run: &Run, stat: &str, cast: &[&str]) -> Vec<String> {
    cast.iter()
        .map(|who| {
            let value = run
                .of("set")
                .iter()
                .rev()
                .find(|e| e["actor"] == *who && e["stat"] == stat)
                .map_or("unset".to_string(), |e| e["left"].to_string());
            format!("{who} {value}")
        })
        .collect()
}

/// The run up to the end of tick `n`.
fn through_tick(run: &Run, n: i64) -> Run {
    let end = run
        .events
        .iter()
        .position(|e| e["event"] == "level_end" && e["level"] == "tick" && e["n"] == n)
        .unwrap_or_else(|| panic!("no tick {n}"));
    Run {
        events: run.events[..=end].to_vec(),
        stderr: String::new(),
        code: 0,
    }
}

// Join Battle pools are Wits + Awareness d10s; each 7+ is a success, a 10 two. The forced
// rolls below give Peony 10,10,10,10 (8), Jamal 10,10,7 (5) and the Guard 7,1 (1).
const EX_61: &str = "character Peony { wits = 2, awareness = 2, weapon_speed = 4 }\n\
    character Jamal { wits = 2, awareness = 1, weapon_speed = 5 }\n\
    character Guard { wits = 1, awareness = 1, weapon_speed = 5 }\n";

#[test]
fn exalted_6_1_join_battle_and_the_tick_timeline() {
    let run = play(
        EXALTED,
        Scenario {
            encounter: EX_61,
            rolls: &[10, 10, 10, 10, 10, 10, 7, 7, 1],
            until: "tick=16",
            ..Scenario::default()
        },
    );
    let cast = ["Peony", "Jamal", "Guard"];
    let setup = Run {
        events: run
            .events
            .iter()
            .take_while(|e| e["event"] != "level_start")
            .cloned()
            .collect(),
        stderr: String::new(),
        code: 0,
    };
    assert_eq!(
        last_set(&setup, "join_battle", &cast),
        v(&["Peony 8", "Jamal 5", "Guard 1"])
    );
    // first ticks: Peony 0; Jamal 3 (8 - 5); the Guard 6 (8 - 1 = 7, capped at 6)
    assert_eq!(
        last_set(&setup, "next_tick", &cast),
        v(&["Peony 0", "Jamal 3", "Guard 6"])
    );
    assert_eq!(
        timeline(&run),
        v(&[
            "0 {Peony}",
            "3 {Jamal}",
            "4 {Peony}",
            "6 {Guard}",
            "8 {Jamal, Peony}",
            "11 {Guard}",
            "12 {Peony}",
            "13 {Jamal}",
            "16 {Guard, Peony}",
        ])
    );
    assert_eq!(
        last_set(&run, "next_tick", &cast),
        v(&["Peony 20", "Jamal 18", "Guard 21"])
    );
    let ticks: Vec<i64> = run.of("level_start").iter().filter_map(|e| e["n"].as_i64()).collect();
    assert_eq!(
        ticks,
        (0..=16).collect::<Vec<_>>(),
        "ticks counted up from 0, no rounds"
    );
}

// Peony 10,7 (3 successes), Jamal 1,2 (none): Peony acts on tick 0, Jamal on tick 3.
const EX_62: &str = "character Peony { wits = 1, awareness = 1, weapon_speed = 4 }\n\
    character Jamal { wits = 1, awareness = 1, weapon_speed = 5 }\n";

#[test]
fn exalted_6_2_mixed_speeds_and_dv_penalty_refresh() {
    let answers = "tick 0, Peony, act: attack\n\
        tick 3, Jamal, act: dash\n\
        tick 4, Peony, act: guard\n\
        tick 6, Jamal, act: attack\n\
        tick 7, Peony, act: dash\n\
        tick 10, Peony, act: attack\n\
        tick 11, Jamal, act: attack\n";
    let run = play(
        EXALTED,
        Scenario {
            encounter: EX_62,
            rolls: &[10, 7, 1, 2],
            answers,
            until: "tick=11",
            ..Scenario::default()
        },
    );
    let cast = ["Peony", "Jamal"];
    assert_eq!(
        timeline(&run),
        v(&[
            "0 {Peony}",
            "3 {Jamal}",
            "4 {Peony}",
            "6 {Jamal}",
            "7 {Peony}",
            "10 {Peony}",
            "11 {Jamal}"
        ])
    );
    assert_eq!(last_set(&run, "next_tick", &cast), v(&["Peony 14", "Jamal 16"]));
    // the DV penalties after all actions on each tick: each lasts until its owner's next action,
    // which refreshes it and applies its own
    let snapshots: Vec<String> = [0, 3, 4, 6, 7, 10, 11]
        .iter()
        .map(|&t| {
            format!(
                "{t}: {}",
                last_set(&through_tick(&run, t), "dv_penalty", &cast).join(", ")
            )
        })
        .collect();
    assert_eq!(
        snapshots,
        v(&[
            "0: Peony -1, Jamal unset",
            "3: Peony -1, Jamal -2",
            "4: Peony 0, Jamal -2",
            "6: Peony 0, Jamal -1",
            "7: Peony -2, Jamal -1",
            "10: Peony -1, Jamal -1",
            "11: Peony -1, Jamal -1",
        ])
    );
}

// A and B 10,10,10,10 (8 each), C 10,10 (4), D 1,1 (none), E 7,1 (1).
const EX_63: &str = "character A { wits = 2, awareness = 2, weapon_speed = 5 }\n\
    character B { wits = 2, awareness = 2, weapon_speed = 4 }\n\
    character C { wits = 1, awareness = 1 }\n\
    character D { wits = 1, awareness = 1, forced_inactive = true }\n\
    character E { wits = 1, awareness = 1, weapon_speed = 6 }\n";

#[test]
fn exalted_6_3_shared_first_tick_the_cap_and_simultaneous_sets() {
    // C takes Miscellaneous actions throughout; D, forced Inactive, is refused an attack.
    let answers = "tick 4, C, act: miscellaneous\n\
        tick 6, D, act: attack\n\
        tick 9, C, act: miscellaneous\n";
    let run = play(
        EXALTED,
        Scenario {
            encounter: EX_63,
            rolls: &[10, 10, 10, 10, 10, 10, 10, 10, 10, 10, 1, 1, 7, 1],
            answers,
            until: "tick=12",
            ..Scenario::default()
        },
    );
    let cast = ["A", "B", "C", "D", "E"];
    let first: Vec<String> = last_set(&through_first_tick(&run), "next_tick", &cast);
    // D's 8 and E's 7 are capped at 6
    assert_eq!(first, v(&["A 0", "B 0", "C 4", "D 6", "E 6"]));
    assert_eq!(
        timeline(&run),
        v(&[
            "0 {A, B}",
            "4 {B, C}",
            "5 {A}",
            "6 {D, E}",
            "8 {B}",
            "9 {C}",
            "10 {A}",
            "11 {D}",
            "12 {B, E}",
        ])
    );
    let actions: Vec<String> = run
        .of("action")
        .iter()
        .filter(|e| e["actor"] == "C" || e["actor"] == "D")
        .map(|e| format!("{} {}", s(&e["actor"]), s(&e["action"])))
        .collect();
    assert_eq!(
        actions,
        v(&["C miscellaneous", "D inactive", "C miscellaneous", "D inactive"])
    );
    let refused: Vec<String> = run
        .of("refused")
        .iter()
        .map(|e| {
            format!(
                "{} {}: {}",
                s(&e["actor"]),
                s(&e["option"]),
                names(&e["reasons"]).join("; ")
            )
        })
        .collect();
    assert_eq!(refused, v(&["D attack: D is forced Inactive"]));
}

/// The events before the first tick starts: Join Battle and the first ticks.
fn through_first_tick(run: &Run) -> Run {
    Run {
        events: run
            .events
            .iter()
            .take_while(|e| e["event"] != "level_start")
            .cloned()
            .collect(),
        stderr: String::new(),
        code: 0,
    }
}

#[test]
fn exalted_an_aim_aborted_into_an_attack_keeps_its_dv_penalty() {
    // Peony Aims on tick 0 (Speed 3, DV -1) and attacks at once as tick 2 starts: her next action
    // is the sword's Speed 4 later (tick 6), and the Aim's penalty does not refresh. Jamal, not
    // Aiming, is refused.
    let answers = "tick 0, Peony, act: aim\n\
        start of tick 1, Jamal: attack_now\n\
        start of tick 2, Peony: attack_now\n";
    let run = play(
        EXALTED,
        Scenario {
            encounter: EX_62,
            rolls: &[10, 7, 1, 2],
            answers,
            until: "tick=6",
            ..Scenario::default()
        },
    );
    assert_eq!(timeline(&run), v(&["0 {Peony}", "2 {Peony}", "3 {Jamal}", "6 {Peony}"]));
    let peony: Vec<String> = run
        .events
        .iter()
        .filter(|e| {
            e["actor"] == "Peony" && matches!(e["event"].as_str(), Some("set" | "attempt" | "effect_end" | "action"))
        })
        .map(|e| match s(&e["event"]).as_str() {
            "set" => format!("{} {}", s(&e["stat"]), e["left"]),
            other => format!("{other} {}", s(&e["attempt"]) + &s(&e["action"]) + &s(&e["effect"])),
        })
        .collect();
    assert_eq!(
        peony,
        v(&[
            "join_battle 3",
            "next_tick 0",
            "action aim",
            "next_tick 3",
            "dv_penalty -1",
            // the Aim's bonus lasts through the attack it was aborted into
            "attempt attack_now",
            "next_tick 6",
            "effect_end aiming",
            "action attack",
            "next_tick 10",
            "dv_penalty -1",
        ])
    );
    let refused: Vec<String> = run
        .of("attempt_refused")
        .iter()
        .map(|e| {
            format!(
                "{} {}: {}",
                s(&e["actor"]),
                s(&e["attempt"]),
                names(&e["reasons"]).join("; ")
            )
        })
        .collect();
    assert_eq!(refused.len(), 1);
    assert!(refused[0].ends_with("Jamal is not Aiming"), "{refused:?}");
}
