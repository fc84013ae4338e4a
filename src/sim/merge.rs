//! `sim merge`: the JSON reports of the shards of one simulation (`--shard I/K`) added up into
//! the totals of the whole run, from which the report is built as the one-machine run builds it.
//!
//! Each report's `shard` object ([`super::shard`]) carries the program's files, their hash, the
//! options and the exact tallies. The merge refuses, with a diagnostic pointing into the files,
//! what would not add up to the whole run: a file that is not a shard's report, tallies that no
//! longer match their checksum or do not add up ([`super::shard::check_tallies`]), shards of another
//! program, seed, `-n`, policy, `--until`, `--max-steps` or number of shards, a shard given twice
//! or missing. The first failure is run again from its seed for its diagnostic.

use std::collections::BTreeMap;

use serde_json::Value;

use super::shard::{Failure, SHARD_FORMAT, Shard, check_tallies, program_hash, read_tallies, tallies_checksum};
use super::{SimOptions, Stats, Tally, encounter_seed, run_options};
use crate::compile::Program;
use crate::diag::Diag;
use crate::project::{Project, Style};
use crate::source::{FileId, Sources, Span};

/// The whole run, rebuilt: its program (compiled from the files the shards carry), options and
/// totals, ready for [`super::Report::new`].
pub struct Merged {
    pub project: Project,
    pub program: Program,
    pub opts: SimOptions,
    pub stats: Stats,
    /// The names of the program's files, as the first shard named them.
    pub files: Vec<String>,
}

/// Why the reports were not merged.
pub enum MergeError {
    /// Diagnostics about the reports themselves, pointing into them.
    Reports(Sources, Vec<Diag>),
    /// The program the shards carry does not build here.
    Program(Box<Project>, Vec<Diag>),
}

impl MergeError {
    pub fn render(&self, style: Style) -> String {
        match self {
            MergeError::Reports(sources, diags) => sources.render_all(diags, style.width, style.colour),
            MergeError::Program(project, diags) => project.render(diags, style),
        }
    }
}

/// What a shard's report says of itself.
struct Header {
    file: FileId,
    shard: Shard,
    first: u64,
    end: u64,
    n: u64,
    seed: u64,
    policy: Option<String>,
    until: Option<String>,
    max_steps: u64,
    program: String,
    files: Vec<(String, String)>,
    tallies: Value,
}

/// The span of `"key":` in the `shard` object of a report (to its line's end), or of the file's
/// first line when it is not there.
fn key_span(file: FileId, text: &str, key: &str) -> Span {
    let from = text.find("\"shard\":").unwrap_or(0);
    let line = |at: usize| {
        let end = text[at..].find('\n').map_or(text.len(), |e| at + e);
        let end = if text[at..end].ends_with(',') { end - 1 } else { end };
        Span::new(file, at, end.max(at + 1).min(text.len()))
    };
    match text[from..].find(&format!("\"{key}\":")) {
        Some(at) => line(from + at),
        None => line(0),
    }
}

