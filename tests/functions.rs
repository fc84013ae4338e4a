//! Issue 26's functions: routines and params with number, truth, side, role and entity
//! arguments; routines that give a value; locals that change; counted loops. Each rule in a
//! scenario with forced rolls and scripted answers, asserting the exact trace and state.

mod common;
#[path = "functions/locals.rs"]
mod locals;

use common::{check_texts, run_texts};
use turnscript::project::{RunOptions, parse_answers};

/// Runs one file: (stdout, stderr, exit code) in the text view.
fn go(src: &str, rolls: &[i64], answers: &str) -> (String, String, i32) {
    let files = vec![("t.turn".to_string(), src.to_string())];
    let opts = RunOptions {
        rolls: rolls.to_vec(),
        ..RunOptions::default()
    };
    run_texts(&files, parse_answers(answers, "answers"), &opts, false)
}

/// The text view's lines after the header.
fn body(out: &str) -> Vec<&str> {
    out.lines().skip(1).collect()
}

fn ok(src: &str, rolls: &[i64], answers: &str) -> Vec<String> {
    let (out, err, code) = go(src, rolls, answers);
    assert_eq!(code, 0, "{err}\n{out}");
    body(&out).into_iter().map(str::to_string).collect()
}

/// The checker's report on one file (it must fail).
fn refused(src: &str) -> String {
    let (report, clean) = check_texts(&[("t.turn".to_string(), src.to_string())]);
    assert!(!clean, "expected a refusal:\n{src}");
    report
}

const DAMAGE: &str = "resource hp min 0\nstat might default 1\n\
    routine damage(c, n: number, crit: truth) gives number {\n\
      let total = 0\n\
      for each i in 1 to n { set total = total + d6 }\n\
      if crit { give total * 2 }\n\
      give total + c.might\n\
    }\n";

#[test]
fn a_routine_gives_a_value_worked_out_with_rolls_a_counted_loop_and_a_changing_local() {
    let src = format!(
        "{DAMAGE}play {{ for each c in characters {{ turn c {{\n\
           let dmg = damage(c, 2, c.might > 2)\n\
           spend dmg c.hp\n\
         }} }} }}\n\
         character Ana {{ hp = 30, might = 3 }}\ncharacter Orc {{ hp = 30 }}\n"
    );
    assert_eq!(
        ok(&src, &[1, 2, 3, 4], ""),
        vec![
            "▸ Ana",
            "  roll     Ana   roll       d6 [1] = 1",
            "  roll     Ana   roll       d6 [2] = 2",
            // A critical: (1 + 2) * 2, the might not added.
            "  spend    Ana   hp         -6 → 24",
            "▸ Orc",
            "  roll     Orc   roll       d6 [3] = 3",
            "  roll     Orc   roll       d6 [4] = 4",
            "  spend    Orc   hp         -8 → 22",
            "end of encounter: complete",
            "final    Ana   hp = 24, might = 3",
            "final    Orc   hp = 22, might = 1",
        ]
    );
}

#[test]
fn a_counted_loop_counts_down_and_works_its_bounds_out_once() {
    // The bound is read once: the loop's own change to it does not lengthen the loop.
    let src = "global n default 3\nresource hp\n\
               play { for each i in n down to 1 { gain i Ana.hp  gain 1 n } for each i in 2 to 1 { gain 100 Ana.hp } }\n\
               character Ana { }\n";
    assert_eq!(
        ok(src, &[], ""),
        vec![
            "gain     Ana   hp         +3 → 3",
            "gain           n          +1 → 4",
            "gain     Ana   hp         +2 → 5",
            "gain           n          +1 → 5",
            "gain     Ana   hp         +1 → 6",
            "gain           n          +1 → 6",
            "end of encounter: complete",
            "final          n = 6",
            "final    Ana   hp = 6",
        ]
    );
}

