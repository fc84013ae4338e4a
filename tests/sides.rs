//! Sides and roles as values (issue 26, family 3), and an encounter giving a ruleset's global its
//! start (family 4): each rule through a small ruleset, with forced rolls and scripted answers,
//! asserting the exact trace.

mod common;
#[path = "sides/measures.rs"]
mod measures;
#[path = "sides/names.rs"]
mod names;
#[path = "sides/repl.rs"]
mod repl;
#[path = "sides/starts.rs"]
mod starts;
#[path = "sides/values.rs"]
mod values;

use common::{check_texts, run_texts};
use turnscript::RunOptions;

fn files(ruleset: &str, encounter: Option<&str>) -> Vec<(String, String)> {
    let mut f = vec![("r.turn".to_string(), ruleset.to_string())];
    if let Some(e) = encounter {
        f.push(("e.turn".to_string(), e.to_string()));
    }
    f
}

fn run_with(
    ruleset: &str,
    encounter: Option<&str>,
    rolls: &[i64],
    answers: &[&str],
    opts: RunOptions,
    jsonl: bool,
) -> (String, String, i32) {
    let answers = answers.iter().map(|a| (a.to_string(), "answers".to_string())).collect();
    let opts = RunOptions {
        rolls: rolls.to_vec(),
        ..opts
    };
    run_texts(&files(ruleset, encounter), answers, &opts, jsonl)
}

fn run(ruleset: &str, rolls: &[i64], answers: &[&str]) -> (String, String, i32) {
    run_with(ruleset, None, rolls, answers, RunOptions::default(), false)
}

/// The trace's lines, each trimmed of its trailing spaces.
fn lines(out: &str) -> Vec<String> {
    out.lines().map(|l| l.trim_end().to_string()).collect()
}

const SIDES: &str = r#"ruleset "sides"
role gm, players
side heroes, foes {
  stat init
  resource momentum min 0 max 3
  stat controller: role default gm
  flag passed
}
global first: side
stat hp default 5
"#;

#[test]
fn each_side_rolls_into_its_own_field_and_is_the_actor_of_its_events() {
    let src = format!(
        "{SIDES}play {{\n  for each s in sides {{ set s.init = d6 }}\n  set first = first s in sides where all t in sides: s.init >= t.init\n  gain 5 first.momentum\n  mark foes.passed\n}}\n"
    );
    let (out, err, code) = run(&src, &[2, 5], &[]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        lines(&out)[1..],
        [
            "roll     heroes   init       d6 [2] = 2",
            "set      heroes   init       = 2",
            "roll     foes     init       d6 [5] = 5",
            "set      foes     init       = 5",
            "set               first      = foes",
            "gain     foes     momentum   +3 → 3",
            "mark     foes     passed",
            "end of encounter: complete",
            "final             first = foes",
            "final    heroes   init = 2, momentum = 0, controller = gm, passed = 0",
            "final    foes     init = 5, momentum = 3, controller = gm, passed = 1",
        ]
    );
}

#[test]
fn a_sides_fields_in_the_json_trace_name_the_side_and_the_final_event_lists_them() {
    let src = format!("{SIDES}play {{ set heroes.init = 4\n set first = heroes }}\ncharacter Ana {{ side heroes }}\n");
    let (out, err, code) = run_with(&src, None, &[], &[], RunOptions::default(), true);
    assert_eq!(code, 0, "{err}");
    let l: Vec<&str> = out.lines().collect();
    assert_eq!(
        l[1],
        r#"{"event":"set","actor":"heroes","stat":"init","amount":4,"left":4}"#
    );
    assert_eq!(
        l[2],
        r#"{"event":"set","stat":"first","amount":"heroes","left":"heroes"}"#
    );
    assert_eq!(
        l[4],
        r#"{"event":"final","clock":0,"globals":{"first":"heroes"},"sides":[{"name":"heroes","fields":{"init":4,"momentum":0,"controller":"gm","passed":0}},{"name":"foes","fields":{"init":0,"momentum":0,"controller":"gm","passed":0}}],"entities":[{"name":"Ana","type":"character","in_play":true,"fields":{"hp":5}}]}"#
    );
}

