//! 4. HERO System 6th edition (rulesets/library/hero.turn): the scenarios of systems.md section 4.

use super::{Scenario, play, v};
use crate::common::{Run, names, s};

pub(crate) const HERO: &str = "rulesets/library/hero.turn";

/// The combat as the scenarios' tables write it: `turn N`, then one line per Segment with who
/// acted in it (`{A, B}` at once, `A holds` for a Hold, `A interrupts` for a held action used
/// to act first, `A hold lost` when its next Phase ends a Hold), then `PS12` with who recovered.
fn segments(run: &Run) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut items: Vec<String> = Vec::new();
    let mut group: Option<Vec<String>> = None;
    let mut head = String::new();
    let flush = |out: &mut Vec<String>, head: &mut String, items: &mut Vec<String>| {
        if !head.is_empty() {
            out.push(
                format!("{head}: {}", items.join(", "))
                    .trim_end_matches(": ")
                    .to_string(),
            );
        }
        head.clear();
        items.clear();
    };
    for e in &run.events {
        let actor = s(&e["actor"]);
        match (s(&e["event"]).as_str(), s(&e["level"]).as_str()) {
            ("level_start", "turn") => {
                flush(&mut out, &mut head, &mut items);
                out.push(format!("turn {}", e["n"]));
            }
            ("level_start", "segment") => {
                flush(&mut out, &mut head, &mut items);
                head = format!("segment {}", e["n"]);
            }
            ("phase_start", _) => {
                flush(&mut out, &mut head, &mut items);
                head = "PS12".to_string();
            }
            ("together_start", _) => group = Some(Vec::new()),
            ("together_end", _) => {
                let members = group.take().unwrap_or_default();
                items.push(format!("{{{}}}", members.join(", ")));
            }
            ("turn_start", _) => match group.as_mut() {
                Some(g) => g.push(actor),
                None => items.push(actor),
            },
            ("mark", _) if e["flag"] == "holding" => items.push(format!("{actor} holds")),
            ("clear", _) if e["flag"] == "holding" && head.starts_with("segment") && items.is_empty() => {
                items.push(format!("{actor} hold lost"))
            }
            ("attempt", _) => items.push(format!("{actor} {}", s(&e["attempt"]))),
            ("gain", _) if head == "PS12" && !items.contains(&actor) => items.push(actor),
            _ => {}
        }
    }
    flush(&mut out, &mut head, &mut items);
    out
}

/// How many turns (Phases acted) each character took in Turn `n`.
fn phases_in_turn(run: &Run, n: i64) -> Vec<(String, usize)> {
    let mut turn = 0;
    let mut counts: Vec<(String, usize)> = Vec::new();
    for e in &run.events {
        if e["event"] == "level_start" && e["level"] == "turn" {
            turn = e["n"].as_i64().unwrap_or(0);
        } else if e["event"] == "turn_start" && turn == n {
            let actor = s(&e["actor"]);
            match counts.iter_mut().find(|(a, _)| *a == actor) {
                Some((_, k)) => *k += 1,
                None => counts.push((actor, 1)),
            }
        }
    }
    counts
}

const HERO_41: &str = "character Ace   { spd = 4, dex = 20 }\n\
    character Brick { spd = 3, dex = 13 }\n\
    character Cat   { spd = 6, dex = 23 }\n\
    character Dino  { spd = 2, dex = 8 }\n";

#[test]
fn hero_4_1_speed_chart_and_dex_ordering() {
    let run = play(
        HERO,
        Scenario {
            encounter: HERO_41,
            until: "turn=2",
            ..Scenario::default()
        },
    );
    assert_eq!(
        segments(&run),
        v(&[
            // Turn 1 has only Segment 12; then the Post-Segment 12 Recovery for all four
            "turn 1",
            "segment 12: Cat, Ace, Brick, Dino",
            "PS12: Ace, Brick, Cat, Dino",
            "turn 2",
            "segment 1",
            "segment 2: Cat",
            "segment 3: Ace",
            "segment 4: Cat, Brick",
            "segment 5",
            "segment 6: Cat, Ace, Dino",
            "segment 7",
            "segment 8: Cat, Brick",
            "segment 9: Ace",
            "segment 10: Cat",
            "segment 11",
            "segment 12: Cat, Ace, Brick, Dino",
            "PS12: Ace, Brick, Cat, Dino",
        ])
    );
    assert_eq!(
        phases_in_turn(&run, 2),
        vec![
            ("Cat".to_string(), 6),
            ("Ace".to_string(), 4),
            ("Brick".to_string(), 3),
            ("Dino".to_string(), 2)
        ]
    );
    // the Recovery gives each of the four REC to both STUN and END, after each Segment 12
    let ps12 = run.after("level_start", "level", "segment");
    for who in ["Ace", "Brick", "Cat", "Dino"] {
        for resource in ["stun", "endurance"] {
            let gains = ps12
                .of("gain")
                .iter()
                .filter(|e| e["actor"] == who && e["resource"] == resource)
                .count();
            assert_eq!(gains, 2, "{who} recovers {resource} after each Turn");
        }
    }
    assert!(run.of("roll").is_empty(), "no DEX ties: nothing rolled");
}

