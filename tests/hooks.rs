//! The moments before (`on before turn(c)`, `on before|after ACTION(c)`), effects' hooks
//! (`on start|end of EFFECT(c)`) and readied responses (`ready`): each rule in a scenario with
//! forced rolls and scripted answers, asserting the exact order of the trace and the state.

mod common;

use common::run_texts;
use turnscript::project::{RunOptions, parse_answers};

/// Runs one file: (stdout, stderr, exit code); `jsonl` picks the JSON lines view.
fn go(src: &str, rolls: &[i64], answers: &str, until: Option<&str>, jsonl: bool) -> (String, String, i32) {
    let files = vec![("t.turn".to_string(), src.to_string())];
    let opts = RunOptions {
        rolls: rolls.to_vec(),
        until: until.map(str::to_string),
        ..RunOptions::default()
    };
    run_texts(&files, parse_answers(answers, "answers"), &opts, jsonl)
}

/// The text view's lines between the header and the end of the encounter.
fn body(out: &str) -> Vec<&str> {
    out.lines()
        .skip(1)
        .take_while(|l| !l.starts_with("end of encounter"))
        .collect()
}

fn ok(src: &str, rolls: &[i64], answers: &str) -> String {
    let (out, err, code) = go(src, rolls, answers, None, false);
    assert_eq!(code, 0, "{err}\n{out}");
    out
}

#[test]
fn a_hook_before_a_turn_runs_before_turn_start_outside_the_turn() {
    let src = "resource ap min 0\ncharacter Hal { ap = 2 }\ncharacter Orc { }\n\
               on before turn(c) where c == Orc { react Hal { spend 1 Hal.ap } }\n\
               on start of turn(c) { gain 0 c.ap }\n\
               play { for each c in characters { turn c { } } }\n";
    let out = ok(src, &[], "");
    assert_eq!(
        body(&out),
        vec![
            "▸ Hal",
            "  gain     Hal   ap         +0 → 2",
            // Before Orc's turn starts, outside it: Hal's reaction is not nested in any turn.
            "↳ Hal reacts",
            "  spend    Hal   ap         -1 → 1",
            "▸ Orc",
            "  gain     Orc   ap         +0 → 0",
        ]
    );
}

#[test]
fn a_turn_is_cancelled_when_the_hook_before_it_takes_its_character_out_of_play() {
    // Orc flees before its turn (a roll of 1); Cy was out of play already and keeps its turn, as
    // without the hook.
    let src = "character Ann { }\ncharacter Orc { }\ncharacter Cy { absent }\n\
               on before turn(c) where c == Orc { if d6 == 1 { leave c } }\n\
               play { for each c in characters { turn c { } }\n  turn Cy { } }\n";
    let out = ok(src, &[1], "");
    assert_eq!(
        body(&out),
        vec![
            "▸ Ann",
            // Outside any turn, no one is acting: the roll is no one's.
            "roll           roll       d6 [1] = 1",
            "leaves   Orc",
            "cancel   Orc   turn: out of play before it began",
            "▸ Cy",
        ]
    );
    // With a roll of 2 Orc stays, and its turn happens.
    let out = ok(src, &[2], "");
    assert!(body(&out).contains(&"▸ Orc"), "{out}");
    assert!(!out.contains("cancel"), "{out}");
}

#[test]
fn a_hook_before_a_turn_that_ends_the_encounter_ends_it_before_the_turn() {
    let src = "character Ann { }\ncharacter Orc { }\n\
               on before turn(c) where c == Orc { end encounter because \"fled\" }\n\
               play { for each c in characters { turn c { } } }\n";
    let out = ok(src, &[], "");
    assert_eq!(body(&out), vec!["▸ Ann"]);
    assert!(out.contains("end of encounter: fled"), "{out}");
}

const ACTIONS: &str = "resource ap min 0\nresource hp min 0\nkind attack\n\
    action strike(c) kind attack costs 1 ap { spend 1 Orc.hp }\n\
    action dash(c) costs 1 ap\n\
    character Ann { ap = 3, hp = 3 }\ncharacter Orc { ap = 3, hp = 3 }\n";