fn header(file: FileId, text: &str, doc: &Value) -> Result<Header, Diag> {
    let at = |key: &str| key_span(file, text, key);
    let Some(shard) = doc.get("shard").filter(|s| s.is_object()) else {
        return Err(Diag::new("sim::not_a_shard", "this report is not a shard's: it has no `shard` object")
            .label(at("shard"), "a report without the tallies a merge adds up")
            .help("write each part with `turnscript sim ... --shard I/K --format json`; only those reports carry their exact tallies"));
    };
    let format = shard.get("format").and_then(Value::as_u64);
    let version = shard.get("turnscript").and_then(Value::as_str);
    let ours = env!("CARGO_PKG_VERSION");
    if format != Some(SHARD_FORMAT) || version != Some(ours) {
        let key = if format != Some(SHARD_FORMAT) {
            "format"
        } else {
            "turnscript"
        };
        return Err(Diag::new(
            "sim::shard_format",
            format!(
                "this shard was written by turnscript {} in shard format {}; this is turnscript {ours}, format {SHARD_FORMAT}",
                version.unwrap_or("?"),
                format.map_or("?".to_string(), |f| f.to_string())
            ),
        )
        .label(at(key), "written by another version")
        .help("run every shard and the merge with the same turnscript"));
    }
    let bad = |key: &str, what: &str| {
        Diag::new("sim::shard_format", format!("the shard's `{key}` is not {what}"))
            .label(at(key), "here")
            .help("merge the files as `sim --shard` wrote them; run this shard again if it was changed")
    };
    let u = |key: &str| {
        shard
            .get(key)
            .and_then(Value::as_u64)
            .ok_or_else(|| bad(key, "a whole number"))
    };
    let opt = |key: &str| match shard.get(key) {
        Some(Value::Null) => Ok(None),
        Some(Value::String(s)) => Ok(Some(s.clone())),
        _ => Err(bad(key, "a string or null")),
    };
    let (index, count, first, end, n) = (u("index")?, u("of")?, u("first")?, u("end")?, u("n")?);
    let Some(shard_of) = Shard::new(index, count).filter(|s| s.range(n) == (first..end)) else {
        return Err(bad(
            "index",
            "a shard of its `n` encounters (index, of, first and end disagree)",
        ));
    };
    let files = shard
        .get("files")
        .and_then(Value::as_array)
        .and_then(|fs| {
            fs.iter()
                .map(|f| {
                    Some((
                        f.get("name")?.as_str()?.to_string(),
                        f.get("text")?.as_str()?.to_string(),
                    ))
                })
                .collect::<Option<Vec<_>>>()
        })
        .filter(|fs| !fs.is_empty())
        .ok_or_else(|| bad("files", "a list of the program's files, each with a name and a text"))?;
    let program = shard
        .get("program")
        .and_then(Value::as_str)
        .ok_or_else(|| bad("program", "the hash of the program"))?
        .to_string();
    if program_hash(files.iter().map(|f| f.1.as_str())) != program {
        return Err(bad("program", "the hash of the files the shard carries"));
    }
    let tallies = shard.get("tallies").cloned().unwrap_or(Value::Null);
    let Some(checksum) = shard.get("tallies_checksum").and_then(Value::as_str) else {
        return Err(bad("tallies_checksum", "the checksum of the shard's tallies"));
    };
    if tallies_checksum(&tallies) != checksum {
        return Err(Diag::new(
            "sim::shard_format",
            format!("the shard's tallies do not match their checksum ({checksum})"),
        )
        .label(at("tallies"), "not the tallies the shard wrote")
        .help(format!(
            "the file was changed after the shard wrote it; run shard {shard_of} again (`turnscript sim ... --shard {shard_of} --format json`) and merge its new report"
        )));
    }
    Ok(Header {
        file,
        shard: shard_of,
        first,
        end,
        n,
        seed: u("seed")?,
        policy: opt("policy")?,
        until: opt("until")?,
        max_steps: u("max_steps")?,
        program,
        files,
        tallies,
    })
}

/// A JSON syntax error at its line and column.
fn json_error(file: FileId, text: &str, e: &serde_json::Error) -> Diag {
    let start: usize = text
        .split_inclusive('\n')
        .take(e.line().saturating_sub(1))
        .map(str::len)
        .sum::<usize>()
        + e.column().saturating_sub(1);
    let start = start.min(text.len());
    let start = (0..=start).rev().find(|&i| text.is_char_boundary(i)).unwrap_or(0);
    let end = text[start..].chars().next().map_or(start, |c| start + c.len_utf8());
    Diag::new("sim::json", format!("this file is not a JSON report: {e}"))
        .label(Span::new(file, start, end), "here")
        .help("give `sim merge` the JSON reports of `turnscript sim ... --shard I/K --format json`")
}

