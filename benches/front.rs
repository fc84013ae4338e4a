//! Parse + check + compile of each bundled ruleset with its encounter (`rulesets/NAME.turn` with
//! `rulesets/encounters/NAME.turn`), from text already in memory to a runnable `Program`.
//! Target: at most 1 ms each. `parse` and `check_compile` time the two halves apart.
//!
//! `cargo bench --bench front`; the figures are in docs/performance.md.

use divan::Bencher;
use turnscript::Project;

const RULESETS: [&str; 5] = ["capes", "crisis-mode", "flow-of-time", "legacy", "legends"];

fn main() {
    divan::main();
}

/// The ruleset's and its encounter's files, read once.
fn files(name: &str) -> [(String, String); 2] {
    let read = |path: String| {
        let text = std::fs::read_to_string(format!("{}/{path}", env!("CARGO_MANIFEST_DIR")))
            .unwrap_or_else(|e| panic!("{path}: {e}"));
        (path, text)
    };
    [
        read(format!("rulesets/{name}.turn")),
        read(format!("rulesets/encounters/{name}.turn")),
    ]
}

#[divan::bench(args = RULESETS)]
fn parse_check_compile(bencher: Bencher, name: &str) {
    let files = files(name);
    assert!(Project::load(files.clone()).compile().is_ok(), "{name} compiles");
    bencher.bench_local(|| {
        let project = Project::load(files.iter().map(|(n, t)| (n.as_str(), t.as_str())));
        project.compile().map(|p| p.characters.len()).unwrap_or(0)
    });
}

#[divan::bench(args = RULESETS)]
fn parse(bencher: Bencher, name: &str) {
    let files = files(name);
    bencher.bench_local(|| Project::load(files.iter().map(|(n, t)| (n.as_str(), t.as_str()))));
}

#[divan::bench(args = RULESETS)]
fn check_compile(bencher: Bencher, name: &str) {
    let project = Project::load(files(name));
    assert!(project.syntax_errors().is_empty(), "{name} parses");
    bencher.bench_local(|| project.compile().map(|p| p.characters.len()).unwrap_or(0));
}

/// What one small run costs from text (the fuzz target `run`'s body): each bundled ruleset with a
/// two-character cast, parsed, checked, compiled, prepared and run to 20,000 steps at most on the
/// run thread, the trace thrown away.
#[divan::bench(args = RULESETS)]
fn small_run(bencher: Bencher, name: &str) {
    const CAST: &str = "encounter \"bench\"\ncharacter Ana { }\ncharacter Bo { }\n";
    let [(_, ruleset), _] = files(name);
    bencher.bench_local(|| {
        let project = Project::load([("r.turn", ruleset.as_str()), ("e.turn", CAST)]);
        let Ok(program) = project.compile() else {
            return 0;
        };
        let opts = turnscript::RunOptions {
            max_steps: 20_000,
            ..turnscript::RunOptions::default()
        };
        let Ok(mut prepared) = opts.prepare(&program) else {
            return 1;
        };
        let mut sink = turnscript::trace::NullSink;
        turnscript::runtime::on_run_stack(|| {
            turnscript::runtime::run(&program, &prepared.config, &mut prepared.decider, &mut sink)
                .map(|_| 2)
                .unwrap_or(3)
        })
    });
}

/// Starting and joining the run thread alone (its stack reserved, not touched).
#[divan::bench]
fn run_thread() -> u32 {
    turnscript::runtime::on_run_stack(|| 7)
}

/// Every bundled ruleset and encounter (`rulesets/`, `rulesets/encounters/`, `rulesets/library/`,
/// `rulesets/library/encounters/`), by path from the crate's root, with `big-encounter`: a
/// generated encounter of 10,000 characters (each with a field), like the one docs/performance.md
/// runs Crisis Mode on.
fn every_file() -> Vec<(String, String)> {
    let root = env!("CARGO_MANIFEST_DIR");
    let mut files = Vec::new();
    for dir in [
        "rulesets",
        "rulesets/encounters",
        "rulesets/library",
        "rulesets/library/encounters",
    ] {
        let Ok(entries) = std::fs::read_dir(format!("{root}/{dir}")) else {
            continue;
        };
        let mut paths: Vec<_> = entries
            .flatten()
            .map(|e| e.path())
            .filter(|p| p.extension().is_some_and(|x| x == "turn"))
            .collect();
        paths.sort();
        for p in paths {
            let name = p
                .strip_prefix(root)
                .map(|p| p.display().to_string())
                .unwrap_or_default();
            let text = std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{name}: {e}"));
            files.push((name.trim_start_matches('/').to_string(), text));
        }
    }
    files.push(("big-encounter".to_string(), big_encounter()));
    files
}

/// `encounter "Ten thousand"` and 10,000 characters `character CN { finesse = N }`.
fn big_encounter() -> String {
    let mut s = String::from("encounter \"Ten thousand\"\n");
    for i in 0..10_000 {
        s.push_str(&format!("character C{i} {{ finesse = {i} }}\n"));
    }
    s
}

/// The names of [`every_file`], for divan's `args`.
fn every_name() -> Vec<String> {
    every_file().into_iter().map(|(n, _)| n).collect()
}

/// Parsing one file alone, text to AST (`syntax::parse`), with its size as divan's byte counter:
/// the parser's speed in bytes a second, per file.
#[divan::bench(args = every_name())]
fn parse_file(bencher: Bencher, name: &String) {
    let text = every_file()
        .into_iter()
        .find(|(n, _)| n == name)
        .map(|(_, t)| t)
        .unwrap_or_default();
    assert!(turnscript::syntax::parse(&text, 0).is_ok(), "{name} parses");
    bencher
        .counter(divan::counter::BytesCount::new(text.len()))
        .bench_local(|| turnscript::syntax::parse(&text, 0).map(|f| f.items.len()).unwrap_or(0));
}