#[test]
fn hooks_before_an_action_run_after_its_costs_and_before_its_body_then_after_hooks() {
    let src = format!(
        "{ACTIONS}on before action(c) {{ gain 0 c.hp }}\n\
         on before action of kind attack(c) {{ react Orc {{ spend 1 Orc.ap }} }}\n\
         on after strike(c) {{ gain 1 c.ap }}\n\
         on after action(c) {{ gain 0 c.ap }}\n\
         play {{ turn Ann {{ repeat 2 {{ choose act by Ann {{ option action }} }} }} }}\n"
    )
    .replace("repeat 2 {", "repeat until Ann.ap < 3 {");
    let out = ok(&src, &[], "strike\ndash\n");
    assert_eq!(
        body(&out),
        vec![
            "▸ Ann",
            "  choose   Ann   act        strike   of strike|dash",
            "  action   Ann   strike",
            // The costs first: declaring the action committed them.
            "  spend    Ann   ap         -1 → 2",
            // Hooks before it, in declaration order: every action's, then the kind's.
            "  gain     Ann   hp         +0 → 3",
            "  ↳ Orc reacts",
            "    spend    Orc   ap         -1 → 2",
            // The body resolves, then the hooks after it.
            "  spend    Orc   hp         -1 → 2",
            "  gain     Ann   ap         +1 → 3",
            "  gain     Ann   ap         +0 → 3",
            "  choose   Ann   act        dash     of strike|dash",
            "  action   Ann   dash",
            "  spend    Ann   ap         -1 → 2",
            // `dash` is no attack and not `strike`: only the hooks on every action answer it.
            "  gain     Ann   hp         +0 → 3",
            "  gain     Ann   ap         +0 → 2",
        ]
    );
}

#[test]
fn an_action_whose_actor_leaves_before_it_resolves_is_cancelled_with_no_body_or_after_hooks() {
    let src = format!(
        "{ACTIONS}on before strike(c) {{ if d6 >= 5 {{ leave c }} }}\n\
         on after strike(c) {{ gain 1 c.ap }}\n\
         play {{ turn Ann {{ choose act by Ann {{ option action }} }} }}\n"
    );
    let out = ok(&src, &[6], "strike\n");
    assert_eq!(
        body(&out),
        vec![
            "▸ Ann",
            "  choose   Ann   act        strike   of strike|dash",
            "  action   Ann   strike",
            "  spend    Ann   ap         -1 → 2",
            "  roll     Ann   roll       d6 [6] = 6",
            "  leaves   Ann",
            "  cancel   Ann   strike: out of play before it began",
        ]
    );
    assert!(out.contains("final    Orc   ap = 3, hp = 3"), "{out}");
    // A roll under 5: the action resolves.
    let out = ok(&src, &[4], "strike\n");
    assert!(out.contains("spend    Orc   hp         -1 → 2"), "{out}");
    assert!(out.contains("gain     Ann   ap         +1 → 3"), "{out}");
}

#[test]
fn effect_hooks_answer_a_begin_a_count_reaching_zero_and_a_stop() {
    let src = "resource hp min 0\neffect crashed\ncharacter Ann { hp = 3 }\n\
               on start of crashed(c) { spend 1 c.hp }\n\
               on end of crashed(c) { gain 2 c.hp }\n\
               on start of turn(c) { gain 0 c.hp }\n\
               play {\n  begin crashed on Ann for 1 counted at start of turn(Ann)\n  turn Ann { }\n\
                 begin crashed on Ann for 5 counted at end of turn(Ann)\n  stop crashed on Ann\n}\n";
    let out = ok(src, &[], "");
    assert_eq!(
        body(&out),
        vec![
            "effect   Ann   crashed    for 1, counted at start of Ann's turn",
            "spend    Ann   hp         -1 → 2",
            "▸ Ann",
            "  effect   Ann   crashed    ends",
            // The effect's end is answered right after the count-down, before `on start of turn`.
            "  gain     Ann   hp         +2 → 4",
            "  gain     Ann   hp         +0 → 4",
            "effect   Ann   crashed    for 5, counted at end of Ann's turn",
            "spend    Ann   hp         -1 → 3",
            "effect   Ann   crashed    ends",
            "gain     Ann   hp         +2 → 5",
        ]
    );
}

#[test]
fn an_effect_of_no_counts_is_answered_at_its_start_then_its_end() {
    let src = "resource hp min 0\neffect crashed\ncharacter Ann { hp = 3 }\n\
               on start of crashed(c) { spend 1 c.hp }\non end of crashed(c) { gain 2 c.hp }\n\
               play { begin crashed on Ann for 0 counted at end of turn(Ann) }\n";
    let out = ok(src, &[], "");
    assert_eq!(
        body(&out),
        vec![
            "effect   Ann   crashed    for 0, counted at end of Ann's turn",
            "effect   Ann   crashed    ends",
            "spend    Ann   hp         -1 → 2",
            "gain     Ann   hp         +2 → 4",
        ]
    );
}

