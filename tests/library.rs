//! The bundled library of published turn systems (rulesets/library/): each system's three
//! acceptance scenarios of shared/library/systems.md, with forced rolls, forced cards and
//! scripted answers, asserting every Expected point exactly. Tests are named after the scenario.

mod common;
#[path = "library/pf2e.rs"]
mod pf2e;
#[path = "library/swffg.rs"]
mod swffg;

use common::{Run, check_texts, compact, names, run_texts, s};
use serde_json::Value;
use turnscript::RunOptions;
use turnscript::project::parse_answers;

const SWADE: &str = "rulesets/library/swade.turn";
const OSE: &str = "rulesets/library/ose.turn";
const DND5E: &str = "rulesets/library/dnd5e.turn";
const PF2E: &str = "rulesets/library/pf2e.turn";

/// A scenario: the library ruleset, an encounter written for it, and what the test forces.
#[derive(Default)]
struct Scenario<'a> {
    encounter: &'a str,
    rolls: &'a [i64],
    draws: &'a [&'a str],
    answers: &'a str,
    until: &'a str,
}

fn play(ruleset: &str, sc: Scenario<'_>) -> Run {
    let text = std::fs::read_to_string(ruleset).expect("library ruleset is readable");
    let files = vec![
        (ruleset.to_string(), text),
        ("encounter.turn".to_string(), sc.encounter.to_string()),
    ];
    let opts = RunOptions {
        rolls: sc.rolls.to_vec(),
        draws: sc.draws.iter().map(|d| d.to_string()).collect(),
        until: Some(sc.until.to_string()),
        ..RunOptions::default()
    };
    let (out, stderr, code) = run_texts(&files, parse_answers(sc.answers, "answers"), &opts, true);
    let events = out
        .lines()
        .map(|l| serde_json::from_str(l).expect("every trace line is JSON"))
        .collect();
    let run = Run { events, stderr, code };
    assert_eq!(run.code, 0, "run failed:\n{}", run.stderr);
    assert!(
        run.stderr.is_empty(),
        "every forced roll, card and answer is used:\n{}",
        run.stderr
    );
    run
}

/// One event as a short line, with the details these scenarios read.
fn line(e: &Value) -> String {
    let actor = s(&e["actor"]);
    match s(&e["event"]).as_str() {
        "round_start" if e["level"] == "round" => format!("round {}", e["round"]),
        "round_start" => format!("{} round", s(&e["level"])),
        "phase_start" => format!("phase {}", s(&e["phase"])),
        "turn_start" => format!("turn {actor}"),
        "draw" => format!("draw {actor} {}", s(&e["card"])),
        "discard" => format!("discard {}", s(&e["card"])),
        "shuffle" => format!("shuffle {}", e["cards"]),
        "together_start" => format!("together {}", names(&e["actors"]).join(",")),
        "together_end" => "together end".to_string(),
        "attempt" => format!("attempt {actor} {}", s(&e["attempt"])),
        "attempt_refused" => format!(
            "refused {actor} {}: {}",
            s(&e["attempt"]),
            names(&e["reasons"]).join("; ")
        ),
        "measure" => format!("measure {} {}", s(&e["measure"]), e["value"]),
        "reset" => format!("reset {actor} {} {}", s(&e["resource"]), e["left"]),
        "effect_start" => format!("effect {actor} {} until {}", s(&e["effect"]), s(&e["counted_at"])),
        "effect_end" => format!("effect_end {actor} {}", s(&e["effect"])),
        "reaction_start" => format!("reaction {actor}"),
        "ready" => format!("ready {actor} on {}", s(&e["trigger"])),
        "ready_end" => format!("ready_end {actor} {} {}", s(&e["trigger"]), s(&e["reason"])),
        "set" => {
            let left = match &e["left"] {
                Value::String(name) => name.clone(),
                Value::Null => "none".to_string(),
                n => n.to_string(),
            };
            format!("set {actor} {} {left}", s(&e["stat"])).replace("  ", " ")
        }
        "gain" if actor.is_empty() => format!("gain {} {} {}", s(&e["resource"]), e["amount"], e["left"]),
        _ => compact(e),
    }
}

