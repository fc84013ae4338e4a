//! A reserved word used as a name is said to be one: for every keyword of the grammar, in every
//! place a name can stand, the syntax error says that the word is a keyword, points at the word
//! and suggests another name. The keywords are read from the grammar's `keyword` rule, so a word
//! reserved later is covered without touching this test. A few renderings are snapshotted in
//! `tests/diagnostics/syntax-keyword-*.turn`; this test asserts the rest structurally.

use turnscript::syntax::parse;

/// The words of the grammar's `keyword` rule, grouped there by first letter:
/// `| "c" ~ ("haracters" | "haracter" | ...)`.
fn keywords() -> Vec<String> {
    let grammar = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/grammar/turnscript.pest"))
        .expect("the grammar is readable");
    let start = grammar
        .find("\nkeyword = @{")
        .expect("the grammar has a `keyword` rule");
    let body = &grammar[start..];
    let body = &body[..body.find("\n}").expect("the `keyword` rule ends")];
    let mut words = Vec::new();
    for line in body.lines().map(str::trim) {
        if line.starts_with("//") {
            continue;
        }
        // `( "a" ~ ("ction" | "ll") `, `| "b" ~ ("ecause" | "y")`, `| "w" ~ (...) ) ~ !ident_char`
        let Some((head, tails)) = line.split_once('~') else {
            continue;
        };
        let quoted = |s: &str| -> Vec<String> { s.split('"').skip(1).step_by(2).map(str::to_string).collect() };
        let Some(first) = quoted(head).into_iter().next() else {
            continue;
        };
        let tails = &tails[..tails.find(')').unwrap_or(tails.len())];
        for tail in quoted(tails) {
            words.push(format!("{first}{tail}"));
        }
    }
    assert!(
        words.len() > 40 && words.iter().any(|w| w == "order") && words.iter().any(|w| w == "count"),
        "the keyword rule was not read: {words:?}"
    );
    words
}

/// Every place a name can stand, as a whole file with `@` where the name goes. Each parses with
/// an ordinary name there.
const PLACES: &[(&str, &str)] = &[
    ("stat", "stat @\n"),
    ("stat with a default", "stat @ default 0\n"),
    ("resource", "resource @ min 0\n"),
    ("flag", "flag @ default false\n"),
    ("global", "global @ default 0\n"),
    ("param", "param @ = 1\n"),
    ("param argument", "param p(@) = 1\n"),
    ("side", "side @\n"),
    ("second side", "side a, @\n"),
    ("tag", "tag @\n"),
    ("effect", "effect @\n"),
    ("role", "role @\n"),
    ("unit", "unit @\n"),
    ("kind", "kind @\n"),
    ("action", "action @(c) { }\n"),
    ("action's character", "action a(@) { }\n"),
    ("action's kind", "action a(c) kind @ { }\n"),
    ("order", "order @(c) { c.speed desc }\n"),
    ("order's variable", "order o(@) { roll d6 desc }\n"),
    ("policy", "policy @ { }\n"),
    ("policy's decision", "policy p { @: x }\n"),
    ("policy's option", "policy p { d: @ }\n"),
    ("policy's second option", "policy p { d: x, @ }\n"),
    ("default policy", "default policy @\n"),
    ("routine", "routine @() { }\n"),
    ("routine's parameter", "routine r(@) { }\n"),
    ("trigger", "trigger @(c)\n"),
    ("trigger's parameter", "trigger t(@)\n"),
    ("hook's trigger", "on @(c) { }\n"),
    ("measure", "measure @ = 1 at end of encounter\n"),
    ("forbid", "forbid @ because \"no\"\n"),
    ("thing", "thing @, things { }\n"),
    ("thing's plural", "thing t, @ { }\n"),
    ("thing's field", "thing t, ts { stat @ }\n"),
    ("deck", "deck @, cards { ranks 1 }\n"),
    ("deck's plural", "deck card, @ { ranks 1 }\n"),
    ("deck's suit", "deck card, cards { suits @ ranks 1 }\n"),
    ("character", "character @ { }\n"),
    ("character's field", "character A { @ = 1 }\n"),
    ("character's side", "character A { side @ }\n"),
    ("character's tag", "character A { tag @ }\n"),
    ("entity of a thing", "player @ { }\n"),
    ("level", "play { level @ { } }\n"),
    ("phase", "play { phase @ { } }\n"),
    ("round", "play { round @ { } }\n"),
    ("loop variable", "play { for each @ in characters { } }\n"),
    ("decision", "play { choose @ by gm { option x } }\n"),
    ("option", "play { choose d by gm { option @ } }\n"),
    (
        "candidate variable",
        "play { choose d by gm from @ in characters { } }\n",
    ),
    ("decline", "play { choose d by gm from c in characters { } or @ }\n"),
    ("let variable", "play { let @ = 1 }\n"),
    ("routine called", "play { do @() }\n"),
    ("trigger raised", "play { raise @(1) }\n"),
    ("thing created", "play { create @ }\n"),
    ("created variable", "play { create t as @ }\n"),
    ("drawn variable", "play { draw from cards as @ }\n"),
    ("global set", "play { set @ = 1 }\n"),
    ("quantifier variable", "param p = count @ in characters\n"),
    ("param called", "param p = @(1)\n"),
    // Names that refer to what is declared elsewhere.
    ("flag's level", "flag f per @\n"),
    ("unit's base", "unit h = 60 @\n"),
    ("action's cost", "action a(c) costs 1 @ { }\n"),
    ("forbid's character", "forbid f(@) because \"no\"\n"),
    ("thing's owner field", "thing t, ts for @ { }\n"),
    ("deck's named rank", "deck card, cards { ranks @ = 12 }\n"),
    ("hook's level", "on start of @ { }\n"),
    (
        "measure's variable",
        "measure m = 1 for each @ in characters at end of encounter\n",
    ),
    ("collection", "play { for each c in @ { } }\n"),
    ("walk's order", "play { for each c in characters by @ { } }\n"),
    ("option's kind", "play { choose d by gm { option action of kind @ } }\n"),
    (
        "option's resource",
        "play { choose d by gm { option action using @ } }\n",
    ),
    ("level ended", "play { end @ }\n"),
    ("order ranked", "play { rank @ }\n"),
    ("deck shuffled", "play { shuffle @ }\n"),
    (
        "effect begun",
        "play { begin @ on c for 1 counted at end of turn(c) }\n",
    ),
    ("effect stopped", "play { stop @ on c }\n"),
    ("unit elapsed", "play { elapse 1 @ }\n"),
    ("kept order", "play { place c first in @ }\n"),
    ("field of a thing created", "play { create t { @ = 1 } }\n"),
    ("side or tag tested", "param p = c is @\n"),
    ("quantifier's order", "param p = first x in characters by @\n"),
];

