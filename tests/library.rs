//! The bundled library of published turn systems (rulesets/library/): each system's three
//! acceptance scenarios of shared/library/systems.md, with forced rolls, forced cards and
//! scripted answers, asserting every Expected point exactly. Tests are named after the scenario.

mod common;
#[path = "library/dnd5e.rs"]
mod dnd5e;
#[path = "library/exalted.rs"]
mod exalted;
#[path = "library/fengshui.rs"]
mod fengshui;
#[path = "library/gurps.rs"]
mod gurps;
#[path = "library/hero.rs"]
mod hero;
#[path = "library/lancer.rs"]
mod lancer;
#[path = "library/marvel.rs"]
mod marvel;
#[path = "library/ose.rs"]
mod ose;
#[path = "library/pf2e.rs"]
mod pf2e;
#[path = "library/shadowrun.rs"]
mod shadowrun;
#[path = "library/swade.rs"]
mod swade;
#[path = "library/swffg.rs"]
mod swffg;

use common::{Run, check_texts, compact, names, run_texts, s};
use serde_json::Value;
use turnscript::RunOptions;
use turnscript::project::parse_answers;

const SWADE: &str = "rulesets/library/swade.turn";
const OSE: &str = "rulesets/library/ose.turn";
const DND5E: &str = "rulesets/library/dnd5e.turn";
const PF2E: &str = "rulesets/library/pf2e.turn";

/// A scenario: the library ruleset, an encounter written for it, and what the test forces.
#[derive(Default)]
struct Scenario<'a> {
    encounter: &'a str,
    rolls: &'a [i64],
    draws: &'a [&'a str],
    answers: &'a str,
    until: &'a str,
}

fn play(ruleset: &str, sc: Scenario<'_>) -> Run {
    let text = std::fs::read_to_string(ruleset).expect("library ruleset is readable");
    let files = vec![
        (ruleset.to_string(), text),
        ("encounter.turn".to_string(), sc.encounter.to_string()),
    ];
    let opts = RunOptions {
        rolls: sc.rolls.to_vec(),
        draws: sc.draws.iter().map(|d| d.to_string()).collect(),
        until: Some(sc.until.to_string()),
        ..RunOptions::default()
    };
    let (out, stderr, code) = run_texts(&files, parse_answers(sc.answers, "answers"), &opts, true);
    let events = out
        .lines()
        .map(|l| serde_json::from_str(l).expect("every trace line is JSON"))
        .collect();
    let run = Run { events, stderr, code };
    assert_eq!(run.code, 0, "run failed:\n{}", run.stderr);
    assert!(
        run.stderr.is_empty(),
        "every forced roll, card and answer is used:\n{}",
        run.stderr
    );
    run
}

/// One event as a short line, with the details these scenarios read.
fn line(e: &Value) -> String {
    let actor = s(&e["actor"]);
    match s(&e["event"]).as_str() {
        "round_start" if e["level"] == "round" => format!("round {}", e["round"]),
        "round_start" => format!("{} round", s(&e["level"])),
        "phase_start" => format!("phase {}", s(&e["phase"])),
        "turn_start" => format!("turn {actor}"),
        "draw" => format!("draw {actor} {}", s(&e["card"])),
        "discard" => format!("discard {}", s(&e["card"])),
        "shuffle" => format!("shuffle {}", e["cards"]),
        "together_start" => format!("together {}", names(&e["actors"]).join(",")),
        "together_end" => "together end".to_string(),
        "attempt" => format!("attempt {actor} {}", s(&e["attempt"])),
        "attempt_refused" => format!(
            "refused {actor} {}: {}",
            s(&e["attempt"]),
            names(&e["reasons"]).join("; ")
        ),
        "measure" => format!("measure {} {}", s(&e["measure"]), e["value"]),
        "reset" => format!("reset {actor} {} {}", s(&e["resource"]), e["left"]),
        "effect_start" => format!("effect {actor} {} until {}", s(&e["effect"]), s(&e["counted_at"])),
        "effect_end" => format!("effect_end {actor} {}", s(&e["effect"])),
        "reaction_start" => format!("reaction {actor}"),
        "ready" => format!("ready {actor} on {}", s(&e["trigger"])),
        "ready_end" => format!("ready_end {actor} {} {}", s(&e["trigger"]), s(&e["reason"])),
        "set" => {
            let left = match &e["left"] {
                Value::String(name) => name.clone(),
                Value::Null => "none".to_string(),
                n => n.to_string(),
            };
            format!("set {actor} {} {left}", s(&e["stat"])).replace("  ", " ")
        }
        "gain" if actor.is_empty() => format!("gain {} {} {}", s(&e["resource"]), e["amount"], e["left"]),
        _ => compact(e),
    }
}

