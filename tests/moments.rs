//! Moments (issue 25, families 4 and 5): tied groups acting as one moment (`ties together`), a
//! moment inside a turn (`together { ... }`), changes made when a moment or a level's iteration
//! ends (`... at end of moment|LEVEL`), walks that pick again (`repeat for first`), and
//! tie-breakers kept while a tie lasts under `anew`. Each test plays a small ruleset with forced
//! rolls and scripted answers and checks the exact trace.

mod common;

use common::run_texts;
use turnscript::RunOptions;

/// The text trace (without its title line), stderr and exit code.
fn run_with(src: &str, rolls: &[i64], answers: &[&str], max_steps: u64, jsonl: bool) -> (String, String, i32) {
    let files = vec![("t.turn".to_string(), format!("ruleset \"t\"\n{src}"))];
    let answers = answers.iter().map(|a| (a.to_string(), "answers".to_string())).collect();
    let opts = RunOptions {
        rolls: rolls.to_vec(),
        max_steps,
        ..RunOptions::default()
    };
    let (out, err, code) = run_texts(&files, answers, &opts, jsonl);
    let body = out.split_once('\n').map_or(String::new(), |(_, rest)| rest.to_string());
    (body, err, code)
}

fn trace(src: &str, rolls: &[i64], answers: &[&str]) -> String {
    let (out, err, code) = run_with(src, rolls, answers, 0, false);
    assert_eq!(code, 0, "{err}\n{out}");
    out
}

/// Members tied on the order's value keys act as one moment, however the roll-off after them
/// falls; each acts although an earlier one's action excludes it; a member tied with no one
/// walks alone and is checked again.
#[test]
fn members_tied_on_value_keys_act_as_one_moment_and_a_lone_member_is_checked_again() {
    let src = "stat init\nflag down\norder by_init(c) {\n  c.init desc\n  roll d6 desc\n}\n\
               play {\n  for each c in characters where not c.down by by_init ties together {\n\
               turn c { mark (first x in characters where x != c and not x.down).down }\n  }\n}\n\
               character Ana { init = 5 }\ncharacter Bo { init = 5 }\ncharacter Cy { init = 2 }\ncharacter Di { init = 1 }\n";
    assert_eq!(
        trace(src, &[2, 6], &[]),
        "roll     Ana   by_init    d6 [2] = 2\n\
         roll     Bo    by_init    d6 [6] = 6\n\
         order          Bo, Ana, Cy, Di\n\
         together Bo, Ana\n\
         \x20 ▸ Bo\n\
         \x20   mark     Ana   down\n\
         \x20 ▸ Ana\n\
         \x20   mark     Bo    down\n\
         ▸ Cy\n\
         \x20 mark     Di    down\n\
         end of encounter: complete\n\
         final    Ana   init = 5, down = 1\n\
         final    Bo    init = 5, down = 1\n\
         final    Cy    init = 2, down = 0\n\
         final    Di    init = 1, down = 1\n"
    );
}

/// "Damage is applied at the end of the phase, so a destroyed unit still fires": the amount is
/// rolled (and traced) when the shot is fired, the damage made when the moment ends, before its
/// `together_end`; a change deferred to the level waits for the iteration's end, before its
/// `on end of` hook.
#[test]
fn damage_deferred_to_the_end_of_the_moment_is_rolled_now_and_made_before_the_moment_ends() {
    let src = "resource hp min 0\nflag down\nflag over\n\
               action fire(c) {\n  let t = first x in characters where x != c\n  spend d6 t.hp at end of moment\n}\n\
               on end of volley { mark Ana.over }\n\
               play {\n  round volley {\n    together for each c in characters where c.hp > 0 {\n\
               turn c { choose act by c { option action } }\n      mark c.down at end of volley\n    }\n  }\n}\n\
               character Ana { hp = 3 }\ncharacter Bo { hp = 4 }\n";
    assert_eq!(
        trace(src, &[3, 2], &[]),
        "volley 1\n\
         \x20 together Ana, Bo\n\
         \x20   ▸ Ana\n\
         \x20     choose   Ana   act        fire     of fire (policy)\n\
         \x20     action   Ana   fire\n\
         \x20     roll     Bo    hp         d6 [3] = 3\n\
         \x20   ▸ Bo\n\
         \x20     choose   Bo    act        fire     of fire (policy)\n\
         \x20     action   Bo    fire\n\
         \x20     roll     Ana   hp         d6 [2] = 2\n\
         \x20   spend    Bo    hp         -3 → 1\n\
         \x20   spend    Ana   hp         -2 → 1\n\
         \x20 mark     Ana   down\n\
         \x20 mark     Bo    down\n\
         \x20 mark     Ana   over\n\
         end of encounter: complete\n\
         final    Ana   hp = 1, down = 1, over = 1\n\
         final    Bo    hp = 1, down = 1, over = 0\n"
    );
}