const READY: &str = "resource hp min 0\nside heroes, foes\ntrigger moves(m)\n\
    character Ann { side heroes, hp = 3 }\ncharacter Orc { side foes, hp = 5 }\ncharacter Gob { side foes, hp = 5 }\n\
    on moves(m) { gain 0 m.hp }\n";

#[test]
fn a_readied_response_fires_once_right_after_the_triggers_hooks_with_its_locals_captured() {
    // Ann readies against the first foe to move, with the damage she picked then (a `let`
    // captured by value: changing it later does not change the response).
    let src = format!(
        "{READY}play {{\n  round repeat until round.number == 2 {{\n    for each c in characters {{\n      turn c {{\n\
         if c == Ann {{\n          let dmg = d4\n          ready c on moves(m) where m.side != c.side until start of turn(c) {{\n\
         react c {{ spend dmg m.hp }}\n          }}\n        }} else {{ raise moves(c) }}\n      }}\n    }}\n  }}\n}}\n"
    );
    let out = ok(&src, &[3, 1], "");
    assert_eq!(
        body(&out),
        vec![
            "round 1",
            "  ▸ Ann",
            "    roll     Ann   roll       d4 [3] = 3",
            "    ready    Ann   on moves until start of Ann's turn",
            "  ▸ Orc",
            "    trigger  Orc   moves(Orc)",
            // The trigger's own hooks first, then the response, disarmed as it fires.
            "    gain     Orc   hp         +0 → 5",
            "    unready  Ann   on moves: fired",
            "    ↳ Ann reacts",
            "      spend    Orc   hp         -3 → 2",
            // One-shot: Gob's move finds nothing armed.
            "  ▸ Gob",
            "    trigger  Gob   moves(Gob)",
            "    gain     Gob   hp         +0 → 5",
            "round 2",
            "  ▸ Ann",
            "    roll     Ann   roll       d4 [1] = 1",
            "    ready    Ann   on moves until start of Ann's turn",
            "  ▸ Orc",
            "    trigger  Orc   moves(Orc)",
            "    gain     Orc   hp         +0 → 2",
            "    unready  Ann   on moves: fired",
            "    ↳ Ann reacts",
            "      spend    Orc   hp         -1 → 1",
            "  ▸ Gob",
            "    trigger  Gob   moves(Gob)",
            "    gain     Gob   hp         +0 → 5",
        ]
    );
}

#[test]
fn a_response_whose_condition_fails_stays_armed_and_expires_at_the_next_edge() {
    // Ann readies against a move by Gob only; Orc moves (not fired), then her next turn starts:
    // the response expires there, after `turn_start`.
    let src = format!(
        "{READY}play {{\n  round repeat until round.number == 2 {{\n    for each c in characters {{\n      turn c {{\n\
         if c == Ann and round.number == 1 {{\n          ready c on moves(m) where m == Gob until start of turn(c) {{ react c {{ }} }}\n\
         }}\n        if c == Orc {{ raise moves(c) }}\n      }}\n    }}\n  }}\n}}\n"
    );
    let out = ok(&src, &[], "");
    assert_eq!(
        body(&out),
        vec![
            "round 1",
            "  ▸ Ann",
            "    ready    Ann   on moves until start of Ann's turn",
            "  ▸ Orc",
            "    trigger  Orc   moves(Orc)",
            "    gain     Orc   hp         +0 → 5",
            "  ▸ Gob",
            "round 2",
            "  ▸ Ann",
            "    unready  Ann   on moves: expired",
            "  ▸ Orc",
            "    trigger  Orc   moves(Orc)",
            "    gain     Orc   hp         +0 → 5",
            "  ▸ Gob",
        ]
    );
}

#[test]
fn a_response_expires_at_the_end_of_a_level_and_a_level_edge_is_the_next_after_arming() {
    let src = format!(
        "{READY}play {{\n  round repeat until round.number == 2 {{\n\
         if round.number == 1 {{ ready Ann on moves(m) until end of round {{ }} }}\n  }}\n}}\n"
    );
    let out = ok(&src, &[], "");
    assert_eq!(
        body(&out),
        vec![
            "round 1",
            "  ready    Ann   on moves until end of round",
            "  unready  Ann   on moves: expired",
            "round 2",
        ]
    );
}

