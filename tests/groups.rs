//! Groups of identical characters (issue 27): `character 3 × Goblin { ... }` declares `Goblin 1`
//! to `Goblin 3`, each with the items given; `c.group` is the first of a character's group in
//! play (itself for one declared alone), so a ruleset can let a group share one roll.

mod common;

use common::run_texts;
use turnscript::project::{RunOptions, parse_answers};

/// A ruleset where a group rolls initiative once (its first member's roll, `c.group.init`) and
/// turns go by initiative, highest first, ties in declaration order; `hp` is rolled per member.
const SHARED: &str = r#"ruleset "Shared rolls"
side heroes, foes
stat init default 0
stat bonus default 0
resource hp min 0
order by_init(c) { c.init desc }
setup {
  for each c in characters where c.group == c { set c.init = d20 + c.bonus }
  for each c in characters where c.group != c { set c.init = c.group.init }
  rank by_init
}
play {
  round repeat {
    for each c in by_init {
      turn c {
        if c is heroes {
          choose target by c from t in characters where t is foes { spend 1 t.hp }
        }
      }
    }
  }
}
"#;

fn run(encounter: &str, rolls: &[i64], answers: &str, until: &str) -> (String, String, i32) {
    let files = vec![
        ("shared.turn".to_string(), SHARED.to_string()),
        ("encounter.turn".to_string(), encounter.to_string()),
    ];
    let opts = RunOptions {
        rolls: rolls.to_vec(),
        until: Some(until.to_string()),
        ..RunOptions::default()
    };
    run_texts(&files, parse_answers(answers, "answers"), &opts, false)
}

/// The trace's lines without the header, each with its runs of spaces made one.
fn lines(out: &str) -> Vec<String> {
    out.lines()
        .skip(1)
        .map(|l| l.split_whitespace().collect::<Vec<_>>().join(" "))
        .collect()
}

/// Three goblins roll once (Goblin 1's d20), each rolls its own hp, and the group acts in a row
/// in declaration order at its shared count, between Ana (higher) and Bo (lower).
#[test]
fn a_group_rolls_initiative_once_and_its_members_act_in_declaration_order() {
    let encounter = "character Ana { side heroes, bonus = 2 }\n\
        character 3 × Goblin { side foes, bonus = 1, hp = d6 }\n\
        character Bo { side heroes }\n";
    // The goblins' hp 3, 4, 5 (each its own), Ana 15 + 2, the goblins 11 + 1 (once), Bo 6.
    let (out, err, code) = run(
        encounter,
        &[3, 4, 5, 15, 11, 6],
        "Ana, target: \"Goblin 2\"\nBo, target: Goblin 3\n",
        "round=1",
    );
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        lines(&out),
        [
            "roll Goblin 1 roll d6 [3] = 3",
            "roll Goblin 2 roll d6 [4] = 4",
            "roll Goblin 3 roll d6 [5] = 5",
            "roll Ana init d20 [15] = 15",
            "set Ana init = 17",
            "roll Goblin 1 init d20 [11] = 11",
            "set Goblin 1 init = 12",
            "roll Bo init d20 [6] = 6",
            "set Bo init = 6",
            "set Goblin 2 init = 12",
            "set Goblin 3 init = 12",
            "order Ana, Goblin 1, Goblin 2, Goblin 3, Bo",
            "round 1",
            "▸ Ana",
            "choose Ana target Goblin 2 of Goblin 1|Goblin 2|Goblin 3",
            "spend Goblin 2 hp -1 → 3",
            "▸ Goblin 1",
            "▸ Goblin 2",
            "▸ Goblin 3",
            "▸ Bo",
            "choose Bo target Goblin 3 of Goblin 1|Goblin 2|Goblin 3",
            "spend Goblin 3 hp -1 → 4",
            "end of encounter: until round=1",
            "final Ana init = 17, bonus = 2, hp = 0",
            "final Goblin 1 init = 12, bonus = 1, hp = 3",
            "final Goblin 2 init = 12, bonus = 1, hp = 3",
            "final Goblin 3 init = 12, bonus = 1, hp = 4",
            "final Bo init = 6, bonus = 0, hp = 0",
        ]
    );
}

/// `c.group` is the first member of the group still in play: Goblin 1 while it is, Goblin 2 once
/// it leaves, Goblin 1 again when no member is in play; a character declared alone is its own.
#[test]
fn c_group_is_the_first_member_in_play_and_a_character_alone_is_its_own() {
    let src = r#"side foes
global lead: character
global own: character
play {
  round repeat {
    set lead = "Goblin 3".group
    set own = Ana.group
    if round.number == 1 { leave "Goblin 1" }
    if round.number == 2 {
      leave "Goblin 2"
      leave "Goblin 3"
    }
  }
}
character Ana { side foes }
character 3 x Goblin { side foes }
"#;
    let files = vec![("t.turn".to_string(), src.to_string())];
    let opts = RunOptions {
        until: Some("round=3".to_string()),
        ..RunOptions::default()
    };
    let (out, err, code) = run_texts(&files, Vec::new(), &opts, false);
    assert_eq!(code, 0, "{err}");
    let sets: Vec<String> = lines(&out)
        .into_iter()
        .filter(|l| l.starts_with("set") || l.starts_with("round") || l.starts_with("leave"))
        .collect();
    assert_eq!(
        sets,
        [
            "round 1",
            "set lead = Goblin 1",
            "set own = Ana",
            "leaves Goblin 1",
            "round 2",
            "set lead = Goblin 2",
            "set own = Ana",
            "leaves Goblin 2",
            "leaves Goblin 3",
            "round 3",
            "set lead = Goblin 1",
            "set own = Ana",
        ]
    );
}

/// The members' names in the JSON lines trace are the names given (`"actor":"Goblin 2"`), and a
/// group checks clean beside characters of other names.
#[test]
fn members_are_named_in_the_json_trace_and_check_clean() {
    let encounter = "character Ana { side heroes }\ncharacter 2 × \"Cave goblin\" { side foes, hp = 3 }\n";
    let files = vec![
        ("shared.turn".to_string(), SHARED.to_string()),
        ("encounter.turn".to_string(), encounter.to_string()),
    ];
    let (report, clean) = common::check_texts(&files);
    assert!(clean, "{report}");
    let opts = RunOptions {
        rolls: vec![9, 4],
        until: Some("round=1".to_string()),
        ..RunOptions::default()
    };
    let (out, err, code) = run_texts(&files, parse_answers("\"Cave goblin 2\"\n", "answers"), &opts, true);
    assert_eq!(code, 0, "{err}");
    let actors: Vec<String> = out
        .lines()
        .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
        .filter(|e| e["event"] == "turn_start")
        .map(|e| e["actor"].as_str().unwrap_or("?").to_string())
        .collect();
    assert_eq!(actors, ["Ana", "Cave goblin 1", "Cave goblin 2"]);
    assert!(
        out.contains(r#""event":"spend","actor":"Cave goblin 2""#) || out.contains(r#""actor":"Cave goblin 2","#),
        "{out}"
    );
}