/// A report that is empty or ends before its JSON does: the shard that wrote it did not finish
/// (killed, its node lost). Names the shard when the text shows it (its `shard` object's `index`
/// and `of`) or when the reports read leave one shard out, else says how to find which.
fn cut_short(file: FileId, texts: &[(String, String)], headers: &[Header]) -> Diag {
    let (name, text) = &texts[file as usize];
    let number = |key: &str| -> Option<u64> {
        let from = text.find("\"shard\": {")?;
        let rest = &text[from..];
        let at = rest.find(&format!("\"{key}\": "))? + key.len() + 4;
        let digits: String = rest[at..].chars().take_while(char::is_ascii_digit).collect();
        // The number is whole only if something follows it.
        (digits.len() < rest.len() - at).then(|| digits.parse().ok()).flatten()
    };
    let named = number("index").zip(number("of")).and_then(|(i, k)| Shard::new(i, k));
    let k = headers.first().map(|h| h.shard.count());
    let present: Vec<u64> = headers.iter().map(|h| h.shard.index()).collect();
    let absent: Vec<String> = k
        .map(|k| {
            (1..=k)
                .filter(|i| !present.contains(i))
                .take(10)
                .map(|i| format!("{i}/{k}"))
                .collect()
        })
        .unwrap_or_default();
    // `part-3.json`: the number the file's name ends in, as the documented commands name them.
    let stem = std::path::Path::new(name)
        .file_stem()
        .and_then(|s| s.to_str())
        .unwrap_or("");
    let digits = stem.len() - stem.trim_end_matches(|c: char| c.is_ascii_digit()).len();
    let by_name = stem[stem.len() - digits..]
        .parse::<u64>()
        .ok()
        .filter(|i| k.is_none_or(|k| absent.contains(&format!("{i}/{k}"))))
        .map(|i| format!(" (its name suggests shard {i})"))
        .unwrap_or_default();
    let which = match (named, k) {
        (Some(s), _) => {
            format!("it is shard {s}: run it again (`turnscript sim ... --shard {s} --format json > {name}`)")
        }
        (None, Some(_)) if absent.len() == 1 => format!(
            "it is shard {}, the one the other reports leave out: run it again (`turnscript sim ... --shard {} --format json > {name}`)",
            absent[0], absent[0]
        ),
        (None, Some(k)) => {
            let mut read: Vec<String> = present.iter().take(10).map(|i| format!("{i}/{k}")).collect();
            if present.len() > 10 {
                read.push("...".into());
            }
            format!(
                "run it again: it is one of the shards no report read covers ({}{}){by_name}; the reports read are of shards {}",
                absent.join(", "),
                if absent.len() == 10 { ", ..." } else { "" },
                read.join(", ")
            )
        }
        (None, None) => format!(
            "run it again{by_name}: the command that wrote it gave its `--shard I/K`, and each complete report names its shard (`\"index\"` and `\"of\"` in its `shard` object)"
        ),
    };
    let diag = if text.trim().is_empty() {
        Diag::new(
            "sim::json",
            format!("{name} is empty: the shard that wrote it did not finish"),
        )
    } else {
        let end = text.len();
        let start = (0..end).rev().find(|&i| text.is_char_boundary(i)).unwrap_or(0);
        Diag::new(
            "sim::json",
            format!("{name} is cut short: the shard that wrote it did not finish"),
        )
        .label(
            Span::new(file, start, end),
            "the file ends here, in the middle of its JSON",
        )
    };
    diag.help(which)
}

/// The options of a header, as the whole run had them.
fn options(h: &Header) -> SimOptions {
    SimOptions {
        n: h.n,
        seed: h.seed,
        policy: h.policy.clone(),
        until: h.until.clone(),
        max_steps: h.max_steps,
        threads: 0,
        shard: None,
    }
}

/// An option as the report shows it: its text, or `none`.
fn shown(o: &Option<String>) -> String {
    o.as_ref().map_or("none".to_string(), |s| format!("`{s}`"))
}

/// Which of a program's files differ between two shards (by their texts): `its ruleset
/// (NAME) and its encounter (NAME)`.
fn files_differ(first: &[(String, String)], other: &[(String, String)]) -> String {
    let differ: Vec<String> = (0..first.len().max(other.len()))
        .filter(|&k| first.get(k).map(|f| &f.1) != other.get(k).map(|f| &f.1))
        .map(|k| {
            let name = other.get(k).map_or("none", |f| f.0.as_str());
            format!("its {} ({name})", role(k))
        })
        .collect();
    differ.join(" and ")
}

/// A program's file by its place: the ruleset, the encounter, or the k-th file.
fn role(k: usize) -> String {
    match k {
        0 => "ruleset".to_string(),
        1 => "encounter".to_string(),
        _ => format!("file {}", k + 1),
    }
}

/// Each file's hash (FNV-1a of its text alone, as `program` hashes them): `ruleset
/// fnv1a64:..., encounter fnv1a64:...`.
fn file_hashes(files: &[(String, String)]) -> String {
    let each: Vec<String> = files
        .iter()
        .enumerate()
        .map(|(k, f)| format!("{} {}", role(k), program_hash([f.1.as_str()])))
        .collect();
    each.join(", ")
}