#[test]
fn sides_without_fields_leave_the_final_event_as_it_was() {
    let src = "side heroes, foes\nglobal g default 1\ncharacter Ana { side heroes }\nplay { }\n";
    let (out, err, code) = run_with(src, None, &[], &[], RunOptions::default(), true);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.trim_end().ends_with(r#"{"event":"final","clock":0,"globals":{"g":1},"entities":[{"name":"Ana","type":"character","in_play":true,"fields":{}}]}"#),
        "{out}"
    );
}

#[test]
fn a_character_reaches_its_sides_fields_and_a_resource_there_keeps_its_limits() {
    let src = format!(
        "{SIDES}play {{\n  for each c in characters {{ gain 2 c.side.momentum }}\n  set Ana.hp = Ana.side.momentum\n}}\ncharacter Ana {{ side heroes }}\ncharacter Ben {{ side heroes }}\ncharacter Cy {{ side foes }}\n"
    );
    let (out, err, code) = run(&src, &[], &[]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        lines(&out)[1..5],
        [
            "gain     heroes   momentum   +2 → 2",
            "gain     heroes   momentum   +1 → 3",
            "gain     foes     momentum   +2 → 2",
            "set      Ana      hp         = 3",
        ]
    );
}

#[test]
fn a_character_on_no_side_has_the_side_none_and_reading_through_it_stops_the_run() {
    let ok =
        format!("{SIDES}play {{ if Cy.side == none {{ end encounter because \"no side\" }} }}\ncharacter Cy {{ }}\n");
    let (out, err, code) = run(&ok, &[], &[]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("end of encounter: no side"), "{out}");
    let bad = format!("{SIDES}play {{ gain 1 Cy.side.momentum }}\ncharacter Cy {{ }}\n");
    let (out, err, code) = run(&bad, &[], &[]);
    assert_ne!(code, 0, "{out}");
    assert!(err.contains("run::none") && err.contains("this names no side"), "{err}");
    // A global of type side starts as `none`: its fields are not the first side's.
    let unset = format!("{SIDES}play {{ gain 1 first.momentum }}\n");
    let (_, err, code) = run(&unset, &[], &[]);
    assert_ne!(code, 0);
    assert!(err.contains("run::none"), "{err}");
}

#[test]
fn one_choose_asks_the_role_a_sides_field_holds() {
    let src = format!(
        "{SIDES}play {{\n  set heroes.controller = players\n  for each c in characters {{\n    choose act by c.side.controller {{ option go option stay }}\n  }}\n}}\ncharacter Ana {{ side heroes }}\ncharacter Orc {{ side foes }}\n"
    );
    let (out, err, code) = run(&src, &[], &["go", "stay"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        lines(&out)[1..4],
        [
            "set      heroes   controller = players",
            "choose   players  act        go       of go|stay",
            "choose   gm       act        stay     of go|stay",
        ]
    );
    // A policy given to a role answers the choices its value names.
    let opts = RunOptions {
        side_policies: vec![("gm".into(), "first".into())],
        ..RunOptions::default()
    };
    let (out, err, code) = run_with(&src, None, &[], &["stay"], opts, false);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("choose   players  act        stay     of go|stay\n"),
        "{out}"
    );
    assert!(
        out.contains("choose   gm       act        go       of go|stay (policy)"),
        "{out}"
    );
}

#[test]
fn a_chooser_computed_by_if_asks_either_role() {
    let src = "role gm, players\nside pcs, npcs\ncharacter Ana { side pcs }\ncharacter Orc { side npcs }\nplay { for each c in characters { choose act by (if c is pcs then players else gm) { option go } } }\n";
    let (out, err, code) = run(src, &[], &[]);
    assert_eq!(code, 0, "{err}");
    let l = lines(&out);
    assert!(l[1].starts_with("choose   players  act"), "{out}");
    assert!(l[2].starts_with("choose   gm       act"), "{out}");
}