#[test]
fn a_give_inside_a_loop_or_a_choice_returns_at_once() {
    let src = "resource hp\n\
               routine first_hurt(n: number) gives character {\n\
                 for each c in characters where c.hp < n { give c }\n\
                 give none\n\
               }\n\
               routine pick(c) gives number {\n\
                 choose how by c { option low { give 1 } option high { give 5 } }\n\
               }\n\
               play {\n\
                 let x = first_hurt(3)\n\
                 if x != none { gain pick(x) x.hp }\n\
                 if first_hurt(0) == none { gain 10 Bo.hp }\n\
               }\n\
               character Ana { hp = 4 }\ncharacter Bo { hp = 2 }\ncharacter Cy { hp = 1 }\n";
    assert_eq!(
        ok(src, &[], "high\n"),
        vec![
            "choose   Bo    how        high     of low|high",
            "gain     Bo    hp         +5 → 7",
            "gain     Bo    hp         +10 → 17",
            "end of encounter: complete",
            "final    Ana   hp = 4",
            "final    Bo    hp = 17",
            "final    Cy    hp = 1",
        ]
    );
}

#[test]
fn a_routine_that_gives_may_run_itself_and_its_locals_are_its_own() {
    let src = "global out default 0\n\
               routine fib(n: number) gives number {\n\
                 if n < 2 { give n }\n\
                 let a = fib(n - 1)\n\
                 let b = fib(n - 2)\n\
                 give a + b\n\
               }\n\
               play { set out = fib(10) }\n";
    assert_eq!(
        ok(src, &[], ""),
        vec![
            "set            out        = 55",
            "end of encounter: complete",
            "final          out = 55"
        ]
    );
}

#[test]
fn a_routine_that_runs_itself_without_end_stops_the_run_at_the_call_depth() {
    let src = "routine down(n: number) gives number { give down(n + 1) }\nplay { let x = down(0) }\n";
    let (_, err, code) = go(src, &[], "");
    assert_ne!(code, 0);
    assert!(err.contains("run::too_deep"), "{err}");
}

#[test]
fn the_encounter_ended_inside_a_routine_called_in_an_expression_ends_the_run_there() {
    let src = "resource hp\nroutine check(c) gives number {\n\
                 if c.hp > 2 { end encounter because \"enough\" }\n\
                 give c.hp\n\
               }\n\
               play { repeat { let h = check(Ana)  gain h Ana.hp  gain 1 Ana.hp } }\n\
               character Ana { hp = 1 }\n";
    assert_eq!(
        ok(src, &[], ""),
        vec![
            "gain     Ana   hp         +1 → 2",
            "gain     Ana   hp         +1 → 3",
            // `let h = check(Ana)` ends the encounter: the gains after it never run.
            "end of encounter: enough",
            "final    Ana   hp = 3",
        ]
    );
}

#[test]
fn a_loop_left_by_a_routine_that_ends_the_encounter_is_no_longer_running() {
    // `stop()` ends the encounter in `repeat while`'s condition; the end hook's count then runs
    // out of steps, and the budget names the count, not the loop the routine left.
    let src = "global k default 0\n\
               routine stop() gives number { end encounter because \"stopped\" }\n\
               on end of encounter { set k = count c in characters }\n\
               play {\n  repeat while stop() > 0 { set k = k + 1 }\n}\n\
               character Ana { }\ncharacter Bo { }\ncharacter Cy { }\n";
    let files = vec![("t.turn".to_string(), src.to_string())];
    let opts = RunOptions {
        max_steps: 5,
        ..RunOptions::default()
    };
    let (_, err, code) = run_texts(&files, parse_answers("", "answers"), &opts, false);
    assert_ne!(code, 0);
    assert!(err.contains("run::step_budget"), "{err}");
    assert!(err.contains("count c in characters"), "{err}");
    assert!(!err.contains("repeat while stop()"), "{err}");
}

#[test]
fn a_counted_loop_without_end_is_bounded_by_the_step_budget() {
    let src = "global n default 0\nplay { for each i in 1 to 9000000000 { set n = i } }\n";
    let (_, err, code) = go(src, &[], "");
    assert_ne!(code, 0);
    assert!(err.contains("run::step_budget"), "{err}");
}

