//! One scenario per Capes rule (CAP-1 … CAP-17), run through `rulesets/capes.turn` with forced
//! rolls and scripted answers; after the answers, a quiet policy (every purchase declined, every
//! Action passed) plays on. Assertions read the trace: turns, who is Starter, the Conflicts made
//! and destroyed, and every token count. After the rules: how many Scenes the table plays, and the
//! bundled `table` policy, which must play the example to its end.

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
ability Dark  {{ owner = Shade, score = 6, super = true }}
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

fn capes(cast: &str, answers: &[&str], rolls: &[i64], until: &str) -> Run {
    capes_as("quiet", cast, answers, rolls, Some(until))
}

/// As `capes`, with another policy playing on after the answers, and `--until` optional.
fn capes_as(policy: &str, cast: &str, answers: &[&str], rolls: &[i64], until: Option<&str>) -> Run {
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
        until,
        policy: Some(policy),
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

/// `level_start scene 1`, `level_end page 2`, ...
fn levels(r: &Run) -> Vec<String> {
    r.events
        .iter()
        .filter(|e| e["event"] == "level_start" || e["event"] == "level_end")
        .map(|e| format!("{} {} {}", s(&e["event"]), s(&e["level"]), e["n"]))
        .collect()
}

fn made(r: &Run, thing: &str) -> Vec<String> {
    r.of("create")
        .iter()
        .filter(|e| e["thing"] == thing)
        .map(|e| s(&e["name"]))
        .collect()
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
    let r = capes(
        &table(1, ""),
        &["Bolt buy_character Shade done Mayor done Warden done Nova"],
        &[],
        "scene=2",
    )
    .ok();
    assert_eq!(global_sets(&r, "declarer"), v(&["Ann", "Ben"]));
    assert_eq!(
        turns_in(&r, "casting"),
        vec![v(&["Ann", "Ben", "Cleo", "Dev"]), v(&["Ben", "Cleo", "Dev", "Ann"])]
    );
    let cast: Vec<String> = offered(&r, "cast").into_iter().take(4).map(|o| o.join("|")).collect();
    assert_eq!(
        cast,
        v(&[
            "Bolt|Shade|Mayor|Warden|Nova",
            "Mayor|Warden|Nova",
            "Warden|Nova",
            "Nova"
        ])
    );
    assert_eq!(r.lines(&["spend"]), v(&["spend Ann tokens 1 0"]));
    assert_eq!(tokens(&r, "Ann"), 0);
    // A second character costs a Story Token: Ben has none, so buying one is refused, and he is
    // asked again (the next answer: done).
    let r = capes(&table(0, ""), &["Bolt done Shade buy_character done"], &[], "scene=1").ok();
    assert_eq!(
        r.lines(&["refused"]),
        v(&["refused Ben more_characters buy_character: Ben has no Story Token to buy another character"])
    );
    let ben: Vec<String> = r
        .lines(&["decision"])
        .into_iter()
        .filter(|l| l.starts_with("decision Ben more_characters"))
        .collect();
    assert_eq!(ben, v(&["decision Ben more_characters done"]));
    assert!(r.lines(&["spend"]).is_empty(), "nothing was bought");
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
        &[
            CASTING,
            "add_conflict event add_conflict goal claim faction~1 done add_conflict event add_conflict done",
        ],
        &[],
        "page=1",
    )
    .ok();
    // Ben's second add is refused with the rule's reason, and he is asked again: done.
    assert_eq!(
        r.lines(&["refused"]),
        v(&[
            "refused Ben free_conflicts add_conflict: Ben has added a free Conflict this Page and has no Story Token to buy another"
        ])
    );
    assert_eq!(made(&r, "conflict"), v(&["conflict 1", "conflict 2", "conflict 3"]));
    assert_eq!(r.lines(&["spend"]), v(&["spend Ann tokens 1 0"]));
    // (Claims are cleared as the Page ends: only the ones made count here.)
    let claims: Vec<String> = r
        .lines(&["set"])
        .into_iter()
        .filter(|l| l.contains("claimant") && !l.ends_with("null"))
        .collect();
    assert_eq!(claims, v(&["set faction 1 claimant \"Ann\""]));
    // The Claim was free: still only one token spent. A second Claim would cost one.
    let claims = offered(&r, "free_conflicts");
    assert_eq!(
        claims[2],
        v(&["claim", "done"]),
        "no token left: another add is refused, not offered"
    );
}