#[test]
fn a_chooser_field_holding_no_role_stops_the_run() {
    let src = "role gm\nstat asker: role\ncharacter Ana { }\nplay { choose act by Ana.asker { option go } }\n";
    let (_, err, code) = run(src, &[], &[]);
    assert_ne!(code, 0);
    assert!(err.contains("run::none") && err.contains("names no role"), "{err}");
}

#[test]
fn a_stat_holding_a_role_is_given_by_the_cast_and_shown_by_name() {
    let src = "role gm, watcher\nstat asks: role default gm\ncharacter Ana { asks = watcher }\ncharacter Bo { }\nplay { if Ana.asks == watcher { set Bo.asks = Ana.asks } }\n";
    let (out, err, code) = run(src, &[], &[]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        lines(&out)[1..],
        [
            "set      Bo       asks       = watcher",
            "end of encounter: complete",
            "final    Ana      asks = watcher",
            "final    Bo       asks = watcher",
        ]
    );
}

#[test]
fn sides_are_walked_backwards_with_a_filter_and_quantified() {
    let src = format!(
        "{SIDES}play {{\n  set first = foes\n  for each s in sides backwards where s != first {{ gain 1 s.momentum }}\n  if (count s in sides where s.momentum > 0) == 1 and any s in sides: s == heroes {{ end encounter because \"one\" }}\n}}\n"
    );
    let (out, err, code) = run(&src, &[], &[]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        lines(&out)[1..4],
        [
            "set               first      = foes",
            "gain     heroes   momentum   +1 → 1",
            "end of encounter: one",
        ]
    );
}

#[test]
fn an_encounter_gives_a_rulesets_global_its_start_within_its_limits() {
    let ruleset =
        "ruleset \"g\"\nside heroes, foes\nglobal doom default 2 max 10\nglobal lead: side\nplay { gain 1 doom }\n";
    let encounter = "encounter \"e\" uses \"g\"\nglobal doom default 12\nglobal lead default foes\n";
    let (out, err, code) = run_with(ruleset, Some(encounter), &[], &[], RunOptions::default(), false);
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        lines(&out)[1..],
        [
            "gain           doom       +0 → 10",
            "end of encounter: complete",
            "final          doom = 10, lead = foes",
        ]
    );
    // Without the encounter, the ruleset's start.
    let (out, _, _) = run_with(ruleset, None, &[], &[], RunOptions::default(), false);
    assert!(out.contains("final          doom = 3, lead = none"), "{out}");
}

#[test]
fn an_encounter_cannot_change_a_globals_type_decimals_or_limits() {
    let ruleset = "ruleset \"g\"\nside heroes\nglobal doom default 2 max 10\nglobal pace decimals 1\nplay { }\n";
    for (line, message) in [
        ("global doom: side default heroes", "`doom` cannot change its type here"),
        (
            "global pace decimals 2 default 1",
            "`pace` cannot change its decimals here",
        ),
        ("global doom max 3 default 1", "`doom` cannot change its limits here"),
        ("global doom", "`doom` is declared again without a start"),
        (
            "global doom default heroes",
            "a global's start must be a number, but this is a side",
        ),
    ] {
        let encounter = format!("encounter \"e\" uses \"r.turn\"\n{line}\n");
        let (report, clean) = check_texts(&files(ruleset, Some(&encounter)));
        assert!(!clean, "{line}");
        assert!(report.contains(message), "{line}: {report}");
    }
}

/// The diagnostics of an encounter that changes more than a global's start (two files, so not in
/// `tests/diagnostics/`).
#[test]
fn an_encounter_changing_more_than_a_globals_start_is_reported_at_each_line() {
    let ruleset = "ruleset \"g\"\nside heroes\nglobal doom default 2 max 10\nglobal pace decimals 1\nplay { }\n";
    let encounter = "encounter \"e\" uses \"r.turn\"\nglobal doom: side default heroes\nglobal pace decimals 2 default 1\nglobal doom max 3 default 1\n";
    let (report, clean) = check_texts(&files(ruleset, Some(encounter)));
    assert!(!clean);
    insta::assert_snapshot!("global_start", report);
}