/// Scenario 4.2's cast: Gil's DEX Roll is 12-, Hal's 11- (9 + DEX/5).
const HERO_42: &str = "character Gil { spd = 3, dex = 15 }\n\
    character Hal { spd = 4, dex = 12 }\n\
    character Ivy { spd = 2, dex = 10 }\n";
const HOLD_AT_4: &str = "turn 2, segment 4, Gil, phase_start: hold\n";

#[test]
fn hero_4_2_held_action_used_to_interrupt_and_a_hold_lost_at_the_next_phase() {
    let answers = format!("{HOLD_AT_4}turn 2, segment 6, Hal, phase_start, Gil: interrupt\n");
    let run = play(
        HERO,
        Scenario {
            encounter: HERO_42,
            // DEX Rolls: Gil 3d6 = 8 (made by 4), Hal 3d6 = 10 (made by 1)
            rolls: &[2, 3, 3, 3, 3, 4],
            answers: &answers,
            until: "turn=2",
            ..Scenario::default()
        },
    );
    assert_eq!(
        segments(&run),
        v(&[
            "turn 1",
            "segment 12: Gil, Hal, Ivy",
            "PS12: Gil, Hal, Ivy",
            "turn 2",
            "segment 1",
            "segment 2",
            "segment 3: Hal",
            "segment 4: Gil holds",
            "segment 5",
            // the held action used as Hal's Phase is about to start: Gil wins 4 vs 1
            "segment 6: Gil interrupt, Gil, Hal, Ivy",
            "segment 7",
            "segment 8: Gil",
            "segment 9: Hal",
            "segment 10",
            "segment 11",
            "segment 12: Gil, Hal, Ivy",
            "PS12: Gil, Hal, Ivy",
        ])
    );
    let margins: Vec<String> = run
        .of("set")
        .iter()
        .filter(|e| e["stat"] == "margin")
        .map(|e| format!("{} {}", s(&e["actor"]), e["left"]))
        .collect();
    assert_eq!(margins, v(&["Gil 4", "Hal 1"]));
    // Gil's Hold at Segment 4 resolves no action: no turn of his there
    assert_eq!(phases_in_turn(&run, 2)[0], ("Hal".to_string(), 4));
}