/// The lines of the events of these kinds, in order.
fn story(run: &Run, kinds: &[&str]) -> Vec<String> {
    run.events
        .iter()
        .filter(|e| kinds.contains(&e["event"].as_str().unwrap_or("")))
        .map(line)
        .collect()
}

fn v(items: &[&str]) -> Vec<String> {
    items.iter().map(|s| s.to_string()).collect()
}

/// The library's rulesets, with their example encounters and their rule-ID prefixes.
const LIBRARY: [(&str, &str, &str); 5] = [
    (SWADE, "rulesets/library/encounters/swade.turn", "SW"),
    (OSE, "rulesets/library/encounters/ose.turn", "OSE"),
    (DND5E, "rulesets/library/encounters/dnd5e.turn", "DND"),
    (PF2E, "rulesets/library/encounters/pf2e.turn", "PF2"),
    (swffg::SWFFG, "rulesets/library/encounters/swffg.turn", "SWF"),
];

fn read(path: &str) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

#[test]
fn every_library_ruleset_checks_clean_with_its_example_encounter_and_plays_it() {
    for (ruleset, encounter, _) in LIBRARY {
        let files = vec![
            (ruleset.to_string(), read(ruleset)),
            (encounter.to_string(), read(encounter)),
        ];
        let (report, clean) = check_texts(&files);
        assert!(clean, "{report}");
        let opts = RunOptions {
            seed: 1,
            until: Some("round=3".to_string()),
            ..RunOptions::default()
        };
        let (out, err, code) = run_texts(&files, Vec::new(), &opts, true);
        assert_eq!(code, 0, "{ruleset}: {err}");
        assert!(
            out.contains("\"until round=3\""),
            "{ruleset} plays three rounds:\n{out}"
        );
    }
}

/// The IDs a text cites for a prefix (`SW-3`), in order of first appearance.
fn rule_ids(text: &str, prefix: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let tag = format!("{prefix}-");
    for (i, _) in text.match_indices(&tag) {
        let before = text[..i].chars().next_back();
        if before.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_') {
            continue;
        }
        let digits: String = text[i + tag.len()..].chars().take_while(char::is_ascii_digit).collect();
        let id = format!("{tag}{digits}");
        if !digits.is_empty() && !out.contains(&id) {
            out.push(id);
        }
    }
    out
}

#[test]
fn every_rule_id_a_library_ruleset_cites_is_in_docs_library_md_and_each_listed_one_is_cited() {
    let doc = read("docs/library.md");
    for (ruleset, _, prefix) in LIBRARY {
        let listed: Vec<String> = doc
            .lines()
            .filter_map(|l| l.strip_prefix("- "))
            .filter(|l| l.starts_with(&format!("{prefix}-")))
            .flat_map(|l| rule_ids(l.split(' ').next().unwrap_or(""), prefix))
            .collect();
        let mut cited = rule_ids(&read(ruleset), prefix);
        cited.sort();
        let mut sorted = listed.clone();
        sorted.sort();
        assert_eq!(cited, sorted, "{ruleset}: the IDs it cites and docs/library.md lists");
    }
}

// ---------------------------------------------------------------- 2. Savage Worlds (SWADE)

const SW_21: &str = "character Ava    { side pcs, wild = true }\n\
    character Bram   { side pcs, wild = true, level_headed = 1 }\n\
    character Viktor { side npcs, wild = true }\n\
    character Goons  { side npcs }\n\
    character Cass   { side pcs, wild = true, quick = true }\n";