/// A change deferred to a level waits for the end of its current iteration, however the
/// iteration ends (an `end` of the level too), and comes before the level's end hooks.
#[test]
fn a_change_deferred_to_a_level_is_made_as_each_iteration_ends_even_one_ended_early() {
    let src = "resource hp min 0\nflag hit\non end of tally { mark Ana.hit }\n\
               play {\n  round tally repeat until tally.number == 3 {\n\
               for each c in characters { turn c { spend 1 c.hp at end of tally } }\n\
               if tally.number == 2 { end tally }\n  }\n}\n\
               character Ana { hp = 3 }\ncharacter Bo { hp = 4 }\n";
    assert_eq!(
        trace(src, &[], &[]),
        "tally 1\n\
         \x20 ▸ Ana\n\
         \x20 ▸ Bo\n\
         \x20 spend    Ana   hp         -1 → 2\n\
         \x20 spend    Bo    hp         -1 → 3\n\
         \x20 mark     Ana   hit\n\
         tally 2\n\
         \x20 ▸ Ana\n\
         \x20 ▸ Bo\n\
         \x20 spend    Ana   hp         -1 → 1\n\
         \x20 spend    Bo    hp         -1 → 2\n\
         \x20 mark     Ana   hit\n\
         \x20 end            tally: ended\n\
         end of encounter: complete\n\
         final    Ana   hp = 1, hit = 1\n\
         final    Bo    hp = 2, hit = 0\n"
    );
}

/// Every change statement that can wait does, in the order written; one on an entity destroyed
/// meanwhile lapses (traced), one on a character out of play is made (it keeps its fields); and
/// when the encounter ends inside a moment, what waits is dropped, untraced.
#[test]
fn deferred_changes_are_made_in_order_lapse_on_the_destroyed_and_drop_at_the_encounters_end() {
    let src = "resource hp min 0\nresource ap min 0 max 5\nthing drone, drones { resource hull min 0 }\neffect stunned\n\
               play {\n  together {\n    spend 1 Ana.hp at end of moment\n    transfer 2 from Ana.ap to Bo.ap at end of moment\n\
               leave Bo at end of moment\n    destroy D1 at end of moment\n    gain 1 D1.hull at end of moment\n\
               begin stunned on Ana for 2 counted at end of turn(Ana)\n    stop stunned on Ana at end of moment\n\
               gain 2 Bo.hp at end of moment\n    join Bo at end of moment\n  }\n\
               together {\n    gain 1 Ana.hp at end of moment\n    end encounter\n  }\n}\n\
               character Ana { hp = 3, ap = 3 }\ncharacter Bo { hp = 3, ap = 1 }\ndrone D1 { hull = 2 }\n";
    assert_eq!(
        trace(src, &[], &[]),
        "together\n\
         \x20 effect   Ana   stunned    for 2, counted at end of Ana's turn\n\
         \x20 spend    Ana   hp         -1 → 2\n\
         \x20 transfer Ana   ap         -2 → 1, Bo's ap +2 → 3\n\
         \x20 leaves   Bo\n\
         \x20 destroy  D1\n\
         \x20 lapsed   D1    gain hull: destroyed before it was made\n\
         \x20 effect   Ana   stunned    ends\n\
         \x20 gain     Bo    hp         +2 → 5\n\
         \x20 joins    Bo\n\
         together\n\
         end of encounter: ended\n\
         final    Ana   hp = 2, ap = 1, stunned = 0\n\
         final    Bo    hp = 5, ap = 3, stunned = 0\n\
         final    D1    (out of play) hull = 2\n"
    );
    let (out, err, code) = run_with(src, &[], &[], 0, true);
    assert_eq!(code, 0, "{err}");
    let lines: Vec<&str> = out
        .lines()
        .filter(|l| l.contains("lapsed") || l.contains("together"))
        .collect();
    assert_eq!(
        lines,
        [
            r#"{"event":"together_start","actors":[]}"#,
            r#"{"event":"lapsed","actor":"D1","change":"gain","field":"hull"}"#,
            r#"{"event":"together_end"}"#,
            r#"{"event":"together_start","actors":[]}"#,
            r#"{"event":"together_end"}"#,
        ]
    );
}

