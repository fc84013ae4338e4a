//! `turnscript check` over a set of files: [`check_set`] tells rulesets from encounters, checks
//! each ruleset alone and each encounter with its ruleset, and [`CheckReport`] says how it went.

use std::path::Path;

use super::{FileKey, Project, Style, from_folder_of, paths};
use crate::diag::Diag;
use crate::syntax::ast::relabel::relabelled;
use crate::syntax::ast::{File, Item};

/// What `turnscript check` found in a set of files: each build that failed, with its project, and
/// notes about encounters that were only parsed.
#[derive(Debug, Default)]
pub struct CheckReport {
    pub failures: Vec<(Project, Vec<Diag>)>,
    pub notes: Vec<String>,
    /// The files read as rulesets, as encounters, and those that did not parse.
    pub rulesets: usize,
    pub encounters: usize,
    pub unparsed: usize,
}

impl CheckReport {
    /// Whether every file is clean.
    pub fn is_clean(&self) -> bool {
        self.failures.is_empty()
    }

    /// One line that says what was checked and how it went: `checked 2 rulesets, 5 encounters:
    /// no problems` (`check` shows it on a terminal).
    pub fn summary(&self) -> String {
        let many = |n: usize, one: &str| format!("{n} {one}{}", if n == 1 { "" } else { "s" });
        let mut what = vec![many(self.rulesets, "ruleset"), many(self.encounters, "encounter")];
        if self.unparsed > 0 {
            what.push(format!("{} that did not parse", many(self.unparsed, "file")));
        }
        let errors: usize = self.failures.iter().map(|f| f.1.len()).sum();
        let verdict = if errors == 0 {
            "no problems".to_string()
        } else {
            format!("{} (above)", many(errors, "error"))
        };
        let notes = match self.notes.len() {
            0 => String::new(),
            n => format!("; {} above", many(n, "note")),
        };
        format!("checked {}: {verdict}{notes}\n", what.join(", "))
    }

    /// The diagnostics of every failed build, then the notes.
    pub fn render(&self, style: Style) -> String {
        let mut out = String::new();
        for (p, d) in &self.failures {
            out.push_str(&p.render(d, style));
        }
        for n in &self.notes {
            out.push_str(n);
        }
        out
    }
}

/// A file given to `check`, with its project: the file parsed alone.
type Loaded = ((String, String), Project);

/// Each file parsed alone, in order.
fn load_each(texts: Vec<(String, String)>) -> Vec<Loaded> {
    texts
        .into_iter()
        .map(|t| {
            let p = Project::load([t.clone()]);
            (t, p)
        })
        .collect()
}

/// Checks files as `turnscript check` does, with the rulesets their encounters name (`uses
/// "PATH"`) and that were not given read in by `read` (a path to its text, or the message of
/// why not), before the others, the last named first. The ruleset a file names is found in its
/// parse alone (see [`check_set`]), so each file is still parsed once.
pub fn check_named(
    texts: Vec<(String, String)>,
    read: impl FnMut(&str) -> Result<String, String>,
) -> Result<CheckReport, String> {
    Ok(check_loaded(with_named(load_each(texts), read)?))
}

/// The files, with the rulesets they name read in and parsed too when they were not given
/// (before the others, the last named first). Paths are compared by their keys, each made once:
/// no pair of files is compared.
fn with_named(
    loaded: Vec<Loaded>,
    mut read: impl FnMut(&str) -> Result<String, String>,
) -> Result<Vec<Loaded>, String> {
    let named: Vec<String> = loaded.iter().filter_map(|(t, p)| p.named_ruleset(&t.0, &t.1)).collect();
    if named.is_empty() {
        return Ok(loaded);
    }
    let mut given: std::collections::HashSet<FileKey> = loaded.iter().map(|(t, _)| FileKey::of(&t.0)).collect();
    let mut added = Vec::new();
    for path in named {
        if given.insert(FileKey::of(&path)) {
            let text = read(&path)?;
            added.push((path, text));
        }
    }
    added.reverse();
    let mut all = load_each(added);
    all.extend(loaded);
    Ok(all)
}

/// Checks files as `turnscript check` does. Each file is first parsed alone to tell rulesets
/// from encounters; each ruleset is checked alone, and each encounter with the ruleset of the
/// same file name when one is given (`encounters/NAME.turn` with `NAME.turn`), else with every
/// ruleset given. Encounters given without any ruleset are only parsed. Each file is parsed
/// once: an encounter's parse alone is moved to the file id it takes in each pair
/// ([`Relabel`](crate::syntax::ast::relabel::Relabel)).
pub fn check_set(texts: &[(String, String)]) -> CheckReport {
    check_loaded(load_each(texts.to_vec()))
}

