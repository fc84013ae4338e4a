//! Decks that behave like the table's: several decks of one make (`decks players, gm`), a deck
//! for each entity (`decks per TYPE`, `m.abilities`), bags (`no refill`, `take`, `shuffle ...
//! into`, `draw pile of DECK`), a card for each entity of the cast (`one per TYPE`), and decks
//! that stand for a field. Forced draws, exact traces.

#[path = "decks/cast.rs"]
mod cast;
mod common;
#[path = "decks/owner.rs"]
mod owner;

use common::run_texts;
use turnscript::RunOptions;

fn run(src: &str, draws: &[&str]) -> (String, String, i32) {
    run_seeded(src, draws, 0)
}

fn run_seeded(src: &str, draws: &[&str], seed: u64) -> (String, String, i32) {
    let files = vec![("t.turn".to_string(), src.to_string())];
    let opts = RunOptions {
        seed,
        draws: draws.iter().map(|d| d.to_string()).collect(),
        ..RunOptions::default()
    };
    run_texts(&files, Vec::new(), &opts, false)
}

/// The trace's lines (trimmed at the start), leaving out the header.
fn body(out: &str) -> Vec<&str> {
    out.lines().skip(1).map(str::trim_end).collect()
}

const TWO_DECKS: &str = "deck card, cards {\n  suits clubs, hearts\n  ranks 10, Q = 12\n  jokers 1\n  decks players, gm\n}\n\
    stat hand: card\ncharacter Ana { }\ncharacter Gm { }\n";