/// Where a keyword may stand in a place above because it is read as the construct it opens
/// there, not as a name (`round turn { }`: a level may be called `turn`; `option action`: any
/// action). The test fails when a keyword parses anywhere else.
const READ_AS_KEYWORD: &[(&str, &[&str])] = &[
    ("level", &["turn", "round", "phase"]),
    ("phase", &["turn", "round", "phase"]),
    // `round repeat { }`: a level called `round` that repeats.
    ("round", &["turn", "round", "phase", "repeat"]),
    ("option", &["action"]),
    // `not(1)` is `not 1`; `if(1)` begins `if C then A else B`.
    ("param called", &["not", "if"]),
    ("flag's level", &["turn", "round", "phase"]),
    ("hook's level", &["turn", "round", "phase", "encounter"]),
    ("collection", &["characters"]),
    // `end repeat`, `end encounter`.
    ("level ended", &["turn", "round", "phase", "repeat", "encounter"]),
];

#[test]
fn every_place_parses_with_a_name() {
    for (place, template) in PLACES {
        let text = template.replace('@', "zz");
        if let Err(d) = parse(&text, 0) {
            panic!("{place}: `{text}` does not parse: {d:?}");
        }
    }
}

#[test]
fn every_keyword_used_as_a_name_is_said_to_be_one() {
    let keywords = keywords();
    let mut failures = Vec::new();
    let mut checked = 0;
    for (place, template) in PLACES {
        let at = template.find('@').expect("a place for the name");
        for word in &keywords {
            let text = template.replacen('@', word, 1);
            let span = (at as u32, (at + word.len()) as u32);
            let expected_keyword = READ_AS_KEYWORD
                .iter()
                .any(|(p, words)| p == place && words.contains(&word.as_str()));
            let diags = match parse(&text, 0) {
                Ok(_) if expected_keyword => continue,
                Ok(_) => {
                    failures.push(format!("{place}: `{}` parses", text.trim_end()));
                    continue;
                }
                Err(_) if expected_keyword => continue,
                Err(d) => d,
            };
            checked += 1;
            let d = &diags[0];
            let help = d.help.clone().unwrap_or_default();
            let said = d.message.contains(&format!("`{word}` is a keyword"))
                || d.message.contains(&format!("the keyword `{word}`"));
            let pointed = d.labels.first().is_some_and(|(s, _)| (s.start, s.end) == span);
            let suggested = help.contains("another name") && help.contains(&format!("`{word}_`"));
            if !(said && pointed && suggested) {
                failures.push(format!(
                    "{place}: `{}`: {} [{}] at {:?}, help: {help}",
                    text.trim_end(),
                    d.message,
                    d.code,
                    d.labels.first().map(|(s, l)| (s.start, s.end, l.as_str())),
                ));
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {checked} cases:\n{}",
        failures.len(),
        failures.join("\n")
    );
    assert!(checked > 2000, "{checked} cases");
}