#[test]
fn sides_and_truth_values_are_passed_to_routines_and_params() {
    let src = "side heroes, foes\nresource hp\n\
               param standing(s: side) = count c in characters where c.side == s\n\
               routine heal(s: side, big: truth) { for each c in characters where c is heroes and c.side == s { gain if big then 3 else 1 c.hp } }\n\
               play { do heal(heroes, standing(heroes) > 1)  do heal(foes, true)  do heal(Orc.side, false) }\n\
               character Ana { side heroes }\ncharacter Bo { side heroes }\ncharacter Orc { side foes }\n";
    assert_eq!(
        ok(src, &[], ""),
        vec![
            "gain     Ana   hp         +3 → 3",
            "gain     Bo    hp         +3 → 3",
            "end of encounter: complete",
            "final    Ana   hp = 3",
            "final    Bo    hp = 3",
            "final    Orc   hp = 0",
        ]
    );
}

#[test]
fn a_role_passed_to_a_routine_chooses_as_that_role() {
    let src = "role gm, table\nresource score\n\
               routine ask(r: role, c) { choose mode by r { option hard { gain 2 c.score } option soft { gain 1 c.score } } }\n\
               play { do ask(gm, Ana)  do ask(table, Ana) }\n\
               character Ana { }\n";
    assert_eq!(
        ok(src, &[], "soft\nhard\n"),
        vec![
            "choose   gm     mode       soft     of hard|soft",
            "gain     Ana    score      +1 → 1",
            "choose   table  mode       hard     of hard|soft",
            "gain     Ana    score      +2 → 3",
            "end of encounter: complete",
            "final    Ana    score = 3",
        ]
    );
}

/// "When a Watcher character finishes, the Watcher chooses next": a routine gives the role that
/// controls a side (roles are values since sides hold them), and that role chooses.
#[test]
fn a_routine_gives_the_role_that_chooses() {
    let src = "role gm, players\nresource score\n\
               side heroes, foes { stat controller: role default players }\n\
               routine controller_of(c) gives role { give c.side.controller }\n\
               play {\n set foes.controller = gm\n\
                 for each c in characters { let r = controller_of(c)\n choose next by r { option go { gain 1 c.score } option wait } }\n}\n\
               character Ana { side heroes }\ncharacter Orc { side foes }\n";
    assert_eq!(
        ok(src, &[], "go\nwait\n"),
        vec![
            "set      foes     controller = gm",
            "choose   players  next       go       of go|wait",
            "gain     Ana      score      +1 → 1",
            "choose   gm       next       wait     of go|wait",
            "end of encounter: complete",
            "final    heroes   controller = players",
            "final    foes     controller = gm",
            "final    Ana      score = 1",
            "final    Orc      score = 0",
        ]
    );
}

#[test]
fn none_passed_as_an_entity_argument_is_never_read_as_someone() {
    let src = "resource hp\nroutine hurt(c) gives number { give c.hp }\nplay { let x = hurt(none) }\n";
    let (_, err, code) = go(src, &[], "");
    assert_ne!(code, 0);
    assert!(err.contains("run::none"), "{err}");
}

#[test]
fn a_local_with_decimals_changes_with_whole_numbers_widened() {
    let src = "global out decimals 2\nplay { let x = 0.25  for each i in 1 to 3 { set x = x + i } set out = x }\n";
    assert_eq!(
        ok(src, &[], ""),
        vec![
            "set            out        = 6.25",
            "end of encounter: complete",
            "final          out = 6.25"
        ]
    );
}

#[test]
fn a_thing_named_like_a_type_keeps_its_meaning() {
    // `number` is the thing here, as an argument's type and as what the routine gives.
    let src = "thing number, numbers { stat value }\nroutine same(n: number) gives number { give n }\n\
               global out default 0\nplay { create number { value = 4 } as x  set out = same(x).value }\n";
    assert_eq!(
        ok(src, &[], ""),
        vec![
            "create   number 1  value = 4",
            "set            out        = 4",
            "end of encounter: complete",
            "final          out = 4",
            "final    number 1  value = 4",
        ]
    );
}

