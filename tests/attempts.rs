//! Issue 25, families 1 and 7: attempts made at any moment (`attempt`, `forbid`, answers
//! addressed to moments, by anyone at a decision), and characters out of play as candidates
//! (`out of play`, `including out of play`, `x.in_play`, answers naming someone out of play).
//! Each scenario forces its answers and asserts the exact trace.

mod common;

use common::run_texts;
use turnscript::project::RunOptions;

fn run_with(src: &str, answers: &[&str], opts: RunOptions) -> (String, String, i32) {
    let files = vec![("t.turn".to_string(), src.to_string())];
    let answers = answers
        .iter()
        .enumerate()
        .map(|(i, a)| (a.to_string(), format!("answers:{}", i + 1)))
        .collect();
    run_texts(&files, answers, &opts, false)
}

fn run(src: &str, answers: &[&str], until: Option<&str>) -> (String, String, i32) {
    let opts = RunOptions {
        until: until.map(str::to_string),
        policy: Some("first".to_string()),
        ..RunOptions::default()
    };
    run_with(src, answers, opts)
}

/// The trace without its header line.
fn body(out: &str) -> String {
    out.split_once('\n').map_or("", |(_, rest)| rest).to_string()
}

const INTERRUPTS: &str = "resource ap min 0
flag full
attempt interrupt(c) at before turn(x), after turn(x) when x != c {
  clear c.full
  gain 1 c.ap
}
forbid interrupt(c) when not c.full because \"{c} has no full Command die\"
play {
  round repeat {
    for each c in characters {
      turn c { choose act by c { option strike when c.ap > 0 { spend 1 c.ap } option pass } }
    }
  }
}
character Cap { ap = 1 }
character Ilse { ap = 1, full = true }
";

#[test]
fn an_attempt_at_a_moment_is_carried_out_when_no_forbid_holds_and_refused_with_every_reason_otherwise() {
    let answers = [
        "round 1, before Cap, Ilse: interrupt",
        "round 1, act, Cap: interrupt",
        "strike",
        "round 1, after Cap, Ilse: interrupt",
        "pass",
    ];
    let (out, err, code) = run(INTERRUPTS, &answers, Some("round=1"));
    assert_eq!(code, 0, "{err}");
    assert_eq!(err, "");
    assert_eq!(
        body(&out),
        "round 1
  attempt  Ilse  interrupt
  clear    Ilse  full
  gain     Ilse  ap         +1 → 2
  ▸ Cap
    refused  Cap   act        interrupt: interrupt can be attempted only before a turn or after a turn; Cap has no full Command die
    choose   Cap   act        strike    of strike|pass
    spend    Cap   ap         -1 → 0
  refused  Ilse  interrupt: Ilse has no full Command die
  ▸ Ilse
    choose   Ilse  act        pass      of strike|pass
end of encounter: until round=1
final    Cap   ap = 0, full = 0
final    Ilse  ap = 2, full = 0
"
    );
}

#[test]
fn an_attempt_whose_when_does_not_hold_is_refused_with_its_condition() {
    // Before her own turn, Ilse may not interrupt (`x != c`); her die is full, so that is the one reason.
    let (out, err, code) = run(INTERRUPTS, &["round 1, before Ilse, Ilse: interrupt"], Some("round=1"));
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("  refused  Ilse  interrupt: interrupt is not open now: its `when` does not hold\n  ▸ Ilse\n"),
        "{out}"
    );
}

#[test]
fn the_moment_attempts_are_json_events_with_actor_and_attempt() {
    let files = vec![("t.turn".to_string(), INTERRUPTS.to_string())];
    let answers = vec![
        ("round 1, before Cap, Ilse: interrupt".to_string(), "a".to_string()),
        ("round 1, after Cap, Ilse: interrupt".to_string(), "a".to_string()),
    ];
    let opts = RunOptions {
        until: Some("round=1".into()),
        policy: Some("first".into()),
        ..RunOptions::default()
    };
    let (out, err, code) = run_texts(&files, answers, &opts, true);
    assert_eq!(code, 0, "{err}");
    let lines: Vec<&str> = out.lines().filter(|l| l.contains("attempt")).collect();
    assert_eq!(
        lines,
        [
            r#"{"event":"attempt","actor":"Ilse","attempt":"interrupt"}"#,
            r#"{"event":"attempt_refused","actor":"Ilse","attempt":"interrupt","reasons":["Ilse has no full Command die"]}"#,
        ]
    );
}