#[test]
fn readying_again_on_the_same_point_replaces_the_armed_response() {
    let src = format!(
        "{READY}play {{\n  ready Ann on moves(m) {{ gain 1 Ann.hp }}\n  ready Ann on moves(m) {{ gain 2 Ann.hp }}\n\
         ready Orc on moves(m) {{ gain 1 Orc.hp }}\n  raise moves(Gob)\n}}\n"
    );
    let out = ok(&src, &[], "");
    assert_eq!(
        body(&out),
        vec![
            "ready    Ann   on moves",
            "unready  Ann   on moves: replaced",
            "ready    Ann   on moves",
            // Another owner's response on the same point is its own.
            "ready    Orc   on moves",
            "trigger  Gob   moves(Gob)",
            "gain     Gob   hp         +0 → 5",
            // In the order they were armed.
            "unready  Ann   on moves: fired",
            "gain     Ann   hp         +2 → 5",
            "unready  Orc   on moves: fired",
            "gain     Orc   hp         +1 → 6",
        ]
    );
}

#[test]
fn an_owner_leaving_play_disarms_its_responses_and_one_out_of_play_arms_none() {
    let src = format!(
        "{READY}on leave(c) {{ gain 0 c.hp }}\n\
         play {{\n  ready Ann on moves(m) {{ gain 1 Ann.hp }}\n  ready Orc on leave(x) where x == Ann {{ gain 1 Orc.hp }}\n\
         leave Ann\n  ready Ann on moves(m) {{ gain 1 Ann.hp }}\n  raise moves(Gob)\n}}\n"
    );
    let out = ok(&src, &[], "");
    assert_eq!(
        body(&out),
        vec![
            "ready    Ann   on moves",
            "ready    Orc   on leave",
            "leaves   Ann",
            // Disarmed as she leaves, before the `on leave` hooks; then the responses on `leave`.
            "unready  Ann   on moves: left play",
            "gain     Ann   hp         +0 → 3",
            "unready  Orc   on leave: fired",
            "gain     Orc   hp         +1 → 6",
            "ready    Ann   on moves",
            "unready  Ann   on moves: out of play",
            "trigger  Gob   moves(Gob)",
            "gain     Gob   hp         +0 → 5",
        ]
    );
}

#[test]
fn a_ready_for_none_is_run_none() {
    let src = format!("{READY}stat foe: character\nplay {{ ready Ann.foe on moves(m) {{ }} }}\n");
    let (_, err, code) = go(&src, &[], "", None, false);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("run::none"), "{err}");
}

#[test]
fn a_response_armed_while_its_point_is_answered_waits_for_the_next() {
    // The response re-arms itself as it fires: the new one does not fire for the same move.
    let src = format!(
        "{READY}routine arm() {{ ready Ann on moves(m) {{ spend 1 m.hp  do arm() }} }}\n\
         play {{\n  do arm()\n  raise moves(Orc)\n  raise moves(Gob)\n}}\n"
    );
    let out = ok(&src, &[], "");
    assert_eq!(
        body(&out),
        vec![
            "ready    Ann   on moves",
            "trigger  Orc   moves(Orc)",
            "gain     Orc   hp         +0 → 5",
            "unready  Ann   on moves: fired",
            "spend    Orc   hp         -1 → 4",
            "ready    Ann   on moves",
            "trigger  Gob   moves(Gob)",
            "gain     Gob   hp         +0 → 5",
            "unready  Ann   on moves: fired",
            "spend    Gob   hp         -1 → 4",
            "ready    Ann   on moves",
        ]
    );
}