/// Whose field a deferred change names is worked out when it is deferred: `none` there is an
/// error at once, not at the moment's end.
#[test]
fn a_deferred_change_through_none_is_refused_when_it_is_deferred() {
    let src = "resource hp min 0\nstat foe: character\nflag seen\n\
               play {\n  together {\n    mark Ana.seen at end of moment\n    spend 1 Ana.foe.hp at end of moment\n  }\n}\n\
               character Ana { hp = 3 }\n";
    let (out, err, code) = run_with(src, &[], &[], 0, false);
    assert_eq!(code, 1, "{out}");
    assert!(err.contains("run::none"), "{err}");
    // Nothing was made: the moment never ended.
    assert_eq!(out, "together\n", "{out}");
}

/// An action performed where no moment is open cannot defer to a moment's end (known only as it
/// runs); performed inside a `ties together` walk, each member, tied or alone, is a moment.
#[test]
fn an_action_defers_to_the_moment_it_is_performed_in() {
    let src = "resource hp min 0\nstat init\norder by_init(c) { c.init desc }\n\
               action strike(c) { spend 1 c.hp at end of moment }\n\
               play {\n  for each c in characters by by_init ties together { turn c { choose act by c { option action } } }\n\
               for each c in characters { turn c { choose act by c { option action } } }\n}\n\
               character Ana { hp = 3, init = 2 }\ncharacter Bo { hp = 3, init = 1 }\n";
    let (out, err, code) = run_with(src, &[], &[], 0, false);
    assert_eq!(code, 1, "{out}");
    assert!(err.contains("run::no_moment"), "{err}");
    assert_eq!(
        out,
        "order          Ana, Bo\n\
         ▸ Ana\n\
         \x20 choose   Ana   act        strike   of strike (policy)\n\
         \x20 action   Ana   strike\n\
         spend    Ana   hp         -1 → 2\n\
         ▸ Bo\n\
         \x20 choose   Bo    act        strike   of strike (policy)\n\
         \x20 action   Bo    strike\n\
         spend    Bo    hp         -1 → 2\n\
         ▸ Ana\n\
         \x20 choose   Ana   act        strike   of strike (policy)\n\
         \x20 action   Ana   strike\n"
    );
}

/// "Whoever has the most Raises acts next, possibly the same hero again, until no one has any":
/// a tie is rolled off only when it happens, and the walk ends when no one passes.
#[test]
fn the_first_acts_again_and_again_until_no_one_passes() {
    let src = "resource raises min 0\norder most(c) {\n  c.raises desc\n  roll d6 desc until settled\n}\n\
               play {\n  repeat for first c in characters where c.raises > 0 by most {\n    turn c { spend 1 c.raises }\n  }\n}\n\
               character Ana { raises = 2 }\ncharacter Bo { raises = 1 }\n";
    assert_eq!(
        trace(src, &[3, 5], &[]),
        "order          Ana, Bo\n\
         ▸ Ana\n\
         \x20 spend    Ana   raises     -1 → 1\n\
         roll     Ana   most       d6 [3] = 3\n\
         roll     Bo    most       d6 [5] = 5\n\
         order          Bo, Ana\n\
         ▸ Bo\n\
         \x20 spend    Bo    raises     -1 → 0\n\
         order          Ana\n\
         ▸ Ana\n\
         \x20 spend    Ana   raises     -1 → 0\n\
         end of encounter: complete\n\
         final    Ana   raises = 0\n\
         final    Bo    raises = 0\n"
    );
}