#[test]
fn swade_2_1_suit_tie_break_level_headed_quick() {
    let run = play(
        SWADE,
        Scenario {
            encounter: SW_21,
            draws: &[
                "K hearts",
                "7 clubs",
                "Q spades",
                "K spades",
                "4 diamonds",
                "3 diamonds",
                "2 clubs",
                "9 hearts",
            ],
            until: "round=1",
            ..Scenario::default()
        },
    );
    let kinds = [
        "shuffle",
        "draw",
        "discard",
        "decision",
        "order",
        "turn_start",
        "measure",
    ];
    assert_eq!(
        story(&run, &kinds),
        v(&[
            "shuffle 54",
            // Ava K♥; Bram (Level Headed) draws 7♣ and Q♠ and keeps Q♠; Viktor K♠; Goons 4♦
            "draw Ava K hearts",
            "draw Bram 7 clubs",
            "draw Bram Q spades",
            "discard 7 clubs",
            "draw Viktor K spades",
            "draw Goons 4 diamonds",
            // Cass (Quick, used whenever allowed): 3♦ discarded, 2♣ discarded, keeps 9♥
            "draw Cass 3 diamonds",
            "decision Cass quick redraw",
            "discard 3 diamonds",
            "draw Cass 2 clubs",
            "decision Cass quick redraw",
            "discard 2 clubs",
            "draw Cass 9 hearts",
            // K♠ beats K♥ on suit
            "order Viktor,Ava,Bram,Cass,Goons",
            "decision Viktor card_up act",
            "turn Viktor",
            "decision Ava card_up act",
            "turn Ava",
            "decision Bram card_up act",
            "turn Bram",
            "decision Cass card_up act",
            "turn Cass",
            "decision Goons card_up act",
            "turn Goons",
            // the round's cards are discarded, not shuffled back: no Joker was dealt
            "discard K hearts",
            "discard Q spades",
            "discard K spades",
            "discard 4 diamonds",
            "discard 9 hearts",
            // 8 cards consumed of 54
            "measure cards_left 46",
        ])
    );
    assert_eq!(run.of("draw").len(), 8);
    assert_eq!(run.of("shuffle").len(), 1, "only the shuffle that starts the run");
}

const SW_22: &str = "character Ava    { side pcs, wild = true }\n\
    character Viktor { side npcs, wild = true }\n\
    character Goons  { side npcs }\n\
    character Bram   { side pcs, wild = true }\n";

#[test]
fn swade_2_2_joker_interrupt_and_reshuffle() {
    let run = play(
        SWADE,
        Scenario {
            encounter: SW_22,
            draws: &[
                "5 spades",
                "joker 1",
                "J diamonds",
                "J clubs",
                // after the shuffle
                "A clubs",
                "10 spades",
                "10 hearts",
                "2 hearts",
            ],
            // Viktor keeps his Joker (on Hold) and acts immediately before Bram's turn.
            answers: "round 1, Viktor, card_up: hold\nround 1, Bram, card_up, Viktor: interrupt\n",
            until: "round=2",
            ..Scenario::default()
        },
    );
    let kinds = [
        "round_start",
        "draw",
        "mark",
        "clear",
        "gain",
        "order",
        "turn_start",
        "attempt",
        "shuffle",
        "discard",
        "measure",
    ];
    assert_eq!(
        story(&run, &kinds),
        v(&[
            "shuffle 54",
            "round 1",
            "draw Ava 5 spades",
            "draw Viktor joker 1",
            // +2 to Trait and damage this round; the GM and the GM's Wild Cards gain a Benny
            "mark Viktor joker",
            "gain gm_bennies 1 1",
            "gain Viktor bennies 1 1",
            "draw Goons J diamonds",
            "draw Bram J clubs",
            // the countdown: the Joker above the Ace, then Goons (J♦ beats J♣), Bram, Ava
            "order Viktor,Goons,Bram,Ava",
            "mark Viktor on_hold",
            "turn Goons",
            // the Joker interrupts without a roll, immediately before Bram's turn
            "attempt Viktor interrupt",
            "clear Viktor on_hold",
            "turn Viktor",
            "turn Bram",
            "turn Ava",
            // a Joker was dealt: all 54 cards back in the deck
            "shuffle 54",
            "measure cards_left 54",
            "round 2",
            "clear Viktor joker",
            "draw Ava A clubs",
            "draw Viktor 10 spades",
            "draw Goons 10 hearts",
            "draw Bram 2 hearts",
            "order Ava,Viktor,Goons,Bram",
            "turn Ava",
            "turn Viktor",
            "turn Goons",
            "turn Bram",
            "discard A clubs",
            "discard 10 spades",
            "discard 10 hearts",
            "discard 2 hearts",
            "measure cards_left 50",
        ])
    );
    assert!(run.of("roll").is_empty(), "a Joker interrupts without a roll");
    assert_eq!(
        run.rounds(),
        vec![
            v(&["Goons", "Viktor", "Bram", "Ava"]),
            v(&["Ava", "Viktor", "Goons", "Bram"])
        ]
    );
}