const TRIP: &str = "resource ap min 0
flag acted
attempt trip(c) at act {
  for each v in characters where v != c and not v.acted { spend 1 v.ap }
}
forbid trip(c) when c.acted because \"{c} has already acted\"
play {
  for each c in characters {
    turn c { choose act by c { option strike when c.ap > 0 { spend 1 c.ap } option pass } mark c.acted }
  }
  choose last by Cap { option done }
}
character Cap { ap = 1 }
character Ilse { ap = 1 }
";

#[test]
fn an_attempt_by_anyone_at_a_decision_is_carried_out_and_the_decision_is_offered_anew() {
    // Ilse trips Cap while he decides: he loses his AP, so `strike` is no longer offered.
    let answers = [
        "Cap, act, Ilse: trip",
        "pass",
        "Ilse, act, Cap: trip",
        "strike",
        "last, Ilse: trip",
        "done",
    ];
    let (out, err, code) = run(TRIP, &answers, None);
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        body(&out),
        "▸ Cap
  attempt  Ilse  trip
  spend    Cap   ap         -1 → 0
  choose   Cap   act        pass     of pass
  mark     Cap   acted
▸ Ilse
  refused  Cap   act        trip: Cap has already acted
  choose   Ilse  act        strike   of strike|pass
  spend    Ilse  ap         -1 → 0
  mark     Ilse  acted
refused  Ilse  last       trip: trip can be attempted only while act is asked; Ilse has already acted
choose   Cap   last       done     of done
end of encounter: complete
final    Cap   ap = 0, acted = 1
final    Ilse  ap = 0, acted = 1
"
    );
}

#[test]
fn an_attempt_named_by_the_chooser_in_order_is_carried_out_at_their_own_decision() {
    // `trip` answered in order at Cap's decision: Cap trips Ilse (not yet acted), then passes.
    let (out, err, code) = run(TRIP, &["trip", "pass", "pass", "done"], None);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.starts_with(
            "ruleset · encounter · seed 0\n▸ Cap\n  attempt  Cap   trip\n  spend    Ilse  ap         -1 → 0\n  choose   Cap   act        pass     of strike|pass\n"
        ),
        "{out}"
    );
}

const COUNT_UP: &str = "stat ready default 1
resource hp min 0
action attack(c) {
  set c.ready = second.number + 4
  for each t in characters where t != c and t.hp > 0 { spend 1 t.hp }
}
action hold(c) { set c.ready = 0 }
attempt attack_now(c) at start of second {
  turn c { choose act by c { option action } }
}
forbid attack_now(c) when c.ready > second.number because \"{c} recovers until second {c.ready}\"
play {
  level second counting from 1 to 30 {
    for each c in characters where c.ready == second.number {
      turn c { choose act by c { option action } }
    }
  }
}
character Brute { hp = 9 }
character Ana { hp = 9 }
";

#[test]
fn count_up_i_attack_now_is_made_as_a_second_starts_without_a_wait_decision() {
    let answers = [
        "hold",
        "attack",
        "start of second 3, Brute: attack_now",
        "attack",
        "start of second 4, Ana: attack_now",
        "attack",
    ];
    let (out, err, code) = run(COUNT_UP, &answers, Some("second=5"));
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        body(&out),
        "second 1
  ▸ Brute
    choose   Brute  act        hold       of attack|hold
    action   Brute  hold
    set      Brute  ready      = 0
  ▸ Ana
    choose   Ana    act        attack     of attack|hold
    action   Ana    attack
    set      Ana    ready      = 5
    spend    Brute  hp         -1 → 8
second 2
second 3
  attempt  Brute  attack_now
  ▸ Brute
    choose   Brute  act        attack     of attack|hold
    action   Brute  attack
    set      Brute  ready      = 7
    spend    Ana    hp         -1 → 8
second 4
  refused  Ana    attack_now: Ana recovers until second 5
second 5
  ▸ Ana
    choose   Ana    act        attack     of attack|hold
    action   Ana    attack
    set      Ana    ready      = 9
    spend    Brute  hp         -1 → 7
end of encounter: until second=5
final    Brute  ready = 7, hp = 7
final    Ana    ready = 9, hp = 8
"
    );
}

