// Decks made from the cast (issue 26, family 5): a cast with no entity of the type makes an
// empty deck, and drawing from it says so (not that its cards were destroyed).

use crate::common::run_texts;
use turnscript::RunOptions;

#[test]
fn drawing_from_a_deck_the_cast_made_empty_says_the_cast_has_none() {
    let src = "ruleset \"bag\"\nthing monster, monsters { stat fury }\ndeck token, tokens { one per monster  no refill }\nplay { draw from tokens as t }\ncharacter Ana { }\n";
    let files = vec![("r.turn".to_string(), src.to_string())];
    let (out, err, code) = run_texts(&files, Vec::new(), &RunOptions::default(), false);
    assert_ne!(code, 0, "{out}");
    assert!(err.contains("run::empty_deck"), "{err}");
    assert!(!err.contains("destroyed"), "{err}");
    assert!(err.contains("no cards at all"), "{err}");
}