#[test]
fn only_a_let_changes_and_not_from_a_block_run_later() {
    let r = refused("routine r(c, n: number) { set n = 1 }\n");
    assert!(
        r.contains("check::immutable") && r.contains("`n` cannot change: it is not a `let`"),
        "{r}"
    );
    let r = refused("play { for each i in 1 to 3 { set i = 2 } }\n");
    assert!(r.contains("check::immutable"), "{r}");
    let r = refused("trigger t(c)\nplay { let k = 0  ready Ana on t(x) { set k = 1 } }\ncharacter Ana { }\n");
    assert!(r.contains("this block runs later, on a copy"), "{r}");
}

#[test]
fn a_routine_that_gives_is_called_only_where_a_statement_may_run_it() {
    let r = refused(
        "resource hp\nroutine f(c) gives number { give 1 }\nparam p(c: character) = f(c)\n\
         play { choose x by Ana { option a when f(Ana) > 0 { } } }\ncharacter Ana { }\n",
    );
    assert_eq!(r.matches("check::call_here").count(), 2, "{r}");
}

/// A quantifier walks a collection as it stands: a routine run from its `where` or its body could
/// draw, create or rank and change the walk under it (a sum over a draw pile whose body draws
/// stopped half way, silently). Every quantifier's parts are `check::call_here`, over members,
/// over a pool's faces and over a roll's faces alike.
#[test]
fn a_routine_that_gives_is_not_called_inside_a_quantifier() {
    let r = refused(
        "resource hp\nroutine f(c) gives number { give 1 }\nroutine g() gives number { give 1 }\n\
         play {\n let a = count c in characters where f(c) > 0\n let b = sum c in characters: f(c)\n\
         let d = count x in 3d6 where x > g()\n roll 2d6 as p\n let e = sum x in p: g()\n}\ncharacter Ana { }\n",
    );
    assert_eq!(r.matches("check::call_here").count(), 4, "{r}");
}

#[test]
fn every_path_of_a_routine_that_gives_gives() {
    let r = refused("routine f(n: number) gives number { if n > 1 { give 1 } }\n");
    assert!(r.contains("check::no_give"), "{r}");
    let r = refused("routine f(n: number) { give 1 }\n");
    assert!(r.contains("check::give_outside"), "{r}");
    let r = refused("routine f(n: number) { }\nplay { let x = f(1) }\n");
    assert!(r.contains("the routine `f` gives no value"), "{r}");
}

#[test]
fn a_counted_loop_of_decimals_is_refused() {
    let r = refused("play { for each i in 0.5 to 3 { } }\n");
    assert!(r.contains("check::type"), "{r}");
}

#[test]
fn arguments_are_checked_for_count_and_type() {
    let r = refused(
        "side good\nroutine f(c, n: number, s: side) { }\n\
         play { do f(Ana, 1)  do f(Ana, true, good)  do f(Ana, 1, 2) }\ncharacter Ana { }\n",
    );
    assert!(r.contains("takes 3 argument(s), not 2"), "{r}");
    assert!(r.contains("but this is a truth value"), "{r}");
    assert!(r.contains("but this is a number"), "{r}");
    let r = refused("routine f(n: numbr) { }\n");
    assert!(r.contains("check::unknown") && r.contains("number"), "{r}");
}