const VOLLEYS: &str = "stat plan default 1
forbid rescript(c) because \"scripts are fixed once the exchange begins\"
play {
  level volley counting from 1 to 3 {
    for each c in characters { turn c { } }
  }
}
character Ilse { }
";

#[test]
fn a_forbid_only_attempt_after_a_volley_is_refused_with_its_reason() {
    let (out, err, code) = run(VOLLEYS, &["end of volley 1, Ilse: rescript"], None);
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        body(&out),
        "volley 1
  ▸ Ilse
  refused  Ilse  rescript: scripts are fixed once the exchange begins
volley 2
  ▸ Ilse
volley 3
  ▸ Ilse
end of encounter: complete
final    Ilse  plan = 1
"
    );
}

#[test]
fn a_forbid_only_attempt_no_line_of_which_holds_cannot_be_done() {
    let src = VOLLEYS.replace(
        "forbid rescript(c) because",
        "flag sealed\nforbid rescript(c) when c.sealed because",
    );
    let (out, err, code) = run(&src, &["start of volley 2, Ilse: rescript"], None);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("volley 2\n  refused  Ilse  rescript: rescript cannot be done now\n"),
        "{out}"
    );
}

#[test]
fn an_attempt_addressed_to_a_moment_never_reached_is_reported() {
    let (_, err, code) = run(VOLLEYS, &["end of volley 7, Ilse: rescript"], None);
    assert_eq!(code, 0);
    assert!(
        err.contains(
            "warning: the answer `end of volley 7, Ilse: rescript` (answers:1) was never used: the moment it addresses never came"
        ),
        "{err}"
    );
}

#[test]
fn names_a_moment_address_does_not_know_are_command_line_errors() {
    for (answer, says) in [
        (
            "end of volley 1, Nobody: rescript",
            "`Nobody` is neither a character nor a role",
        ),
        (
            "end of volley 1, Ilse: recsript",
            "no attempt is called `recsript`; the attempts are: rescript",
        ),
        (
            "Ilse, end of volley 1, Ilse: rescript",
            "`Ilse` stands where no one is asked",
        ),
    ] {
        let (_, err, code) = run(VOLLEYS, &[answer], None);
        assert_eq!(code, 2, "{answer}: {err}");
        assert!(err.contains(says), "{answer}: {err}");
    }
}

#[test]
fn an_attempt_by_someone_out_of_play_is_refused_as_such() {
    let src = INTERRUPTS.replace(
        "character Ilse { ap = 1, full = true }",
        "character Ilse { ap = 1, full = true, absent }",
    );
    let (out, err, code) = run(&src, &["round 1, before Cap, Ilse: interrupt"], Some("round=1"));
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("round 1\n  refused  Ilse  interrupt: Ilse is out of play\n  ▸ Cap\n"),
        "{out}"
    );
}

#[test]
fn an_attempt_that_ends_the_encounter_ends_it_at_the_decision() {
    let src = "role gm
attempt concede { end encounter because \"conceded\" }
play { round repeat { choose act by gm { option go } } }
";
    let (out, err, code) = run(src, &["go", "round 2, act, gm: concede"], None);
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        body(&out),
        "round 1
  choose   gm    act        go       of go
round 2
  attempt  gm    concede
end of encounter: conceded
"
    );
}

#[test]
fn an_attempt_that_takes_the_actor_out_of_play_before_its_turn_takes_its_turn() {
    let src = "attempt ambush(c) at before turn(x) when x != c { leave x }
play { for each c in characters { turn c { } } }
character Ana { }
character Bo { }
";
    let (out, err, code) = run(src, &["before Bo, Ana: ambush"], None);
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        body(&out),
        "▸ Ana
attempt  Ana   ambush
leaves   Bo
cancel   Bo    turn: out of play before it began
end of encounter: complete
final    Ana
final    Bo    (out of play)
"
    );
}