const SW_23: &str = "character Ava    { side pcs, wild = true, athletics = 8 }\n\
    character Viktor { side npcs, wild = true, athletics = 8 }\n\
    character Bram   { side pcs, wild = true }\n";
const SW_23_CARDS: [&str; 8] = [
    "10 spades",
    "8 hearts",
    "3 diamonds",
    // round 2: Bram, on Hold, gets no card
    "Q diamonds",
    "6 clubs",
    // round 3: Bram is dealt again
    "5 hearts",
    "4 hearts",
    "7 hearts",
];
const SW_23_ANSWERS: &str = "round 1, Ava, card_up: hold\n\
    round 1, Viktor, card_up, Ava: interrupt\n\
    round 1, Bram, card_up: hold\n\
    round 1, Bram, still_on_hold: keep\n\
    round 2, after Ava, Bram: act\n";

fn swade_2_3(rolls: &[i64]) -> Run {
    play(
        SWADE,
        Scenario {
            encounter: SW_23,
            rolls,
            draws: &SW_23_CARDS,
            answers: SW_23_ANSWERS,
            until: "round=3",
        },
    )
}

#[test]
fn swade_2_3_hold_interrupt_and_hold_carried_into_the_next_round() {
    // Opposed Athletics: Ava d8 7 and Wild Die 1 (7); Viktor d8 5 and Wild Die 2 (5).
    let run = swade_2_3(&[7, 1, 5, 2]);
    let kinds = [
        "round_start",
        "draw",
        "mark",
        "clear",
        "set",
        "attempt",
        "turn_start",
        "decision",
    ];
    let round1: Vec<String> = story(&run, &kinds)
        .into_iter()
        .filter(|l| !l.starts_with("set up") && !l.contains(" hand "))
        .collect();
    assert_eq!(
        round1,
        v(&[
            "round 1",
            "draw Ava 10 spades",
            "draw Viktor 8 hearts",
            "draw Bram 3 diamonds",
            "decision Ava card_up hold",
            "mark Ava on_hold",
            // as Viktor's card comes up, Ava interrupts: 7 against 5, she acts first
            "attempt Ava interrupt",
            "clear Ava on_hold",
            "set Ava opposed 7",
            "set Viktor opposed 5",
            "turn Ava",
            "decision Viktor card_up act",
            "turn Viktor",
            // Bram holds: his turn is held, not taken
            "decision Bram card_up hold",
            "mark Bram on_hold",
            "decision Bram still_on_hold keep",
            // round 2: Bram, still on Hold, is dealt no card
            "round 2",
            "draw Ava Q diamonds",
            "draw Viktor 6 clubs",
            "decision Ava card_up act",
            "turn Ava",
            // he acts right after Ava's turn: his Hold is used
            "attempt Bram act",
            "clear Bram on_hold",
            "turn Bram",
            "decision Viktor card_up act",
            "turn Viktor",
            // round 3: Bram is dealt a card normally
            "round 3",
            "draw Ava 5 hearts",
            "draw Viktor 4 hearts",
            "draw Bram 7 hearts",
            "decision Bram card_up act",
            "turn Bram",
            "decision Ava card_up act",
            "turn Ava",
            "decision Viktor card_up act",
            "turn Viktor",
        ])
    );
    assert_eq!(
        run.rounds(),
        vec![
            v(&["Ava", "Viktor"]),
            v(&["Ava", "Bram", "Viktor"]),
            v(&["Bram", "Ava", "Viktor"])
        ]
    );
}

#[test]
fn swade_2_3_variant_the_interrupter_who_loses_acts_right_after() {
    // Ava 4, Viktor 6: Viktor first, then Ava at once (no longer on Hold); Bram holds.
    let run = swade_2_3(&[4, 1, 6, 1]);
    assert_eq!(run.rounds()[0], v(&["Viktor", "Ava"]));
    let kinds = ["set", "turn_start", "clear"];
    let round1: Vec<String> = story(&run, &kinds)
        .into_iter()
        .filter(|l| !l.starts_with("set up") && !l.contains(" hand "))
        .take(7)
        .collect();
    assert_eq!(
        round1,
        v(&[
            "clear Ava on_hold",
            "set Ava opposed 4",
            "set Viktor opposed 6",
            "set Ava acts_after Viktor",
            "turn Viktor",
            "set Ava acts_after none",
            "turn Ava",
        ])
    );
    assert_eq!(run.rounds()[1], v(&["Ava", "Bram", "Viktor"]));
}

