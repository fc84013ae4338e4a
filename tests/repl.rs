//! The REPL, through its non-interactive front end, and once in a real terminal (tmux).
//!
//! `tests/repl/*.session`: a header (`ruleset:`, `encounter:`, `seed:`, and `copy: yes` to run
//! against a scratch copy of the ruleset), a `---` line, then commands as typed. `$TMP` in a
//! command is a scratch directory (shown as `$TMP` in the output). A line
//! `#! replace "OLD" "NEW"` edits the scratch copy of the ruleset at that point (for `reload`).
//! Snapshot: the transcript.

mod common;

use std::path::{Path, PathBuf};

use turnscript::repl::{Options, Repl, script};
use turnscript::runtime::on_run_stack;

fn read(path: impl AsRef<Path>) -> String {
    std::fs::read_to_string(path.as_ref()).unwrap_or_else(|e| panic!("{}: {e}", path.as_ref().display()))
}

fn header<'a>(text: &'a str, key: &str) -> Option<&'a str> {
    text.lines().find_map(|l| l.strip_prefix(key).map(str::trim))
}

/// A fresh scratch directory under the target directory.
fn scratch(name: &str) -> PathBuf {
    common::scratch("repl", name)
}

fn quoted(s: &str) -> Vec<String> {
    s.split('"').skip(1).step_by(2).map(str::to_string).collect()
}

/// Runs a session script; returns the transcript with the scratch directory as `$TMP`.
fn run_session(text: &str, name: &str) -> String {
    let (head, body) = text.split_once("\n---\n").expect("a `---` line after the header");
    let tmp = scratch(name);
    let tmp_s = tmp.display().to_string();
    let mut ruleset = header(head, "ruleset:").map(PathBuf::from);
    if header(head, "copy:") == Some("yes")
        && let Some(r) = &ruleset
    {
        let copy = tmp.join("ruleset.turn");
        std::fs::copy(r, &copy).expect("copy the ruleset");
        ruleset = Some(copy);
    }
    let opts = Options {
        ruleset: ruleset.clone(),
        encounter: header(head, "encounter:").map(PathBuf::from),
        seed: header(head, "seed:").and_then(|s| s.parse().ok()).unwrap_or(0),
        autosave: None,
        colour: Some(false),
        width: 0,
    };
    let body = body.replace("$TMP", &tmp_s);
    let out = on_run_stack(|| {
        let (mut repl, start) = match Repl::new(opts) {
            Ok(r) => r,
            Err(e) => return e,
        };
        let mut out = start;
        let mut chunk = String::new();
        for line in body.lines() {
            if let Some(rest) = line.strip_prefix("#! replace ") {
                out.push_str(&script(&mut repl, &std::mem::take(&mut chunk)));
                let q = quoted(rest);
                let path = ruleset.as_ref().expect("a ruleset to edit");
                let old = read(path);
                assert!(old.contains(&q[0]), "{name}: the ruleset has no `{}` to replace", q[0]);
                std::fs::write(path, old.replacen(&q[0], &q[1], 1)).expect("edit the copy");
                out.push_str(&format!("(the test edits the ruleset: `{}` → `{}`)\n", q[0], q[1]));
            } else {
                chunk.push_str(line);
                chunk.push('\n');
            }
        }
        out.push_str(&script(&mut repl, &chunk));
        out
    });
    out.replace(&tmp_s, "$TMP")
}

#[test]
fn sessions() {
    insta::glob!("repl/*.session", |path| {
        let name = path.file_stem().unwrap_or_default().to_string_lossy().to_string();
        insta::assert_snapshot!(run_session(&read(path), &name));
    });
}

/// The `show all` replies in a transcript, in order.
fn shows(transcript: &str) -> Vec<String> {
    replies(transcript, "> show all")
}