#[test]
fn an_attempt_at_a_secret_choice_is_refused_and_traced_at_the_reveal() {
    let src = "attempt peek(c) { }
play {
  together for each c in characters {
    choose plan by c in secret { option a option b }
  }
}
character Ana { }
";
    let (out, err, code) = run(src, &["peek", "a"], None);
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        body(&out),
        "together Ana
  secret   Ana   plan       chosen in secret
  refused  Ana   plan       peek: peek cannot be carried out while a choice is made in secret
  choose   Ana   plan       a        of a|b
end of encounter: complete
final    Ana
"
    );
}

#[test]
fn stop_on_refusal_stops_at_an_attempt_refused_at_a_moment() {
    let opts = RunOptions {
        stop_on_refusal: true,
        until: Some("round=1".into()),
        ..RunOptions::default()
    };
    let (out, err, code) = run_with(INTERRUPTS, &["round 1, before Ilse, Cap: interrupt"], opts);
    assert_ne!(code, 0);
    assert!(
        err.contains("run::refused") && err.contains("Cap has no full Command die"),
        "{err}"
    );
    assert!(!out.contains("refused  Cap"), "{out}");
}

#[test]
fn a_program_without_attempts_or_moment_answers_is_never_asked_at_moments() {
    // A forbid-only ruleset with answers in order runs exactly as before (the old spelling).
    let src = "forbid act_early(c) because \"{c} may not act before their turn\"
play { for each c in characters { turn c { choose act by c { option go } } } }
character Ana { }
";
    let (out, err, code) = run(src, &["act_early", "go"], None);
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        body(&out),
        "▸ Ana
  refused  Ana   act        act_early: Ana may not act before their turn
  choose   Ana   act        go        of go
end of encounter: complete
final    Ana
"
    );
}

// Family 7: characters out of play as candidates.

const RESERVES: &str = "resource hp min 0
role gm
play {
  round repeat {
    choose bring by gm from r in characters out of play where r.hp > 0 {
      join r
    } or none_now
    choose target by gm from t in characters where t.hp > 0 { spend 1 t.hp }
    for each c in characters { turn c { if c.hp < 3 { leave c } } }
  }
}
character Ana { hp = 3 }
character Bo { hp = 4, absent }
character Cy { hp = 2, absent }
";

#[test]
fn the_gm_brings_in_one_of_the_reserves_and_a_pick_of_someone_out_of_play_is_refused() {
    let answers = ["Ana", "Cy", "Bo", "Cy", "Bo", "Bo", "Cy", "Ana"];
    let (out, err, code) = run(RESERVES, &answers, Some("round=3"));
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        body(&out),
        "round 1
  refused  gm    bring      Ana: Ana is in play
  choose   gm    bring      Cy       of Bo|Cy|none_now
  joins    Cy
  refused  gm    target     Bo: Bo is out of play
  choose   gm    target     Cy       of Ana|Cy
  spend    Cy    hp         -1 → 1
  ▸ Ana
  ▸ Cy
    leaves   Cy
round 2
  choose   gm    bring      Bo       of Bo|Cy|none_now
  joins    Bo
  choose   gm    target     Bo       of Ana|Bo
  spend    Bo    hp         -1 → 3
  ▸ Ana
  ▸ Bo
round 3
  choose   gm    bring      Cy       of Cy|none_now
  joins    Cy
  choose   gm    target     Ana      of Ana|Bo|Cy
  spend    Ana   hp         -1 → 2
  ▸ Ana
    leaves   Ana
  ▸ Bo
  ▸ Cy
    leaves   Cy
end of encounter: until round=3
final    Ana   (out of play) hp = 2
final    Bo    hp = 3
final    Cy    (out of play) hp = 1
"
    );
}

#[test]
fn including_out_of_play_offers_those_in_play_and_those_out_of_it() {
    let src = "role gm
play { choose pick by gm from r in characters including out of play { } }
character Ana { }
character Bo { absent }
";
    let (out, err, code) = run(src, &["Bo"], None);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("choose   gm    pick       Bo       of Ana|Bo\n"), "{out}");
}