/// Checks that `h` is a shard of the same run as `first`.
fn same_run(texts: &[(String, String)], first: &Header, h: &Header) -> Option<Diag> {
    let differs: [(&str, String, String); 7] = [
        ("program", first.program.clone(), h.program.clone()),
        ("n", first.n.to_string(), h.n.to_string()),
        ("seed", first.seed.to_string(), h.seed.to_string()),
        ("policy", shown(&first.policy), shown(&h.policy)),
        ("until", shown(&first.until), shown(&h.until)),
        ("max_steps", first.max_steps.to_string(), h.max_steps.to_string()),
        ("of", first.shard.count().to_string(), h.shard.count().to_string()),
    ];
    let (key, a, b) = differs.into_iter().find(|(_, a, b)| a != b)?;
    let what = match key {
        "program" => format!("another program: {} differ", files_differ(&first.files, &h.files)),
        "of" => format!("another split: {} shards, not {}", b, a),
        _ => format!("another `{key}`: {b}, not {a}"),
    };
    let (fa, fb) = (first.file as usize, h.file as usize);
    Some(
        Diag::new(
            "sim::mismatch",
            format!("{} is a shard of another simulation than {}: {what}", texts[fb].0, texts[fa].0),
        )
        .label(key_span(h.file, &texts[fb].1, key), match key {
            "program" => format!("here: {}", file_hashes(&h.files)),
            _ => format!("`{key}` here"),
        })
        .label(key_span(first.file, &texts[fa].1, key), match key {
            "program" => format!("in the first report: {}", file_hashes(&first.files)),
            _ => format!("`{key}` in the first report"),
        })
        .help(format!(
            "merge only the shards of one run: the same files, -n, --seed, --policy, --until, --max-steps and number of shards{}",
            if key == "program" {
                format!(" (in {}: {})", texts[fa].0, file_hashes(&first.files))
            } else {
                String::new()
            }
        )),
    )
}

