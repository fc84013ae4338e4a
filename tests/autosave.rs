//! The REPL's autosave (issue 31): each command appended to the file as it is made, a command cut
//! short by a crash mid-write left out on load with a warning, and the file written whole
//! (compacted) where appending cannot say what happened: undo, redo, reload, load, save.

mod common;

use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};

use turnscript::repl::{Repl, script};
use turnscript::runtime::on_run_stack;

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// A Legends fight autosaved in a scratch folder of its own: `fight.tsession` in
/// `autosave-NAME`, and the other files a test writes beside it.
struct Fight {
    dir: PathBuf,
    file: PathBuf,
}

impl Fight {
    fn new(name: &str) -> Fight {
        let dir = common::scratch("autosave", name);
        let file = dir.join("fight.tsession");
        Fight { dir, file }
    }

    /// The REPL's options for a Legends table autosaving to the file.
    fn options(&self) -> turnscript::repl::Options {
        let mut opts = common::legends_repl();
        opts.autosave = Some(self.file.clone());
        opts
    }

    /// A Legends table autosaving to the file (made on the run stack).
    fn table(&self) -> Repl {
        Repl::new(self.options()).unwrap_or_else(|e| panic!("{e}")).0
    }

    /// `commands` typed at a new table autosaving to the file: the autosave's text after them.
    fn played(&self, commands: &[&str]) -> String {
        on_run_stack(|| typed(&mut self.table(), commands));
        read(&self.file)
    }

    /// `text` written beside the autosave as the file `name`, and loaded: see [`loaded`].
    fn load(&self, name: &str, text: impl AsRef<[u8]>) -> (String, String) {
        let path = self.dir.join(name);
        std::fs::write(&path, text).expect("written");
        on_run_stack(|| loaded(&path))
    }
}

/// Runs `commands` one at a time, as typed at a prompt: each command's reply, then what the REPL
/// does before the next prompt (writing what the autosave lacks). The transcript, which must end
/// in `exit 0`.
fn typed(repl: &mut Repl, commands: &[&str]) -> String {
    let mut out = String::new();
    for c in commands {
        let reply = script(repl, &format!("{c}\n"));
        assert!(reply.ends_with("exit 0\n"), "`{c}`: {reply}");
        out.push_str(&reply);
        out.push_str(&repl.flush_autosave());
        assert_eq!(repl.take_errors(), "", "`{c}`");
    }
    out
}

/// A REPL with no session that loads `file`: the reply to the load, then `log` and `show`.
fn loaded(file: &Path) -> (String, String) {
    let mut opts = common::legends_repl();
    opts.ruleset = None;
    opts.encounter = None;
    let (mut repl, _) = Repl::new(opts).unwrap_or_else(|e| panic!("{e}"));
    let load = script(&mut repl, &format!("load {}\n", file.display()));
    let after = script(&mut repl, "log\nshow\ntrace\n");
    (load, after)
}

/// The reply to a load says it loaded `commands` commands and warns of nothing.
fn loads_whole(load: &str, commands: usize) {
    assert!(
        load.contains(&format!("{commands} commands")) && !load.contains("warning"),
        "{load}"
    );
}

/// The commands of a Legends fight: answers, forced dice, a ruling, policies playing a round.
const FIGHT: [&str; 6] = [
    "answer 2",
    "roll 4",
    "answer 1",
    "set Kessa.fatigue = 1",
    "auto all",
    "continue until round=2",
];

#[test]
fn each_command_is_appended_to_the_autosave_not_rewritten() {
    let fight = Fight::new("appended");
    let file = &fight.file;
    on_run_stack(|| {
        let mut repl = fight.table();
        // The first write is whole; the commands after it are appended to the same file.
        typed(&mut repl, &FIGHT[..1]);
        let first = std::fs::metadata(file).expect("the autosave");
        let mut before = read(file);
        for c in &FIGHT[1..] {
            typed(&mut repl, &[c]);
            let now = read(file);
            let added = now
                .strip_prefix(before.as_str())
                .unwrap_or_else(|| panic!("`{c}` rewrote the file:\n{now}"));
            assert!(
                added.starts_with(&format!("> {}\n", serde_json::to_string(c).expect("JSON"))),
                "`{c}` appended {added:?}"
            );
            assert!(added.ends_with("\n\n"), "`{c}` appended {added:?}");
            before = now;
        }
        let last = std::fs::metadata(file).expect("the autosave");
        // Written in place: a whole rewrite renames a new file over the old one.
        assert_eq!(first.ino(), last.ino(), "the autosave was replaced, not appended to");
    });
}