/// The replies to the commands that start with `command` in a transcript, in order.
fn replies(transcript: &str, command: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur: Option<String> = None;
    for line in transcript.lines() {
        if line.starts_with("> ") || line.starts_with("exit ") {
            if let Some(c) = cur.take() {
                out.push(c);
            }
            if line.starts_with(command) {
                cur = Some(String::new());
            }
        } else if let Some(c) = &mut cur {
            c.push_str(line);
            c.push('\n');
        }
    }
    out.extend(cur);
    out
}

const CRISIS: &str = "ruleset: rulesets/crisis-mode.turn\nencounter: rulesets/encounters/crisis-mode.turn\nseed: 7\n";

#[test]
fn save_then_load_gives_the_identical_state() {
    let t = run_session(
        &format!(
            "{CRISIS}---\nstep turn\nanswer 1\nset Brick.ap = 2\nroll 3 3\nstep round\nshow all 50\nsave $TMP/s.tsession\nundo 5\nload $TMP/s.tsession\nshow all 50\n"
        ),
        "save-load-test",
    );
    let s = shows(&t);
    assert_eq!(s.len(), 2, "{t}");
    assert!(s[0].contains("decision"), "{t}");
    assert_eq!(s[0], s[1], "the loaded state differs:\n{t}");
}

/// A command goes on from where the run waits, without replaying the log; a replay of the log
/// (`load`) must reach the very same state. Every session of `tests/repl/` (but those that edit
/// the ruleset on the way) is played, saved, loaded, and its trace and table compared.
#[test]
fn going_on_reaches_the_state_a_replay_reaches() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/repl");
    let mut played = 0;
    for entry in std::fs::read_dir(&dir).expect("tests/repl") {
        let path = entry.expect("an entry").path();
        let text = read(&path);
        if path.extension().is_none_or(|e| e != "session") || text.contains("#! replace") {
            continue;
        }
        let name = path.file_stem().unwrap_or_default().to_string_lossy().to_string();
        let t = run_session(
            &format!(
                "{}\nshow all 200\ntrace\nsave $TMP/again.tsession\nload $TMP/again.tsession\nshow all 200\ntrace\n",
                text.trim_end()
            ),
            &format!("again-{name}"),
        );
        // The table's first line counts what may be redone, which a save leaves out.
        let table = |s: &String| s.lines().skip(1).collect::<Vec<_>>().join("\n");
        let (s, tr) = (shows(&t), replies(&t, "> trace"));
        assert!(s.len() >= 2 && tr.len() >= 2, "{name}: {t}");
        assert_eq!(
            table(&s[s.len() - 2]),
            table(&s[s.len() - 1]),
            "{name}: the replayed table differs:\n{t}"
        );
        assert_eq!(
            tr[tr.len() - 2],
            tr[tr.len() - 1],
            "{name}: the replayed trace differs:\n{t}"
        );
        played += 1;
    }
    assert!(played >= 15, "only {played} sessions played");
}

/// 200 commands after `auto foes`: none replays the log, each goes on from where the run waits
/// (only `auto`, which changes whose policy the pending decision was worked out for, replays).
#[test]
fn a_command_goes_on_without_replaying() {
    let (mut repl, _) = Repl::new(common::legends_repl()).unwrap_or_else(|e| panic!("{e}"));
    let mut commands = String::from("auto foes\n");
    for i in 0..200 {
        commands.push_str(&format!("set Kessa.dex = {}\n", i % 20 + 1));
    }
    commands.push_str("step\n");
    let out = script(&mut repl, &commands);
    assert!(out.ends_with("exit 0\n"), "{out}");
    let s = repl.session.as_ref().expect("a session");
    assert_eq!(s.log.len(), 202, "{out}");
    assert_eq!(s.state.went_on, 201, "{out}");
    // A command that replays starts the count again.
    let out = script(&mut repl, "seed 9\nset Kessa.dex = 3\n");
    let s = repl.session.as_ref().expect("a session");
    assert_eq!(s.state.went_on, 1, "{out}");
}

