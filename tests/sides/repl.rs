// The REPL's rulings on sides, roles and fields of the same name (issue 26): `set` gives a
// side's field, a field holding a side or a role, and sets the field of the entity named even
// when a side or a thing has a field of the same name; undo, save and load keep them.

use std::path::{Path, PathBuf};

use turnscript::repl::{Options, Repl, script};
use turnscript::runtime::on_run_stack;

const RULES: &str = r#"ruleset "repl sides"
encounter "e"
role gm, players
side heroes, foes {
  stat init
  resource hp min 0 max 60
  stat controller: role default gm
}
thing pool, pools { stat hp default 40 }
global first: side
global lead: role
resource hp
stat watcher: role
play {
  round r repeat {
    for each c in characters {
      turn c { choose act by c { option a { spend 1 c.hp } option b } }
    }
  }
}
character Ana { side heroes, hp = 5 }
pool P { }
"#;

fn session(name: &str, commands: &str) -> String {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("repl-sides-{name}"));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch directory");
    let path: PathBuf = dir.join("r.turn");
    std::fs::write(&path, RULES).expect("write the ruleset");
    let opts = Options {
        ruleset: Some(path),
        encounter: None,
        seed: 0,
        autosave: None,
        colour: Some(false),
        width: 0,
    };
    let commands = commands.replace("$TMP", &dir.display().to_string());
    on_run_stack(|| {
        let (mut repl, start) = match Repl::new(opts) {
            Ok(r) => r,
            Err(e) => return e,
        };
        start + &script(&mut repl, &commands)
    })
}

/// The lines of the last `show all` in a transcript that start with one of `heads`.
fn shown(t: &str, heads: &[&str]) -> Vec<String> {
    let last = t.rsplit("> show all").next().unwrap_or("");
    last.lines()
        .filter(|l| heads.iter().any(|h| l.trim_start().starts_with(h)))
        .map(|l| l.split_whitespace().collect::<Vec<_>>().join(" "))
        .collect()
}

#[test]
fn set_gives_a_sides_field_and_fields_holding_a_side_or_a_role() {
    let t = session(
        "values",
        "set heroes.init = 4\nset foes.controller = players\nset first = foes\nset lead = players\nset Ana.watcher = gm\nshow all\n",
    );
    assert!(!t.contains('×'), "{t}");
    assert_eq!(
        shown(&t, &["globals", "side", "Ana"]),
        [
            "globals first foes, lead players",
            "side heroes: init 4, hp 0, controller gm",
            "side foes: init 0, hp 0, controller players",
            "Ana · 5 gm",
        ],
        "{t}"
    );
}

#[test]
fn set_changes_the_field_of_the_entity_named_when_a_side_or_thing_has_one_of_that_name() {
    let t = session(
        "same-name",
        "set Ana.hp = 3\nset P.hp = 7\nset heroes.hp = 9\nanswer 1\nshow all\n",
    );
    assert!(!t.contains('×'), "{t}");
    // Ana's own hp: 3, then the spend of her option takes it to 2.
    assert!(t.contains("spend    Ana      hp         -1 → 2"), "{t}");
    assert_eq!(
        shown(&t, &["side", "Ana", "P "]),
        [
            "side heroes: init 0, hp 9, controller gm",
            "side foes: init 0, hp 0, controller gm",
            "Ana · 2 none",
            "P 7 · ·"
        ],
        "{t}"
    );
}

#[test]
fn rulings_on_sides_and_roles_undo_save_and_load() {
    let t = session(
        "undo",
        "set heroes.init = 4\nset first = foes\nset lead = players\nshow all\nsave $TMP/s.tsession\nundo 3\nshow all\nload $TMP/s.tsession\nshow all\n",
    );
    assert!(!t.contains('×'), "{t}");
    let shows: Vec<&str> = t
        .split("> show all")
        .skip(1)
        .map(|s| s.split("\n> ").next().unwrap_or(""))
        .collect();
    assert_eq!(shows.len(), 3, "{t}");
    assert!(shows[1].contains("globals  first none, lead none"), "{t}");
    assert!(shows[1].contains("heroes: init 0"), "{t}");
    let strip = |s: &str| {
        s.lines()
            .filter(|l| !l.contains("commands (undo") && !l.starts_with("exit "))
            .collect::<Vec<_>>()
            .join("\n")
    };
    assert_eq!(strip(shows[0]), strip(shows[2]), "{t}");
}

#[test]
fn show_names_a_side_its_members_and_fields() {
    let t = session("show", "set heroes.hp = 99\nshow heroes\nshow foes\n");
    assert!(!t.contains('×'), "{t}");
    // Set by hand, a side's resource stays within its limits (max 60).
    assert!(t.contains("manual   heroes   hp         = 60"), "{t}");
    let heroes = t
        .split("> show heroes\n")
        .nth(1)
        .and_then(|r| r.split("\n> ").next())
        .unwrap_or("");
    assert_eq!(
        heroes, "heroes · side\n  members Ana\n  init 0, hp 60, controller gm",
        "{t}"
    );
    let foes = t
        .split("> show foes\n")
        .nth(1)
        .and_then(|r| r.split("\n> ").next())
        .unwrap_or("");
    assert!(foes.starts_with("foes · side\n  init 0, hp 0, controller gm"), "{t}");
}
