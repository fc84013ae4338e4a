//! One scenario per Capes rule (CAP-1 … CAP-17), run through `rulesets/capes.turn` with forced
//! rolls and scripted answers; after the answers, a quiet policy (every purchase declined, every
//! Action passed) plays on. Assertions read the trace: turns, who is Starter, the Conflicts made
//! and destroyed, and every token count.

mod common;
use common::*;
use serde_json::Value;

/// A table of four players (Ann holds `ann_tokens` Story Tokens, the others none), five
/// characters, their abilities and drives, and an Inspiration `extra` may add.
fn table(ann_tokens: i64, extra: &str) -> String {
    format!(
        r#"
encounter "test table"
player Dev  {{ seat = 4 }}
player Ann  {{ seat = 1, tokens = {ann_tokens} }}
player Cleo {{ seat = 3 }}
player Ben  {{ seat = 2 }}
character Bolt   {{ debt = 3 }}
character Shade  {{ debt = 2 }}
character Mayor  {{ debt = 0 }}
character Warden {{ debt = 0 }}
character Nova   {{ debt = 0 }}
ability Zap   {{ owner = Bolt, score = 5, super = true }}
ability Speed {{ owner = Bolt, score = 3 }}
ability Dark  {{ owner = Shade, score = 6 }}
drive Justice {{ owner = Bolt, strength = 2 }}
drive Honor   {{ owner = Bolt, strength = 1 }}
drive Revenge {{ owner = Shade, strength = 3 }}
{extra}
policy quiet {{
  free_conflicts: done
  more_characters: done
  more_actions: done
  extra: done
  act: pass_action
  keep: accept
  reactor: no_reaction
  conflict_kind: event
}}
"#
    )
}

/// Ann casts Bolt, Ben Shade, Cleo Mayor, Dev Warden; nobody buys a second character.
const CASTING: &str = "Bolt done Shade done Mayor done Warden done";
/// Page 1's Free Conflicts: Ann adds an Event, nobody else adds or Claims.
const ONE_EVENT: &str = "add_conflict event done done done done";
/// Bolt's Action passed, nothing before or after; no further Action bought.
const ANN_PASSES: &str = "done pass_action done done";

fn capes(cast: &str, answers: &[&str], rolls: &[i64], until: &str) -> Run {
    // Answers are separated by spaces; `~` stands for a space inside one (`faction~1`).
    let answers: Vec<String> = answers
        .iter()
        .flat_map(|a| a.split_whitespace())
        .map(|a| a.replace('~', " "))
        .collect();
    run(Case {
        ruleset: CAPES,
        encounter: cast,
        answers: &answers.join("\n"),
        rolls,
        until: Some(until),
        policy: Some("quiet"),
        ..Case::default()
    })
}

/// The `turn_start` actors inside each run of phase `phase`, in order.
fn turns_in(r: &Run, phase: &str) -> Vec<Vec<String>> {
    let mut out = Vec::new();
    let mut inside = false;
    for e in &r.events {
        match s(&e["event"]).as_str() {
            "phase_start" if e["phase"] == phase => {
                inside = true;
                out.push(Vec::new());
            }
            "phase_end" if e["phase"] == phase => inside = false,
            "turn_start" if inside => out.last_mut().unwrap().push(s(&e["actor"])),
            _ => {}
        }
    }
    out
}

/// Every value a global was set to, in order.
fn global_sets(r: &Run, global: &str) -> Vec<String> {
    r.of("set")
        .iter()
        .filter(|e| e["stat"] == global && e.get("actor").is_none())
        .map(|e| s(&e["left"]))
        .collect()
}

/// The options offered at each asking of a decision.
fn offered(r: &Run, decision: &str) -> Vec<Vec<String>> {
    r.of("decision")
        .iter()
        .filter(|e| e["decision"] == decision)
        .map(|e| names(&e["options"]))
        .collect()
}

fn made(r: &Run, thing: &str) -> Vec<String> {
    r.of("create").iter().filter(|e| e["thing"] == thing).map(|e| s(&e["name"])).collect()
}