#[test]
fn in_play_is_every_entitys_and_none_has_none() {
    let src = "thing token, tokens { }
role gm
global seen default 0
play {
  create token as t
  destroy t
  if not t.in_play { gain 1 seen }
  leave Ana
  if not Ana.in_play and not Bo.in_play and Cy.in_play { gain 10 seen }
  choose pick by gm from r in characters out of play { join r }
  if Bo.in_play { gain 100 seen }
}
character Ana { }
character Bo { absent }
character Cy { }
";
    let (out, err, code) = run(src, &["Bo"], None);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains(
            "choose   gm    pick       Bo       of Ana|Bo\njoins    Bo\ngain           seen       +100 → 111\n"
        ),
        "{out}"
    );
    assert!(out.contains("final          seen = 111\n"), "{out}");
    let none = "play { let x = first c in characters where c != c\n if x.in_play { } }\ncharacter Ana { }\n";
    let (_, err, code) = run(none, &[], None);
    assert_ne!(code, 0);
    assert!(err.contains("run::none"), "{err}");
}

#[test]
fn an_answer_naming_a_destroyed_thing_is_refused_as_gone() {
    let src = "thing token, tokens { }
role gm
play {
  create token as a
  create token as b
  destroy a
  choose pick by gm from t in tokens { }
}
";
    let (out, err, code) = run(src, &["token 1", "token 2"], None);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("refused  gm    pick       token 1: token 1 is gone\n")
            && out.contains("choose   gm    pick       token 2  of token 2\n"),
        "{out}"
    );
}

#[test]
fn an_attempt_that_names_who_makes_it_is_refused_to_a_role() {
    let src = "role gm
attempt rally(c) { }
play { round { choose act by gm { option go } } }
character Ana { }
";
    let (out, err, code) = run(src, &["round 1, act, gm: rally", "go"], None);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("  refused  gm    act        rally: rally is attempted by a character, not by gm\n  choose   gm    act        go       of go\n"),
        "{out}"
    );
}

#[test]
fn with_no_one_out_of_play_a_choice_among_them_asks_nothing() {
    let src = "role gm
play { choose bring by gm from r in characters out of play { join r } }
character Ana { }
";
    let (out, err, code) = run(src, &[], None);
    assert_eq!(code, 0, "{err}");
    assert_eq!(body(&out), "end of encounter: complete\nfinal    Ana\n");
}

#[test]
fn a_change_an_attempt_at_the_end_of_a_level_defers_to_that_end_is_made_there_not_at_the_next() {
    let src = "resource hp min 0
attempt bash(c) at end of round { spend 1 c.hp at end of round }
play {
  round repeat {
    for each c in characters { turn c { } }
  }
}
character Ana { hp = 5 }
";
    let (out, err, code) = run(src, &["round 1, end of round, Ana: bash"], Some("round=2"));
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        body(&out),
        "round 1
  ▸ Ana
  attempt  Ana   bash
  spend    Ana   hp         -1 → 4
round 2
  ▸ Ana
end of encounter: until round=2
final    Ana   hp = 4
"
    );
}

#[test]
fn an_attempt_at_a_tie_broken_by_a_person_in_a_walk_sorted_anew_is_refused_and_the_tie_still_broken() {
    let src = "role gm
resource hp min 0
stat init
attempt shout(c) { gain 1 c.hp }
order by_init(c) {
  c.init desc
  chosen by gm
}
play {
  for each c in characters by by_init anew { turn c { } }
}
character Ana { init = 3, hp = 1 }
character Bo { init = 3, hp = 1 }
character Cy { init = 3, hp = 1 }
";
    let (out, err, code) = run(src, &["by_init, Ana: shout", "Cy", "Bo"], None);
    assert_eq!(code, 0, "{err}");
    assert_eq!(err, "");
    assert_eq!(
        body(&out),
        "refused  Ana   by_init    shout: shout cannot be carried out while by_init is asked
choose   gm    by_init    Cy       of Ana|Bo|Cy
choose   gm    by_init    Bo       of Ana|Bo
order          Cy, Bo, Ana
▸ Cy
order          Bo, Ana
▸ Bo
order          Ana
▸ Ana
end of encounter: complete
final    Ana   hp = 1, init = 3
final    Bo    hp = 1, init = 3
final    Cy    hp = 1, init = 3
"
    );
}

#[test]
fn many_attempts_carried_out_at_one_decision_do_not_nest_the_run_too_deep() {
    let src = "resource ap min 0
attempt boost(c) { gain 1 c.ap }
play {
  for each c in characters { turn c { choose act by c { option go option wait } } }
}
character Ana { ap = 0 }
";
    let mut answers = vec!["boost"; 100];
    answers.push("go");
    let (out, err, code) = run(src, &answers, None);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("gain     Ana   ap         +1 → 100\n"), "{out}");
    assert!(out.contains("choose   Ana   act        go       of go|wait\n"), "{out}");
}

