//! Secrecy: until a secret choice is revealed, nothing names what was chosen or attempted.
//!
//! Behaviours first (refusals held for the reveal, secret choices nested in a secret option),
//! each in exact order; then the invariant over every ruleset that chooses in secret.

mod common;

use common::run_texts;
use turnscript::RunOptions;
use turnscript::project::parse_answers;

/// Runs one file (ruleset and cast) with answers, one a line: (stdout, stderr, exit code).
fn run(src: &str, answers: &str, jsonl: bool) -> (String, String, i32) {
    let files = vec![("t.turn".to_string(), src.to_string())];
    run_texts(&files, parse_answers(answers, "answers"), &RunOptions::default(), jsonl)
}

/// The text trace without its first line and the `final` lines.
fn body(out: &str) -> Vec<&str> {
    out.lines().skip(1).filter(|l| !l.starts_with("final")).collect()
}

const DIALS: &str = "flag stressed\nstat dial default 0\n\
    forbid peek(c) because \"{c} may not look at another's dial\"\n\
    play {\n  together for each c in characters {\n    choose dial by c in secret {\n\
    option red unless c.stressed because \"{c} is stressed\" { set c.dial = 3 }\n\
    option blue { set c.dial = 1 }\n    }\n  }\n}\n\
    character Luke { stressed = true }\ncharacter Mara { }\n";

#[test]
fn a_refused_secret_answer_is_traced_at_the_reveal_not_before() {
    let (out, err, code) = run(DIALS, "red\npeek\nblue\nred\n", false);
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        body(&out),
        vec![
            "together Luke, Mara",
            // Luke tries red, then to peek, then picks blue: the table sees only that he chose.
            "  secret   Luke  dial       chosen in secret",
            "  secret   Mara  dial       chosen in secret",
            // At the reveal, each choice with what was refused on the way to it.
            "  refused  Luke  dial       red: Luke is stressed",
            "  refused  Luke  dial       peek: Luke may not look at another's dial",
            "  choose   Luke  dial       blue     of blue",
            "  set      Luke  dial       = 1",
            "  choose   Mara  dial       red      of red|blue",
            "  set      Mara  dial       = 3",
            "end of encounter: complete",
        ]
    );
}

const STRIKES: &str = "resource hp min 0\nflag guarded\nstat foe: character\n\
    play {\n  together for each c in characters {\n    choose plan by c in secret {\n\
    option strike {\n\
    choose target by c in secret from t in characters where t != c\n\
    unless t.guarded because \"{t} is guarded\" {\n\
    set c.foe = t\n          spend 1 t.hp\n        } or hold\n        gain 1 c.hp\n      }\n\
    option guard { mark c.guarded }\n    }\n    gain 1 c.hp\n  }\n}\n\
    character Ana { hp = 3 }\ncharacter Bo { hp = 3, guarded = true }\ncharacter Cy { hp = 3 }\n";

#[test]
fn a_secret_choice_at_the_head_of_a_secret_option_is_made_with_the_pick() {
    // Ana strikes and picks her target at her moment (Bo first: refused, he is guarded); Bo
    // guards; Cy strikes but holds. The table sees three choices made, then everything.
    let (out, err, code) = run(STRIKES, "strike\nBo\nCy\nguard\nstrike\nhold\n", false);
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        body(&out),
        vec![
            "together Ana, Bo, Cy",
            "  secret   Ana   plan       chosen in secret",
            "  gain     Ana   hp         +1 → 4",
            "  secret   Bo    plan       chosen in secret",
            "  gain     Bo    hp         +1 → 4",
            "  secret   Cy    plan       chosen in secret",
            "  gain     Cy    hp         +1 → 4",
            "  choose   Ana   plan       strike   of strike|guard",
            "  refused  Ana   target     Bo: Bo is guarded",
            "  choose   Ana   target     Cy       of Cy|hold",
            "  set      Ana   foe        = Cy",
            "  spend    Cy    hp         -1 → 3",
            "  gain     Ana   hp         +1 → 5",
            "  choose   Bo    plan       guard    of strike|guard",
            "  mark     Bo    guarded",
            "  choose   Cy    plan       strike   of strike|guard",
            "  choose   Cy    target     hold     of Ana|hold",
            "  gain     Cy    hp         +1 → 4",
            "end of encounter: complete",
        ]
    );
}