#[test]
fn an_autosave_appended_to_loads_as_the_session_saved_whole() {
    let fight = Fight::new("appended-equals-whole");
    let file = &fight.file;
    let whole = fight.dir.join("whole.tsession");
    on_run_stack(|| {
        let mut repl = fight.table();
        typed(&mut repl, &FIGHT);
        // The same lines, less the blank lines that seal each command.
        let saved = script(&mut repl, &format!("save {}\n", whole.display()));
        assert!(saved.contains("saved 6 commands"), "{saved}");
        let (auto, kept) = (read(file), read(&whole));
        let unsealed: String = auto
            .lines()
            .filter(|l| !l.is_empty())
            .map(|l| format!("{l}\n"))
            .collect();
        assert_eq!(unsealed, kept);
        let (load_auto, after_auto) = loaded(file);
        let (load_whole, after_whole) = loaded(&whole);
        loads_whole(&load_auto, 6);
        assert_eq!(
            load_auto.replace("fight.tsession", "F"),
            load_whole.replace("whole.tsession", "F")
        );
        assert_eq!(after_auto, after_whole);
        assert!(after_auto.contains("continue until round=2"), "{after_auto}");
    });
}

#[test]
fn a_command_cut_short_as_it_was_written_is_left_out_with_a_warning() {
    let fight = Fight::new("torn");
    let text = fight.played(&FIGHT);
    // The last command (`continue until round=2`, many lines of picks) begins after the blank
    // line that ends the one before it.
    let start = text[..text.len() - 2].rfind("\n\n").expect("a sealed command") + 2;
    let (load_before, after_before) = fight.load("before.tsession", &text[..start]);
    assert!(
        load_before.contains("loaded") && load_before.contains("5 commands"),
        "{load_before}"
    );
    // Cut at every line's end (all but the blank line's), and in the middle of each line.
    let mut cuts = Vec::new();
    for (i, _) in text[start..].match_indices('\n') {
        let at = start + i;
        let line_start = text[..at].rfind('\n').map_or(0, |n| n + 1);
        cuts.extend([at, at + 1, line_start + (at - line_start) / 2]);
    }
    cuts.retain(|&c| c > start && c < text.len());
    cuts.sort_unstable();
    cuts.dedup();
    assert!(cuts.len() >= 6, "{cuts:?}");
    for cut in cuts {
        let (load, after) = fight.load("torn.tsession", &text[..cut]);
        assert!(
            load.contains("warning: ") && load.contains("ends in a command cut short as it was written"),
            "cut at {cut}: {load}"
        );
        assert!(
            load.contains("left out; the commands before it are loaded"),
            "cut at {cut}: {load}"
        );
        if cut >= start + "> \"continue until round=2\"\n".len() {
            assert!(
                load.contains("`continue until round=2` left out"),
                "cut at {cut}: {load}"
            );
        }
        assert!(
            load.contains("loaded") && load.contains("5 commands"),
            "cut at {cut}: {load}"
        );
        assert_eq!(after, after_before, "cut at {cut}");
    }
    // Whole, it loads all six, and says nothing of a cut.
    let (load, _) = on_run_stack(|| loaded(&fight.file));
    loads_whole(&load, 6);
}

#[test]
fn a_line_that_does_not_parse_before_the_end_is_still_an_error() {
    let fight = Fight::new("broken-middle");
    let text = fight.played(&FIGHT);
    let broken = text.replacen("[\"set\",\"Kessa\",\"fatigue\",1]", "[\"set\",\"Kessa\",\"fati", 1);
    assert_ne!(broken, text);
    let (load, _) = fight.load("bad.tsession", &broken);
    assert!(
        load.contains("repl::damaged_session") && load.contains("line 16 of"),
        "{load}"
    );
    assert!(!load.contains("loaded"), "{load}");
}