#[test]
fn cap_5_free_narration_is_a_phase_without_rules_between_claims_and_actions() {
    let r = capes(&table(0, ""), &[], &[], "page=1").ok();
    let phases: Vec<String> = r.of("phase_start").iter().map(|e| s(&e["phase"])).collect();
    assert_eq!(
        phases,
        v(&[
            "casting",
            "free_conflicts",
            "free_narration",
            "actions",
            "resolving",
            "end_of_page"
        ])
    );
    let lines = r.lines(&["phase_start", "phase_end", "decision", "turn_start", "set", "create"]);
    let at = lines.iter().position(|l| l == "phase_start free_narration").unwrap();
    assert_eq!(
        lines[at + 1],
        "phase_end free_narration",
        "nothing happens in free narration"
    );
    assert_eq!(lines[at + 2], "phase_start actions");
    assert_eq!(lines[at + 3], "turn_start Ann", "the Starter ends it by taking Actions");
}

#[test]
fn cap_6_an_action_per_character_then_more_for_a_story_token_each() {
    // Ann buys a second Action for Bolt with her token, then asks for a third with none left.
    let r = capes(
        &table(1, ""),
        &[
            CASTING,
            "done done done done",
            "done pass_action done buy_action Bolt done pass_action done buy_action done",
        ],
        &[],
        "page=1",
    )
    .ok();
    assert_eq!(
        r.lines(&["refused"]),
        v(&["refused Ann more_actions buy_action: Ann has no Story Token to buy another Action"])
    );
    let ann_acts = r
        .lines(&["decision"])
        .into_iter()
        .filter(|l| l.starts_with("decision Ann act "))
        .count();
    assert_eq!(ann_acts, 2, "Bolt's free Action and the bought one");
    assert_eq!(r.lines(&["spend"]), v(&["spend Ann tokens 1 0"]));
    // The refused purchase is never recorded as a decision: only the one bought is.
    // Ann's second ask offers only `done` (no token: buying is refused, not offered); her
    // attempt is the refused event above, and the decision asked again is `done`.
    assert_eq!(
        offered(&r, "more_actions")[..2],
        [v(&["buy_action", "done"]), v(&["done"])]
    );
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
    let r = capes(
        &table(0, ""),
        &[CASTING, "add_conflict goal done done done done"],
        &[],
        "page=1",
    )
    .ok();
    let creates = r.of("create");
    let summary: Vec<String> = creates.iter().map(|e| compact(e)).collect();
    assert_eq!(
        summary,
        v(&[
            "create conflict 1",
            "create faction 1",
            "create faction 2",
            "create die 1",
            "create die 2"
        ])
    );
    assert_eq!(field(creates[0], "goal"), 0, "created an Event, then made a Goal");
    assert!(
        r.lines(&["decision"])
            .contains(&"decision Ann conflict_kind goal".to_string())
    );
    assert_eq!(field(creates[2], "rival"), "faction 1");
    assert!(
        r.lines(&["set"])
            .contains(&"set faction 1 rival \"faction 2\"".to_string()),
        "the sides are each other's rivals"
    );
    for (die, side) in [(creates[3], "faction 1"), (creates[4], "faction 2")] {
        assert_eq!(field(die, "faction"), side);
        assert_eq!(field(die, "value"), 1);
    }
    // Tied at 1 and 1, neither side controls: the Conflict stays on the table.
    assert!(destroyed(&r).is_empty());
}

/// Ann's turn in Actions up to the roll of a die: Bolt uses `ability` on `die`, the roll is
/// accepted, and nobody Reacts.
fn ann_rolls(ability: &str, die: &str) -> String {
    format!("done use_ability {ability} roll_die {die} accept no_reaction")
}