#[test]
fn a_response_readied_before_an_action_interrupts_it_and_can_cancel_it() {
    // Ann readies to strike first when a foe attacks; her blow takes the attacker out, so the
    // attack is cancelled: no body, no hooks after it.
    let src = "resource hp min 0\nresource ap min 0\nside heroes, foes\nkind attack\n\
               action claw(c) kind attack costs 1 ap { spend 2 Ann.hp }\n\
               character Ann { side heroes, hp = 3 }\ncharacter Orc { side foes, hp = 1, ap = 2 }\n\
               on after claw(c) { gain 1 c.ap }\n\
               play {\n  ready Ann on before action of kind attack(m) where m.side != Ann.side {\n\
               react Ann { spend 1 m.hp  if m.hp == 0 { leave m } }\n  }\n\
               turn Orc { choose act by Orc { option action } }\n}\n";
    let out = ok(src, &[], "claw\n");
    assert_eq!(
        body(&out),
        vec![
            "ready    Ann   on before action of kind attack",
            "▸ Orc",
            "  choose   Orc   act        claw     of claw",
            "  action   Orc   claw",
            "  spend    Orc   ap         -1 → 1",
            "  unready  Ann   on before action of kind attack: fired",
            "  ↳ Ann reacts",
            "    spend    Orc   hp         -1 → 0",
            "    leaves   Orc",
            "  cancel   Orc   claw: out of play before it began",
        ]
    );
    assert!(out.contains("final    Ann   hp = 3"), "{out}");
}

#[test]
fn the_trigger_is_chosen_in_play_by_a_choose_whose_options_ready_different_responses() {
    let src = "resource hp min 0\ntrigger moves(m)\ntrigger casts(m)\n\
               character Ann { hp = 3 }\ncharacter Orc { hp = 5 }\n\
               play {\n  choose watch by Ann {\n    option movement { ready Ann on moves(m) { spend 1 m.hp } }\n\
               option magic { ready Ann on casts(m) { spend 3 m.hp } }\n  }\n  raise moves(Orc)\n  raise casts(Orc)\n}\n";
    let out = ok(src, &[], "magic\n");
    assert_eq!(
        body(&out),
        vec![
            "choose   Ann   watch      magic    of movement|magic",
            "ready    Ann   on casts",
            "trigger  Orc   moves(Orc)",
            "trigger  Orc   casts(Orc)",
            "unready  Ann   on casts: fired",
            "spend    Orc   hp         -3 → 2",
        ]
    );
}

#[test]
fn ready_events_and_cancelled_in_json_lines_keep_their_keys_in_order() {
    let src = "trigger moves(m)\ncharacter Ann { }\ncharacter Orc { }\n\
               on before turn(c) where c == Orc { leave c }\n\
               play {\n  turn Ann { ready Ann on moves(m) until end of turn(Ann) { } }\n  turn Orc { }\n}\n";
    let (out, err, code) = go(src, &[], "", None, true);
    assert_eq!(code, 0, "{err}");
    let lines: Vec<&str> = out
        .lines()
        .filter(|l| l.contains("\"ready") || l.contains("cancelled"))
        .collect();
    assert_eq!(
        lines,
        vec![
            r#"{"event":"ready","actor":"Ann","trigger":"moves","until":"end of Ann's turn"}"#,
            r#"{"event":"ready_end","actor":"Ann","trigger":"moves","reason":"expired"}"#,
            r#"{"event":"cancelled","actor":"Orc","what":"turn"}"#,
        ]
    );
}

#[test]
fn a_measure_may_be_taken_before_a_turn() {
    let src = "resource ap min 0\ncharacter Ann { ap = 2 }\n\
               measure ap_before = c.ap at before turn(c)\n\
               play { turn Ann { spend 1 Ann.ap } }\n";
    let out = ok(src, &[], "");
    assert_eq!(
        body(&out),
        vec![
            "measure  Ann   ap_before  = 2",
            "▸ Ann",
            "  spend    Ann   ap         -1 → 1"
        ]
    );
}

#[test]
fn more_responses_armed_at_once_than_the_limit_is_run_too_many_armed() {
    let n = turnscript::limits::MAX_ARMED + 1;
    let mut src = String::from("trigger moves(m)\nplay { for each c in characters { ready c on moves(m) { } } }\n");
    for i in 0..n {
        src.push_str(&format!("character C{i} {{ }}\n"));
    }
    let (out, err, code) = go(&src, &[], "", None, false);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("run::too_many_armed"), "{err}");
    assert_eq!(
        out.matches("ready    C").count(),
        n - 1,
        "every one up to the limit was armed"
    );
}