#[test]
fn a_trigger_passes_numbers_truth_values_and_sides_and_the_trace_writes_each_as_its_type() {
    let src = "side heroes, foes\nresource hp\n\
               trigger hit(target, amount: number, crit: truth, from_side: side)\n\
               on hit(t, n, c, s) where c and s == heroes { gain n t.hp }\n\
               play { raise hit(Ana, 3, true, heroes)  raise hit(Ana, 2, false, Orc.side)  raise hit(none, 1, true, Nix.side) }\n\
               character Ana { side heroes }\ncharacter Orc { side foes }\ncharacter Nix { }\n";
    assert_eq!(
        ok(src, &[], ""),
        vec![
            "trigger  Ana   hit(Ana, 3, true, heroes)",
            "gain     Ana   hp         +3 → 3",
            "trigger  Ana   hit(Ana, 2, false, foes)",
            "trigger        hit(none, 1, true, none)",
            "end of encounter: complete",
            "final    Ana   hp = 3",
            "final    Orc   hp = 0",
            "final    Nix   hp = 0",
        ]
    );
    let files = vec![("t.turn".to_string(), src.to_string())];
    let (out, err, code) = run_texts(&files, Vec::new(), &RunOptions::default(), true);
    assert_eq!(code, 0, "{err}");
    let triggers: Vec<&str> = out.lines().filter(|l| l.contains(r#""event":"trigger""#)).collect();
    assert_eq!(
        triggers,
        vec![
            r#"{"event":"trigger","trigger":"hit","args":["Ana",3,true,"heroes"]}"#,
            r#"{"event":"trigger","trigger":"hit","args":["Ana",2,false,"foes"]}"#,
            r#"{"event":"trigger","trigger":"hit","args":[null,1,true,null]}"#,
        ]
    );
}

#[test]
fn a_routine_called_in_a_secret_options_block_runs_at_the_reveal_never_before() {
    let src = "resource hp\nroutine strike(c) gives number { give d6 + 1 }\n\
               play { together for each c in characters {\n\
                 choose plan by c in secret { option hit { let v = strike(c)  gain v c.hp } option wait }\n\
               } }\n\
               character Ana { }\ncharacter Bo { }\n";
    assert_eq!(
        ok(src, &[4], "hit\nwait\n"),
        vec![
            "together Ana, Bo",
            "  secret   Ana   plan       chosen in secret",
            "  secret   Bo    plan       chosen in secret",
            // The routine's roll is made with the option's block, after the reveal.
            "  choose   Ana   plan       hit      of hit|wait",
            "  roll           roll       d6 [4] = 4",
            "  gain     Ana   hp         +5 → 5",
            "  choose   Bo    plan       wait     of hit|wait",
            "end of encounter: complete",
            "final    Ana   hp = 5",
            "final    Bo    hp = 0",
        ]
    );
}

#[test]
fn a_destroyed_thing_passed_to_a_routine_is_read_but_not_acted_with() {
    let src = "thing crate_, crates { stat load default 3 }\nresource hp\n\
               routine weight(x: crate_) gives number { give x.load }\n\
               routine smash(x: crate_) { destroy x }\n\
               play { create crate_ as k  destroy k  gain weight(k) Ana.hp  do smash(k) }\n\
               character Ana { }\n";
    let (out, err, code) = go(src, &[], "");
    assert_ne!(code, 0, "{out}");
    assert!(out.contains("gain     Ana   hp         +3 → 3"), "{out}");
    assert!(err.contains("run::destroyed"), "{err}");
}

#[test]
fn an_out_of_play_character_passed_to_a_routine_is_still_itself() {
    let src = "resource hp\nroutine hp_of(c) gives number { give c.hp }\n\
               global seen default 0\nplay { set seen = hp_of(Bo)  join Bo  set seen = seen + hp_of(Bo) }\n\
               character Bo { hp = 2, absent }\n";
    let lines = ok(src, &[], "");
    assert_eq!(lines[0], "set            seen       = 2");
    assert_eq!(lines[2], "set            seen       = 4");
}

#[test]
fn a_routine_without_parameters_gives_with_empty_parentheses() {
    let src = "global out default 0\nroutine seven() gives number { give 7 }\nplay { set out = seven() * 2 }\n";
    assert_eq!(
        ok(src, &[], ""),
        vec![
            "set            out        = 14",
            "end of encounter: complete",
            "final          out = 14"
        ]
    );
}

#[test]
fn a_routine_in_a_change_deferred_to_the_moments_end_runs_when_it_is_deferred() {
    let src = "resource hp\nroutine f(c) gives number { give d6 }\n\
               play { together { gain f(Ana) Ana.hp at end of moment  gain 1 Ana.hp } }\n\
               character Ana { }\n";
    assert_eq!(
        ok(src, &[4], ""),
        vec![
            "together",
            // Rolled as the change is deferred; made as the moment ends.
            "  roll           roll       d6 [4] = 4",
            "  gain     Ana   hp         +1 → 1",
            "  gain     Ana   hp         +4 → 5",
            "end of encounter: complete",
            "final    Ana   hp = 5",
        ]
    );
}