#[test]
fn a_damaged_middle_line_is_one_message_with_its_line_a_help_and_the_session_unchanged() {
    let fight = Fight::new("damaged-middle");
    let broken = fight
        .played(&FIGHT)
        .replacen("[\"set\",\"Kessa\",\"fatigue\",1]", "[\"set\",\"", 1);
    let line = broken
        .lines()
        .position(|l| l == "[\"set\",\"")
        .expect("the damaged line")
        + 1;
    let (load, after) = fight.load("bad.tsession", &broken);
    // One diagnostic, with a code, at the file's line (not serde's "at line 1 column 8" beside
    // it), a help that says how to keep the commands before it, and the session unchanged. The
    // help is wrapped: read with its whitespace as single spaces.
    let flat = load.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(flat.contains("repl::damaged_session"), "{load}");
    assert!(flat.contains(&format!("line {line} of ")), "{load}");
    assert!(
        flat.contains("not a whole change") && !flat.contains("column"),
        "{load}"
    );
    assert!(
        flat.contains("help: ") && flat.contains(&format!("head -n {}", line - 1)),
        "{load}"
    );
    assert!(flat.contains("unchanged"), "{load}");
    assert!(!load.contains("loaded"), "{load}");
    assert!(after.contains("no session is loaded"), "{after}");
}

#[test]
fn a_cut_in_the_redo_line_says_the_undone_commands_are_what_was_left_out() {
    let fight = Fight::new("torn-redo");
    let text = fight.played(&[&FIGHT[..4], &["undo 2"]].concat());
    let at = text.find("redo\n").expect("a redo line");
    for cut in [at + 2, at + 5, at + 20] {
        let (load, _) = fight.load("torn.tsession", &text[..cut]);
        assert!(!load.contains("bytes of a command's changes"), "cut at {cut}: {load}");
        assert!(
            load.contains("the `redo` line and the undone commands after it"),
            "cut at {cut}: {load}"
        );
        assert!(
            load.contains("loaded") && load.contains("2 commands"),
            "cut at {cut}: {load}"
        );
    }
}

#[test]
fn a_last_command_without_its_blank_line_says_a_missing_blank_line_alone_does_that() {
    let fight = Fight::new("trimmed");
    let text = fight.played(&FIGHT[..4]);
    let (load, _) = fight.load(
        "trimmed.tsession",
        text.strip_suffix("\n").expect("a blank line at the end"),
    );
    let flat = load.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(flat.contains("`set Kessa.fatigue = 1` left out"), "{load}");
    assert!(flat.contains("final blank line"), "{load}");
    // With the blank line put back, it loads whole.
    let (load, _) = on_run_stack(|| loaded(&fight.file));
    loads_whole(&load, 4);
}

#[test]
fn a_first_session_says_where_it_autosaves_at_the_start() {
    let fight = Fight::new("first");
    let start = on_run_stack(|| Repl::new(fight.options()).unwrap_or_else(|e| panic!("{e}")).1);
    let said: Vec<&str> = start.lines().filter(|l| l.contains("autosave")).collect();
    assert_eq!(said.len(), 1, "{start}");
    assert!(
        said[0].starts_with(&format!("note: this session autosaves in {} (", fight.file.display())),
        "{start}"
    );
    // With no autosave, nothing is said of one.
    let start = on_run_stack(|| Repl::new(common::legends_repl()).unwrap_or_else(|e| panic!("{e}")).1);
    assert!(!start.contains("autosave"), "{start}");
}