#[test]
fn cap_8_a_super_ability_earns_debt_and_the_others_work_once_per_scene() {
    // Zap (super) earns Bolt a Debt; Speed is marked used, and is not offered to the third Action.
    let r = capes(
        &table(2, ""),
        &[
            CASTING,
            ONE_EVENT,
            &ann_rolls("Zap", "die~1"),
            "done buy_action Bolt",
            &ann_rolls("Speed", "die~2"),
            "done buy_action Bolt done use_ability",
        ],
        &[4, 2],
        "page=1",
    )
    .ok();
    assert_eq!(r.lines(&["gain"])[0], "gain Bolt debt 1 4");
    assert_eq!(
        offered(&r, "ability")[..3],
        [v(&["Zap", "Speed"]), v(&["Zap", "Speed"]), v(&["Zap"])]
    );
    // Once per Scene: the flag is cleared as the next Scene starts.
    let r = capes(
        &table(2, ""),
        &[
            CASTING,
            ONE_EVENT,
            "done pass_action done buy_action Bolt",
            &ann_rolls("Speed", "die~1"),
        ],
        &[2],
        "page=1",
    )
    .ok();
    assert!(r.lines(&["gain"]).is_empty(), "Speed is no super-ability: no Debt");
}

#[test]
fn cap_9_the_score_must_reach_the_die_and_a_roll_may_be_turned_back() {
    // Zap rolls die 1 to 4 and keeps it; Speed (score 3) then only reaches die 2, rolls a 6, and
    // Ann turns it back to 1.
    let r = capes(
        &table(1, ""),
        &[
            CASTING,
            ONE_EVENT,
            &ann_rolls("Zap", "die~1"),
            "done buy_action Bolt done use_ability Speed roll_die die~2 revert",
        ],
        &[4, 6],
        "page=1",
    )
    .ok();
    assert_eq!(offered(&r, "die_to_roll"), vec![v(&["die 1", "die 2"]), v(&["die 2"])]);
    let values: Vec<String> = r
        .lines(&["set"])
        .into_iter()
        .filter(|l| l.contains(" value "))
        .collect();
    assert_eq!(
        values,
        v(&["set die 1 value 4", "set die 2 value 6", "set die 2 value 1"])
    );
    assert_eq!(r.of("trigger").len(), 1, "only the accepted roll invites Reactions");
}

#[test]
fn cap_10_any_player_may_react_to_an_accepted_roll_but_only_once_per_action() {
    // Ann rolls die 1 to 4 and accepts; Ben Reacts with Shade's Dark (score 6), rolls a 2 and
    // accepts; then the table names Ben again.
    let r = capes(
        &table(0, ""),
        &[
            CASTING,
            ONE_EVENT,
            "done use_ability Zap roll_die die~1 accept Ben Dark accept Ben",
        ],
        &[4, 2],
        "page=1",
    )
    .ok();
    // Naming Ben again is refused with the rule's reason; the table is asked again and answers
    // by its policy (no answer is left).
    assert_eq!(
        r.lines(&["refused"]),
        v(&["refused everyone reactor Ben: Ben has already Reacted during this Action"])
    );
    assert_eq!(offered(&r, "reactor")[0], v(&["Ann", "Ben", "no_reaction"]));
    assert_eq!(r.lines(&["reaction_start"]), v(&["reaction_start Shade"]));
    let values: Vec<String> = r
        .lines(&["set"])
        .into_iter()
        .filter(|l| l.contains(" value "))
        .collect();
    assert_eq!(values, v(&["set die 1 value 4", "set die 1 value 2"]));
    assert_eq!(
        r.lines(&["trigger"]),
        v(&["trigger accepted(die 1)", "trigger accepted(die 1)"])
    );
}