/// The lines of the events of these kinds, in order.
fn story(run: &Run, kinds: &[&str]) -> Vec<String> {
    run.events
        .iter()
        .filter(|e| kinds.contains(&e["event"].as_str().unwrap_or("")))
        .map(line)
        .collect()
}

fn v(items: &[&str]) -> Vec<String> {
    items.iter().map(|s| s.to_string()).collect()
}

/// The library's rulesets, with their example encounters and their rule-ID prefixes.
const LIBRARY: [(&str, &str, &str); 12] = [
    (SWADE, "rulesets/library/encounters/swade.turn", "SW"),
    (OSE, "rulesets/library/encounters/ose.turn", "OSE"),
    (DND5E, "rulesets/library/encounters/dnd5e.turn", "DND"),
    (PF2E, "rulesets/library/encounters/pf2e.turn", "PF2"),
    (swffg::SWFFG, "rulesets/library/encounters/swffg.turn", "SWF"),
    (hero::HERO, "rulesets/library/encounters/hero.turn", "HERO"),
    (exalted::EXALTED, "rulesets/library/encounters/exalted.turn", "EX"),
    (fengshui::FENGSHUI, "rulesets/library/encounters/fengshui.turn", "FS"),
    (lancer::LANCER, "rulesets/library/encounters/lancer.turn", "LANCER"),
    (marvel::MARVEL, "rulesets/library/encounters/marvel.turn", "MHR"),
    (shadowrun::SHADOWRUN, "rulesets/library/encounters/shadowrun.turn", "SR"),
    (gurps::GURPS, "rulesets/library/encounters/gurps.turn", "GURPS"),
];

fn read(path: &str) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// Where the smoke run of an example encounter stops: its `# until: LEVEL=N` line (for a system
/// whose rounds are called otherwise: HERO's Turns), else `round=3`.
fn smoke_until(encounter: &str) -> String {
    encounter
        .lines()
        .find_map(|l| l.strip_prefix("# until:"))
        .map_or("round=3".to_string(), |u| u.trim().to_string())
}

#[test]
fn every_library_ruleset_checks_clean_with_its_example_encounter_and_plays_it() {
    for (ruleset, encounter, _) in LIBRARY {
        let files = vec![
            (ruleset.to_string(), read(ruleset)),
            (encounter.to_string(), read(encounter)),
        ];
        let (report, clean) = check_texts(&files);
        assert!(clean, "{report}");
        let until = smoke_until(&files[1].1);
        let opts = RunOptions {
            seed: 1,
            until: Some(until.clone()),
            ..RunOptions::default()
        };
        let (out, err, code) = run_texts(&files, Vec::new(), &opts, true);
        assert_eq!(code, 0, "{ruleset}: {err}");
        assert!(
            out.contains(&format!("\"until {until}\"")),
            "{ruleset} plays to {until}:\n{out}"
        );
    }
}

/// The IDs a text cites for a prefix (`SW-3`), in order of first appearance.
fn rule_ids(text: &str, prefix: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let tag = format!("{prefix}-");
    for (i, _) in text.match_indices(&tag) {
        let before = text[..i].chars().next_back();
        if before.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_') {
            continue;
        }
        let digits: String = text[i + tag.len()..].chars().take_while(char::is_ascii_digit).collect();
        let id = format!("{tag}{digits}");
        if !digits.is_empty() && !out.contains(&id) {
            out.push(id);
        }
    }
    out
}