/// `end repeat` leaves a walk that picks again; the step budget bounds one that never ends.
#[test]
fn a_walk_that_picks_again_ends_at_end_repeat_or_the_step_budget() {
    let src = "resource raises min 0\norder most(c) { c.raises desc }\n\
               play {\n  repeat for first c in characters where c.raises > 0 by most {\n\
               turn c { }\n    if c.raises == 2 { end repeat }\n  }\n}\ncharacter Ana { raises = 2 }\n";
    assert_eq!(
        trace(src, &[], &[]),
        "order          Ana\n▸ Ana\nend of encounter: complete\nfinal    Ana   raises = 2\n"
    );
    let endless = src.replace("if c.raises == 2 { end repeat }", "");
    let (_, err, code) = run_with(&endless, &[], &[], 200, false);
    assert_eq!(code, 1);
    assert!(err.contains("run::step_budget"), "{err}");
}

/// Under `anew`, a roll-off is kept while the tie lasts: members whose value keys changed (Ana
/// and Bo, set to 2 by Di's turn) roll again, once; at the sorts after, still tied with the same
/// keys, they are not rolled for again (only new rolls are traced). Before, every sort rolled.
#[test]
fn under_anew_a_roll_off_is_kept_while_the_tie_lasts_and_rolled_again_when_keys_change() {
    let src = "stat score\norder by_score(c) {\n  c.score desc\n  roll d6 desc\n}\n\
               play {\n  for each c in characters by by_score anew {\n\
               turn c { if c == Di { set Ana.score = 2\n set Bo.score = 2 } }\n  }\n}\n\
               character Ana { score = 3 }\ncharacter Bo { score = 3 }\ncharacter Cy { score = 3 }\ncharacter Di { score = 3 }\n";
    assert_eq!(
        trace(src, &[1, 2, 3, 4, 6, 5], &[]),
        "roll     Ana   by_score   d6 [1] = 1\n\
         roll     Bo    by_score   d6 [2] = 2\n\
         roll     Cy    by_score   d6 [3] = 3\n\
         roll     Di    by_score   d6 [4] = 4\n\
         order          Di, Cy, Bo, Ana\n\
         ▸ Di\n\
         \x20 set      Ana   score      = 2\n\
         \x20 set      Bo    score      = 2\n\
         roll     Ana   by_score   d6 [6] = 6\n\
         roll     Bo    by_score   d6 [5] = 5\n\
         order          Cy, Ana, Bo\n\
         ▸ Cy\n\
         order          Ana, Bo\n\
         ▸ Ana\n\
         order          Bo\n\
         ▸ Bo\n\
         end of encounter: complete\n\
         final    Ana   score = 2\n\
         final    Bo    score = 2\n\
         final    Cy    score = 3\n\
         final    Di    score = 3\n"
    );
}

/// Under `anew`, a person's tie choice is kept: the members already placed keep their order, and
/// only a newcomer to the tie is placed, by picks that offer it and the first kept member.
#[test]
fn under_anew_a_chosen_order_is_kept_and_only_a_newcomer_is_placed() {
    let src = "role gm\nstat score\norder by_score(c) {\n  c.score desc\n  chosen by gm\n}\n\
               play {\n  for each c in characters by by_score anew {\n    turn c { if c == Cy { join Di } }\n  }\n}\n\
               character Ana { score = 3 }\ncharacter Bo { score = 3 }\ncharacter Cy { score = 3 }\ncharacter Di { score = 3, absent }\n";
    assert_eq!(
        trace(src, &[], &["Cy", "Bo", "Di"]),
        "choose   gm    by_score   Cy       of Ana|Bo|Cy\n\
         choose   gm    by_score   Bo       of Ana|Bo\n\
         order          Cy, Bo, Ana\n\
         ▸ Cy\n\
         \x20 joins    Di\n\
         choose   gm    by_score   Di       of Bo|Di\n\
         order          Di, Bo, Ana\n\
         ▸ Di\n\
         order          Bo, Ana\n\
         ▸ Bo\n\
         order          Ana\n\
         ▸ Ana\n\
         end of encounter: complete\n\
         final    Ana   score = 3\n\
         final    Bo    score = 3\n\
         final    Cy    score = 3\n\
         final    Di    score = 3\n"
    );
}

