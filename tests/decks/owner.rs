// An entity's deck named through a field (issue 26, family 5): `draw from d.holder.abilities`
// is the deck of the entity `d.holder` gives, as `(d.holder).abilities` is.

use crate::common::run_texts;
use turnscript::RunOptions;

fn run(play: &str, draws: &[&str]) -> (String, String, i32) {
    let src = format!(
        "ruleset \"owned decks\"\nstat foe: character\ndeck order_die, order_dice {{ one per character  no refill }}\ndeck ability, abilities {{ ranks 1 to 2  decks per character }}\nplay {{\n{play}\n}}\ncharacter Ana {{ foe = Bo }}\ncharacter Bo {{ foe = Ana }}\n"
    );
    let files = vec![("r.turn".to_string(), src)];
    let opts = RunOptions {
        draws: draws.iter().map(|d| d.to_string()).collect(),
        ..RunOptions::default()
    };
    run_texts(&files, Vec::new(), &opts, false)
}

fn draws(out: &str) -> Vec<String> {
    out.lines()
        .filter(|l| l.trim_start().starts_with("draw ") || l.trim_start().starts_with("shuffle "))
        .map(|l| l.split_whitespace().collect::<Vec<_>>().join(" "))
        .collect()
}

#[test]
fn a_deck_named_through_fields_is_the_deck_of_the_entity_they_give() {
    let chained = "  draw from order_dice as d\n  draw from d.holder.abilities as a\n  shuffle d.holder.foe.abilities\n  take \"2 of Ana\" from Ana.foe.foe.abilities";
    let (out, err, code) = run(chained, &["order_die of Bo", "1 of Bo"]);
    assert_eq!(code, 0, "{err}");
    let parens = "  draw from order_dice as d\n  draw from (d.holder).abilities as a\n  shuffle (d.holder.foe).abilities\n  take \"2 of Ana\" from (Ana.foe.foe).abilities";
    let (out2, err2, code2) = run(parens, &["order_die of Bo", "1 of Bo"]);
    assert_eq!(code2, 0, "{err2}");
    assert_eq!(out, out2);
    let d = draws(&out);
    assert_eq!(
        d[d.len() - 3..],
        [
            "draw order_dice order_die of Bo",
            "draw abilities of Bo 1 of Bo",
            "shuffle abilities of Ana 2 cards",
        ]
    );
    let take: Vec<String> = out
        .lines()
        .filter(|l| l.starts_with("take "))
        .map(|l| l.split_whitespace().collect::<Vec<_>>().join(" "))
        .collect();
    assert_eq!(take, ["take abilities of Ana 2 of Ana"], "{out}");
}

#[test]
fn taking_a_card_not_in_an_entitys_draw_pile_does_not_suggest_a_pile_collection_it_has_not() {
    let (out, err, code) = run(
        "  draw from Ana.abilities as a\n  take a from Ana.abilities",
        &["1 of Ana"],
    );
    assert_ne!(code, 0, "{out}");
    assert!(err.contains("run::not_in_pile"), "{err}");
    let err = err.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(!err.contains("any x in draw pile of DECK"), "{err}");
    assert!(err.contains("an entity's deck has no `draw pile of`"), "{err}");
}