#[test]
fn every_rule_id_a_library_ruleset_cites_is_in_docs_library_md_and_each_listed_one_is_cited() {
    let doc = read("docs/library.md");
    for (ruleset, _, prefix) in LIBRARY {
        let listed: Vec<String> = doc
            .lines()
            .filter_map(|l| l.strip_prefix("- "))
            .filter(|l| l.starts_with(&format!("{prefix}-")))
            .flat_map(|l| rule_ids(l.split(' ').next().unwrap_or(""), prefix))
            .collect();
        let mut cited = rule_ids(&read(ruleset), prefix);
        cited.sort();
        let mut sorted = listed.clone();
        sorted.sort();
        assert_eq!(cited, sorted, "{ruleset}: the IDs it cites and docs/library.md lists");
    }
}

/// The language server on each library ruleset and its example encounter, opened as an editor
/// opens them (the encounter's `uses` read from disk): no diagnostics on either, an outline, and
/// formatting that changes nothing (they are written as `fmt` writes them).
#[test]
fn every_library_ruleset_and_encounter_open_clean_in_the_language_server() {
    use lsp_server::{Notification, Request, RequestId};
    use serde_json::json;
    use turnscript::lsp::Server;

    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut id = 0;
    for (ruleset, encounter, _) in LIBRARY {
        let mut server = Server::default();
        for path in [ruleset, encounter] {
            let uri = format!("file://{}", root.join(path).display());
            let open =
                json!({"textDocument": {"uri": uri, "languageId": "turnscript", "version": 1, "text": read(path)}});
            let published = server.notification(Notification::new("textDocument/didOpen".into(), open));
            for p in &published {
                let diags = p.params["diagnostics"].as_array().map_or(0, Vec::len);
                assert_eq!(diags, 0, "{path}: {}", p.params);
            }
            for (method, empty_ok) in [
                ("textDocument/documentSymbol", false),
                ("textDocument/formatting", true),
            ] {
                id += 1;
                let params = json!({"textDocument": {"uri": uri}, "options": {"tabSize": 2, "insertSpaces": true}});
                let resp = server.request(Request::new(RequestId::from(id), method.into(), params));
                let result = resp
                    .response_result
                    .unwrap_or_else(|e| panic!("{path} {method}: {e:?}"));
                let n = result.as_array().map_or(0, Vec::len);
                assert!(if empty_ok { n == 0 } else { n > 0 }, "{path} {method}: {result}");
            }
        }
    }
}
/// A GM who `remove`s the fallen gets a fight that ends: under the library rulesets that leave
/// the end of the fight to the table and have no `go_on` (D&D 5e, Pathfinder 2e, Savage Worlds,
/// Old-School Essentials), a side with no one left in play ends the encounter as the turn ends,
/// instead of playing on until `--until`, or into the REPL's step budget after `auto all`.
#[test]
fn a_library_fight_with_a_side_left_empty_ends_by_itself() {
    for (ruleset, encounter) in [
        (
            DND5E,
            "character A { side pcs }\ncharacter B { side pcs }\ncharacter G { side npcs, absent }",
        ),
        (
            PF2E,
            "character A { side pcs }\ncharacter B { side pcs }\ncharacter G { side foes, absent }",
        ),
        (
            SWADE,
            "character A { side pcs, wild = true }\ncharacter 2 × G { side npcs, absent }",
        ),
        (
            OSE,
            "side goblins\ncharacter A { side party }\ncharacter G { side goblins, absent }",
        ),
    ] {
        let files = vec![
            (ruleset.to_string(), read(ruleset)),
            ("encounter.turn".to_string(), encounter.to_string()),
        ];
        let opts = RunOptions {
            seed: 1,
            ..RunOptions::default()
        };
        let (out, err, code) = run_texts(&files, Vec::new(), &opts, true);
        assert_eq!(code, 0, "{ruleset}: {err}");
        let end: Vec<&str> = out
            .lines()
            .filter(|l| l.contains("\"event\":\"encounter_end\""))
            .collect();
        assert_eq!(end.len(), 1, "{ruleset}:\n{out}");
        assert!(
            end[0].contains("a side has no one left in play"),
            "{ruleset} ends when a side is empty: {}",
            end[0]
        );
        assert_eq!(
            out.matches("\"event\":\"turn_start\"").count(),
            1,
            "{ruleset}: one turn, then the end"
        );
    }
}