#[test]
fn hero_4_2b_a_hold_never_used_is_lost_when_the_next_phase_begins() {
    // After the Hold is lost Gil has nothing to interrupt Hal's Segment 9 Phase with.
    let answers = format!("{HOLD_AT_4}turn 2, segment 9, Hal, phase_start, Gil: interrupt\n");
    let run = play(
        HERO,
        Scenario {
            encounter: HERO_42,
            answers: &answers,
            until: "turn=2",
            ..Scenario::default()
        },
    );
    let turn2 = segments(&from_turn(&run, 2));
    assert_eq!(
        turn2,
        v(&[
            "turn 2",
            "segment 1",
            "segment 2",
            "segment 3: Hal",
            "segment 4: Gil holds",
            "segment 5",
            "segment 6: Hal, Ivy",
            "segment 7",
            // Segment 8 begins: the held action is lost, and Gil acts once, not twice
            "segment 8: Gil hold lost, Gil",
            "segment 9: Hal",
            "segment 10",
            "segment 11",
            "segment 12: Gil, Hal, Ivy",
            "PS12: Gil, Hal, Ivy",
        ])
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
    assert_eq!(refused, v(&["Gil interrupt: Gil holds no action"]));
    // Gil's actions in Turn 2: Segments 8 and 12 only
    let gil: Vec<(String, usize)> = phases_in_turn(&run, 2)
        .into_iter()
        .filter(|(a, _)| a == "Gil")
        .collect();
    assert_eq!(gil, vec![("Gil".to_string(), 2)]);
    assert!(run.of("roll").is_empty(), "no contest was rolled");
}

#[test]
fn hero_4_2c_equal_margins_act_at_once() {
    let answers = format!("{HOLD_AT_4}turn 2, segment 6, Hal, phase_start, Gil: interrupt\n");
    let run = play(
        HERO,
        Scenario {
            encounter: HERO_42,
            // Gil 3d6 = 11 (made by 1), Hal 3d6 = 10 (made by 1)
            rolls: &[3, 4, 4, 3, 3, 4],
            answers: &answers,
            until: "turn=2",
            ..Scenario::default()
        },
    );
    let seg6 = segments(&run)
        .into_iter()
        .find(|l| l.starts_with("segment 6"))
        .unwrap_or_default();
    assert_eq!(seg6, "segment 6: Gil interrupt, {Gil, Hal}, Ivy");
}

/// Scenario 4.3's cast: as in 4.2, with Gil and Ivy on one side and Hal on the other. The
/// scenario's STUN 20/30 and END 18/30 are Ivy's as Turn 2 begins: Turn 1's Post-Segment 12
/// Recovery has given her REC 6 once already, so she starts the combat at 14 and 12.
const HERO_43: &str = "character Gil { side pcs, spd = 3, dex = 15, max_stun = 25, max_end = 30 }\n\
    character Hal { side npcs, spd = 4, dex = 12 }\n\
    character Ivy { side pcs, spd = 2, dex = 10, max_stun = 30, max_end = 30, stun = 14, endurance = 12, rec = 6 }\n";

#[test]
fn hero_4_3_abort_and_post_segment_12_recovery() {
    let answers = "turn 1, segment 12, Ivy, act: end_phase\n\
        turn 2, segment 3, Hal, target: Ivy\n\
        turn 2, segment 3, Ivy, defence: dodge\n\
        turn 2, segment 4, Gil, phase_start: hold\n\
        turn 2, segment 6, Hal, target: Gil\n\
        turn 2, segment 6, Gil, defence: dodge\n\
        turn 2, segment 12, Ivy, act: end_phase\n";
    let run = play(
        HERO,
        Scenario {
            encounter: HERO_43,
            answers,
            until: "turn=2",
            ..Scenario::default()
        },
    );
    let turn2 = segments(&from_turn(&run, 2));
    assert_eq!(
        turn2,
        v(&[
            "turn 2",
            "segment 1",
            "segment 2",
            "segment 3: Hal",
            "segment 4: Gil holds",
            "segment 5",
            // Ivy's Phase is used up by her Abort: only Hal acts among the non-holders
            "segment 6: Hal",
            "segment 7",
            // Gil's Dodge used the held action: he keeps his Segment 8 Phase
            "segment 8: Gil",
            "segment 9: Hal",
            "segment 10",
            "segment 11",
            // Ivy's next action
            "segment 12: Gil, Hal, Ivy",
            "PS12: Gil, Hal, Ivy",
        ])
    );
    // Ivy's Dodge happens in Segment 3 (an Abort), Gil's in Segment 6 (his held action); each
    // lasts until its next Phase: Gil's Segment 8, Ivy's Segment 12.
    let turn_2 = from_turn(&run, 2);
    let dodges: Vec<String> = turn_2
        .events
        .iter()
        .filter_map(|e| {
            let actor = s(&e["actor"]);
            match (s(&e["event"]).as_str(), s(&e["flag"]).as_str()) {
                ("level_start", _) if e["level"] == "segment" => Some(format!("segment {}", e["n"])),
                ("action", _) if e["action"] == "dodge" => Some(format!("{actor} dodges")),
                ("effect_end", _) => Some(format!("{actor} dodge ends")),
                (kind @ ("mark" | "clear"), flag @ ("aborted" | "holding")) => Some(format!("{kind} {actor} {flag}")),
                _ => None,
            }
        })
        .collect();
    assert_eq!(
        dodges,
        v(&[
            "segment 1",
            "segment 2",
            "segment 3",
            "Ivy dodges",
            "mark Ivy aborted",
            "segment 4",
            "mark Gil holding",
            "segment 5",
            "segment 6",
            "clear Ivy aborted",
            "Gil dodges",
            "clear Gil holding",
            "segment 7",
            "segment 8",
            "Gil dodge ends",
            "segment 9",
            "segment 10",
            "segment 11",
            "segment 12",
            "Ivy dodge ends",
        ])
    );
    // As Turn 2 begins Ivy is at STUN 20/30 and END 18/30; after its Segment 12 (PS12), STUN
    // 26 and END 24. Gil stays at his maxima, 25 and 30.
    let turn_1 = Run {
        events: run.events[..run.events.len() - turn_2.events.len()].to_vec(),
        stderr: String::new(),
        code: 0,
    };
    assert_eq!((turn_1.left("Ivy", "stun"), turn_1.left("Ivy", "endurance")), (20, 18));
    assert_eq!((run.left("Ivy", "stun"), run.left("Ivy", "endurance")), (26, 24));
    assert_eq!((run.left("Gil", "stun"), run.left("Gil", "endurance")), (25, 30));
}

/// The events from the start of Turn `n` on.
fn from_turn(run: &Run, n: i64) -> Run {
    let i = run
        .events
        .iter()
        .position(|e| e["event"] == "level_start" && e["level"] == "turn" && e["n"] == n)
        .unwrap_or_else(|| panic!("no Turn {n}"));
    Run {
        events: run.events[i..].to_vec(),
        stderr: String::new(),
        code: 0,
    }
}

#[test]
fn hero_the_speed_chart_gives_every_spd_its_segments() {
    // One character per SPD, 0 to 12 (DEX apart, so no tie rolls): the Segments of its Phases in
    // Turn 2, as systems.md's Speed Chart lists them.
    let cast: String = (0..=12)
        .map(|spd| format!("character S{spd} {{ spd = {spd}, dex = {} }}\n", 30 - spd))
        .collect();
    let run = play(
        HERO,
        Scenario {
            encounter: &cast,
            until: "turn=2",
            ..Scenario::default()
        },
    );
    let turn_2 = from_turn(&run, 2);
    let chart = [
        "",
        "7",
        "6 12",
        "4 8 12",
        "3 6 9 12",
        "3 5 8 10 12",
        "2 4 6 8 10 12",
        "2 4 6 7 9 11 12",
        "2 3 5 6 8 9 11 12",
        "2 3 4 6 7 8 10 11 12",
        "2 3 4 5 6 8 9 10 11 12",
        "2 3 4 5 6 7 8 9 10 11 12",
        "1 2 3 4 5 6 7 8 9 10 11 12",
    ];
    for (spd, segments) in chart.iter().enumerate() {
        let who = format!("S{spd}");
        let mut seg = 0;
        let mut acted: Vec<String> = Vec::new();
        for e in &turn_2.events {
            if e["event"] == "level_start" && e["level"] == "segment" {
                seg = e["n"].as_i64().unwrap_or(0);
            } else if e["event"] == "turn_start" && e["actor"] == who.as_str() {
                acted.push(seg.to_string());
            }
        }
        assert_eq!(acted.join(" "), *segments, "SPD {spd}");
    }
    // SPD 0 has no Phases but still recovers after Segment 12
    assert!(turn_2.of("gain").iter().any(|e| e["actor"] == "S0"));
}

#[test]
fn hero_a_second_abort_before_the_used_up_phase_is_refused() {
    // Ivy Aborts to Dodge Hal's attack in Segment 3 (her Segment 6 Phase is used up). Attacked by
    // Hal again in Segment 6 she may Abort again (her next Phase is now 12), but not a third time.
    let answers = "turn 2, segment 3, Hal, target: Ivy\n\
        turn 2, segment 3, Ivy, defence: dodge\n\
        turn 2, segment 6, Hal, target: Ivy\n\
        turn 2, segment 6, Ivy, defence: dodge\n\
        turn 2, segment 6, Jo, target: Ivy\n\
        turn 2, segment 6, Ivy, defence: block\n\
        turn 2, segment 6, Ivy, defence: none\n";
    let cast = format!("{HERO_43}character Jo {{ side npcs, spd = 2, dex = 9 }}\n");
    let run = play(
        HERO,
        Scenario {
            encounter: &cast,
            answers,
            until: "turn=2",
            ..Scenario::default()
        },
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
    assert_eq!(
        refused,
        v(&["Ivy block: Ivy has Aborted already: its next Phase is used up"])
    );
    let seg12 = segments(&from_turn(&run, 2))
        .into_iter()
        .find(|l| l.starts_with("segment 12"))
        .unwrap_or_default();
    assert_eq!(seg12, "segment 12: Gil, Hal, Jo", "both of Ivy's Phases are used up");
}