fn destroyed(r: &Run) -> Vec<String> {
    r.of("destroy").iter().map(|e| s(&e["name"])).collect()
}

fn tokens(r: &Run, who: &str) -> i64 {
    r.left(who, "tokens")
}

fn field<'a>(e: &'a Value, f: &str) -> &'a Value {
    &e["fields"][f]
}

#[test]
fn cap_1_players_sit_in_seat_order_whatever_order_they_are_declared_in() {
    // Declared Dev, Ann, Cleo, Ben; seated 1 to 4 as Ann, Ben, Cleo, Dev.
    let r = capes(&table(0, ""), &[], &[], "scene=1").ok();
    assert_eq!(r.orders(), vec![v(&["Ann", "Ben", "Cleo", "Dev"])]);
    assert_eq!(turns_in(&r, "casting"), vec![v(&["Ann", "Ben", "Cleo", "Dev"])]);
}

#[test]
fn cap_2_each_scene_is_declared_by_the_next_player_left_who_casts_first() {
    // Ann buys Shade as a second character with her one Story Token; Ben then has three to pick from.
    let r = capes(&table(1, ""), &["Bolt buy_character Shade done Mayor done Warden done Nova"], &[], "scene=2").ok();
    assert_eq!(global_sets(&r, "declarer"), v(&["Ann", "Ben"]));
    assert_eq!(
        turns_in(&r, "casting"),
        vec![v(&["Ann", "Ben", "Cleo", "Dev"]), v(&["Ben", "Cleo", "Dev", "Ann"])]
    );
    let cast: Vec<String> = offered(&r, "cast").into_iter().take(4).map(|o| o.join("|")).collect();
    assert_eq!(cast, v(&["Bolt|Shade|Mayor|Warden|Nova", "Mayor|Warden|Nova", "Warden|Nova", "Nova"]));
    assert_eq!(r.lines(&["spend"]), v(&["spend Ann tokens 1 0"]));
    assert_eq!(tokens(&r, "Ann"), 0);
    // A second character costs a Story Token: Ben has none, so buying one is refused.
    let r = capes(&table(0, ""), &["Bolt done Shade buy_character"], &[], "scene=1");
    assert_eq!(r.code, 1);
    assert!(r.stderr.contains("Ben has no Story Token to buy another character"), "{}", r.stderr);
}

#[test]
fn cap_3_the_scene_declarer_starts_and_the_starter_passes_left_each_page() {
    // Ann's Event is never Claimed, so it stays on the table and the Scene goes on for three Pages.
    let r = capes(&table(0, ""), &[CASTING, ONE_EVENT], &[], "page=3").ok();
    assert_eq!(global_sets(&r, "starter"), v(&["Ann", "Ben", "Cleo", "Dev"]));
    assert_eq!(
        turns_in(&r, "free_conflicts"),
        vec![
            v(&["Ann", "Ben", "Cleo", "Dev"]),
            v(&["Ben", "Cleo", "Dev", "Ann"]),
            v(&["Cleo", "Dev", "Ann", "Ben"])
        ]
    );
    assert_eq!(turns_in(&r, "actions")[2], v(&["Cleo", "Dev", "Ann", "Ben"]));
}

#[test]
fn cap_4_one_free_conflict_and_claim_each_then_a_story_token_apiece() {
    // Ann adds an Event free, a Goal for her token, and Claims free; Ben adds one free, then
    // asks for a second with no token.
    let r = capes(
        &table(1, ""),
        &[CASTING, "add_conflict event add_conflict goal claim faction~1 done add_conflict event add_conflict"],
        &[],
        "page=1",
    );
    assert_eq!(r.code, 1);
    assert!(
        r.stderr.contains("run::refused") && r.stderr.contains("Ben has added a free Conflict this Page"),
        "{}",
        r.stderr
    );
    assert_eq!(made(&r, "conflict"), v(&["conflict 1", "conflict 2", "conflict 3"]));
    assert_eq!(r.lines(&["spend"]), v(&["spend Ann tokens 1 0"]));
    let claims: Vec<String> = r.lines(&["set"]).into_iter().filter(|l| l.contains("claimant")).collect();
    assert_eq!(claims, v(&["set faction 1 claimant \"Ann\""]));
    // The Claim was free: still only one token spent. A second Claim would cost one.
    let claims = offered(&r, "free_conflicts");
    assert_eq!(claims[2], v(&["claim", "done"]), "no token left: another add is refused, not offered");
}

