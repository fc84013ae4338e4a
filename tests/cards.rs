//! Decks of cards: declared cards, draws without repeats, forced draws, the discard pile taken
//! back when the draw pile is empty, `return`, `shuffle`, and what the checker refuses.

mod common;

use common::{check_texts, run_texts};
use turnscript::RunOptions;

fn run(src: &str, draws: &[&str], until: Option<&str>) -> (String, String, i32) {
    let files = vec![("t.turn".to_string(), src.to_string())];
    let opts = RunOptions {
        draws: draws.iter().map(|d| d.to_string()).collect(),
        until: until.map(str::to_string),
        ..RunOptions::default()
    };
    run_texts(&files, Vec::new(), &opts, false)
}

fn lines<'a>(out: &'a str, kinds: &[&str]) -> Vec<&'a str> {
    out.lines()
        .map(str::trim_start)
        .filter(|l| kinds.iter().any(|k| l.starts_with(k)))
        .collect()
}

const DEALT: &str = "deck card, cards {\n  suits clubs, diamonds, hearts, spades\n  ranks 2 to 10, J = 11, Q = 12, K = 13, A = 14\n  jokers 2\n}\n\
    stat hand: card\norder deal(c) { c.hand.rank desc  c.hand.suit desc }\n\
    character Ana { }\ncharacter Bo { }\ncharacter Cy { }\n\
    play { level round repeat {\n\
      for each c in characters { draw from cards by c as x  set c.hand = x }\n\
      for each c in characters by deal { turn c { } }\n\
      if any c in characters: c.hand.joker { shuffle cards } else { for each c in characters { discard c.hand } }\n\
    } }\n";

#[test]
fn a_deck_declares_its_cards_with_rank_suit_and_joker() {
    let src = format!("{DEALT}play {{ }}\n");
    // 13 ranks in 4 suits and 2 jokers; the order sorts by rank, then suit (spades high), jokers first.
    let (out, err, code) = run(&src, &["Q hearts", "joker 2", "Q spades"], Some("round=1"));
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        lines(&out, &["shuffle", "draw", "order", "▸", "discard"]),
        vec![
            "shuffle        cards      54 cards",
            "draw     Ana   cards      Q hearts",
            "draw     Bo    cards      joker 2",
            "draw     Cy    cards      Q spades",
            "order          Bo, Cy, Ana",
            "▸ Bo",
            "▸ Cy",
            "▸ Ana",
            "shuffle        cards      54 cards",
        ]
    );
}

#[test]
fn cards_are_drawn_without_repeats_until_the_pile_is_empty() {
    // Four cards, three drawn a round and discarded: round 2 draws the last card, then takes the
    // three discarded back, shuffled, and no card is drawn twice in a round.
    let src = "deck chit, chits { ranks 1 to 4 }\nstat hand: chit\n\
               character Ana { }\ncharacter Bo { }\ncharacter Cy { }\n\
               play { level round repeat {\n\
                 for each c in characters { draw from chits by c as x  set c.hand = x }\n\
                 for each c in characters { discard c.hand }\n\
               } }\n";
    for seed in 0..20 {
        let files = vec![("t.turn".to_string(), src.to_string())];
        let opts = RunOptions {
            seed,
            until: Some("round=2".to_string()),
            ..RunOptions::default()
        };
        let (out, err, code) = run_texts(&files, Vec::new(), &opts, false);
        assert_eq!(code, 0, "{err}");
        let draws: Vec<&str> = lines(&out, &["draw"])
            .iter()
            .map(|l| l.rsplit(' ').next().unwrap_or(""))
            .collect();
        assert_eq!(draws.len(), 6, "{out}");
        let mut first = draws[..3].to_vec();
        first.sort();
        first.dedup();
        assert_eq!(first.len(), 3, "round 1 drew a card twice: {out}");
        // The pile had one card left; the discards came back after it was drawn.
        let shuffles = lines(&out, &["shuffle"]);
        assert_eq!(
            shuffles,
            vec!["shuffle        chits      4 cards", "shuffle        chits      3 cards"],
            "{out}"
        );
        let mut second = draws[3..].to_vec();
        second.sort();
        second.dedup();
        assert_eq!(second.len(), 3, "round 2 drew a card twice: {out}");
    }
}

