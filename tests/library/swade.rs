//! Savage Worlds (rulesets/library/swade.turn): the three scenarios of systems.md section 2, and
//! the corners the ruleset met.

use super::{SWADE, Scenario, play, story, v};
use crate::common::Run;

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

#[test]
fn swade_the_extras_of_a_group_act_on_one_card_and_wild_cards_each_on_their_own() {
    // SW-3: `character 3 × Goon` deals one card, Goon 1's, and the three act on it; a group of
    // Wild Cards (the twins) is dealt a card each. A goon's attempt to act from its own card is
    // refused. With `group_card = false` every Extra is dealt its own.
    let encounter = "character Ava { side pcs, wild = true }\n\
        character 3 × Goon { side npcs }\n\
        character 2 x Twin { side npcs, wild = true }\n";
    let kinds = ["round_start", "draw", "turn_start", "attempt_refused"];
    let run = play(
        SWADE,
        Scenario {
            encounter,
            draws: &["9 clubs", "Q clubs", "J hearts", "2 spades"],
            answers: "round 1, after Ava, \"Goon 2\": act\n",
            until: "round=1",
            ..Scenario::default()
        },
    );
    assert_eq!(
        story(&run, &kinds),
        v(&[
            "round 1",
            "draw Ava 9 clubs",
            "draw Goon 1 Q clubs",
            "draw Twin 1 J hearts",
            "draw Twin 2 2 spades",
            "turn Goon 1",
            "turn Goon 2",
            "turn Goon 3",
            "turn Twin 1",
            "turn Ava",
            "refused Goon 2 act: Goon 2 is not on Hold; Goon 2 acts on another's card",
            "turn Twin 2",
        ])
    );
    let apart = format!("param group_card = false\n{encounter}");
    let run = play(
        SWADE,
        Scenario {
            encounter: &apart,
            draws: &["9 clubs", "Q clubs", "3 hearts", "4 hearts", "J hearts", "2 spades"],
            until: "round=1",
            ..Scenario::default()
        },
    );
    assert_eq!(
        run.rounds()[0],
        v(&["Goon 1", "Twin 1", "Ava", "Goon 3", "Goon 2", "Twin 2"])
    );
}