/// `anew` with `ties together`: the first and everyone tied with it on the value keys have one
/// moment, and are all walked; the rest are sorted again.
#[test]
fn anew_ties_together_walks_the_first_tied_group_as_one_moment() {
    let src = "stat tick\norder by_tick(c) { c.tick asc }\n\
               play {\n  for each c in characters by by_tick anew ties together {\n\
               turn c { set c.tick = c.tick + 1 }\n  }\n}\n\
               character Ana { tick = 1 }\ncharacter Bo { tick = 1 }\ncharacter Cy { tick = 2 }\n";
    assert_eq!(
        trace(src, &[], &[]),
        "order          Ana, Bo, Cy\n\
         together Ana, Bo\n\
         \x20 ▸ Ana\n\
         \x20   set      Ana   tick       = 2\n\
         \x20 ▸ Bo\n\
         \x20   set      Bo    tick       = 2\n\
         order          Cy\n\
         ▸ Cy\n\
         \x20 set      Cy    tick       = 3\n\
         end of encounter: complete\n\
         final    Ana   tick = 2\n\
         final    Bo    tick = 2\n\
         final    Cy    tick = 3\n"
    );
}

/// A `together { ... }` block inside a turn is a moment: secret choices made in it are revealed
/// at its end, then the changes deferred to it are made, before `together_end`.
#[test]
fn a_together_block_reveals_its_secrets_then_makes_its_changes() {
    let src = "resource hp min 0\n\
               play {\n  turn Ana {\n    together {\n      choose guard by Bo in secret {\n\
               option high { spend 1 Bo.hp at end of moment }\n        option low { }\n      }\n\
               spend 2 Bo.hp at end of moment\n    }\n  }\n}\n\
               character Ana { hp = 3 }\ncharacter Bo { hp = 5 }\n";
    assert_eq!(
        trace(src, &[], &["high"]),
        "▸ Ana\n\
         \x20 together\n\
         \x20   secret   Bo    guard      chosen in secret\n\
         \x20   choose   Bo    guard      high     of high|low\n\
         \x20   spend    Bo    hp         -2 → 3\n\
         \x20   spend    Bo    hp         -1 → 2\n\
         end of encounter: complete\n\
         final    Ana   hp = 3\n\
         final    Bo    hp = 2\n"
    );
}

/// Walks over nobody are no moment: `ties together` and `repeat for first` that gather no one
/// trace nothing (no `order`, no `together`), as a `for each` over nothing.
#[test]
fn walks_over_nobody_trace_nothing() {
    let src = "stat init\nflag down\norder by_init(c) { c.init desc }\n\
               play {\n  for each c in characters where not c.down by by_init ties together { turn c { } }\n\
               for each c in characters where not c.down by by_init anew ties together { turn c { } }\n\
               repeat for first c in characters where not c.down by by_init { turn c { } }\n}\n\
               character Ana { init = 1, down = true }\n";
    assert_eq!(
        trace(src, &[], &[]),
        "end of encounter: complete\nfinal    Ana   init = 1, down = 1\n"
    );
}

/// A level's own end hook may defer to the level's end: the change is made right after the
/// hooks, in the same iteration, never left waiting for the next time the level runs.
#[test]
fn a_change_an_end_hook_defers_to_its_level_is_made_after_the_hooks() {
    let src = "resource hp min 0\nflag hit\non end of tally { mark Ana.hit\n spend 1 Ana.hp at end of tally }\n\
               play {\n  round tally counting from 1 to 2 { spend 1 Bo.hp at end of tally }\n}\n\
               character Ana { hp = 3 }\ncharacter Bo { hp = 4 }\n";
    assert_eq!(
        trace(src, &[], &[]),
        "tally 1\n\
         \x20 spend    Bo    hp         -1 → 3\n\
         \x20 mark     Ana   hit\n\
         \x20 spend    Ana   hp         -1 → 2\n\
         tally 2\n\
         \x20 spend    Bo    hp         -1 → 2\n\
         \x20 mark     Ana   hit\n\
         \x20 spend    Ana   hp         -1 → 1\n\
         end of encounter: complete\n\
         final    Ana   hp = 1, hit = 1\n\
         final    Bo    hp = 2, hit = 0\n"
    );
}