const STUN: &str = r#"ruleset "stun"
stat max_stun default 3
resource stun(c) min 0 max c.max_stun
"#;

#[test]
fn a_per_character_maximum_clamps_the_start_and_each_change_with_the_owners_value_then() {
    let src = format!(
        "{STUN}character Ana {{ max_stun = 5, stun = 9 }}\ncharacter Bo {{ stun = 1 }}\nplay {{\n  gain 4 Bo.stun\n  set Bo.max_stun = 6\n  gain 4 Bo.stun\n  set Bo.max_stun = 2\n  gain 0 Bo.stun\n  forfeit Ana.stun\n}}\n"
    );
    let (out, err, code) = run(&src, &[], &[]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        lines(&out)[1..],
        [
            "gain     Bo    stun       +2 → 3",
            "set      Bo    max_stun   = 6",
            "gain     Bo    stun       +3 → 6",
            "set      Bo    max_stun   = 2",
            "gain     Bo    stun       +-4 → 2",
            "forfeit  Ana   stun       5 lost → 0",
            "end of encounter: complete",
            "final    Ana   max_stun = 5, stun = 0",
            "final    Bo    max_stun = 2, stun = 2",
        ]
    );
}

#[test]
fn a_per_owner_floor_refuses_a_spend_and_an_unaffordable_cost() {
    let src = "stat reserve default 0\nresource ap(c) min c.reserve\naction dash(c) costs 2 ap\ncharacter Ana { reserve = 2, ap = 3 }\n\
               play { choose act by Ana { option action option rest }\n spend 2 Ana.ap }\n";
    let (out, err, code) = run(src, &[], &[]);
    assert_ne!(code, 0, "{out}");
    // `dash` would leave 1 < 2: not offered, so only `rest` is.
    assert!(out.contains("choose   Ana   act        rest     of rest"), "{out}");
    assert!(
        err.contains("run::overspend") && err.contains("Ana cannot spend 2 ap: they have 3"),
        "{err}"
    );
}

#[test]
fn a_things_and_a_sides_resources_take_their_limits_from_their_owner() {
    let src = "side heroes { stat cap default 1  resource grit(s) max s.cap }\nthing pool, pools { stat cap default 2  resource tokens(p) max p.cap }\n\
               pool P { tokens = 5 }\nplay {\n  gain 3 heroes.grit\n  create pool { cap = 4, tokens = 10 } as q\n  gain 1 q.tokens\n}\n";
    let (out, err, code) = run(src, &[], &[]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        lines(&out)[1..],
        [
            "gain     heroes  grit       +1 → 1",
            "create   pool 1  cap = 4, tokens = 4",
            "gain     pool 1  tokens     +0 → 4",
            "end of encounter: complete",
            "final    heroes  cap = 1, grit = 1",
            "final    P       cap = 2, tokens = 2",
            "final    pool 1  cap = 4, tokens = 4",
        ]
    );
}

#[test]
fn a_per_owner_limit_with_decimals_and_a_late_joiner_gets_its_start_when_it_joins() {
    let src = "stat size default 3\nresource load(c) decimals 1 max c.size / 2\ncharacter Ana { load = 9 }\ncharacter Cy { size = 5, load = 9, absent }\n\
               play { gain 0.5 Ana.load\n join Cy }\n";
    let (out, err, code) = run(src, &[], &[]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        lines(&out)[1..],
        [
            "gain     Ana   load       +0.0 → 1.0",
            "joins    Cy",
            "end of encounter: complete",
            "final    Ana   size = 3, load = 1.0",
            "final    Cy    size = 5, load = 2.0",
        ]
    );
}