/// Star Wars FFG asks the GM `go_on` after each round: with `auto gm` (and in `sim`) the `table`
/// policy ends structured play once a side is left empty, instead of playing on.
#[test]
fn swffg_the_table_policy_ends_structured_play_when_a_side_is_left_empty() {
    let files = vec![
        (swffg::SWFFG.to_string(), read(swffg::SWFFG)),
        (
            "encounter.turn".to_string(),
            "character A { side pcs }\ncharacter G { side npcs, absent }".to_string(),
        ),
    ];
    let opts = RunOptions {
        seed: 1,
        ..RunOptions::default()
    };
    let (out, err, code) = run_texts(&files, Vec::new(), &opts, true);
    assert_eq!(code, 0, "{err}");
    let end: Vec<&str> = out
        .lines()
        .filter(|l| l.contains("\"event\":\"encounter_end\""))
        .collect();
    assert_eq!(end.len(), 1, "{out}");
    assert!(end[0].contains("the GM ends structured play"), "{}", end[0]);
    assert_eq!(
        out.matches("\"event\":\"round_start\"").count(),
        1,
        "one round, then the end"
    );
}

/// `turnscript new encounter` copies each field's comment from the ruleset: every field of a
/// library ruleset says what it is (or that the rules keep it), so a GM filling in the template
/// is never left with a bare `initiative = 0  # (number, default 0)`.
#[test]
fn every_field_of_a_library_ruleset_says_what_it_is_in_the_template() {
    for (ruleset, _, _) in LIBRARY {
        let text = turnscript::template::encounter_template(&read(ruleset), "r.turn", "e")
            .unwrap_or_else(|_| panic!("{ruleset} parses"));
        let bare: Vec<&str> = text
            .lines()
            .filter(|l| l.starts_with("  ") && !l.trim_start().starts_with('#') && l.contains("  # ("))
            .collect();
        assert!(
            bare.is_empty(),
            "{ruleset}: fields with no comment:\n{}",
            bare.join("\n")
        );
    }
}

/// The template of a ruleset that declares its own things (Lancer's activities) names them and
/// keeps its example a comment: written out, it would add an eighth action to every turn.
#[test]
fn the_lancer_template_keeps_the_rulesets_own_activities_and_adds_none() {
    let text = turnscript::template::encounter_template(&read(lancer::LANCER), "lancer.turn", "e")
        .unwrap_or_else(|_| panic!("lancer parses"));
    assert!(
        text.contains("# The ruleset declares its own activities (Move, Boost, Skirmish,"),
        "{text}"
    );
    assert!(
        !text.lines().any(|l| l.starts_with("activity ")),
        "no activity is declared by the template:\n{text}"
    );
    assert!(
        text.lines().any(|l| l.starts_with("reaction \"Example reaction\"")),
        "{text}"
    );
}

/// The template says whom `auto` can name at the REPL: the sides, and the roles that decide too
/// (GURPS's `gm` answers `go_on` after every turn: a GM who wants the policy to must know it).
#[test]
fn the_template_names_the_sides_and_roles_auto_can_play() {
    let names = |ruleset: &str| {
        let text = turnscript::template::encounter_template(&read(ruleset), "r.turn", "e")
            .unwrap_or_else(|_| panic!("{ruleset} parses"));
        text.lines()
            .find(|l| l.starts_with("# At the REPL, `auto WHO`"))
            .map(str::to_string)
    };
    assert_eq!(
        names(gurps::GURPS).as_deref(),
        Some("# At the REPL, `auto WHO` lets the policy play WHO: the sides party, foes; the role gm.")
    );
    assert_eq!(
        names(SWADE).as_deref(),
        Some("# At the REPL, `auto WHO` lets the policy play WHO: the sides pcs, npcs.")
    );
}

/// The template's REPL hint matches the REPL: after `auto npcs`, a pending hero's decision is
/// answered (`continue` refuses it, `repl::not_auto`), so the hint says `answer`, not `continue`.
#[test]
fn the_template_says_to_answer_the_heroes_after_auto() {
    let text = turnscript::template::encounter_template(&read(DND5E), "r.turn", "e")
        .unwrap_or_else(|_| panic!("dnd5e parses"));
    assert!(
        text.contains("#   turnscript repl FILE      (`auto npcs`: they play themselves; `answer` for the rest)"),
        "{text}"
    );
}