#[test]
fn cap_5_free_narration_is_a_phase_without_rules_between_claims_and_actions() {
    let r = capes(&table(0, ""), &[], &[], "page=1").ok();
    let phases: Vec<String> = r.of("phase_start").iter().map(|e| s(&e["phase"])).collect();
    assert_eq!(
        phases,
        v(&["casting", "free_conflicts", "free_narration", "actions", "resolving", "end_of_page"])
    );
    let lines = r.lines(&["phase_start", "phase_end", "decision", "turn_start", "set", "create"]);
    let at = lines.iter().position(|l| l == "phase_start free_narration").unwrap();
    assert_eq!(lines[at + 1], "phase_end free_narration", "nothing happens in free narration");
    assert_eq!(lines[at + 2], "phase_start actions");
    assert_eq!(lines[at + 3], "turn_start Ann", "the Starter ends it by taking Actions");
}

#[test]
fn cap_6_an_action_per_character_then_more_for_a_story_token_each() {
    // Ann buys a second Action for Bolt with her token, then asks for a third with none left.
    let r = capes(
        &table(1, ""),
        &[CASTING, "done done done done", "done pass_action done buy_action Bolt done pass_action done buy_action"],
        &[],
        "page=1",
    );
    assert_eq!(r.code, 1);
    assert!(r.stderr.contains("Ann has no Story Token to buy another Action"), "{}", r.stderr);
    assert_eq!(offered(&r, "act").len(), 2, "Bolt's free Action and the bought one");
    assert_eq!(r.lines(&["spend"]), v(&["spend Ann tokens 1 0"]));
    // The refused purchase is never recorded as a decision: only the one bought is.
    assert_eq!(offered(&r, "more_actions"), vec![v(&["buy_action", "done"])]);
    // Each player gets one Action per character played, clockwise from the Starter.
    let r = capes(&table(0, ""), &[CASTING], &[], "page=1").ok();
    let acting: Vec<String> = r
        .of("decision")
        .iter()
        .filter(|e| e["decision"] == "act")
        .map(|e| s(&e["chooser"]))
        .collect();
    assert_eq!(acting, v(&["Ann", "Ben", "Cleo", "Dev"]));
}

#[test]
fn cap_7_a_conflict_is_an_event_or_a_goal_with_two_sides_of_one_die_at_1() {
    let r = capes(&table(0, ""), &[CASTING, "add_conflict goal done done done done"], &[], "page=1").ok();
    let creates = r.of("create");
    let summary: Vec<String> = creates.iter().map(|e| compact(e)).collect();
    assert_eq!(
        summary,
        v(&["create conflict 1", "create faction 1", "create faction 2", "create die 1", "create die 2"])
    );
    assert_eq!(field(creates[0], "goal"), 0, "created an Event, then made a Goal");
    assert!(r.lines(&["decision"]).contains(&"decision Ann conflict_kind goal".to_string()));
    assert_eq!(field(creates[2], "rival"), "faction 1");
    assert!(
        r.lines(&["set"]).contains(&"set faction 1 rival \"faction 2\"".to_string()),
        "the sides are each other's rivals"
    );
    for (die, side) in [(creates[3], "faction 1"), (creates[4], "faction 2")] {
        assert_eq!(field(die, "faction"), side);
        assert_eq!(field(die, "value"), 1);
    }
    // Tied at 1 and 1, neither side controls: the Conflict stays on the table.
    assert!(destroyed(&r).is_empty());
}