#[test]
fn a_point_whose_argument_is_none_is_never_read_as_someone() {
    // The condition tests for `none` first; the response stays armed for a real mover.
    let cast = READY.replace("on moves(m) { gain 0 m.hp }\n", "");
    let src = format!(
        "{cast}play {{\n  ready Ann on moves(m) where m != none and m.side != Ann.side {{ spend 1 m.hp }}\n\
         raise moves(none)\n  raise moves(Orc)\n}}\n"
    );
    let out = ok(&src, &[], "");
    assert_eq!(
        body(&out),
        vec![
            "ready    Ann   on moves",
            "trigger        moves(none)",
            "trigger  Orc   moves(Orc)",
            "unready  Ann   on moves: fired",
            "spend    Orc   hp         -1 → 4",
        ]
    );
    // Read without the test, `none` is an error where it is read, not someone else's field.
    let src =
        format!("{cast}play {{\n  ready Ann on moves(m) where m.side != Ann.side {{ }}\n  raise moves(none)\n}}\n");
    let (_, err, code) = go(&src, &[], "", None, false);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("run::none"), "{err}");
}

#[test]
fn a_thing_destroyed_before_its_turn_has_its_turn_cancelled() {
    let src = "thing slot, slots { stat n }\nslot S1 { n = 1 }\nslot S2 { n = 2 }\n\
               on before turn(s: slot) where s.n == 2 { destroy s }\n\
               play { for each s in slots { turn s { } } }\n";
    let out = ok(src, &[], "");
    assert_eq!(
        body(&out),
        vec![
            "▸ S1",
            "destroy  S2",
            "cancel   S2    turn: out of play before it began"
        ]
    );
}

#[test]
fn a_response_readied_in_a_secret_option_is_armed_only_at_the_reveal() {
    // Each one picks in secret whether to ready; nothing of the pick, the `ready` included, is
    // shown before the `together` walk reveals it.
    let src = format!(
        "{READY}play {{\n  together for each c in characters where c.side == foes {{\n\
         choose plan by c in secret {{\n      option watch {{ ready c on moves(m) where m == Ann {{ spend 1 Ann.hp }} }}\n\
         option rest\n    }}\n  }}\n  raise moves(Ann)\n}}\n"
    );
    let out = ok(&src, &[], "watch\nrest\n");
    assert_eq!(
        body(&out),
        vec![
            "together Orc, Gob",
            "  secret   Orc   plan       chosen in secret",
            "  secret   Gob   plan       chosen in secret",
            "  choose   Orc   plan       watch    of watch|rest",
            "  ready    Orc   on moves",
            "  choose   Gob   plan       rest     of watch|rest",
            "trigger  Ann   moves(Ann)",
            "gain     Ann   hp         +0 → 3",
            "unready  Orc   on moves: fired",
            "spend    Ann   hp         -1 → 2",
        ]
    );
}

#[test]
fn effects_ending_together_are_answered_in_order_each_hook_whole() {
    // a and b end at the same count-down; a's end hook begins z, whose start hook runs inside
    // a's (it began there), and b's end hook runs after a's is over, not in the middle of it.
    let src = "resource hp min 0\neffect a, b, z\ncharacter Ann { }\n\
               on end of a(c) { begin z on c for 3 counted at end of turn(c)  gain 1 c.hp }\n\
               on end of b(c) { gain 10 c.hp }\non start of z(c) { gain 100 c.hp }\n\
               play {\n  begin a on Ann for 1 counted at start of turn(Ann)\n\
               begin b on Ann for 1 counted at start of turn(Ann)\n  turn Ann { }\n}\n";
    let out = ok(src, &[], "");
    assert_eq!(
        body(&out),
        vec![
            "effect   Ann   a          for 1, counted at start of Ann's turn",
            "effect   Ann   b          for 1, counted at start of Ann's turn",
            "▸ Ann",
            "  effect   Ann   a          ends",
            "  effect   Ann   b          ends",
            "  effect   Ann   z          for 3, counted at end of Ann's turn",
            "  gain     Ann   hp         +100 → 100",
            "  gain     Ann   hp         +1 → 101",
            "  gain     Ann   hp         +10 → 111",
            "  effect   Ann   z          2 left",
        ]
    );
}