#[test]
fn an_attempt_binding_whose_turn_it_is_is_refused_at_a_things_turn() {
    let src = "thing player, players { stat seat default 0 }
resource hp min 0
attempt interrupt(c) at before turn(x) { reset c.hp to x.hp }
play {
  for each p in players { turn p { } }
  for each c in characters { turn c { } }
}
player P1 { seat = 7 }
character Ana { hp = 5 }
";
    let (out, err, code) = run(src, &["before P1, Ana: interrupt", "before Ana, Ana: interrupt"], None);
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        body(&out),
        "refused  Ana   interrupt: interrupt names whose turn it is, a character, and this is P1's, a player's
▸ P1
attempt  Ana   interrupt
reset    Ana   hp         = 5
▸ Ana
end of encounter: complete
final    P1    seat = 7
final    Ana   hp = 5
"
    );
}

#[test]
fn an_attempt_addressed_as_made_by_a_thing_is_a_command_line_error() {
    let src = "thing player, players { stat seat default 0 }
attempt anyone { }
play {
  for each c in characters { turn c { choose act by c { option go } } }
}
player P1 { seat = 7 }
character Ana { }
";
    for answer in ["before Ana, P1: anyone", "act, P1: anyone"] {
        let (_, err, code) = run(src, &[answer], None);
        assert_eq!(code, 2, "{answer}: {err}");
        assert!(
            err.contains("`P1` is a player, not a character or a role: attempts are made by characters and roles"),
            "{answer}: {err}"
        );
    }
}

#[test]
fn a_choice_in_an_attempt_made_at_a_choice_among_characters_does_not_call_one_out_of_play_its_candidate() {
    let src = "resource hp min 0
attempt rally(c) { choose how by c { option loud { gain 1 c.hp } option quiet } }
play {
  for each c in characters { turn c { choose target by c from t in characters where t != c { spend 1 t.hp } } }
}
character Ana { hp = 5 }
character Bo { hp = 5 }
character Cy { hp = 5, absent }
";
    let (out, err, code) = run(src, &["rally", "Cy", "loud", "Bo"], None);
    assert_eq!(code, 1, "{out}");
    assert!(
        err.contains("the answer `Cy` (answers:2) is not an option of `how` for Ana"),
        "{err}"
    );
    assert!(!out.contains("Cy is out of play"), "{out}");
}

/// `at DECISION(x)`: `x` is who decides, so an attempt at someone's decision acts on them
/// without a global kept for it ("interrupt the one whose Phase is starting"). At a role's
/// decision there is no one to name: refused, saying so.
const TRIP_DECIDER: &str = "resource ap min 0
role gm
attempt trip(c) at act(x), call(x) when x != c {
  spend 1 x.ap
}
play {
  for each c in characters {
    turn c { choose act by c { option strike when c.ap > 0 { spend 1 c.ap } option pass } }
  }
  choose call by gm { option done }
}
character Cap { ap = 1 }
character Ilse { ap = 1 }
character Mox { ap = 1 }
";

#[test]
fn an_attempt_at_a_decision_names_who_decides() {
    let answers = [
        "Cap, act, Ilse: trip",
        "pass",
        "Ilse, act, Ilse: trip",
        "strike",
        "strike",
        "call, Mox: trip",
        "done",
    ];
    let (out, err, code) = run(TRIP_DECIDER, &answers, None);
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        body(&out),
        "▸ Cap
  attempt  Ilse  trip
  spend    Cap   ap         -1 → 0
  choose   Cap   act        pass     of pass
▸ Ilse
  refused  Ilse  act        trip: trip is not open now: its `when` does not hold
  choose   Ilse  act        strike   of strike|pass
  spend    Ilse  ap         -1 → 0
▸ Mox
  choose   Mox   act        strike   of strike|pass
  spend    Mox   ap         -1 → 0
refused  Mox   call       trip: trip names who decides call, a character, and it is asked of gm, a role
choose   gm    call       done     of done
end of encounter: complete
final    Cap   ap = 0
final    Ilse  ap = 0
final    Mox   ap = 0
"
    );
}