#[test]
fn a_deck_with_every_card_out_stops_the_run() {
    let src = "deck chit, chits { ranks 1 to 2 }\nplay { draw from chits as a\ndraw from chits as b\ndraw from chits as c }\n";
    let (_, err, code) = run(src, &[], None);
    assert_eq!(code, 1);
    assert!(
        err.contains("run::empty_deck") && err.contains("the deck `chits` has no card left to draw"),
        "{err}"
    );
}

#[test]
fn a_returned_card_is_drawn_next() {
    let src = "deck chit, chits { ranks 1 to 9 }\nplay { draw from chits as a\nreturn a to chits\ndraw from chits as b\nif a != b { end encounter because \"another card\" } }\n";
    let (out, err, code) = run(src, &["7"], None);
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        lines(&out, &["draw", "return", "end of"]),
        vec![
            "draw           chits      7",
            "return         7",
            "draw           chits      7",
            "end of encounter: complete"
        ]
    );
}

#[test]
fn a_forced_draw_must_be_in_the_draw_pile() {
    let src = "deck chit, chits { ranks 1 to 3 }\nplay { draw from chits as a\ndraw from chits as b }\n";
    let (_, err, code) = run(src, &["2", "2"], None);
    assert_eq!(code, 1);
    assert!(
        err.contains("run::forced_draw") && err.contains("the forced draw `2` is not in the draw pile"),
        "{err}"
    );
}

#[test]
fn an_unknown_forced_draw_is_refused_before_the_run() {
    let (out, err, code) = run(DEALT, &["joker 3"], None);
    assert_eq!((code, out.as_str()), (2, ""), "{err}");
    assert!(err.contains("no deck has a card called `joker 3`"), "{err}");
}

#[test]
fn unused_forced_draws_are_reported() {
    let src = "deck chit, chits { ranks 1 to 3 }\nplay { draw from chits as a }\n";
    let (_, err, code) = run(src, &["1", "3"], None);
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("warning: 1 forced draw was never used: 3"), "{err}");
}

#[test]
fn suits_are_params_and_jokers_rank_above_the_rest() {
    let src = "deck card, cards { suits cups, swords  ranks 1 to 3  jokers 1 }\nglobal seen\n\
               play { draw from cards as x\nset seen = x.suit * 100 + x.rank\n\
               draw from cards as j\nif j.joker and j.rank == 4 and j.suit == 0 and swords == 2 { end encounter because \"joker high\" } }\n";
    let (out, err, code) = run(src, &["3 swords", "joker"], None);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("\nset            seen       = 203\n"), "{out}");
    assert!(out.contains("end of encounter: joker high"), "{out}");
}

#[test]
fn the_checker_knows_decks_and_cards() {
    let cases = [
        ("stat x\nplay { draw from xs as a }\n", "`xs` is not a deck of cards"),
        (
            "thing slot, slots { stat n }\nplay { shuffle slots }\n",
            "`slots` is not a deck of cards",
        ),
        (
            "deck chit, chits { ranks 1 to 3 }\ncharacter A { }\nplay { discard A }\n",
            "`discard` needs a card of the deck",
        ),
        ("deck card, cards { }\n", "this deck has no ranks"),
        ("deck card, cards { ranks 9 to 2 }\n", "the ranks 9 to 2 run downwards"),
        ("deck card, cards { ranks 1 jokers 10000 }\n", "a deck of 10001 cards"),
    ];
    for (src, want) in cases {
        let (report, clean) = check_texts(&[("t.turn".to_string(), src.to_string())]);
        assert!(!clean && report.contains(want), "{src}\n{report}");
    }
}

#[test]
fn a_forced_draw_may_come_from_the_discard_pile_an_empty_pile_takes_back() {
    let src = "deck chit, chits { ranks 1 to 2 }\nplay { draw from chits as a\ndraw from chits as b\ndiscard a\ndraw from chits as c }\n";
    let (out, err, code) = run(src, &["1", "2", "1"], None);
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        lines(&out, &["draw", "shuffle", "discard"]),
        vec![
            "shuffle        chits      2 cards",
            "draw           chits      1",
            "draw           chits      2",
            "discard        1",
            "shuffle        chits      1 card",
            "draw           chits      1",
        ]
    );
}

#[test]
fn a_destroyed_card_is_never_drawn() {
    let src = "deck chit, chits { ranks 1 to 3 }\nplay { destroy \"2\"\ndraw from chits as a\ndraw from chits as b\ndraw from chits as c }\n";
    for seed in 0..10 {
        let files = vec![("t.turn".to_string(), src.to_string())];
        let opts = RunOptions {
            seed,
            ..RunOptions::default()
        };
        let (out, err, code) = run_texts(&files, Vec::new(), &opts, false);
        assert_eq!(code, 1, "{out}");
        assert!(err.contains("run::empty_deck"), "{err}");
        let drawn: Vec<&str> = lines(&out, &["draw"]);
        assert_eq!(drawn.len(), 2, "{out}");
        assert!(drawn.iter().all(|l| !l.ends_with(" 2")), "{out}");
    }
}