#[test]
fn swade_2_3_variant_a_tie_acts_at_once() {
    // Both roll 6: {Ava, Viktor}, one moment.
    let run = swade_2_3(&[6, 1, 6, 1]);
    let kinds = ["together_start", "turn_start", "together_end", "round_start"];
    assert_eq!(
        story(&run, &kinds)[..5],
        v(&[
            "round 1",
            "together Ava,Viktor",
            "turn Ava",
            "turn Viktor",
            "together end"
        ])[..]
    );
    assert_eq!(run.rounds()[1], v(&["Ava", "Bram", "Viktor"]));
}

// ---------------------------------------------------------------- 9. OSR side initiative (OSE)

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

// ---------------------------------------------------------------- 1. D&D 5e (SRD 5.1)

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
fn swade_ambushers_on_hold_extras_on_one_card_and_the_surprised_without_a_card() {
    // SW-14: the ambushers start on Hold, the surprised get no card in round 1; SW-3: the
    // gunmen act on their leader's card; SW-11: still on Hold as the countdown ends, they act.
    let encounter = "character Ava { side pcs, wild = true }\n\
        character Doc { side pcs, wild = true, surprised = true }\n\
        character Jack { side npcs, wild = true, on_hold = true }\n\
        character \"Gunman 1\" { side npcs, on_hold = true }\n\
        character \"Gunman 2\" { side npcs, card_of = \"Gunman 1\" }\n";
    let run = play(
        SWADE,
        Scenario {
            encounter,
            draws: &["9 clubs", "Q clubs", "J hearts", "2 spades", "3 hearts"],
            answers: "round 1, before Ava, Jack: interrupt\nround 1, Ava, card_up, Jack: interrupt\n",
            rolls: &[3, 5, 2, 3],
            until: "round=2",
        },
    );
    let kinds = [
        "round_start",
        "draw",
        "turn_start",
        "attempt",
        "attempt_refused",
        "decision",
    ];
    assert_eq!(
        story(&run, &kinds),
        v(&[
            "round 1",
            "draw Ava 9 clubs",
            // Jack interrupts Ava as her card comes up: Athletics d4 3 and Wild Die 5 against
            // d4 2 and Wild Die 3
            "attempt Jack interrupt",
            "turn Jack",
            "decision Ava card_up act",
            // tried again before her turn: the wrong moment, and no longer on Hold
            "refused Jack interrupt: interrupt can be attempted only while card_up is asked; Jack is not on Hold",
            "turn Ava",
            // still on Hold as the countdown ends, the gunmen act on their one card
            "decision Gunman 1 still_on_hold act",
            "turn Gunman 1",
            "turn Gunman 2",
            "round 2",
            "draw Ava Q clubs",
            "draw Doc J hearts",
            "draw Jack 2 spades",
            "draw Gunman 1 3 hearts",
            "decision Ava card_up act",
            "turn Ava",
            "decision Doc card_up act",
            "turn Doc",
            "decision Gunman 1 card_up act",
            "turn Gunman 1",
            "turn Gunman 2",
            "decision Jack card_up act",
            "turn Jack",
        ])
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

#[test]
fn swade_shaken_on_hold_loses_the_hold_and_the_turn() {
    // SW-12: Ava holds on her card, is Shaken after Bram's turn: no Hold, no turn this round.
    let run = play(
        SWADE,
        Scenario {
            encounter: "character Ava { side pcs, wild = true }\ncharacter Bram { side pcs, wild = true }\n",
            draws: &["K hearts", "5 clubs"],
            answers: "round 1, Ava, card_up: hold\nround 1, after Bram, Ava: shaken\n",
            until: "round=1",
            ..Scenario::default()
        },
    );
    let kinds = ["decision", "mark", "clear", "attempt", "turn_start"];
    assert_eq!(
        story(&run, &kinds),
        v(&[
            "decision Ava card_up hold",
            "mark Ava on_hold",
            "decision Bram card_up act",
            "turn Bram",
            "attempt Ava shaken",
            "mark Ava shaken",
            "clear Ava on_hold",
        ])
    );
}