#[test]
fn limits_that_read_a_field_declared_later_and_not_plain_stop_the_run() {
    let src = "resource stun(c) min 0 max c.max_stun\nstat max_stun default d6\ncharacter Ana { }\nplay { }\n";
    let (_, err, code) = run(src, &[4], &[]);
    assert_ne!(code, 0);
    assert!(err.contains("run::not_set"), "{err}");
}

#[test]
fn a_secret_choice_asked_of_a_sides_controller_changes_the_side_only_at_the_reveal() {
    let src = format!(
        "{SIDES}play {{\n  set heroes.controller = players\n  together for each c in characters {{\n    choose bid by c.side.controller in secret {{\n      option high {{ gain 2 c.side.momentum }}\n      option low {{ gain 1 c.side.momentum }}\n    }}\n    if c.side.momentum > 0 {{ end encounter because \"seen before the reveal\" }}\n  }}\n}}\ncharacter Ana {{ side heroes }}\ncharacter Orc {{ side foes }}\n"
    );
    let (out, err, code) = run(&src, &[], &["high", "low"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        lines(&out)[1..10],
        [
            "set      heroes   controller = players",
            "together Ana, Orc",
            "  secret   players  bid        chosen in secret",
            "  secret   gm       bid        chosen in secret",
            "  choose   players  bid        high     of high|low",
            "  gain     heroes   momentum   +2 → 2",
            "  choose   gm       bid        low      of high|low",
            "  gain     foes     momentum   +1 → 1",
            "end of encounter: complete",
        ]
    );
}

#[test]
fn a_per_owner_limit_reading_through_none_stops_the_run_at_the_change() {
    let src =
        "stat cap default 3\nstat guard: character\nresource stun(c) max c.guard.cap\ncharacter Ana { }\nplay { }\n";
    let (_, err, code) = run(src, &[], &[]);
    assert_ne!(code, 0);
    assert!(err.contains("run::none"), "{err}");
}

/// "The first player breaks ties": a global holding a role is the `chosen by` of an order's key,
/// asked as the role it holds when the key is reached.
#[test]
fn a_global_holding_a_role_breaks_ties_as_the_role_it_holds_then() {
    let src = "role gm, players\nglobal tiebreaker: role default players\nstat init default 1\norder by_init(c) {\n  c.init desc\n  chosen by tiebreaker\n}\n\
               character Ana { }\ncharacter Bo { }\nplay {\n  set tiebreaker = gm\n  for each c in characters by by_init { turn c { } }\n}\n";
    let (out, err, code) = run(src, &[], &["Bo"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        lines(&out)[1..6],
        [
            "set               tiebreaker = gm",
            "choose   gm       by_init    Bo       of Ana|Bo",
            "order             Bo, Ana",
            "▸ Bo",
            "▸ Ana",
        ]
    );
}

#[test]
fn sides_walk_and_quantify_in_the_order_of_an_order_of_sides() {
    let src = "side heroes, foes, neutrals { stat init  stat bonus default 0 }\norder initiative(s: side) { s.init desc  s.bonus desc }\nglobal top: side\n\
               play {\n  for each s in sides { set s.init = d6 }\n  set foes.bonus = 1\n  for each s in sides by initiative { set s.bonus = s.bonus + 1 }\n  set top = first s in sides where s != foes by initiative\n  for each s in sides backwards where s != foes by initiative { }\n}\n";
    let (out, err, code) = run(src, &[3, 3, 3], &[]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        lines(&out)[7..],
        [
            "set      foes      bonus      = 1",
            "order              foes, heroes, neutrals",
            "set      foes      bonus      = 2",
            "set      heroes    bonus      = 1",
            "set      neutrals  bonus      = 1",
            "set                top        = heroes",
            "order              heroes, neutrals",
            "end of encounter: complete",
            "final              top = heroes",
            "final    heroes    init = 3, bonus = 1",
            "final    foes      init = 3, bonus = 2",
            "final    neutrals  init = 3, bonus = 1",
        ]
    );
}