/// Explorer's F3: a destroyed card came back through `return` or `discard` and was drawn again.
#[test]
fn a_destroyed_card_goes_back_to_no_pile() {
    let src = |put_back: &str| {
        format!(
            "deck chit, chits {{ ranks 1 to 3 }}\ndeck tile, tiles {{ ranks 7 to 8 }}\ncharacter Ana {{ }}\n\
             play {{\n  draw from chits as x\n  destroy x\n  {put_back}\n  draw from chits as z\n}}\n"
        )
    };
    for put_back in ["return x to chits", "discard x"] {
        let (out, err, code) = run(&src(put_back), &["1"], None);
        assert_eq!(code, 1, "{put_back}: {out}");
        assert!(
            err.contains("run::destroyed") && err.contains("1 was destroyed: it goes back to no pile"),
            "{err}"
        );
        assert_eq!(
            lines(&out, &["draw", "destroy"]),
            vec!["draw           chits      1", "destroy  1"],
            "{out}"
        );
    }
    // A card of another deck is refused before the run (its type says which deck it is of).
    let (report, clean) = check_texts(&[("t.turn".into(), src("draw from tiles as t\n  return t to chits"))]);
    assert!(
        !clean && report.contains("`return` needs a card of the deck, but this is a tile"),
        "{report}"
    );
}

/// The second pass's N3: with every card destroyed, the empty deck's help still said to discard
/// or shuffle.
#[test]
fn a_deck_whose_cards_are_all_destroyed_says_so_when_drawn() {
    let src = "deck chit, chits { ranks 1 to 2 }\ncharacter Ana { }\n\
               play { draw from chits as x\n destroy x\n draw from chits as y\n destroy y\n shuffle chits\n draw from chits as z }\n";
    let (_, err, code) = run(src, &[], None);
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains("run::empty_deck") && err.contains("every card of the deck was destroyed"),
        "{err}"
    );
}

#[test]
fn a_shuffle_is_charged_a_step_per_card() {
    // Issue 29: a shuffle moves every card, so it costs a step per card. A 10,000-card deck
    // shuffled every round passes the budget (1,000,000 steps) within 100 rounds; charged one
    // step a shuffle, it ran all 1,000 rounds (and 37 s at 10,000 rounds).
    let ranks: Vec<String> = (0..10)
        .map(|k| format!("{} to {}", k * 1000 + 1, k * 1000 + 1000))
        .collect();
    let src = format!(
        "deck chit, chits {{ ranks {} }}\nplay {{ level round repeat {{ shuffle chits }} }}\n",
        ranks.join(", ")
    );
    let (out, err, code) = run(&src, &[], Some("round=1000"));
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("run::step_budget"), "{err}");
    let shuffles = lines(&out, &["shuffle"]).len();
    assert!(
        (90..=101).contains(&shuffles),
        "{shuffles} shuffles before the budget stopped the run"
    );
}

#[test]
fn taking_a_card_from_a_pile_is_charged_a_step_per_card_looked_at() {
    // Issue 29 (the class of `shuffle`'s charge): `take` looks through the draw pile for its
    // card, a card at a time. Taking the bottom card of a 2,000-card pile (put back on top, so
    // looked for through the whole pile) costs about 2,000 steps: a budget of 100,000 stops the
    // loop within 50 takes, where a step per statement let it run 25,000.
    let src = "deck chit, chits { suits s  ranks 1 to 1000, 1001 to 2000 }\n\
               play { level round repeat { for each i in 1 to 1000 { take \"1 s\" from chits\n  return \"1 s\" to chits } } }\n";
    let files = vec![("t.turn".to_string(), src.to_string())];
    let opts = RunOptions {
        until: Some("round=1000".to_string()),
        max_steps: 100_000,
        ..RunOptions::default()
    };
    let (out, err, code) = run_texts(&files, Vec::new(), &opts, false);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("run::step_budget"), "{err}");
    let takes = out.lines().filter(|l| l.trim_start().starts_with("take")).count();
    assert!(takes <= 60, "{takes} takes before the budget stopped the run");
}
