//! `turnscript new encounter --uses RULESET [--out FILE] [--force]` (issue 27): a commented
//! encounter template for a ruleset, which checks clean and runs as written for every bundled
//! and library ruleset; written whole, never over an existing file without `--force`.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

/// Runs `turnscript ARGS` from the crate's folder: stdout, stderr, exit code.
fn turnscript(args: &[&str]) -> (String, String, i32) {
    let out = Command::new(env!("CARGO_BIN_EXE_turnscript"))
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args(args)
        .env_remove("NO_COLOR")
        .output()
        .expect("the binary runs");
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
        out.status.code().unwrap_or(-1),
    )
}

/// A fresh scratch folder under the target directory.
fn scratch(name: &str) -> PathBuf {
    common::scratch("new", name)
}

/// The file a template's `uses "PATH"` names, read from the template's folder.
fn uses(text: &str, folder: &Path) -> Option<PathBuf> {
    let path = text.split("uses \"").nth(1)?.split('"').next()?;
    std::fs::canonicalize(folder.join(path)).ok()
}

/// Every bundled and library ruleset.
fn rulesets() -> Vec<String> {
    let mut out = Vec::new();
    for dir in ["rulesets", "rulesets/library"] {
        for e in std::fs::read_dir(dir).expect("the rulesets' folder").flatten() {
            let p = e.path();
            if p.extension().is_some_and(|x| x == "turn") {
                out.push(p.display().to_string());
            }
        }
    }
    out.sort();
    assert!(out.len() >= 10, "{out:?}");
    out
}

/// For each ruleset: the template, written into a folder of its own, checks clean, is formatted,
/// and plays with `run --seed 1` (Capes, whose pages repeat until a Conflict is resolved, and
/// which the example ability at score 0 never resolves, to `--until page=3`).
#[test]
fn the_template_of_every_bundled_and_library_ruleset_checks_clean_and_runs_as_written() {
    let dir = scratch("every");
    for ruleset in rulesets() {
        let stem = Path::new(&ruleset).file_stem().and_then(|s| s.to_str()).unwrap_or("x");
        let file = dir.join(format!("{stem}.turn"));
        let f = file.display().to_string();
        let (_, err, code) = turnscript(&["new", "encounter", "--uses", &ruleset, "--out", &f]);
        assert_eq!(code, 0, "{ruleset}: {err}");
        let text = std::fs::read_to_string(&file).expect("the template");
        assert_eq!(
            uses(&text, &dir),
            std::fs::canonicalize(&ruleset).ok(),
            "{ruleset}: `uses` in\n{text}"
        );
        assert!(text.contains(" × Foe {"), "{ruleset}: a group line in\n{text}");
        let (_, err, code) = turnscript(&["check", &f]);
        assert_eq!(code, 0, "{ruleset}: the template checks clean:\n{err}\n{text}");
        let (_, err, code) = turnscript(&["fmt", "--check", &f]);
        assert_eq!(code, 0, "{ruleset}: the template is formatted:\n{err}");
        let mut run = vec!["run", f.as_str(), "--seed", "1"];
        if stem == "capes" {
            run.extend(["--until", "page=3"]);
        }
        let (out, err, code) = turnscript(&run);
        assert_eq!(code, 0, "{ruleset}: the template runs:\n{err}\n{text}");
        assert!(out.contains("Foe 3"), "{ruleset}: the group plays:\n{out}");
    }
}

/// The D&D 5e template, printed: `uses` from the current folder, the sides, each field with its
/// type, default and the ruleset's own comment, the tags commented, the options commented with
/// their defaults, the things, and a group line.
#[test]
fn the_dnd5e_template_lists_every_field_with_its_type_default_and_comment() {
    let (out, err, code) = turnscript(&["new", "encounter", "--uses", "rulesets/library/dnd5e.turn"]);
    assert_eq!(code, 0, "{err}");
    let lines: Vec<String> = out
        .lines()
        .map(|l| l.split_whitespace().collect::<Vec<_>>().join(" "))
        .collect();
    for want in [
        "encounter \"New encounter\" uses \"rulesets/library/dnd5e.turn\"",
        "# param dex_breaks_ties = true",
        "# param group_rolls_once = true",
        "character \"Example pcs\" {",
        "character \"Example npcs\" {",
        "side pcs",
        "dex = 10 # the Dexterity score (number, default 10)",
        "init_bonus = 0 # DND-2 other bonuses to initiative (number, default 0)",
        "shares_roll_of = none # DND-2 shares another's roll (identical creatures declared apart) (character, default none)",
        "movement = 0 # DND-4 feet left this turn (resource, min 0, default 0)",
        "reacted = false # DND-5 its reaction is spent (flag, default false)",
        "# tag surprised: DND-10 surprised as the fight begins",
        "legendary_option \"Example legendary_option\" { owner = \"Example npcs\", cost = 1 } # DND-6 each option costs 1 to 3",
        "character 3 × Foe { side npcs }",
    ] {
        assert!(lines.iter().any(|l| l == want), "no line `{want}` in\n{out}");
    }
    // The options' own comments stand above them.
    let at = lines
        .iter()
        .position(|l| l == "# param dex_breaks_ties = true")
        .expect("the option");
    assert!(lines[at - 2].starts_with("# DND-3 [CONVENTION]"), "{out}");
}

/// Written whole; an existing file is kept (exit 1, the file unchanged) unless `--force`; a
/// ruleset with errors writes nothing; `--uses -` is refused (the encounter reaches its ruleset
/// by path).
#[test]
fn an_existing_file_is_kept_without_force_and_a_broken_ruleset_writes_nothing() {
    let dir = scratch("force");
    let file = dir.join("fight.turn");
    let f = file.display().to_string();
    std::fs::write(&file, "# mine\n").expect("a file of the GM's");
    let (_, err, code) = turnscript(&["new", "encounter", "--uses", "rulesets/legends.turn", "--out", &f]);
    assert_eq!(code, 1);
    assert!(err.contains("exists") && err.contains("--force"), "{err}");
    assert_eq!(std::fs::read_to_string(&file).expect("kept"), "# mine\n");
    let (_, err, code) = turnscript(&[
        "new",
        "encounter",
        "--uses",
        "rulesets/legends.turn",
        "--out",
        &f,
        "--force",
    ]);
    assert_eq!(code, 0, "{err}");
    let text = std::fs::read_to_string(&file).expect("replaced");
    assert!(text.starts_with("encounter \"fight\" uses \""), "{text}");
    assert_eq!(
        uses(&text, &dir),
        std::fs::canonicalize("rulesets/legends.turn").ok(),
        "{text}"
    );
    let leftovers: Vec<_> = std::fs::read_dir(&dir)
        .expect("the folder")
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n != "fight.turn")
        .collect();
    assert!(leftovers.is_empty(), "no temporary file is left: {leftovers:?}");

    let broken = dir.join("broken.turn");
    std::fs::write(&broken, "ruleset \"b\"\nplay { turn nobody { } }\n").expect("a broken ruleset");
    let out = dir.join("b.turn");
    let (_, err, code) = turnscript(&[
        "new",
        "encounter",
        "--uses",
        &broken.display().to_string(),
        "--out",
        &out.display().to_string(),
    ]);
    assert_eq!(code, 1);
    assert!(
        err.contains("check::unknown") && err.contains("no template is written"),
        "{err}"
    );
    assert!(!out.exists());
    let (_, err, code) = turnscript(&["new", "encounter", "--uses", "-"]);
    assert_eq!(code, 2, "{err}");
}