#[test]
fn undo_and_redo_compact_the_autosave_and_appending_goes_on_after() {
    let fight = Fight::new("compaction");
    let file = &fight.file;
    on_run_stack(|| {
        let mut repl = fight.table();
        typed(&mut repl, &FIGHT[..4]);
        // Undone commands are kept after a `redo` line, as `save` keeps them.
        typed(&mut repl, &["undo 2"]);
        let text = read(file);
        let (head, undone) = text.split_once("redo\n").expect("a redo line");
        assert!(
            head.contains("> \"roll 4\"") && !head.contains("> \"answer 1\""),
            "{text}"
        );
        assert!(
            undone.contains("> \"answer 1\"") && undone.contains("> \"set Kessa.fatigue = 1\""),
            "{text}"
        );
        typed(&mut repl, &["redo 1"]);
        let text = read(file);
        let (head, undone) = text.split_once("redo\n").expect("a redo line");
        assert!(
            head.contains("> \"answer 1\"") && undone.contains("> \"set Kessa.fatigue"),
            "{text}"
        );
        // A new command replaces the undone one: the file is written whole without it.
        typed(&mut repl, &["set Kessa.fatigue = 2"]);
        let text = read(file);
        assert!(!text.contains("redo") && !text.contains("fatigue = 1"), "{text}");
        assert!(
            text.ends_with("> \"set Kessa.fatigue = 2\"\n[\"set\",\"Kessa\",\"fatigue\",2]\n\n"),
            "{text}"
        );
        // And the commands after it are appended to that file.
        let ino = std::fs::metadata(file).expect("the autosave").ino();
        typed(&mut repl, &FIGHT[4..]);
        assert_eq!(std::fs::metadata(file).expect("the autosave").ino(), ino);
        // Each form loads to what the table shows.
        let shown = script(&mut repl, "log\nshow\ntrace\n");
        let ending = format!("the session is autosaved in {}\nexit 0\n", file.display());
        let shown = shown.strip_suffix(&ending).unwrap_or_else(|| panic!("{shown}"));
        assert_eq!(loaded(file).1, format!("{shown}exit 0\n"));
    });
}

/// A cut inside a character of more than one byte (the review of issue 31's merge): the file's
/// last bytes are not UTF-8, and the whole session was refused as unreadable. The cut command is
/// left out with the warning, as a cut on an ASCII byte is.
#[test]
fn a_cut_inside_a_multibyte_character_leaves_out_only_that_command() {
    let fight = Fight::new("utf8-cut");
    // A fourth command being appended, naming a character whose name is not ASCII (the Legends
    // cast's are), cut one byte into its `ë`.
    let mut text = fight.played(&FIGHT[..3]).into_bytes();
    text.extend_from_slice("> \"set Zoë.ap = 2\"\n".as_bytes());
    let at = text
        .windows(2)
        .rposition(|w| w == "ë".as_bytes())
        .expect("ë in the file");
    let (load, _) = fight.load("cut.tsession", &text[..at + 1]);
    assert!(load.contains("3 commands"), "{load}");
    assert!(load.contains("left out"), "{load}");
}

/// A session file laid out by hand (a blank line after the head, none between commands) was
/// read as three commands cut short, and none was loaded. Only an append leaves a command
/// unsealed, and an append writes one command: a tail of more than one command is whole.
#[test]
fn a_file_without_blank_lines_between_commands_loads_every_command() {
    let fight = Fight::new("hand-laid");
    let text = fight.played(&FIGHT[..4]);
    let (head, body) = text.split_once("\n\n").expect("a blank line after the head");
    let hand = format!("{head}\n\n{}", body.replace("\n\n", "\n"));
    let (load, _) = fight.load("hand.tsession", hand);
    loads_whole(&load, 4);
}

/// The warning for a command cut short names it, but never what an `answer` named: the answer
/// may have been given in secret, and `log` keeps it hidden until the reveal too.
#[test]
fn a_cut_answer_is_named_without_what_it_answered() {
    let fight = Fight::new("cut-answer");
    let text = fight.played(&FIGHT[..2]);
    // Cut after its line, and inside it.
    for tail in ["> \"answer 3\"\n", "> \"answer 3"] {
        let (load, _) = fight.load("cut.tsession", format!("{text}{tail}"));
        assert!(load.contains("left out"), "{load}");
        assert!(!load.contains("answer 3"), "{load}");
        assert!(load.contains("`answer` (what it named is not shown"), "{load}");
    }
}
