//! Whole processes: `turnscript run rulesets/crisis-mode.turn --encounter FILE --format jsonl`
//! beside the hand-written Crisis Mode (`native_crisis.rs`) run as a process of its own, each
//! reading the same generated encounter file and writing the same JSON lines to a pipe drained by
//! this bench. Both pay for starting, reading their input and writing; the interpreter also
//! parses, checks and compiles the ruleset and the encounter.
//!
//! The native process is this bench's own binary, started again with `--native FILE SEED TURNS`:
//! it reads the encounter (one `character NAME { finesse = N }` a line, as the generated files
//! are written), plays it and writes the trace to stdout through a 64 KiB buffer, as `run` does.
//!
//! - `cargo bench --bench process`: divan's wall-clock times of each process, 6 to 10,000
//!   characters (the casts of `benches/crisis.rs`), 5 turns, seed 1;
//! - `cargo bench --bench process -- --cpu`: the processes' CPU time (user + system, from
//!   `getrusage` of the children), 20 runs of each, and their ratio: the figure.
//!
//! Before timing anything, each size checks that the two processes write the same bytes.

#[path = "native_crisis.rs"]
mod native;

use std::io::{BufWriter, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Duration;

use native::{Cast, Json};

const SEED: u64 = 1;
const TURNS: u64 = 5;
/// Generated casts: `N distinct` (no two Finesse values alike) or `N equal` (three values, so the
/// Finesse Check Dice roll every Round).
const CASTS: [&str; 5] = [
    "6 distinct",
    "100 distinct",
    "1000 distinct",
    "1000 equal",
    "10000 distinct",
];
const RULESET: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/rulesets/crisis-mode.turn");
const TURNSCRIPT: &str = env!("CARGO_BIN_EXE_turnscript");

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if let Some(i) = args.iter().position(|a| a == "--native") {
        native_process(&args[i + 1..]);
    } else if args.iter().any(|a| a == "--cpu") {
        cpu_table();
    } else {
        divan::main();
    }
}

/// The hand-written program as a process: `--native FILE SEED TURNS`.
fn native_process(args: &[String]) {
    let [file, seed, turns] = args else {
        panic!("--native FILE SEED TURNS");
    };
    let text = std::fs::read_to_string(file).expect("the encounter file");
    let cast = read_cast(&text);
    let stdout = std::io::stdout().lock();
    let mut out = Json::new(BufWriter::with_capacity(64 * 1024, stdout));
    native::run(
        &cast,
        seed.parse().expect("a seed"),
        Some(turns.parse().expect("a turn")),
        &mut out,
    );
    out.w.flush().expect("writing the trace");
    assert!(out.error.is_none(), "writing the trace failed");
}

/// The cast of an encounter file as `Cast::encounter_text` writes it.
fn read_cast(text: &str) -> Cast {
    let mut lines = text.lines();
    let head = lines.next().expect("an `encounter` line");
    let name = head
        .strip_prefix("encounter \"")
        .and_then(|s| s.strip_suffix('"'))
        .expect("`encounter \"NAME\"`");
    let characters = lines.filter(|l| !l.trim().is_empty()).map(|l| {
        let rest = l.strip_prefix("character ").expect("`character NAME { finesse = N }`");
        let (n, rest) = rest.split_once(" { finesse = ").expect("a finesse");
        let f = rest.strip_suffix(" }").expect("a closing brace");
        (n.to_string(), f.parse().expect("a number"))
    });
    Cast::new(name, characters)
}

/// The encounter file of a cast `N distinct` or `N equal`.
fn encounter_file(arg: &str) -> PathBuf {
    let (n, mix) = arg.split_once(' ').expect("`N mix`");
    let n: usize = n.parse().expect("a number of characters");
    let cast = if mix == "equal" {
        Cast::equal(n)
    } else {
        Cast::distinct(n)
    };
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"));
    let path = dir.join(format!("process-{n}-{mix}.turn"));
    std::fs::write(&path, cast.encounter_text()).expect("writing the encounter");
    path
}

fn interpreter(file: &Path) -> Command {
    let mut c = Command::new(TURNSCRIPT);
    c.args(["run", RULESET, "--encounter"]).arg(file);
    c.args(["--seed", &SEED.to_string(), "--until", &format!("turn={TURNS}")]);
    c.args(["--format", "jsonl", "--max-steps", "1000000000"]);
    c
}

fn native_command(file: &Path) -> Command {
    let mut c = Command::new(std::env::current_exe().expect("this bench's path"));
    c.arg("--native").arg(file).args([SEED.to_string(), TURNS.to_string()]);
    c
}

/// Runs `c`, draining its stdout; returns what it wrote, or only its length when `keep` is off.
fn drain(mut c: Command, keep: bool) -> (usize, Vec<u8>) {
    let mut child = c
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("starting");
    let mut out = child.stdout.take().expect("a pipe");
    let (mut n, mut kept, mut buf) = (0, Vec::new(), vec![0u8; 1 << 16]);
    loop {
        let k = out.read(&mut buf).expect("reading the trace");
        if k == 0 {
            break;
        }
        n += k;
        if keep {
            kept.extend_from_slice(&buf[..k]);
        }
    }
    let done = child.wait_with_output().expect("waiting");
    assert!(
        done.status.success(),
        "{c:?} failed: {}",
        String::from_utf8_lossy(&done.stderr)
    );
    (n, kept)
}

/// The two processes must write the same trace before they are timed.
fn same_trace(file: &Path) -> usize {
    let (_, i) = drain(interpreter(file), true);
    let (_, n) = drain(native_command(file), true);
    assert!(i == n, "the processes' traces differ on {}", file.display());
    i.len()
}

#[divan::bench(args = CASTS, sample_count = 20)]
fn interpreter_process(b: divan::Bencher, cast: &str) {
    let file = encounter_file(cast);
    same_trace(&file);
    b.bench(|| drain(interpreter(&file), false));
}

#[divan::bench(args = CASTS, sample_count = 20)]
fn native_process_time(b: divan::Bencher, cast: &str) {
    let file = encounter_file(cast);
    same_trace(&file);
    b.bench(|| drain(native_command(&file), false));
}

/// The children's CPU time so far (user + system).
fn children_cpu() -> Duration {
    use nix::sys::resource::{UsageWho, getrusage};
    let u = getrusage(UsageWho::RUSAGE_CHILDREN).expect("getrusage");
    let t = |tv: nix::sys::time::TimeVal| {
        Duration::from_secs(tv.tv_sec() as u64) + Duration::from_micros(tv.tv_usec() as u64)
    };
    t(u.user_time()) + t(u.system_time())
}

/// CPU time of `runs` runs of `c()`, per run.
fn cpu_per_run(runs: u32, c: impl Fn() -> Command) -> Duration {
    let before = children_cpu();
    for _ in 0..runs {
        drain(c(), false);
    }
    (children_cpu() - before) / runs
}

fn cpu_table() {
    const RUNS: u32 = 20;
    println!("| Cast, {TURNS} turns | trace | interpreter CPU | native CPU | ratio |");
    println!("|---|---|---|---|---|");
    for cast in CASTS {
        let file = encounter_file(cast);
        let bytes = same_trace(&file);
        let i = cpu_per_run(RUNS, || interpreter(&file));
        let nat = cpu_per_run(RUNS, || native_command(&file));
        println!(
            "| {cast} | {:.1} MB | {:.2} ms | {:.2} ms | {:.2} |",
            bytes as f64 / 1e6,
            i.as_secs_f64() * 1e3,
            nat.as_secs_f64() * 1e3,
            i.as_secs_f64() / nat.as_secs_f64()
        );
    }
}