#[test]
fn cap_11_one_drive_per_conflict_and_no_more_debt_than_its_strength() {
    // Bolt Stakes twice on side 1 with Justice (strength 2); then there is nothing more to Stake.
    let r = capes(
        &table(0, ""),
        &[CASTING, ONE_EVENT, "stake faction~1 Justice stake faction~1 done"],
        &[],
        "page=1",
    )
    .ok();
    assert_eq!(
        offered(&r, "drive_for"),
        vec![v(&["Justice", "Honor"])],
        "a Drive is picked once"
    );
    assert_eq!(
        offered(&r, "stake_on"),
        vec![v(&["faction 1", "faction 2"]), v(&["faction 1"])],
        "one side per Conflict once Staked"
    );
    assert_eq!(offered(&r, "extra")[2], v(&["done"]), "Justice's strength reached");
    assert_eq!(
        r.lines(&["transfer"]),
        v(&[
            "transfer Bolt debt 1 2 -> stake 1 debt 1",
            "transfer Bolt debt 1 1 -> stake 1 debt 2"
        ])
    );
}

#[test]
fn cap_12_a_die_splits_evenly_into_dice_up_to_the_sides_stakes() {
    // Ben Claims side 1; Bolt Stakes on it and rolls its die to 5; Shade Stakes on it too, and Ben
    // splits the 5 into 3 and 2. With two Stakes, the side may hold no third die.
    let r = capes(
        &table(0, ""),
        &[
            CASTING,
            "add_conflict event done claim faction~1 done done done",
            "stake faction~1 Justice done use_ability Zap roll_die die~1 accept no_reaction done done",
            "stake faction~1 Revenge split die~1",
        ],
        &[5],
        "page=1",
    )
    .ok();
    let split = r
        .of("create")
        .into_iter()
        .find(|e| e["name"] == "die 3")
        .expect("a new die");
    assert_eq!(field(split, "faction"), "faction 1");
    assert_eq!(field(split, "value"), 2);
    assert!(r.lines(&["set"]).contains(&"set die 1 value 3".to_string()));
    let after = offered(&r, "extra");
    assert!(
        !after[after.len() - 1].contains(&"split".to_string()),
        "two Stakes, two dice"
    );
}

#[test]
fn cap_13_an_inspiration_is_spent_to_raise_a_die_to_its_value() {
    let r = capes(
        &table(0, "inspiration Spark { holder = Ann, value = 4 }"),
        &[CASTING, ONE_EVENT, "inspire Spark die~2 done"],
        &[],
        "page=1",
    )
    .ok();
    assert_eq!(offered(&r, "raise_die"), vec![v(&["die 1", "die 2"])]);
    assert!(r.lines(&["set"]).contains(&"set die 2 value 4".to_string()));
    assert_eq!(destroyed(&r), v(&["Spark"]));
}

#[test]
fn cap_14_resolving_returns_double_debt_gives_stakes_and_pairs_dice_for_inspiration() {
    // Ann Claims side 1 and Ben side 2. Bolt Stakes 2 on side 1 and rolls its die to 5; Shade
    // Stakes 1 on side 2. Side 1 controls 5 to 1: Ann Resolves.
    let r = capes(
        &table(0, ""),
        &[
            CASTING,
            "add_conflict event claim faction~1 done claim faction~2 done done done",
            "stake faction~1 Justice stake faction~1 done use_ability Zap roll_die die~1 accept no_reaction done done",
            "stake faction~2 Revenge done",
        ],
        &[5],
        "page=1",
    )
    .ok();
    let resolving = r.after("phase_start", "phase", "resolving");
    assert_eq!(
        resolving
            .lines(&["gain", "transfer", "decision", "create", "destroy"])
            .into_iter()
            .take_while(|l| !l.starts_with("phase"))
            .collect::<Vec<_>>(),
        v(&[
            // Losers get back double the Debt they Staked.
            "gain Shade debt 2 3",
            // Winners give their Stakes as Story Tokens to the losing characters' players.
            "decision Ann give_stake_to Shade",
            "transfer stake 1 debt 2 0 -> Ben tokens 2",
            "destroy stake 1",
            "destroy stake 2",
            // Dice paired 5 with 1: an Inspiration of 4 for the claimant.
            "create inspiration 1",
            "destroy die 1",
            "destroy die 2",
            "destroy faction 2",
            "destroy faction 1",
            "destroy conflict 1",
        ])
    );
    let inspiration = r
        .of("create")
        .into_iter()
        .find(|e| e["name"] == "inspiration 1")
        .unwrap();
    assert_eq!(field(inspiration, "holder"), "Ann");
    assert_eq!(field(inspiration, "value"), 4);
    assert_eq!(tokens(&r, "Ben"), 2);
    assert_eq!(r.left("Shade", "debt"), 3);
}