#[test]
fn disarm_gives_up_an_owners_responses_on_one_point_or_all() {
    let src = format!(
        "{READY}trigger casts(m)\nplay {{\n  ready Ann on moves(m) {{ }}\n  ready Ann on casts(m) {{ }}\n\
         ready Orc on moves(m) {{ }}\n  disarm Ann on casts\n  disarm Orc on casts\n  raise casts(Gob)\n\
         disarm Ann\n  raise moves(Gob)\n}}\n"
    );
    let out = ok(&src, &[], "");
    assert_eq!(
        body(&out),
        vec![
            "ready    Ann   on moves",
            "ready    Ann   on casts",
            "ready    Orc   on moves",
            "unready  Ann   on casts: disarmed",
            // Orc has nothing on `casts`: nothing to disarm.
            "trigger  Gob   casts(Gob)",
            "unready  Ann   on moves: disarmed",
            "trigger  Gob   moves(Gob)",
            "gain     Gob   hp         +0 → 5",
            "unready  Orc   on moves: fired",
        ]
    );
}

#[test]
fn disarm_on_an_actions_moment_names_the_point_as_ready_did() {
    let src = "kind attack\naction claw(c) kind attack\ncharacter Ann { }\ncharacter Orc { }\n\
               play {\n  ready Ann on before action of kind attack(m) { }\n  ready Ann on after claw(m) { }\n\
               disarm Ann on before action of kind attack\n  disarm Ann on after claw\n}\n";
    let out = ok(src, &[], "");
    assert_eq!(
        body(&out),
        vec![
            "ready    Ann   on before action of kind attack",
            "ready    Ann   on after claw",
            "unready  Ann   on before action of kind attack: disarmed",
            "unready  Ann   on after claw: disarmed",
        ]
    );
}

/// Over many seeds of a fight where everyone readies, acts and is struck down at random: every
/// `ready_end` ends a response armed before it (each once), one fires only for an owner in play,
/// a `cancelled` follows its actor's `leave`, and nothing stays armed for one out of play.
#[test]
fn responses_are_disarmed_once_each_and_never_fire_for_someone_out_of_play() {
    let src = "side wardens, raiders\nresource hp min 0\ntrigger moves(m)\nkind attack\n\
               action advance(c) { raise moves(c) }\n\
               action slash(c) kind attack {\n  choose target by c from t in characters where t.side != c.side {\n\
               spend lowest(2, t.hp) t.hp\n    if t.hp == 0 { leave t }\n  }\n}\n\
               on before turn(c) where c.hp == 1 { if d6 == 1 { leave c } }\n\
               play {\n  round repeat until round.number == 4 {\n    for each c in characters {\n      turn c {\n\
               choose act by c {\n          option action\n\
               option shot { ready c on moves(m) where m.side != c.side and m.hp > 0 until end of round {\n\
               spend 1 m.hp  if m.hp == 0 { leave m } } }\n\
               option block { ready c on before action of kind attack(m) where m.side != c.side and m.hp > 0 {\n\
               spend 1 m.hp  if m.hp == 0 { leave m } } }\n\
               option drop { disarm c }\n        }\n      }\n    }\n  }\n}\n\
               character A { side wardens, hp = 4 }\ncharacter B { side wardens, hp = 3 }\n\
               character C { side raiders, hp = 4 }\ncharacter D { side raiders, hp = 2 }\n";
    let files = vec![("p.turn".to_string(), src.to_string())];
    let mut seen = [0usize; 3];
    for seed in 0..150 {
        let opts = RunOptions {
            seed,
            policy: Some("random".into()),
            ..RunOptions::default()
        };
        let (out, err, code) = run_texts(&files, Vec::new(), &opts, true);
        assert_eq!(code, 0, "seed {seed}: {err}");
        let mut armed: Vec<(String, String)> = Vec::new();
        let mut out_of_play: Vec<String> = Vec::new();
        for line in out.lines() {
            let e: serde_json::Value = serde_json::from_str(line).expect("JSON");
            let who = e["actor"].as_str().unwrap_or("").to_string();
            match e["event"].as_str().unwrap_or("") {
                "leave" => out_of_play.push(who),
                "ready" => armed.push((who, e["trigger"].as_str().unwrap_or("").to_string())),
                "ready_end" => {
                    let key = (who.clone(), e["trigger"].as_str().unwrap_or("").to_string());
                    let reason = e["reason"].as_str().unwrap_or("");
                    let i = armed.iter().position(|a| *a == key);
                    assert!(i.is_some(), "seed {seed}: {line} ends nothing armed");
                    if let Some(i) = i {
                        armed.remove(i);
                    }
                    if reason == "fired" {
                        seen[0] += 1;
                        assert!(!out_of_play.contains(&who), "seed {seed}: {line} for one out of play");
                    }
                }
                "cancelled" => {
                    seen[1] += 1;
                    assert!(out_of_play.contains(&who), "seed {seed}: {line} with no leave");
                }
                _ => {}
            }
        }
        seen[2] += armed.len();
        for (who, _) in &armed {
            assert!(
                !out_of_play.contains(who),
                "seed {seed}: {who} left play with a response armed"
            );
        }
    }
    // The seeds reach every case: responses fired, turns or actions cancelled, some still armed.
    assert!(seen.iter().all(|n| *n > 0), "{seen:?}");
}