/// [`check_set`] of files already parsed alone.
fn check_loaded(loaded: Vec<Loaded>) -> CheckReport {
    let (texts, projects): (Vec<(String, String)>, Vec<Project>) = loaded.into_iter().unzip();
    let mut report = CheckReport::default();
    // Each ruleset with its project, parsed once: checked alone, and the base of each pair.
    let mut rulesets: Vec<(&(String, String), Project)> = Vec::new();
    let mut encounters = Vec::new();
    // Each encounter's parse alone (as file 0), in the order of `encounters`.
    let mut parses: Vec<Option<File>> = Vec::new();
    for (t, p) in texts.iter().zip(projects) {
        // The characters a file may not hold are reported here, once per file, whether or not
        // it is checked with others later.
        let mut alone = p.characters.clone();
        if !p.syntax_errors().is_empty() {
            alone.extend(p.syntax_errors().iter().cloned());
            report.unparsed += 1;
            report.failures.push((p, alone));
            continue;
        }
        if p.is_encounter() && !p.bad_uses().is_empty() {
            // Reported as `turnscript run` would report it, playing it under itself.
            alone.extend(p.bad_uses());
            report.failures.push((p, alone));
            continue;
        }
        if !alone.is_empty() {
            report.failures.push((p.clone(), alone));
        }
        if p.is_encounter() {
            // The ruleset it names, found once (from the file already parsed).
            encounters.push((t, p.uses(&t.0)));
            parses.push(p.files.into_iter().next());
        } else {
            rulesets.push((t, p))
        }
    }
    (report.rulesets, report.encounters) = (rulesets.len(), encounters.len());
    let ruleset_files: Vec<&(String, String)> = rulesets.iter().map(|(r, _)| *r).collect();
    let paired = pairings(&ruleset_files, &encounters);
    // How many pairs each encounter is still to be checked in: the last takes its parse, the
    // others a copy.
    let mut left = vec![0usize; encounters.len()];
    for &k in paired.iter().flatten() {
        left[k] += 1;
    }
    // The errors of a build, less the characters no file may hold (reported above, with each file
    // alone).
    let errors = |p: &Project| match p.compile() {
        Ok(_) => Vec::new(),
        Err(mut d) => {
            d.retain(|d| d.code != crate::syntax::text::CODE);
            d
        }
    };
    for ((r, mut alone), with) in rulesets.into_iter().zip(&paired) {
        let found = errors(&alone);
        if !found.is_empty() {
            report.failures.push((alone, found));
            for &k in with {
                let e = encounters[k].0;
                left[k] -= 1;
                report.notes.push(format!(
                    "note: {} was not checked against {}: the ruleset has errors (above)\n",
                    e.0, r.0
                ));
            }
            continue;
        }
        for (n, &k) in with.iter().enumerate() {
            let e = encounters[k].0;
            left[k] -= 1;
            let parsed = match left[k] {
                0 => parses[k].take(),
                _ => parses[k].clone(),
            };
            // The last pair takes the ruleset's project, the others a copy.
            let mut pair = match n + 1 == with.len() {
                true => std::mem::take(&mut alone),
                false => alone.clone(),
            };
            pair.add_parsed(e.0.clone(), e.1.clone(), |text, id| match parsed {
                Some(file) => Ok(relabelled(file, id)),
                None => crate::syntax::parse(text, id),
            });
            let found = errors(&pair);
            if !found.is_empty() {
                report.failures.push((pair, found));
            }
        }
    }
    if ruleset_files.is_empty() {
        // A file that does not parse may be the ruleset: say so rather than ask for it.
        let unparsed = !report.failures.is_empty();
        for (e, _) in &encounters {
            report.notes.push(if unparsed {
                format!(
                    "note: {} is an encounter and was only parsed: no ruleset given parses (fix the errors above, then check again)\n",
                    e.0
                )
            } else {
                format!(
                    "note: {} is an encounter and was only parsed: give its ruleset too to check it\n",
                    e.0
                )
            });
        }
    }
    report
}

fn stem(path: &str) -> &str {
    Path::new(path).file_stem().and_then(|s| s.to_str()).unwrap_or(path)
}

