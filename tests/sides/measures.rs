// A measure taken `for each s in sides` (issue 26, family 3): each value is about a side, and
// the trace and `turnscript sim` name that side, never the entity that has the side's index.

use crate::common::run_texts;
use turnscript::RunOptions;

const RULES: &str = r#"ruleset "side measures"
side heroes, foes { resource momentum min 0 max 5 }
deck card, cards { ranks 1 to 3 }
measure mom = s.momentum for each s in sides at end of r
play {
  round r {
    gain 2 heroes.momentum
    gain 1 foes.momentum
  }
}
character Ana { side heroes }
character Bo { side foes }
"#;

fn trace(jsonl: bool) -> String {
    let files = vec![("r.turn".to_string(), RULES.to_string())];
    let (out, err, code) = run_texts(&files, Vec::new(), &RunOptions::default(), jsonl);
    assert_eq!(code, 0, "{err}");
    out
}

#[test]
fn a_measure_over_the_sides_names_each_side_in_the_trace() {
    let out = trace(true);
    let measures: Vec<&str> = out.lines().filter(|l| l.contains(r#""event":"measure""#)).collect();
    assert_eq!(
        measures,
        [
            r#"{"event":"measure","measure":"mom","actor":"heroes","value":2}"#,
            r#"{"event":"measure","measure":"mom","actor":"foes","value":1}"#,
        ]
    );
    let text = trace(false);
    let lines: Vec<String> = text
        .lines()
        .filter(|l| l.trim_start().starts_with("measure "))
        .map(|l| l.split_whitespace().collect::<Vec<_>>().join(" "))
        .collect();
    assert_eq!(lines, ["measure heroes mom = 2", "measure foes mom = 1"]);
}

#[test]
fn sim_reports_a_measure_over_the_sides_by_side() {
    let report = crate::common::sim_report(RULES, 4, 1);
    let mom = &report.measures[0];
    assert_eq!((mom.name.as_str(), mom.samples, mom.total), ("mom", 2.0, 3.0));
    // Each value is about its side; the deck's cards (entities 0 and 1) are about nothing.
    assert_eq!(
        mom.about,
        vec![("heroes".to_string(), 1.0, 2.0), ("foes".to_string(), 1.0, 1.0)]
    );
}

#[test]
fn sim_reports_the_sides_fields_in_the_final_state() {
    let src = "ruleset \"final sides\"\nside heroes, foes { stat init }\nplay { round r { for each s in sides { set s.init = d6 } } }\ncharacter Ana { side heroes }\n";
    let report = crate::common::sim_report(src, 50, 1);
    let rows: Vec<(&str, &str, i64, i64)> = report
        .finals
        .iter()
        .map(|r| (r.entity.as_str(), r.field.as_str(), r.min, r.max))
        .collect();
    assert_eq!(rows, [("heroes", "init", 1, 6), ("foes", "init", 1, 6)]);
}

/// A field that holds an entity, a side or a role has no mean: `sim`'s final state leaves it out
/// (an id averaged as a number would read as a number of the game), and keeps the numbers.
#[test]
fn sim_final_state_never_averages_a_field_holding_an_entity_a_side_or_a_role() {
    let src = "ruleset \"final refs\"\nrole gm, players\nside heroes, foes { stat score  stat leader: character }\n\
        global first: side\nglobal asks: role\nstat rival: character\nstat hp default 3\n\
        play { round r { set first = foes\n set asks = players\n set heroes.leader = Bo\n set Ana.rival = Bo\n set heroes.score = 2 } }\n\
        character Ana { side heroes }\ncharacter Bo { side foes }\n";
    let report = crate::common::sim_report(src, 3, 1);
    let rows: Vec<(String, String)> = report
        .finals
        .iter()
        .map(|r| (r.entity.clone(), r.field.clone()))
        .collect();
    let kept = |e: &str, f: &str| rows.contains(&(e.to_string(), f.to_string()));
    for (e, f) in [
        ("table", "first"),
        ("table", "asks"),
        ("heroes", "leader"),
        ("Ana", "rival"),
    ] {
        assert!(!kept(e, f), "{e}.{f} averaged: {rows:?}");
    }
    for (e, f) in [("heroes", "score"), ("Ana", "hp"), ("Bo", "hp")] {
        assert!(kept(e, f), "{e}.{f} left out: {rows:?}");
    }
}