/// In a `ties together` walk, secret choices are revealed at the end of each tied group, and a
/// member tied with no one reveals its own at the end of its moment.
#[test]
fn a_tied_group_reveals_its_secret_choices_at_its_end() {
    let src = "stat init\nstat card default 0\norder by_init(c) { c.init desc }\n\
               play {\n  for each c in characters by by_init ties together {\n    choose card by c in secret {\n\
               option high { set c.card = 3 }\n      option low { set c.card = 1 }\n    }\n  }\n}\n\
               character Ana { init = 2 }\ncharacter Bo { init = 2 }\ncharacter Cy { init = 1 }\n";
    assert_eq!(
        trace(src, &[], &["high", "low", "high"]),
        "order          Ana, Bo, Cy\n\
         together Ana, Bo\n\
         \x20 secret   Ana   card       chosen in secret\n\
         \x20 secret   Bo    card       chosen in secret\n\
         \x20 choose   Ana   card       high     of high|low\n\
         \x20 set      Ana   card       = 3\n\
         \x20 choose   Bo    card       low      of high|low\n\
         \x20 set      Bo    card       = 1\n\
         secret   Cy    card       chosen in secret\n\
         choose   Cy    card       high     of high|low\n\
         set      Cy    card       = 3\n\
         end of encounter: complete\n\
         final    Ana   init = 2, card = 3\n\
         final    Bo    init = 2, card = 1\n\
         final    Cy    init = 1, card = 3\n"
    );
}

/// A deferred transfer whose receiver is destroyed before the moment ends lapses, naming the
/// receiver and its resource; the giver keeps what it would have given.
#[test]
fn a_transfer_to_an_entity_destroyed_meanwhile_lapses() {
    let src = "resource ap min 0\nthing drone, drones { resource ap min 0 }\n\
               play {\n  together {\n    transfer 2 from Ana.ap to D1.ap at end of moment\n    destroy D1\n  }\n}\n\
               character Ana { ap = 3 }\ndrone D1 { ap = 0 }\n";
    assert_eq!(
        trace(src, &[], &[]),
        "together\n\
         \x20 destroy  D1\n\
         \x20 lapsed   D1    transfer ap: destroyed before it was made\n\
         end of encounter: complete\n\
         final    Ana   ap = 3\n\
         final    D1    (out of play) ap = 0\n"
    );
}

/// `begin ... at end of moment`: the effect's target, count and anchor are worked out now, and it
/// begins when the moment ends.
#[test]
fn an_effect_begun_at_the_end_of_the_moment_starts_then() {
    let src = "effect dazed\nflag hit\n\
               play {\n  together {\n    begin dazed on Ana for d4 counted at end of turn(Ana) at end of moment\n    mark Ana.hit\n  }\n}\n\
               character Ana { }\n";
    assert_eq!(
        trace(src, &[3], &[]),
        "together\n\
         \x20 roll           roll       d4 [3] = 3\n\
         \x20 mark     Ana   hit\n\
         \x20 effect   Ana   dazed      for 3, counted at end of Ana's turn\n\
         end of encounter: complete\n\
         final    Ana   dazed = 1, hit = 1\n"
    );
}

/// The codes of the diagnostics the checker gives a ruleset (empty when it is clean).
fn check_codes(src: &str) -> Vec<String> {
    let (report, _) = common::check_texts(&[("t.turn".to_string(), format!("ruleset \"t\"\n{src}"))]);
    report
        .lines()
        .filter_map(|l| l.split_whitespace().next())
        .filter(|w| w.starts_with("check::"))
        .map(str::to_string)
        .collect()
}

const HELD_DIAL: &str = "resource hp min 0\n\
    play {\n  round repeat {\n    phase plan {\n      together for each c in characters {\n\
    choose dial by c in secret until revealed {\n\
    option hit { spend 2 (first x in characters where x != c).hp at end of moment }\n\
    option rest { gain 1 c.hp at end of LEVEL }\n      }\n    }\n  }\n\
    phase act { REVEAL }\n    if round.number == 1 { end encounter }\n  }\n}\n\
    character A { hp = 5 }\ncharacter B { hp = 5 }\n";

