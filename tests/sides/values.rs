// Two value gaps met writing library rulesets: a truth value of the table (`global NAME:
// truth`) and a resource's start by default (`resource NAME ... default E`). Forced rolls, the
// exact trace.

use super::{files, lines, run, run_with};
use crate::common::check_texts;
use turnscript::RunOptions;

const SURPRISE: &str = r#"ruleset "s"
global surprise_round: truth default true
global ambush: truth
stat speed default 2
character Ana { }
play {
  round repeat {
    if surprise_round and not ambush { gain 0 Ana.speed_bonus }
    if round.number == 2 { end round }
    clear surprise_round
    mark ambush
    set ambush = not surprise_round and Ana.speed > 1
  }
}
resource speed_bonus
"#;

#[test]
fn a_truth_global_is_read_by_its_name_and_changed_by_set_mark_and_clear_as_the_tables() {
    let (out, err, code) = run(SURPRISE, &[], &[]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        lines(&out)[1..],
        [
            "round 1",
            "  gain     Ana   speed_bonus    +0 → 0",
            "  clear          surprise_round",
            "  mark           ambush",
            "  set            ambush         = true",
            "round 2",
            "  end            round: ended",
            "end of encounter: complete",
            "final          surprise_round = false, ambush = true",
            "final    Ana   speed = 2, speed_bonus = 0",
        ]
    );
}

#[test]
fn a_truth_globals_events_carry_no_actor_and_its_values_are_json_truth_values() {
    let (out, err, code) = run_with(SURPRISE, None, &[], &[], RunOptions::default(), true);
    assert_eq!(code, 0, "{err}");
    let events: Vec<&str> = out.lines().collect();
    assert_eq!(
        events[3..7],
        [
            r#"{"event":"clear","flag":"surprise_round"}"#,
            r#"{"event":"mark","flag":"ambush"}"#,
            r#"{"event":"set","stat":"ambush","amount":true,"left":true}"#,
            r#"{"event":"round_end","round":1,"level":"round"}"#,
        ]
    );
    assert!(
        out.contains(r#""globals":{"surprise_round":false,"ambush":true}"#),
        "{out}"
    );
}

#[test]
fn a_truth_global_is_false_unless_given_a_default_and_an_encounter_gives_its_start() {
    let ruleset = "ruleset \"g\"\nglobal surprise_round: truth\nglobal watchful: truth default true\nplay { }\n";
    let (out, err, code) = run_with(ruleset, None, &[], &[], RunOptions::default(), false);
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        lines(&out)[1..],
        [
            "end of encounter: complete",
            "final          surprise_round = false, watchful = true",
        ]
    );
    let encounter =
        "encounter \"e\" uses \"g\"\nglobal surprise_round default 1d6 > 3\nglobal watchful: truth default false\n";
    let (out, err, code) = run_with(ruleset, Some(encounter), &[5], &[], RunOptions::default(), false);
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        lines(&out)[1..],
        [
            "roll           roll           d6 [5] = 5",
            "end of encounter: complete",
            "final          surprise_round = true, watchful = false",
        ]
    );
}

#[test]
fn an_encounter_cannot_give_a_truth_global_a_number_decimals_or_limits() {
    let ruleset = "ruleset \"g\"\nglobal surprise_round: truth\nglobal doom default 2\nplay { }\n";
    for (line, message) in [
        (
            "global surprise_round default 2",
            "a global's start must be a truth value, but this is a number",
        ),
        (
            "global surprise_round decimals 1 default true",
            "`surprise_round` cannot change its decimals here",
        ),
        (
            "global surprise_round max 1 default true",
            "`surprise_round` cannot change its limits here",
        ),
        ("global doom: truth default true", "`doom` cannot change its type here"),
        (
            "global surprise_round: side default true",
            "`surprise_round` cannot change its type here",
        ),
    ] {
        let encounter = format!("encounter \"e\" uses \"r.turn\"\n{line}\n");
        let (report, clean) = check_texts(&files(ruleset, Some(&encounter)));
        assert!(!clean, "{line}");
        assert!(report.contains(message), "{line}: {report}");
    }
}