#[test]
fn cap_15_an_unclaimed_controlling_side_or_a_tie_cannot_be_resolved() {
    // Conflict 1 is tied 1 to 1 with side 1 Claimed; in conflict 2 Ann Claims side 4 but rolls
    // side 3's die to 5, so the controlling side is unclaimed. Neither is Resolved.
    let r = capes(
        &table(2, ""),
        &[
            CASTING,
            "add_conflict event add_conflict event claim faction~1 claim faction~4 done done done done",
            "done use_ability Zap roll_die die~3 accept no_reaction done done",
        ],
        &[5],
        "page=1",
    )
    .ok();
    assert_eq!(
        r.lines(&["spend"]),
        v(&["spend Ann tokens 1 1", "spend Ann tokens 1 0"])
    );
    assert!(destroyed(&r).is_empty(), "both Conflicts stay on the table");
    let resolving = r.after("phase_start", "phase", "resolving");
    assert!(resolving.of("gain").is_empty() && resolving.of("create").is_empty());
}

#[test]
fn cap_16_at_the_end_of_a_page_claims_are_removed_and_the_starter_passes_left() {
    let r = capes(
        &table(0, ""),
        &[CASTING, "add_conflict event claim faction~1 done"],
        &[],
        "page=2",
    )
    .ok();
    let end = r.after("phase_start", "phase", "end_of_page");
    assert_eq!(
        end.lines(&["set", "phase_end"]).into_iter().take(3).collect::<Vec<_>>(),
        v(&[
            "set faction 1 claimant null",
            "set faction 2 claimant null",
            "set starter \"Ben\""
        ])
    );
    assert_eq!(global_sets(&r, "starter"), v(&["Ann", "Ben", "Cleo"]));
}

#[test]
fn cap_17_a_page_ending_with_no_conflicts_ends_the_scene() {
    // Scene 1: nobody adds a Conflict, so its first Page ends it. Scene 2: Ben's Event stays on the
    // table, and the Scene goes on to a second Page.
    let r = capes(&table(0, ""), &[], &[], "scene=2").ok();
    assert_eq!(
        levels(&r),
        v(&[
            "level_start scene 1",
            "level_start page 1",
            "level_end page 1",
            "level_end scene 1",
            "level_start scene 2",
            "level_start page 1",
            "level_end page 1",
            "level_end scene 2"
        ])
    );
    let r = capes(&table(0, ""), &[CASTING, ONE_EVENT], &[], "page=2").ok();
    let pages: Vec<String> = levels(&r)
        .into_iter()
        .filter(|l| l.starts_with("level_start"))
        .collect();
    assert_eq!(
        pages,
        v(&["level_start scene 1", "level_start page 1", "level_start page 2"])
    );
}

// ---------------------------------------------------------------- beyond the rules text

/// Decisions of one kind, as `chooser pick`.
fn picks(r: &Run, decision: &str) -> Vec<String> {
    r.of("decision")
        .iter()
        .filter(|e| e["decision"] == decision)
        .map(|e| format!("{} {}", s(&e["chooser"]), s(&e["picked"])))
        .collect()
}

#[test]
fn the_table_stops_after_the_scenes_it_agreed_on() {
    // Not a rule: the text has no end of play, so the ruleset's `scenes` param (here set to 2 by
    // the encounter) says how many Scenes are played. With no Conflict, each Scene is one Page.
    let r = capes_as("quiet", &table(0, "param scenes = 2"), &[], &[], None).ok();
    assert_eq!(
        levels(&r)
            .into_iter()
            .filter(|l| l.contains("scene"))
            .collect::<Vec<_>>(),
        v(&[
            "level_start scene 1",
            "level_end scene 1",
            "level_start scene 2",
            "level_end scene 2"
        ])
    );
    assert_eq!(
        r.lines(&["encounter_end"]),
        v(&["encounter_end the table has played the Scenes it agreed on"])
    );
}