#[test]
fn two_decks_of_one_make_each_have_every_card_named_by_its_deck() {
    let src = format!(
        "{TWO_DECKS}play {{\n  draw from players by Ana as a\n  set Ana.hand = a\n  draw from gm by Gm as g\n  set Gm.hand = g\n  \
         if Ana.hand.rank == Gm.hand.rank and Ana.hand.suit == hearts {{ discard a }}\n  discard g\n}}\n"
    );
    let (out, err, code) = run(&src, &["Q hearts of players", "Q hearts of gm"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        body(&out),
        vec![
            "shuffle        players    5 cards",
            "shuffle        gm         5 cards",
            "draw     Ana   players    Q hearts of players",
            "set      Ana   hand       = Q hearts of players",
            "draw     Gm    gm         Q hearts of gm",
            "set      Gm    hand       = Q hearts of gm",
            "discard        Q hearts of players",
            "discard        Q hearts of gm",
            "end of encounter: complete",
            "final    Ana   hand = Q hearts of players",
            "final    Gm    hand = Q hearts of gm",
        ]
    );
}

#[test]
fn a_card_of_one_deck_is_never_forced_from_the_other() {
    // The GM's queen is forced while the players draw: it is not in their pile.
    let src = format!("{TWO_DECKS}play {{ draw from players as a }}\n");
    let (_, err, code) = run(&src, &["Q hearts of gm"]);
    assert_eq!(code, 1);
    assert!(
        err.contains("run::forced_draw") && err.contains("`Q hearts of gm` is not in the draw pile of `players`"),
        "{err}"
    );
}

#[test]
fn a_card_goes_back_only_to_its_own_deck() {
    let src = format!("{TWO_DECKS}play {{ draw from gm as g\n  return g to players }}\n");
    let (out, err, code) = run(&src, &["joker of gm"]);
    assert_eq!(code, 1);
    assert!(out.contains("draw           gm         joker of gm"), "{out}");
    assert!(
        err.contains("run::not_a_card") && err.contains("joker of gm is not a card of the deck `players`"),
        "{err}"
    );
}

#[test]
fn shuffling_one_deck_of_a_make_leaves_the_other_alone() {
    let src = format!(
        "{TWO_DECKS}global left_players\nglobal left_gm\nplay {{\n  draw from players as a\n  draw from gm as g\n  shuffle gm\n  \
         set left_players = count x in draw pile of players\n  set left_gm = count x in draw pile of gm\n}}\n"
    );
    let (out, err, code) = run(&src, &["10 clubs of players", "10 clubs of gm"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        body(&out)[4..7].to_vec(),
        vec![
            "shuffle        gm         5 cards",
            "set            left_players = 4",
            "set            left_gm      = 5",
        ],
        "{out}"
    );
}

const BAG: &str = "deck token, tokens { ranks 1 to 3  no refill }\nglobal left\nglobal out\ncharacter Ana { }\n";

#[test]
fn a_bag_never_takes_its_discards_back_by_itself() {
    let src = format!(
        "{BAG}play {{\n  repeat while count t in draw pile of tokens > 0 {{ draw from tokens as t\n    discard t }}\n  \
         set out = count t in discard pile of tokens\n  draw from tokens as u\n}}\n"
    );
    let (out, err, code) = run(&src, &["2", "3", "1"]);
    assert_eq!(code, 1);
    assert_eq!(
        body(&out),
        vec![
            "shuffle        tokens     3 cards",
            "draw           tokens     2",
            "discard        2",
            "draw           tokens     3",
            "discard        3",
            "draw           tokens     1",
            "discard        1",
            "set            out        = 3",
        ]
    );
    assert!(
        err.contains("run::empty_deck") && err.contains("this deck has `no refill`"),
        "{err}"
    );
}

#[test]
fn a_given_card_is_taken_out_of_the_bag_and_shuffled_back_in() {
    let src = format!(
        "{BAG}play {{\n  take \"2\" from tokens\n  set left = count t in draw pile of tokens\n  \
         if any t in draw pile of tokens: t == \"2\" {{ set out = 1 }}\n  \
         shuffle \"2\" into tokens\n  if any t in draw pile of tokens: t == \"2\" {{ set out = 2 }}\n  set left = count t in draw pile of tokens\n}}\n"
    );
    let (out, err, code) = run(&src, &[]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        body(&out)[..6].to_vec(),
        vec![
            "shuffle        tokens     3 cards",
            "take           tokens     2",
            "set            left       = 2",
            "insert         tokens     2",
            "set            out        = 2",
            "set            left       = 3",
        ]
    );
}

#[test]
fn taking_a_card_not_in_the_draw_pile_stops_the_run() {
    let src = format!("{BAG}play {{ draw from tokens as t\n  take t from tokens }}\n");
    let (_, err, code) = run(&src, &["1"]);
    assert_eq!(code, 1);
    assert!(
        err.contains("run::not_in_pile") && err.contains("1 is not in the draw pile of `tokens`"),
        "{err}"
    );
}

#[test]
fn a_card_shuffled_in_lands_anywhere_in_the_pile_from_the_seeded_stream() {
    // Draw 1 and shuffle it back into the two left: over seeds it comes up first, second and third.
    let src = format!(
        "{BAG}play {{ draw from tokens as t\n  shuffle t into tokens\n  draw from tokens as a\n  draw from tokens as b\n  draw from tokens as c\n  \
         if a == t {{ set out = 1 }}\n  if b == t {{ set out = 2 }}\n  if c == t {{ set out = 3 }} }}\n"
    );
    let mut seen = [false; 4];
    for seed in 0..40 {
        let (out, err, code) = run_seeded(&src, &[], seed);
        assert_eq!(code, 0, "{err}");
        let at = out
            .lines()
            .find_map(|l| l.trim().strip_prefix("set            out        = "));
        let at: usize = at.and_then(|n| n.parse().ok()).unwrap_or(0);
        seen[at] = true;
        // The same seed gives the same place.
        assert_eq!(run_seeded(&src, &[], seed).0, out);
    }
    assert_eq!(seen, [false, true, true, true]);
}

#[test]
fn a_pile_is_walked_in_deck_order_never_in_its_secret_order() {
    // Whatever the shuffle, the first card of the draw pile is the lowest left, not the top.
    let src = format!("{BAG}play {{ take \"1\" from tokens\n  set out = (first t in draw pile of tokens).rank }}\n");
    for seed in 0..20 {
        let (out, err, code) = run_seeded(&src, &[], seed);
        assert_eq!(code, 0, "{err}");
        assert!(out.contains("set            out        = 2"), "{out}");
    }
}

const MONSTERS: &str = "thing monster, monsters { stat fury default 0 }\n\
    deck ability, abilities { ranks 1 to 3  decks per monster }\n\
    monster Goblins { }\nmonster Orcs { }\n";

#[test]
fn each_monster_draws_from_its_own_ability_deck() {
    let src = format!(
        "{MONSTERS}play {{ for each m in monsters {{\n  draw from m.abilities as a\n  set m.fury = a.rank\n  discard a\n}} }}\n"
    );
    let (out, err, code) = run(&src, &["3 of Goblins", "1 of Orcs"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        body(&out),
        vec![
            "shuffle           abilities of Goblins 3 cards",
            "shuffle           abilities of Orcs 3 cards",
            "draw              abilities of Goblins 3 of Goblins",
            "set      Goblins  fury       = 3",
            "discard           3 of Goblins",
            "draw              abilities of Orcs 1 of Orcs",
            "set      Orcs     fury       = 1",
            "discard           1 of Orcs",
            "end of encounter: complete",
            "final    Goblins  fury = 3",
            "final    Orcs     fury = 1",
        ]
    );
}

#[test]
fn an_entity_deck_of_none_stops_the_run() {
    let src = format!("{MONSTERS}play {{ shuffle (first m in monsters where m.fury > 5).abilities }}\n");
    let (_, err, code) = run(&src, &[]);
    assert_eq!(code, 1);
    assert!(err.contains("run::none"), "{err}");
}

#[test]
fn an_entity_made_during_the_run_has_no_deck() {
    let src = format!("{MONSTERS}play {{ create monster as m\n  draw from m.abilities as a }}\n");
    let (_, err, code) = run(&src, &[]);
    assert_eq!(code, 1);
    assert!(
        err.contains("run::no_deck") && err.contains("has no deck of abilities"),
        "{err}"
    );
}

const ORDER_DICE: &str = "deck order_die, order_dice { one per character  no refill }\n\
    character Ana { }\ncharacter Bo { }\ncharacter Cy { }\n";

#[test]
fn a_bag_holds_one_die_per_character_each_standing_for_it() {
    let src = format!(
        "{ORDER_DICE}play {{ repeat while count d in draw pile of order_dice > 0 {{\n  draw from order_dice as d\n  turn d.holder {{ }}\n}} }}\n"
    );
    let (out, err, code) = run(&src, &["order_die of Cy", "order_die of Ana", "order_die of Bo"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        out.lines()
            .filter(|l| l.starts_with("draw") || l.starts_with("▸") || l.starts_with("shuffle"))
            .collect::<Vec<_>>(),
        vec![
            "shuffle        order_dice 3 cards",
            "draw           order_dice order_die of Cy",
            "▸ Cy",
            "draw           order_dice order_die of Ana",
            "▸ Ana",
            "draw           order_dice order_die of Bo",
            "▸ Bo",
        ]
    );
}

#[test]
fn a_deck_of_one_per_type_with_no_such_entity_is_empty() {
    let src = "thing unit, units { }\ndeck chit, chits { one per unit }\nglobal n\nplay { set n = count c in draw pile of chits\n  draw from chits as c }\n";
    let (out, err, code) = run(src, &[]);
    assert_eq!(code, 1);
    assert!(
        out.contains("shuffle        chits      0 cards") && out.contains("set            n          = 0"),
        "{out}"
    );
    assert!(err.contains("run::empty_deck"), "{err}");
}

#[test]
fn a_deck_stands_for_its_holder_in_orders() {
    let src = format!(
        "{ORDER_DICE}order by_rank(d: order_die) {{ d.rank desc }}\nplay {{ rank by_rank\n  for each d in by_rank {{ }} }}\n"
    );
    let (out, err, code) = run(&src, &[]);
    assert_eq!(code, 0, "{err}");
    let order = out.lines().find(|l| l.starts_with("order")).unwrap_or_default();
    assert_eq!(
        order,
        "order          order_die of Cy (Cy), order_die of Bo (Bo), order_die of Ana (Ana)"
    );
}

#[test]
fn a_destroyed_card_leaves_the_pile_it_is_walked_in() {
    let src = format!("{BAG}play {{ destroy \"2\"\n  set left = count t in draw pile of tokens }}\n");
    let (out, err, code) = run(&src, &[]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("set            left       = 2"), "{out}");
}

#[test]
fn a_measure_counts_the_cards_drawn_from_a_bag_for_the_simulator() {
    // Three tokens drawn one a round from a bag that never refills: after rounds 1, 2 and 3 the
    // discard pile holds 1, 2 and 3, whatever the seed.
    let src = format!(
        "{BAG}measure drawn = count t in discard pile of tokens at end of round\n\
         play {{ round repeat while count t in draw pile of tokens > 0 {{ draw from tokens as t\n  discard t }} }}\n"
    );
    let report = common::sim_report(&src, 10, 2);
    let drawn = &report.measures[0];
    assert_eq!((drawn.name.as_str(), drawn.samples, drawn.total), ("drawn", 3.0, 6.0));
    assert_eq!(drawn.hist, vec![(1, 1, 10), (2, 2, 10), (3, 3, 10)]);
}

#[test]
fn a_character_out_of_play_has_its_die_in_the_bag_and_is_tested_as_such() {
    let src = "deck order_die, order_dice { one per character  no refill }\ncharacter Ana { }\ncharacter Bo { absent }\n\
               play { repeat while count d in draw pile of order_dice > 0 { draw from order_dice as d\n  \
               if d.holder.in_play { turn d.holder { } } } }\n";
    let (out, err, code) = run(src, &["order_die of Bo", "order_die of Ana"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        body(&out)[..4].to_vec(),
        vec![
            "shuffle        order_dice 2 cards",
            "draw           order_dice order_die of Bo",
            "draw           order_dice order_die of Ana",
            "▸ Ana",
        ]
    );
}

/// Decks of `n` cards each (at most 10,000), named `PREFIXK`, each with a suit of its own so that
/// no two cards share a name.
fn big_decks(prefix: &str, decks: usize, n: usize) -> String {
    let ranks: Vec<String> = (0..n.div_ceil(1000))
        .map(|k| format!("{} to {}", k * 1000 + 1, (k * 1000 + 1000).min(n)))
        .collect();
    (0..decks)
        .map(|k| {
            format!(
                "deck {prefix}{k}, {prefix}{k}s {{ suits {prefix}{k}x  ranks {} }}\n",
                ranks.join(", ")
            )
        })
        .collect()
}

#[test]
fn the_decks_of_a_ruleset_and_its_encounter_are_held_to_their_total() {
    // Issue 29: `deck_cards` bounds one deck; the cards of all decks together had no bound, so
    // a few kilobytes of deck lines made millions of entities. 6,000 cards in each file pass.
    let ruleset = format!("{}play {{ }}\n", big_decks("r", 1, 6_000));
    let encounter = format!("encounter \"e\"\n{}", big_decks("e", 1, 6_000));
    let files = [
        ("r.turn".to_string(), ruleset),
        ("encounters/r.turn".to_string(), encounter),
    ];
    let (report, clean) = common::check_texts(&files);
    assert!(!clean, "{report}");
    assert!(
        report.contains("the decks hold more than 10000 cards in all"),
        "{report}"
    );
    // Each file alone is within it.
    assert!(common::check_texts(&files[..1]).1);
}

#[test]
fn decks_made_from_the_cast_count_towards_the_total() {
    // Two makes of 1,000 cards for each of six characters: 12,000 cards, none declared in a file.
    let makes: String = (0..2)
        .map(|k| format!("deck m{k}, m{k}s {{ suits m{k}x  ranks 1 to 1000\n  decks per character }}\n"))
        .collect();
    let cast: String = (0..6).map(|k| format!("character C{k} {{ }}\n")).collect();
    let src = format!("{makes}{cast}play {{ }}\n");
    let (report, clean) = common::check_texts(&[("t.turn".to_string(), src)]);
    assert!(!clean, "{report}");
    assert!(
        report.contains("the decks hold more than 10000 cards in all"),
        "{report}"
    );
}