#[test]
fn a_roll_in_a_response_is_its_owners() {
    let src =
        format!("{READY}play {{\n  ready Ann on moves(m) {{ if d6 > 3 {{ spend 1 m.hp }} }}\n  raise moves(Orc)\n}}\n");
    let out = ok(&src, &[5], "");
    assert_eq!(
        body(&out),
        vec![
            "ready    Ann   on moves",
            "trigger  Orc   moves(Orc)",
            "gain     Orc   hp         +0 → 5",
            "unready  Ann   on moves: fired",
            "roll     Ann   roll       d6 [5] = 5",
            "spend    Orc   hp         -1 → 4",
        ]
    );
}

#[test]
fn a_held_character_steps_in_before_a_turn_with_a_turn_of_its_own_not_nested() {
    // Paz holds on her turn; before Grell's turn she steps in (scripted `now`), her turn traced
    // between Paz's and Grell's, not inside either; she then takes Grell's place for next round.
    let src = "flag holding\norder o(c) { c.n desc }\nstat n\n\
               character Paz { n = 2 }\ncharacter Grell { n = 1 }\n\
               on before turn(c) {\n  for each h in o where h.holding and h != c {\n\
               choose step_in by h {\n      option now { clear h.holding  turn h { }  place h before c in o }\n      option wait\n    }\n  }\n}\n\
               setup { rank o }\n\
               play {\n  for each c in o {\n    turn c { if c == Paz { mark c.holding } }\n  }\n}\n";
    let out = ok(src, &[], "now\n");
    assert_eq!(
        body(&out),
        vec![
            "order           Paz, Grell",
            "▸ Paz",
            "  mark     Paz    holding",
            "choose   Paz    step_in    now      of now|wait",
            "clear    Paz    holding",
            "▸ Paz",
            "order           Paz, Grell",
            "▸ Grell",
        ]
    );
}

#[test]
fn a_change_the_end_hook_of_an_effect_ending_with_a_level_defers_to_that_level_end_is_made_there() {
    let src = "effect dazed
resource hp min 0
on end of dazed(c) { spend 1 c.hp at end of round }
play {
  round repeat {
    if round.number == 1 { begin dazed on (first c in characters) for 1 counted at end of round }
    for each c in characters { turn c { } }
  }
}
character Ana { hp = 5 }
";
    let files = vec![("t.turn".to_string(), src.to_string())];
    let opts = turnscript::project::RunOptions {
        until: Some("round=1".to_string()),
        ..turnscript::project::RunOptions::default()
    };
    let (out, err, code) = common::run_texts(&files, Vec::new(), &opts, false);
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        out.split_once('\n').map_or("", |x| x.1),
        "round 1
  effect   Ana   dazed      for 1, counted at end of round
  ▸ Ana
  effect   Ana   dazed      ends
  spend    Ana   hp         -1 → 4
end of encounter: until round=1
final    Ana   dazed = 0, hp = 4
"
    );
}

/// "Until the end of its turn", readied as that turn ends (in `on end of turn(c)`): the edge
/// being answered has not passed for a response armed while answering it, so it lasts to the
/// next end of that turn, as an effect begun there does (the edge is the next after arming).
#[test]
fn a_response_readied_until_the_end_of_a_turn_in_that_turns_end_hook_lasts_to_the_next_end() {
    let src = format!(
        "{READY}on end of turn(c) where c == Ann and round.number == 1 {{\n  ready c on moves(m) until end of turn(c) {{ }}\n}}\n\
         play {{\n  round repeat until round.number == 2 {{\n    turn Ann {{ }}\n  }}\n}}\n"
    );
    let out = ok(&src, &[], "");
    assert_eq!(
        body(&out),
        vec![
            "round 1",
            "  ▸ Ann",
            "    ready    Ann   on moves until end of Ann's turn",
            "round 2",
            "  ▸ Ann",
            "    unready  Ann   on moves: expired",
        ]
    );
}
