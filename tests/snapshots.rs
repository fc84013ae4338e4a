//! Data-driven snapshot tests: adding a case is adding a file.
//!
//! - `tests/cases/*.case`: a header (`ruleset:`, `encounter:`, `seed:`, `rolls:`, `until:`,
//!   `format:`, `policy:`), a `---` line, then the answers. Snapshot: the trace.
//! - `tests/diagnostics/*.turn`: a ruleset (with its cast) that fails to parse, check or run.
//!   `#! rolls: ...`, `#! answers: a, b` and `#! until: ...` lines set the run. Snapshot: the
//!   rendered diagnostics, 80 columns, no colour.

use std::path::Path;

mod common;

use common::{check_texts, run_texts};
use turnscript::project::{RunOptions, parse_answers};

fn header<'a>(text: &'a str, key: &str) -> Option<&'a str> {
    text.lines().find_map(|l| l.strip_prefix(key).map(str::trim))
}

/// The run options a header sets, and whether it asks for JSON lines.
fn options(head: &str, prefix: &str) -> (RunOptions, bool) {
    let get = |k: &str| header(head, &format!("{prefix}{k}:"));
    let opts = RunOptions {
        seed: get("seed").and_then(|s| s.parse().ok()).unwrap_or(0),
        rolls: get("rolls")
            .map(|r| r.split(',').filter_map(|x| x.trim().parse().ok()).collect())
            .unwrap_or_default(),
        until: get("until").map(str::to_string),
        policy: get("policy").map(str::to_string),
        max_steps: get("max-steps").and_then(|s| s.parse().ok()).unwrap_or(0),
        answers: Vec::new(),
        stop_on_refusal: get("stop-on-refusal") == Some("yes"),
        side_policies: Vec::new(),
        draws: get("draws")
            .map(|d| d.split(',').map(|x| x.trim().to_string()).collect())
            .unwrap_or_default(),
    };
    (opts, get("format") == Some("jsonl"))
}

fn read(path: impl AsRef<Path>) -> String {
    std::fs::read_to_string(path.as_ref()).unwrap_or_else(|e| panic!("{}: {e}", path.as_ref().display()))
}

#[test]
fn traces() {
    insta::glob!("cases/*.case", |path| {
        let text = read(path);
        let (head, answers) = text.split_once("\n---\n").unwrap_or((&text, ""));
        let mut files = Vec::new();
        for key in ["ruleset:", "encounter:"] {
            if let Some(f) = header(head, key) {
                files.push((f.to_string(), read(f)));
            }
        }
        let (opts, jsonl) = options(head, "");
        let (out, err, code) = run_texts(&files, parse_answers(answers, "answers"), &opts, jsonl);
        insta::assert_snapshot!(format!("{out}{err}exit {code}\n"));
    });
}

#[test]
fn diagnostics() {
    insta::glob!("diagnostics/*.turn", |path| {
        let text = read(path);
        let name = format!(
            "tests/diagnostics/{}",
            path.file_name().unwrap_or_default().to_string_lossy()
        );
        let files = vec![(name, text.clone())];
        let (report, clean) = check_texts(&files);
        let rendered = if clean {
            let (opts, jsonl) = options(&text, "#! ");
            let answers = header(&text, "#! answers:")
                .map(|a| {
                    a.split(',')
                        .map(|x| (x.trim().to_string(), "answers".to_string()))
                        .collect()
                })
                .unwrap_or_default();
            let (_, err, code) = run_texts(&files, answers, &opts, jsonl);
            assert_ne!(code, 0, "{} was expected to fail", path.display());
            err
        } else {
            report
        };
        assert!(!rendered.is_empty(), "{} produced no diagnostic", path.display());
        insta::assert_snapshot!(rendered);
    });
}