#[test]
fn a_thing_named_truth_keeps_its_meaning_in_a_globals_type() {
    let src = "thing truth, truths { stat n default 1 }\ntruth T { }\nglobal held: truth default T\nplay { }\n";
    let (out, err, code) = run(src, &[], &[]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("final          held = T"), "{out}");
}

const REACTION: &str = r#"ruleset "r"
stat max_stun default 3
resource reaction min 0 max 1 default 1
resource stun(c) min 0 max c.max_stun default c.max_stun
resource move decimals 1 min 0 max 9.5 default 12
resource luck default 1d6
"#;

#[test]
fn a_resource_starts_at_its_default_clamped_and_a_given_value_wins() {
    let src = format!(
        "{REACTION}character Ana {{ max_stun = 5 }}\ncharacter Bo {{ reaction = 0, stun = 1, luck = 2 }}\nplay {{\n  spend 1 Ana.reaction\n  reset Ana.reaction to 1\n}}\n"
    );
    let (out, err, code) = run(&src, &[6], &[]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        lines(&out)[1..],
        [
            "roll     Ana   roll       d6 [6] = 6",
            "spend    Ana   reaction   -1 → 0",
            "reset    Ana   reaction   = 1",
            "end of encounter: complete",
            "final    Ana   max_stun = 5, reaction = 1, stun = 5, move = 9.5, luck = 6",
            "final    Bo    max_stun = 3, reaction = 0, stun = 1, move = 9.5, luck = 2",
        ]
    );
}

#[test]
fn an_owned_resources_default_reads_its_owner_for_things_sides_and_late_joiners() {
    let src = "side heroes, foes { stat cap default 2  resource grit(s) max 4 default s.cap + 1 }\n\
               thing pool, pools { stat cap default 2  resource tokens(p) max p.cap default 9 }\n\
               stat size default 3\nresource load(c) decimals 1 max c.size / 2 default c.size * 0.3\n\
               character Ana { }\ncharacter Cy { size = 5, absent }\npool P { cap = 1 }\n\
               play {\n  create pool { cap = 4 } as q\n  join Cy\n}\n";
    let (out, err, code) = run(src, &[], &[]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        lines(&out)[1..],
        [
            "create   pool 1  cap = 4, tokens = 4",
            "joins    Cy",
            "end of encounter: complete",
            "final    heroes  cap = 2, grit = 3",
            "final    foes    cap = 2, grit = 3",
            "final    Ana     size = 3, load = 0.9",
            "final    Cy      size = 5, load = 1.5",
            "final    P       cap = 1, tokens = 1",
            "final    pool 1  cap = 4, tokens = 4",
        ]
    );
}

#[test]
fn a_resources_default_that_reads_a_field_declared_later_and_not_plain_stops_the_run() {
    let src =
        "resource stun(c) min 0 max 10 default c.max_stun\nstat max_stun default d6\ncharacter Ana { }\nplay { }\n";
    let (_, err, code) = run(src, &[4], &[]);
    assert_ne!(code, 0);
    assert!(err.contains("run::not_set"), "{err}");
}

/// `sim` reports a truth global's end value as the share of encounters it ended true (its mean),
/// as for a flag, and a resource's default as its start.
#[test]
fn sim_reports_a_truth_global_as_the_share_it_ended_true() {
    let src = "ruleset \"share\"\nglobal lucky: truth\nresource reaction min 0 max 1 default 1\n\
               play { round r { if d2 == 2 { mark lucky } } }\ncharacter Ana { }\n";
    let report = crate::common::sim_report(src, 200, 1);
    let rows: Vec<(&str, &str, i64, i64)> = report
        .finals
        .iter()
        .map(|r| (r.entity.as_str(), r.field.as_str(), r.min, r.max))
        .collect();
    assert_eq!(rows, [("table", "lucky", 0, 1), ("Ana", "reaction", 1, 1)]);
    let share = report.finals[0].mean;
    assert!(share > 0.3 && share < 0.7, "{share}");
}