/// A held option's block runs where `reveal` shows it, not in the walk it was chosen in: a
/// change it defers to the end of the moment (or of a level) waits for one open at the reveal.
/// Revealed where none is, the checker refuses it (it used to pass the checker and stop the
/// run with `run::no_moment` at the reveal).
#[test]
fn a_held_blocks_deferred_change_waits_for_a_moment_open_where_it_is_revealed() {
    let plain = "for each c in characters { turn c { reveal dial of c } }";
    let src = HELD_DIAL.replace("REVEAL", plain).replace("LEVEL", "plan");
    assert_eq!(check_codes(&src), ["check::no_moment", "check::no_moment"]);
    let src = HELD_DIAL.replace("REVEAL", plain).replace("LEVEL", "act");
    assert_eq!(check_codes(&src), ["check::no_moment"]);
    let together = "together for each c in characters { turn c { reveal dial of c } }";
    let src = HELD_DIAL.replace("REVEAL", together).replace("LEVEL", "act");
    assert_eq!(check_codes(&src), Vec::<String>::new());
    assert_eq!(
        trace(&src, &[], &["hit", "rest"]),
        "round 1\n\
         \x20 plan\n\
         \x20   together A, B\n\
         \x20     secret   A     dial       chosen in secret\n\
         \x20     secret   B     dial       chosen in secret\n\
         \x20 act\n\
         \x20   together A, B\n\
         \x20     ▸ A\n\
         \x20       choose   A     dial       hit      of hit|rest\n\
         \x20     ▸ B\n\
         \x20       choose   B     dial       rest     of hit|rest\n\
         \x20     spend    B     hp         -2 → 3\n\
         \x20   gain     B     hp         +1 → 4\n\
         end of encounter: ended\n\
         final    A     hp = 5\n\
         final    B     hp = 4\n"
    );
}

/// A `ready` block runs where its point happens, as a hook does: its deferred changes wait for
/// the moment or level open as it fires, not for what is written around the `ready` (it used to
/// be refused `at end of round` inside `round`, and `at end of moment` outside a moment).
#[test]
fn a_ready_blocks_deferred_change_waits_for_what_is_open_as_it_fires() {
    let src = "resource hp min 0\ntrigger moves(m)\n\
               play {\n  round repeat {\n\
               ready A on moves(m) where m != A { spend 1 m.hp at end of moment\n gain 3 m.hp at end of round }\n\
               together { raise moves(B)\n gain 1 B.hp }\n\
               if round.number == 1 { end encounter }\n  }\n}\n\
               character A { hp = 5 }\ncharacter B { hp = 5 }\n";
    assert_eq!(check_codes(src), Vec::<String>::new());
    // Armed in play outside any moment, fired inside `together { ... }`: the hit lands as the
    // moment ends; the round's gain is dropped with the encounter's end.
    assert_eq!(
        trace(src, &[], &[]),
        "round 1\n\
         \x20 ready    A     on moves\n\
         \x20 together\n\
         \x20   trigger  B     moves(B)\n\
         \x20   unready  A     on moves: fired\n\
         \x20   gain     B     hp         +1 → 6\n\
         \x20   spend    B     hp         -1 → 5\n\
         end of encounter: ended\n\
         final    A     hp = 5\n\
         final    B     hp = 5\n"
    );
}

/// Every statement that is not a change says, at its `at end of`, that it cannot wait for the
/// end of a moment (and names itself); every change that may wait parses with the clause.
#[test]
fn a_statement_that_is_not_a_change_cannot_be_deferred_and_says_so() {
    let decl = "thing drone, drones { stat x }\nglobal g\neffect dazed\ntrigger t(a)\ncharacter A { hp = 1 }\nresource hp min 0\norder o(c) { c.hp desc }\nroutine r(c) { }\n";
    let wait = [
        ("create", "create drone { x = 1 }"),
        ("raise", "raise t(A)"),
        ("do", "do r(A)"),
        ("rank", "rank o"),
        ("elapse", "elapse 1 second"),
    ];
    for (word, stmt) in wait {
        let src = format!("{decl}unit second\nplay {{ together {{ {stmt} at end of moment }} }}\n");
        let (out, clean) = common::check_texts(&[("d.turn".to_string(), src)]);
        assert!(!clean, "{stmt}");
        assert!(
            out.contains(&format!("`{word}` cannot wait for the end of a moment")),
            "{stmt}:\n{out}"
        );
    }
    let changes = [
        "spend 1 A.hp",
        "gain 1 A.hp",
        "reset A.hp to 1",
        "forfeit A.hp",
        "set g = 1",
        "leave A",
        "join A",
        "begin dazed on A for 1 counted at end of round",
        "stop dazed on A",
    ];
    for stmt in changes {
        let src = format!("{decl}play {{ round {{ together {{ {stmt} at end of moment }} }} }}\n");
        let (out, clean) = common::check_texts(&[("d.turn".to_string(), src)]);
        assert!(clean, "{stmt}:\n{out}");
    }
}
