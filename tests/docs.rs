//! Every ```turn example in docs/language.md passes the checker: alone, after the page's running
//! example (its first two blocks), or, for a fragment of statements, inside
//! `play { for each c in characters { ... } }` after the running example.

mod common;

use common::check_texts;

fn blocks(doc: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut current: Option<String> = None;
    for line in doc.lines() {
        match (&mut current, line.trim_start()) {
            (None, "```turn") => current = Some(String::new()),
            (Some(b), "```") => {
                out.push(std::mem::take(b));
                current = None;
            }
            (Some(b), _) => {
                b.push_str(line);
                b.push('\n');
            }
            _ => {}
        }
    }
    out
}

fn clean(files: &[(&str, String)]) -> bool {
    let files: Vec<(String, String)> = files.iter().map(|(n, t)| (n.to_string(), t.clone())).collect();
    check_texts(&files).1
}

#[test]
fn every_example_in_the_language_guide_checks() {
    let doc = std::fs::read_to_string("docs/language.md").expect("docs/language.md is readable");
    let examples = blocks(&doc);
    assert!(examples.len() > 20, "the guide should have its examples");
    let ruleset = examples[0].clone();
    let cast = examples[1].clone();
    let mut failed = Vec::new();
    for ex in &examples {
        let alone = clean(&[("example.turn", ex.clone())]);
        let after = || {
            clean(&[
                ("ruleset.turn", format!("{ruleset}\n{ex}")),
                ("cast.turn", cast.clone()),
            ])
        };
        let inside = || {
            let wrapped = format!("{ruleset}\nplay {{ for each c in characters {{\n{ex}\n}} }}\n");
            clean(&[("ruleset.turn", wrapped), ("cast.turn", cast.clone())])
        };
        if !(alone || after() || inside()) {
            failed.push(ex.clone());
        }
    }
    assert!(
        failed.is_empty(),
        "these examples do not check:\n{}",
        failed.join("\n----\n")
    );
}