/// For each ruleset, the encounters (with the ruleset each names, if it names one) checked with
/// it, in order: the ruleset an encounter names (`encounter "..." uses "PATH"`), else the ruleset
/// of the same file name if one is given, else every ruleset given. Paths are compared by their
/// keys, each made once, and file names in a map: no pair of files is compared.
fn pairings(rulesets: &[&(String, String)], encounters: &[(&(String, String), Option<String>)]) -> Vec<Vec<usize>> {
    use std::collections::HashMap;
    let mut by_key: HashMap<FileKey, Vec<usize>> = HashMap::new();
    let mut by_stem: HashMap<&str, Vec<usize>> = HashMap::new();
    let any_named = encounters.iter().any(|e| e.1.is_some());
    for (i, r) in rulesets.iter().enumerate() {
        if any_named {
            by_key.entry(FileKey::of(&r.0)).or_default().push(i);
        }
        by_stem.entry(stem(&r.0)).or_default().push(i);
    }
    let every: Vec<usize> = (0..rulesets.len()).collect();
    let mut out = vec![Vec::new(); rulesets.len()];
    for (k, (e, named)) in encounters.iter().enumerate() {
        let with = match named {
            Some(path) => by_key.get(&FileKey::of(path)),
            None => by_stem.get(stem(&e.0)).or(Some(&every)),
        };
        for &i in with.into_iter().flatten() {
            out[i].push(k);
        }
    }
    out
}

/// [`named_ruleset`] of a file that parsed, `path`'s, found in its parse.
fn uses_of(path: &str, file: &File) -> Option<String> {
    let uses = file.items.iter().find_map(|i| match i {
        Item::Encounter { uses: Some(u), .. } => Some(u),
        _ => None,
    })?;
    paths::not_a_file(path, &uses.node)
        .is_none()
        .then(|| from_folder_of(path, &uses.node))
}

/// A file parsed (as file 0) before its project was made, to find the ruleset it names: handed
/// to the project that loads the same text ([`Project::load_with`]), so that it is parsed once.
#[derive(Debug)]
pub struct Parsed {
    text: String,
    file: File,
}

/// The ruleset the file `(path, text)` names, as [`named_ruleset`] finds it, and the file's parse
/// when it parses: a command that runs the file hands the parse to its project, so the file is
/// parsed once whether or not it names a ruleset (a scan for `uses` first would cost a tenth of
/// a parse).
pub fn named_ruleset_parsed(path: &str, text: &str) -> (Option<String>, Option<Parsed>) {
    match crate::syntax::parse(text, 0) {
        Ok(file) => (
            uses_of(path, &file),
            Some(Parsed {
                text: text.to_string(),
                file,
            }),
        ),
        // Read again item by item, up to the error, as `check` reads it.
        Err(_) => (named_ruleset(path, text), None),
    }
}

impl Project {
    /// Loads files as [`Project::load`] does; a file whose text is `parsed`'s takes that parse,
    /// moved to the file's id, instead of being parsed again.
    pub fn load_with(files: impl IntoIterator<Item = (String, String)>, parsed: Option<Parsed>) -> Self {
        let mut project = Project::new();
        let mut parsed = parsed;
        for (name, text) in files {
            match parsed.take_if(|p| p.text == text) {
                Some(p) => project.add_parsed(name, text, |_, id| Ok(relabelled(p.file, id))),
                None => project.add(name, text),
            };
        }
        project
    }
}

/// The ruleset an encounter file names (`uses "PATH"`), as a path from where the encounter is:
/// `PATH` is read from the encounter's own folder.
/// Only the items up to the `encounter` declaration that names one are parsed, one at a time.
pub fn named_ruleset(encounter_path: &str, text: &str) -> Option<String> {
    // Without the word `uses` outside strings and comments, no line names a ruleset: nothing to
    // parse (the command parses the file once, after).
    if !paths::has_uses(text) {
        return None;
    }
    let mut uses = None;
    let _ = crate::syntax::each_item(text, 0, |item| match item {
        Item::Encounter { uses: Some(u), .. } => {
            uses = Some(u);
            std::ops::ControlFlow::Break(())
        }
        _ => std::ops::ControlFlow::Continue(()),
    });
    let uses = uses?;
    paths::not_a_file(encounter_path, &uses.node)
        .is_none()
        .then(|| from_folder_of(encounter_path, &uses.node))
}

impl Project {
    /// [`named_ruleset`] of this project's one file, `(path, text)`, found in its parse; in the
    /// items up to its first syntax error when it does not parse (as [`named_ruleset`] reads).
    fn named_ruleset(&self, path: &str, text: &str) -> Option<String> {
        if !self.syntax.is_empty() {
            return named_ruleset(path, text);
        }
        uses_of(path, self.files.first()?)
    }