/// Adds up the shards' reports `(name, text)` into the whole run.
pub fn merge(texts: Vec<(String, String)>) -> Result<Merged, MergeError> {
    let mut sources = Sources::new();
    let ids: Vec<FileId> = texts.iter().map(|(n, t)| sources.add(n.clone(), t.clone())).collect();
    let mut diags = Vec::new();
    let mut headers: Vec<Header> = Vec::new();
    // Reports that end before their JSON does: shards that did not finish writing them.
    let mut lost: Vec<FileId> = Vec::new();
    for (&id, (_, text)) in ids.iter().zip(&texts) {
        match serde_json::from_str::<Value>(text) {
            Err(e) if e.is_eof() => lost.push(id),
            Err(e) => diags.push(json_error(id, text, &e)),
            Ok(doc) => match header(id, text, &doc) {
                Ok(h) => headers.push(h),
                Err(d) => diags.push(d),
            },
        }
    }
    if let Some(first) = headers.first() {
        let mut seen: BTreeMap<u64, FileId> = BTreeMap::new();
        for h in &headers {
            if let Some(d) = same_run(&texts, first, h) {
                diags.push(d);
                continue;
            }
            if let Some(&was) = seen.get(&h.shard.index()) {
                let (a, b) = (was as usize, h.file as usize);
                diags.push(
                    Diag::new(
                        "sim::duplicate",
                        format!("shard {} is given twice: {} and {}", h.shard, texts[a].0, texts[b].0),
                    )
                    .label(
                        key_span(h.file, &texts[b].1, "index"),
                        format!("shard {} again", h.shard),
                    )
                    .label(key_span(was, &texts[a].1, "index"), "first given here")
                    .help("give each shard's report once (two runs of one shard count its encounters twice)"),
                );
            } else {
                seen.insert(h.shard.index(), h.file);
            }
        }
        if diags.is_empty() && lost.is_empty() {
            let k = first.shard.count();
            let missing: Vec<u64> = (1..=k).filter(|i| !seen.contains_key(i)).take(11).collect();
            if !missing.is_empty() {
                let gone = k - seen.len() as u64;
                let mut list: Vec<String> = missing.iter().take(10).map(|i| format!("{i}/{k}")).collect();
                if gone > 10 {
                    list.push(format!("and {} more", gone - 10));
                }
                let f = first.file as usize;
                diags.push(
                    Diag::new(
                        "sim::missing",
                        format!(
                            "{gone} of the {k} shards {} missing: {}",
                            if gone == 1 { "is" } else { "are" },
                            list.join(", ")
                        ),
                    )
                    .label(
                        key_span(first.file, &texts[f].1, "of"),
                        format!("a run split in {k} shards"),
                    )
                    .help(format!(
                        "run the missing shards (`--shard {}/{k}` ...) and merge all {k} reports",
                        missing[0]
                    )),
                );
            }
        }
    }
    for &id in &lost {
        diags.push(cut_short(id, &texts, &headers));
    }
    if !diags.is_empty() {
        return Err(MergeError::Reports(sources, diags));
    }
    headers.sort_by_key(|h| h.shard.index());
    let Some(first) = headers.first() else {
        return Err(MergeError::Reports(sources, Vec::new()));
    };
    let project = Project::load(first.files.clone());
    let program = match project.compile() {
        Ok(p) => p,
        Err(d) => return Err(MergeError::Program(Box::new(project), d)),
    };
    let opts = options(first);
    let mut stats = Stats::new(&program);
    let mut failure: Option<(Failure, FileId)> = None;
    for h in &headers {
        let f = h.file as usize;
        let refuse = |msg: String| {
            Diag::new("sim::shard_format", msg)
                .label(key_span(h.file, &texts[f].1, "tallies"), "these tallies")
                .help("merge the files as `sim --shard` wrote them; run this shard again if it was changed")
        };
        let (s, fail) = match read_tallies(&h.tallies, &program) {
            Ok(x) => x,
            Err(e) => {
                diags.push(refuse(format!("the shard's tallies do not fit its program: {e}")));
                continue;
            }
        };
        if let Err((key, e)) = check_tallies(&s, fail.as_ref(), h.first..h.end) {
            diags.push(
                Diag::new("sim::shard_format", format!("the shard's tallies do not add up: {e}"))
                    .label(key_span(h.file, &texts[f].1, key), "here")
                    .help(format!(
                        "the file was changed after the shard wrote it; run shard {} again and merge its new report",
                        h.shard
                    )),
            );
            continue;
        }
        if let Some(x) = fail
            && failure.as_ref().is_none_or(|(f, _)| x.index < f.index)
        {
            failure = Some((x, h.file));
        }
        stats.merge(s);
    }
    if let Some((fail, file)) = failure {
        match replay(&program, &opts, &fail) {
            Some(d) => stats.first_error = Some((fail.index, fail.seed, d)),
            None => {
                let f = file as usize;
                diags.push(
                    Diag::new(
                        "sim::replay",
                        format!(
                            "encounter {} (seed {}) failed with {} in its shard, but not so here",
                            fail.index, fail.seed, fail.code
                        ),
                    )
                    .label(key_span(file, &texts[f].1, "tallies"), "its shard's failure")
                    .help("run the shards and the merge with the same turnscript"),
                );
            }
        }
    }
    if !diags.is_empty() {
        return Err(MergeError::Reports(sources, diags));
    }
    let files = first.files.iter().map(|f| f.0.clone()).collect();
    Ok(Merged {
        files,
        project,
        program,
        opts,
        stats,
    })
}

/// The diagnostic of a failed encounter, run again from its seed; `None` when it does not fail
/// so.
fn replay(program: &Program, opts: &SimOptions, fail: &Failure) -> Option<Diag> {
    let run = run_options(opts, fail.index);
    if run.seed != encounter_seed(opts.seed, fail.index) || run.seed != fail.seed {
        return None;
    }
    let mut prepared = run.prepare(program).ok()?;
    let mut tally = Tally::new(program);
    let mut result = None;
    // On the run stack, as a worker runs it.
    let _ = std::thread::scope(|s| {
        std::thread::Builder::new()
            .stack_size(crate::limits::RUN_STACK_BYTES)
            .spawn_scoped(s, || {
                crate::runtime::run(program, &prepared.config, &mut prepared.decider, &mut tally).err()
            })
            .ok()
            .and_then(|h| h.join().ok())
            .map(|d| result = d)
    });
    result.filter(|d| d.code == fail.code)
}