/// A session longer than any source file (12,000 commands, about 570 KB saved) saves and loads:
/// sessions have their own size limit, not a ruleset's.
#[test]
fn a_long_session_saves_and_loads() {
    let dir = scratch("long-session");
    let mut commands = String::from("auto foes\n");
    for i in 0..12_000 {
        commands.push_str(&format!("set Kessa.dex = {}\n", i % 20 + 1));
    }
    let path = dir.join("long.tsession");
    commands.push_str(&format!("save {0}\nload {0}\nshow Kessa\n", path.display()));
    let t = run_session(&format!("{LEGENDS}---\n{commands}"), "long-session-run");
    let size = std::fs::metadata(&path).map(|m| m.len()).unwrap_or(0);
    assert!(
        size > 512 * 1024,
        "the session is {size} bytes: too short to test the limit"
    );
    assert!(
        t.contains("saved 12001 commands"),
        "{}",
        &t[t.len().saturating_sub(2000)..]
    );
    assert!(t.ends_with("exit 0\n"), "{}", &t[t.len().saturating_sub(2000)..]);
    assert!(t.contains("loaded"), "{}", &t[t.len().saturating_sub(2000)..]);
}

const LEGENDS: &str = "ruleset: rulesets/legends.turn\nencounter: rulesets/encounters/legends.turn\nseed: 1\n";

#[test]
fn bad_commands_change_nothing() {
    let bad = [
        "frobnicate",
        "answer 99",
        "answer nothing",
        "set Nobody.ap = 3",
        "set Ana.ap = lots",
        "set Ana.nothing = 1",
        "roll 4 x",
        "step nowhere",
        "step 2 3",
        "remove Nobody",
        "undo 1",
        "redo",
        "seed -1",
        "add nothing here",
        "load $TMP/missing.tsession",
        "step until round=",
        "step until nowhere=2",
        "continue foo",
        "continue until round=x",
        "auto nobody",
        "auto all nopolicy",
        "ask",
        "show nobody",
        "set Ana.passed = maybe",
        "set Ana.ap = true",
        "begin nothing on Ana for 2",
        "stop nothing on Ana",
        "place Ana middle in by_ap",
        "place Ana before Nobody in by_ap",
        "place Ana first in nowhere",
        "rank nowhere",
    ];
    let t = run_session(
        &format!("{CRISIS}---\nshow all 100\n{}\nshow all 100\n", bad.join("\n")),
        "bad-test",
    );
    let s = shows(&t);
    assert_eq!(s.len(), 2, "{t}");
    assert_eq!(s[0], s[1], "a bad command changed the state:\n{t}");
    assert_eq!(
        t.matches("\n  × ").count() + t.matches("error: ").count(),
        bad.len(),
        "{t}"
    );
    assert!(t.ends_with("exit 1\n"), "{t}");
}

#[test]
fn a_session_that_only_steps_matches_turnscript_run() {
    // Stepping with the policy to the end gives the trace `turnscript run` gives (a ruleset that
    // ends by itself: the REPL has no default round limit).
    let t = run_session(
        "ruleset: rulesets/capes.turn\nencounter: rulesets/encounters/capes.turn\nseed: 7\n---\nstep end\n",
        "run-equivalence",
    );
    let files: Vec<(String, String)> = ["rulesets/capes.turn", "rulesets/encounters/capes.turn"]
        .iter()
        .map(|f| (f.to_string(), read(f)))
        .collect();
    let opts = turnscript::RunOptions {
        seed: 7,
        ..Default::default()
    };
    let (run_out, _, code) = common::run_texts(&files, Vec::new(), &opts, false);
    assert_eq!(code, 0);
    let repl_trace: String = t
        .lines()
        .filter(|l| {
            !l.starts_with("> ")
                && !l.starts_with("decision ")
                && !l.starts_with("the encounter is over")
                && !l.starts_with("exit ")
        })
        .map(|l| format!("{l}\n"))
        .collect();
    assert_eq!(repl_trace, run_out);
}