    /// The ruleset the encounter among these files names (`uses "PATH"`), as a path from
    /// `encounter_path`, the encounter's own.
    fn uses(&self, encounter_path: &str) -> Option<String> {
        let uses = self.files.iter().flat_map(|f| &f.items).find_map(|i| match i {
            Item::Encounter { uses: Some(u), .. } => Some(u.node.clone()),
            _ => None,
        })?;
        Some(from_folder_of(encounter_path, &uses))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// How many files `f` parses (`syntax::each_item` calls on this thread).
    fn parses(f: impl FnOnce()) -> usize {
        let before = crate::syntax::PARSES.with(|n| n.get());
        f();
        crate::syntax::PARSES.with(|n| n.get()) - before
    }

    const RULESET: &str = "ruleset \"r\"\nstat hp\nplay { }\n";

    fn file(name: &str, text: &str) -> (String, String) {
        (name.to_string(), text.to_string())
    }

    /// `check R E` parses each file once: the ruleset alone (it was parsed again to be checked
    /// alone and again with the encounter), the encounter alone (it was parsed again with the
    /// ruleset: its parse alone is moved to its id in the pair).
    #[test]
    fn check_parses_each_file_once() {
        let texts = [
            file("r.turn", RULESET),
            file("e.turn", "encounter \"e\"\ncharacter Ana { hp = 1 }\n"),
        ];
        let mut report = CheckReport::default();
        assert_eq!(parses(|| report = check_set(&texts)), 2);
        assert!(report.is_clean(), "{}", report.render(Style::default()));
    }

    /// Encounters checked with two rulesets each (no file names match): still one parse per file,
    /// the parse of each encounter given to both of its pairs.
    #[test]
    fn an_encounter_checked_in_two_pairs_is_parsed_once() {
        let texts = [
            file("r1.turn", RULESET),
            file("r2.turn", RULESET),
            file("e1.turn", "encounter \"e\"\ncharacter Ana { hp = 1 }\n"),
            file("e2.turn", "character Bo { hp = 2 }\n"),
        ];
        let mut report = CheckReport::default();
        assert_eq!(parses(|| report = check_set(&texts)), 4);
        assert!(report.is_clean(), "{}", report.render(Style::default()));
        assert_eq!((report.rulesets, report.encounters), (2, 2));
    }

    /// An error found in a pair points into the encounter, in both pairs, as when the encounter was
    /// parsed again in each: its spans were moved to the encounter's id there (as file 0 they
    /// would point into the ruleset).
    #[test]
    fn an_error_in_a_pair_points_into_the_encounter() {
        let texts = [
            file("r1.turn", RULESET),
            file("r2.turn", RULESET),
            file("e.turn", "encounter \"e\"\ncharacter Ana { mp = 1 }\n"),
        ];
        let report = check_set(&texts);
        assert_eq!(report.failures.len(), 2, "{}", report.render(Style::default()));
        for (p, d) in &report.failures {
            // Each diagnostic's first label, the one its report shows the file of.
            let at = d.iter().filter_map(|d| d.labels.first().map(|l| l.0));
            let names: Vec<&str> = at.map(|s| p.sources().name(s.file)).collect();
            assert!(!names.is_empty() && names.iter().all(|n| *n == "e.turn"), "{names:?}");
            let shown = p.render(d, Style::default());
            assert!(shown.contains("e.turn:2:"), "{shown}");
        }
    }

    /// Finding the ruleset an encounter names parses nothing when no `uses` is written outside
    /// strings and comments (it parsed the whole file, and the command parsed it again).
    #[test]
    fn an_encounter_without_uses_is_not_parsed_for_it() {
        let plain = "encounter \"e\" # uses nothing\ncharacter \"uses\" { hp = 1 }\n";
        assert_eq!(parses(|| assert_eq!(named_ruleset("e.turn", plain), None)), 0);
        let named = "character Ana { hp = 1 }\nencounter \"e\" uses \"r.turn\"\n";
        assert_eq!(named_ruleset("x/e.turn", named).as_deref(), Some("x/r.turn"));
    }

    /// Issue 29: each encounter's named ruleset was compared with every file given, through the
    /// file system. Each path is canonicalised once.
    #[test]
    fn the_rulesets_encounters_name_are_found_with_a_key_per_path() {
        let dir = std::env::temp_dir().join(format!("turnscript-named-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let n = 12;
        let mut texts = Vec::new();
        for k in 0..n {
            let r = dir.join(format!("r{k}.turn")).display().to_string();
            std::fs::write(&r, "play { }\n").unwrap();
            texts.push((r, "play { }\n".to_string()));
            let e = dir.join(format!("e{k}.turn")).display().to_string();
            texts.push((e, format!("encounter \"e{k}\" uses \"./r{k}.turn\"\n")));
        }
        // The last encounter's ruleset is not given: it is read in.
        texts.remove(2 * n - 2);
        let loaded = load_each(texts);
        let before = crate::project::canonicalised();
        let all = with_named(loaded, |p| std::fs::read_to_string(p).map_err(|e| e.to_string())).unwrap();
        let calls = crate::project::canonicalised() - before;
        std::fs::remove_dir_all(&dir).unwrap();
        assert_eq!(all.len(), 2 * n);
        assert!(all[0].0.0.ends_with(&format!("r{}.turn", n - 1)), "{:?}", all[0].0.0);
        assert!(
            calls <= 3 * n,
            "{calls} paths canonicalised for {n} rulesets and {n} encounters"
        );
    }

    /// `check` finds the ruleset an encounter names in the encounter's one parse, wherever its
    /// `encounter ... uses` line stands (it read the file's items again to find it, the whole file
    /// when the line came last), and reads in a ruleset not given: one parse per file.
    #[test]
    fn the_ruleset_an_encounter_names_is_found_in_its_one_parse() {
        let first = "encounter \"e\" uses \"r.turn\"\ncharacter Ana { hp = 1 }\n";
        let last = "character Ana { hp = 1 }\nencounter \"e\" uses \"r.turn\"\n";
        for e in [first, last] {
            let given = vec![file("r.turn", RULESET), file("e.turn", e)];
            let mut report = Ok(CheckReport::default());
            let no_reading = |p: &str| Err(format!("{p} was read"));
            assert_eq!(parses(|| report = check_named(given, no_reading)), 2);
            let report = report.unwrap();
            assert!(report.is_clean(), "{}", report.render(Style::default()));
            assert_eq!((report.rulesets, report.encounters), (1, 1));
            // The ruleset named and not given is read in, and parsed once.
            let mut read = Vec::new();
            let reading = |p: &str| {
                read.push(p.to_string());
                Ok(RULESET.to_string())
            };
            let mut report = Ok(CheckReport::default());
            assert_eq!(parses(|| report = check_named(vec![file("e.turn", e)], reading)), 2);
            let report = report.unwrap();
            assert!(report.is_clean(), "{}", report.render(Style::default()));
            assert_eq!(
                (report.rulesets, report.encounters, read),
                (1, 1, vec!["r.turn".to_string()])
            );
        }
        // A file that does not parse names its ruleset in the items before its error, as before.
        let broken = "encounter \"e\" uses \"r.turn\"\ncharacter Ana { hp = }\n";
        let report = check_named(vec![file("e.turn", broken)], |_| Ok(RULESET.to_string())).unwrap();
        assert_eq!((report.rulesets, report.unparsed), (1, 1));
    }

    /// `run` and `sim` find the ruleset an encounter names in the encounter's one parse, handed
    /// to their project (it read the encounter's items to find it, all of them when its `uses`
    /// line came last, then parsed it again); a parse of another text is not taken.
    #[test]
    fn a_run_parses_the_encounter_that_names_its_ruleset_once() {
        let first = "encounter \"e\" uses \"r.turn\"\ncharacter Ana { mp = 1 }\n";
        let last = "character Ana { mp = 1 }\nencounter \"e\" uses \"r.turn\"\n";
        for e in [first, last] {
            let mut project = Project::new();
            let n = parses(|| {
                let (named, parsed) = named_ruleset_parsed("x/e.turn", e);
                assert_eq!(named.as_deref(), Some("x/r.turn"));
                project = Project::load_with([file("x/r.turn", RULESET), file("x/e.turn", e)], parsed);
            });
            assert_eq!(n, 2);
            // The same errors as the files parsed in the project, in the encounter.
            let plain = Project::load([file("x/r.turn", RULESET), file("x/e.turn", e)]);
            let (got, want) = (project.check().unwrap_err(), plain.check().unwrap_err());
            let shown = project.render(&got, Style::default());
            assert_eq!(shown, plain.render(&want, Style::default()));
            assert!(shown.contains("x/e.turn:"), "{shown}");
        }
        // A parse of another text (the file changed between the reads) is not taken.
        let (_, parsed) = named_ruleset_parsed("e.turn", first);
        let n = parses(|| {
            drop(Project::load_with(
                [file("r.turn", RULESET), file("e.turn", last)],
                parsed,
            ))
        });
        assert_eq!(n, 2);
        // A file that does not parse names its ruleset in its items before the error; no parse
        // is handed on.
        let broken = "encounter \"e\" uses \"r.turn\"\ncharacter Ana { hp = }\n";
        let (named, parsed) = named_ruleset_parsed("e.turn", broken);
        assert_eq!((named.as_deref(), parsed.is_none()), (Some("r.turn"), true));
    }
}