#[test]
fn the_table_policy_plays_for_its_own_side() {
    // Page 1 scripted: Ann adds an Event and Claims side 2 (the second offered), Ben nothing.
    // From there the `table` policy plays: it picks what helps Ann's side, not the first offered.
    let r = capes_as(
        "table",
        &table(0, ""),
        &[CASTING, "add_conflict event claim faction~2 done done done done"],
        &[1],
        Some("page=1"),
    )
    .ok();
    // Ann Stakes on her side 2 and rolls its die; the 1 does not help, so she turns it back.
    assert_eq!(offered(&r, "stake_on")[0], v(&["faction 1", "faction 2"]));
    assert_eq!(picks(&r, "stake_on"), v(&["Ann faction 2", "Ann faction 2"]));
    assert_eq!(offered(&r, "die_to_roll")[0], v(&["die 1", "die 2"]));
    assert_eq!(picks(&r, "die_to_roll")[0], "Ann die 2");
    assert_eq!(picks(&r, "keep")[0], "Ann revert");
    // Nobody else Claims anything: Ben, Cleo and Dev pass rather than make a Conflict.
    assert_eq!(
        picks(&r, "act"),
        v(&[
            "Ann use_ability",
            "Ben pass_action",
            "Cleo pass_action",
            "Dev pass_action"
        ])
    );
    assert_eq!(offered(&r, "act")[1][0], "create_conflict");

    // Page 2, scripted up to Ben's roll of the unclaimed side 2 to 4: it controls unclaimed, and
    // the policy then has Ben (the Starter) Claim that winning side, not side 1 offered first.
    let r = capes_as(
        "table",
        &table(0, ""),
        &[
            CASTING,
            ONE_EVENT,
            "done pass_action done done",
            "done use_ability Dark roll_die die~2 accept no_reaction done done",
        ],
        &[4],
        Some("page=2"),
    )
    .ok();
    assert_eq!(offered(&r, "claim_side")[0], v(&["faction 1", "faction 2"]));
    assert_eq!(picks(&r, "claim_side")[0], "Ben faction 2");
    // Ben's side already controls, so nothing is worth rolling for him; Cleo Claims side 1 but
    // Mayor has no ability. Ben Resolves.
    assert_eq!(picks(&r, "claim_side")[1], "Cleo faction 1");
    assert_eq!(picks(&r, "act")[4..6], v(&["Ben pass_action", "Cleo pass_action"]));
    assert!(destroyed(&r).contains(&"conflict 1".to_string()));
}

/// The bundled example: the ruleset and `rulesets/encounters/capes.turn`, under its default policy.
fn bundled(seed: u64) -> Run {
    let cast = std::fs::read_to_string("rulesets/encounters/capes.turn").expect("bundled encounter");
    run(Case {
        ruleset: CAPES,
        encounter: &cast,
        seed,
        ..Case::default()
    })
}

#[test]
fn the_bundled_example_ends_by_its_own_reason_under_its_policy() {
    // Under the `table` policy every Scene's Conflicts are Resolved, so each Scene ends by CAP-17
    // and the encounter ends after `scenes` (3) of them: not at a limit, `--until` or the budget.
    for seed in 0..8 {
        let r = bundled(seed).ok();
        assert_eq!(
            r.lines(&["encounter_end"]),
            v(&["encounter_end the table has played the Scenes it agreed on"]),
            "seed {seed}"
        );
        let scenes = levels(&r).iter().filter(|l| l.starts_with("level_end scene")).count();
        assert_eq!(scenes, 3, "seed {seed}");
        assert!(
            r.of("destroy").iter().any(|e| s(&e["name"]).starts_with("conflict")),
            "seed {seed}: Conflicts are Resolved"
        );
    }
}