fn legends(colour: bool) -> Repl {
    let opts = Options {
        ruleset: Some(PathBuf::from("rulesets/legends.turn")),
        encounter: Some(PathBuf::from("rulesets/encounters/legends.turn")),
        seed: 1,
        autosave: None,
        colour: Some(colour),
        width: 0,
    };
    match Repl::new(opts) {
        Ok((r, _)) => r,
        Err(e) => panic!("{e}"),
    }
}

#[test]
fn the_prompt_says_where_the_fight_is() {
    on_run_stack(|| {
        let mut repl = legends(false);
        // Before the first round: no numbered level yet, only who decides.
        assert_eq!(repl.prompt(), "Raider> ");
        assert!(!repl.exec("step until round=2").error);
        assert_eq!(repl.prompt(), "round 3 · Kessa> ");
        // No default round limit in the REPL: a fight the rules never end runs into the step
        // budget, which refuses the command and changes nothing.
        let r = repl.exec("step end");
        assert!(r.error && r.out.contains("run::step_budget"), "{}", r.out);
        assert!(r.out.contains("`continue until round=8` plays to a point"), "{}", r.out);
        assert_eq!(repl.prompt(), "round 3 · Kessa> ");
    });
}

#[test]
fn colour_only_when_asked() {
    on_run_stack(|| {
        let plain = legends(false).exec("show").out;
        assert!(!plain.contains('\x1b'), "{plain}");
        let mut coloured = legends(true);
        let out = coloured.exec("show").out;
        assert!(out.contains("\x1b[1m"), "{out:?}");
        assert!(coloured.prompt().contains("\x1b[1m"), "{:?}", coloured.prompt());
        let err = coloured.exec("answer nobody").out;
        assert!(err.contains('\x1b'), "a diagnostic in colour: {err:?}");
    });
}

fn autosaving(path: PathBuf) -> Result<(Repl, String), String> {
    Repl::new(Options {
        ruleset: Some(PathBuf::from("rulesets/legends.turn")),
        encounter: Some(PathBuf::from("rulesets/encounters/legends.turn")),
        seed: 1,
        autosave: Some(path),
        colour: Some(false),
        width: 0,
    })
}

#[test]
fn an_autosave_that_cannot_be_written_is_refused_at_the_start() {
    let dir = std::env::temp_dir().join(format!("turnscript-autosave-refused-{}", std::process::id()));
    let err = on_run_stack(|| match autosaving(dir.join("no-such-folder").join("a.tsession")) {
        Ok(_) => String::new(),
        Err(e) => e,
    });
    assert!(err.starts_with("error: cannot write the autosave"), "{err}");
    assert!(err.contains("--no-autosave"), "{err}");
}