#[test]
fn nothing_worked_out_only_because_of_a_secret_answer_may_roll() {
    // A nested secret choice is asked only when its option is picked, a refusal's text and a
    // `forbid` condition are worked out only when an answer is refused: a roll there would make
    // the dice everyone rolls afterwards depend on the secret.
    let nested = |ask: &str| {
        format!(
            "stat foe: character\norder lucky(x) {{ roll d6 desc until settled }}\nplay {{\n  together for each c in characters {{\n\
             choose plan by c in secret {{\n      option strike {{\n{ask}\n      }}\n      option wait\n    }}\n  }}\n}}\n\
             character Ana {{ }}\ncharacter Bo {{ }}\n"
        )
    };
    let rolled = ["check::rolled".to_string()];
    let from = "choose target by c in secret from t in characters";
    assert_eq!(
        codes(&nested(&format!("{from} where d6 > 2 {{ set c.foe = t }}"))),
        rolled
    );
    assert_eq!(codes(&nested(&format!("{from} by lucky {{ set c.foe = t }}"))), rolled);
    assert_eq!(
        codes(&nested(&format!(
            "{from} unless d6 > 5 because \"no\" {{ set c.foe = t }}"
        ))),
        rolled
    );
    assert_eq!(
        codes(&nested(
            "choose how by c in secret { option high when d6 > 3 option low }"
        )),
        rolled
    );
    // The same choice made openly at the reveal, or rolling in its block, may roll.
    assert_eq!(
        codes(&nested(&format!(
            "{from} {{ set c.foe = t  if d6 > 3 {{ set c.foe = c }} }}"
        ))),
        Vec::<String>::new()
    );
    assert_eq!(
        codes(&nested("choose how by c { option high when d6 > 3 option low }")),
        Vec::<String>::new()
    );
    let text = "flag down\nplay { for each c in characters { choose ally by c from t in characters \
                unless t.down because \"{t} is down ({d6})\" { } } }\ncharacter Ana { }\n";
    assert_eq!(codes(text), rolled);
    let forbid = "forbid peek(c) when d6 > 3 because \"{c} is seen\"\nplay { }\ncharacter Ana { }\n";
    assert_eq!(codes(forbid), rolled);
}

#[test]
fn a_secret_choice_with_nothing_to_choose_is_traced_at_the_reveal() {
    // Every candidate refused: nothing is asked, and nothing is traced for Luke until the reveal,
    // where his `no_choice` comes in its place (with the answer meant for it, refused).
    let src = "flag down\nplay {\n  together for each c in characters {\n\
        choose ally by c in secret from t in characters where t != c unless t.down because \"{t} is down\" { }\n\
        }\n}\ncharacter Luke { }\ncharacter Mara { down = true }\n";
    let (out, err, code) = run(src, "Mara\nLuke\n", false);
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        body(&out),
        vec![
            "together Luke, Mara",
            "  secret   Mara  ally       chosen in secret",
            "  refused  Luke  ally       Mara: Mara is down",
            "  no pick  Luke  ally       Mara: Mara is down",
            "  choose   Mara  ally       Luke     of Luke",
            "end of encounter: complete",
        ]
    );
}

/// The codes of the errors the checker reports for a file (none: it checks).
fn codes(src: &str) -> Vec<String> {
    let files = vec![("t.turn".to_string(), src.to_string())];
    let (report, _) = common::check_texts(&files);
    report
        .lines()
        .filter(|l| l.starts_with("check::"))
        .map(str::to_string)
        .collect()
}

#[test]
fn a_secret_choice_in_a_secret_option_is_made_with_the_pick_only_at_the_head_of_its_block() {
    let within = |option_block: &str| {
        format!(
            "resource ap min 0\nstat foe: character\nflag ready\nplay {{\n  together for each c in characters {{\n\
             choose plan by c in secret {{\n      option strike {{\n{option_block}\n      }}\n      option wait\n    }}\n  }}\n}}\n\
             character Ana {{ ap = 1 }}\ncharacter Bo {{ }}\n"
        )
    };
    let pick = "choose target by c in secret from t in characters where t != c { set c.foe = t }";
    let how = "choose how by c in secret { option high option low }";
    let nested = ["check::secret_nested".to_string()];
    // At the head, one or several, each with secret choices at the head of its own options.
    assert_eq!(codes(&within(pick)), Vec::<String>::new());
    assert_eq!(
        codes(&within(&format!("{pick}\n{how}\nspend 1 c.ap"))),
        Vec::<String>::new()
    );
    assert_eq!(
        codes(&within(
            "choose how by c in secret { option high { choose target by c in secret from t in characters { set c.foe = t } } }"
        )),
        Vec::<String>::new()
    );
    // In a `together` walk of its own, revealed at that walk's end.
    assert_eq!(
        codes(&within(
            "spend 1 c.ap\ntogether for each d in characters { choose target by d in secret from t in characters { set d.foe = t } }"
        )),
        Vec::<String>::new()
    );
    // Anywhere else: after another statement, inside `if`, a loop, or an open choice's option.
    assert_eq!(codes(&within(&format!("spend 1 c.ap\n{pick}"))), nested);
    assert_eq!(codes(&within(&format!("if c.ap > 0 {{ {pick} }}"))), nested);
    assert_eq!(codes(&within(&format!("for each d in characters {{ {how} }}"))), nested);
    assert_eq!(
        codes(&within(&format!("choose open by c {{ option go {{ {how} }} }}"))),
        nested
    );
    assert_eq!(codes(&within(&format!("{how}\nmark c.ready\n{pick}"))), nested);
    // The same holds in the block of a secret `choose ... from` and of its way out.
    let from = |body: &str, decline: &str| {
        format!(
            "stat foe: character\nplay {{\n  together for each c in characters {{\n\
             choose target by c in secret from t in characters {{ {body} }} or hold {{ {decline} }}\n  }}\n}}\n\
             character Ana {{ }}\n"
        )
    };
    assert_eq!(
        codes(&from(&format!("{how}\nset c.foe = t"), how)),
        Vec::<String>::new()
    );
    assert_eq!(codes(&from(&format!("set c.foe = t\n{how}"), "")), nested);
    assert_eq!(codes(&from("", &format!("set c.foe = c\n{how}"))), nested);
}