#[test]
fn an_existing_autosave_is_never_replaced() {
    let dir = std::env::temp_dir().join(format!("turnscript-autosave-kept-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a scratch folder");
    let first = dir.join("s.tsession");
    std::fs::write(&first, "another session's autosave\n").expect("written");
    let (note, second) = on_run_stack(|| {
        let (mut repl, start) = autosaving(first.clone()).unwrap_or_else(|e| panic!("{e}"));
        assert!(!repl.exec("auto foes").error);
        (start, dir.join("s.2.tsession"))
    });
    assert!(
        note.starts_with(&format!("note: {} holds the latest earlier session", first.display())),
        "{note}"
    );
    assert!(note.contains(&format!("autosaves in {}", second.display())), "{note}");
    assert_eq!(read(&first), "another session's autosave\n");
    assert!(
        read(&second).contains("auto foes"),
        "the new session is autosaved beside it"
    );
    // Written whole through a temporary file, which is gone once renamed.
    let left: Vec<String> = std::fs::read_dir(&dir)
        .expect("the folder lists")
        .map(|e| e.expect("an entry").file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".tmp"))
        .collect();
    assert!(left.is_empty(), "{left:?}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Autosaves of earlier sessions beside the default: the note names the one written last (not
/// the oldest) and how to remove them all; the CLI's default name is the encounter's own.
#[test]
fn the_note_names_the_latest_earlier_autosave_and_how_to_clean_up() {
    let dir = scratch("autosave-latest");
    let first = dir.join("s.tsession");
    let (second, third) = (dir.join("s.2.tsession"), dir.join("s.3.tsession"));
    let old = std::time::SystemTime::UNIX_EPOCH + std::time::Duration::from_secs(1_000_000);
    for (path, when) in [(&first, old), (&second, old + std::time::Duration::from_secs(60))] {
        std::fs::write(path, "an earlier session's autosave\n").expect("written");
        let f = std::fs::File::options().write(true).open(path).expect("opened");
        f.set_modified(when).expect("a modification time");
    }
    // Newer files that are not autosaves of this name are no candidates: `s-2` is the default
    // name of an encounter called `s-2`, not a fresh name of `s`'s.
    std::fs::write(dir.join("s-x.tsession"), "not one\n").expect("written");
    std::fs::write(dir.join("s-2.tsession"), "another encounter's\n").expect("written");
    let note = on_run_stack(|| autosaving(first.clone()).map(|(_, note)| note).unwrap_or_else(|e| e));
    assert!(
        note.starts_with(&format!("note: {} holds the latest earlier session", second.display())),
        "{note}"
    );
    assert!(note.contains("2 autosaves of earlier sessions are there"), "{note}");
    assert!(
        note.contains(&format!(
            "`rm {} {}` removes them",
            first.display(),
            dir.join("s.*.tsession").display()
        )),
        "{note}"
    );
    assert!(note.contains(&format!("autosaves in {}", third.display())), "{note}");
    assert_eq!(
        turnscript::repl::autosave_for(std::path::Path::new("rulesets/encounters/crisis-mode.turn")),
        std::path::PathBuf::from(".turnscript-autosave-crisis-mode.tsession")
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// A person typing into a pipe (`turnscript repl ... | tee log`): the REPL is not interactive,
/// and commands come faster than the autosave is written, so writes are deferred; but before the
/// REPL waits for the next line, the autosave has every change made so far.
#[test]
fn piped_commands_are_autosaved_before_the_repl_waits() {
    use std::io::{BufRead, BufReader, Write};
    use std::process::{Command, Stdio};
    let dir = scratch("piped-autosave");
    let save = dir.join("auto.tsession");
    let root = env!("CARGO_MANIFEST_DIR");
    let mut child = Command::new(env!("CARGO_BIN_EXE_turnscript"))
        .args(["repl", "--color", "never", "--autosave"])
        .arg(&save)
        .arg(format!("{root}/rulesets/legends.turn"))
        .arg("--encounter")
        .arg(format!("{root}/rulesets/encounters/legends.turn"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("the binary starts");
    let mut stdin = child.stdin.take().expect("stdin");
    let mut stdout = BufReader::new(child.stdout.take().expect("stdout"));
    // Reads the replies up to the line that contains `needle`.
    let mut wait_for = |needle: &str| {
        let mut line = String::new();
        loop {
            line.clear();
            let n = stdout.read_line(&mut line).expect("a reply");
            assert!(n > 0, "the REPL ended before `{needle}`");
            if line.contains(needle) {
                return;
            }
        }
    };
    // Thirty changes in one write, then nothing more until the REPL has answered them all.
    let mut burst = String::from("auto foes\n");
    for i in 0..30 {
        burst.push_str(&format!("set Kessa.dex = {}\n", i % 20 + 1));
    }
    burst.push_str("show Kessa\n");
    stdin.write_all(burst.as_bytes()).expect("the commands are written");
    stdin.flush().expect("flushed");
    wait_for("> show Kessa");
    // The REPL answers `show Kessa`, then waits, with the pipe still open: the autosave must
    // come to hold every change while it waits (looked at for up to 20 s, as a slow machine may
    // take a moment to get there; it is never written again without more input).
    let sets = |text: &str| text.lines().filter(|l| l.starts_with("> \"set Kessa.dex")).count();
    let mut saved = String::new();
    for _ in 0..1000 {
        saved = std::fs::read_to_string(&save).unwrap_or_default();
        if sets(&saved) == 30 {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    drop(stdin);
    let _ = child.wait();
    assert_eq!(sets(&saved), 30, "{saved}");
}

#[test]
fn an_attempt_by_a_thing_is_refused_as_the_answers_file_refuses_it() {
    let dir = scratch("attempt-by-a-thing-rules");
    let rules = dir.join("rules.turn");
    std::fs::write(
        &rules,
        "thing player, players { stat seat default 0 }
attempt anyone { }
play { for each c in characters { turn c { choose act by c { option go option wait } } } }
player P1 { seat = 7 }
character Ana { }
",
    )
    .expect("write the ruleset");
    let t = run_session(
        &format!(
            "ruleset: {}\n---\nattempt P1 anyone\nattempt Ana anyone\n",
            rules.display()
        ),
        "attempt-by-a-thing",
    );
    assert!(t.contains("`P1` is a player, not a character or a role"), "{t}");
    assert!(t.contains("attempt  Ana   anyone"), "{t}");
    assert!(!t.contains("attempt  P1"), "{t}");
}

/// `help` wraps at word boundaries to the terminal's width: no line past it (a word longer than
/// the width stays whole), and every word of each command's description is there, unbroken.
#[test]
fn help_wraps_at_word_boundaries_to_the_width() {
    on_run_stack(|| {
        for width in [44, 60, 120] {
            let opts = Options {
                ruleset: Some(PathBuf::from("rulesets/legends.turn")),
                encounter: Some(PathBuf::from("rulesets/encounters/legends.turn")),
                seed: 1,
                autosave: None,
                colour: Some(false),
                width,
            };
            let mut repl = Repl::new(opts).unwrap_or_else(|e| panic!("{e}")).0;
            for topic in ["help", "help continue", "help show", "help attempt"] {
                let out = repl.exec(topic).out;
                for line in out.lines() {
                    let long_word = line.split_whitespace().any(|w| w.chars().count() > width / 2);
                    assert!(
                        line.chars().count() <= width || long_word,
                        "{topic} at {width}:\n{line}"
                    );
                }
                if let Some(name) = topic.strip_prefix("help ") {
                    let c = turnscript::repl::COMMANDS
                        .iter()
                        .find(|c| c.name == name)
                        .expect("a command");
                    let words: Vec<&str> = out.split_whitespace().collect();
                    for w in c.about.split_whitespace() {
                        assert!(words.contains(&w), "{topic} at {width}: `{w}` was cut:\n{out}");
                    }
                }
            }
        }
    });
}

/// A session file is user input: a `set` with more decimals than the language keeps (6) is
/// refused when the file is read, naming the line, never a panic in the decimal formatting
/// (issue 29: 64 decimals divided by zero, 20 to 63 gave wrong digits).
#[test]
fn a_session_file_with_too_many_decimals_is_refused_when_read() {
    let dir = scratch("decimals-in-session");
    for decimals in [7, 20, 64, 255] {
        let path = dir.join(format!("d{decimals}.tsession"));
        let text = format!(
            "turnscript session 1\nruleset \"rulesets/legends.turn\" \"fnv1a64:0\"\nencounter \"rulesets/encounters/legends.turn\" \"fnv1a64:0\"\nseed 1\n> \"set Kessa.fatigue = 1\"\n[\"set\",\"Kessa\",\"fatigue\",1,{decimals}]\n"
        );
        std::fs::write(&path, text).expect("written");
        let out = on_run_stack(|| {
            let mut repl = legends(false);
            repl.exec(&format!("load {}", path.display()))
        });
        assert!(out.error, "{decimals}: {}", out.out);
        assert!(
            out.out.contains("line 6") && out.out.contains("decimals"),
            "{decimals}: {}",
            out.out
        );
    }
}
