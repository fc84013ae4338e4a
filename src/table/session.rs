//! A session: an immutable base (ruleset, encounter, seed) and a log of the commands that changed
//! the state. The state at any point is a replay of the log from the start (`replay.rs`), so undo
//! and redo move a cursor, save writes the log, and load and reload replay it. A new command does
//! not replay: the run waits at its pending decision and goes on from there.

use std::sync::Arc;

use crate::compile::Program;
use crate::compile::ir::*;
use crate::diag::Diag;
use crate::runtime::control::{Pending, Snapshot};
use crate::source::Sources;
use crate::syntax::ast::Item;
use crate::trace::DecidedBy;

pub use super::modes::{Mode, Modes};

/// One change to the state, as the log keeps it: by name, so a replay under an edited ruleset can
/// tell where it no longer fits.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Op {
    /// A decision answered: which decision, whose, the option picked, and by whom.
    Pick {
        decision: String,
        chooser: String,
        option: String,
        by: DecidedBy,
        /// An attempt made at the decision by someone other than the chooser (`attempt WHO NAME`).
        attempter: Option<String>,
    },
    /// Force the next dice.
    Roll(Vec<i64>),
    /// Force the next cards drawn, by name.
    Draw(Vec<String>),
    /// Restart the dice and policy streams from a seed (before the first decision: the run's seed).
    Seed(u64),
    /// Set a character's field (`who: None`: a global) by hand.
    Set {
        who: Option<String>,
        field: String,
        /// The value as written, in units of 10^-`decimals` (5.75 is 575 with 2 decimals): it
        /// is replayed in the decimals the field keeps then.
        value: i64,
        decimals: u8,
    },
    /// Take a character out of play.
    Remove(String),
    /// Characters in encounter syntax; before the first decision they are in from the start,
    /// later they join at that point.
    Add(String),
    /// Set a field that holds an entity to one by name (`None`: `none`).
    SetEntity {
        who: Option<String>,
        field: String,
        entity: Option<String>,
    },
    /// Begin an effect on a character by hand, for a count, counted at a place (as the
    /// language writes it after `counted at`; `None`: the end of the character's turns).
    Begin {
        effect: String,
        on: String,
        count: i64,
        at: Option<String>,
    },
    /// End every instance of an effect on a character by hand.
    Stop { effect: String, on: String },
    /// Move a character in a kept order: `first`, `last`, `before X`, `after X`.
    Place { who: String, to: String, order: String },
    /// Rank a kept order again by its keys.
    Rank(String),
    /// Who answers the decisions of a side, a role, a character, everyone (`all`), or the
    /// decisions with one option (`single`): the person at the REPL, or a policy.
    Mode { target: String, mode: Mode },
    /// An attempt queued for a moment (`attempt WHO NAME after X`): made when play reaches it.
    Queue {
        who: String,
        attempt: String,
        moment: String,
    },
    /// Queued attempts cancelled (`attempt cancel [WHO NAME]`): all, or the first of WHO's NAME.
    Unqueue(Option<(String, String)>),
}

/// A command as typed and the changes it made.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    pub line: String,
    pub ops: Vec<Op>,
    /// What an `attempt` made at the decision did (`attempt carried out`, `attempt refused`),
    /// for `log`; not saved (a loaded session's log says `attempt`).
    pub note: Option<&'static str>,
}

/// A file of the base: the path as given, and its text.
#[derive(Clone, Debug)]
pub struct SourceFile {
    pub path: String,
    pub text: String,
}

/// What a session starts from.
#[derive(Clone, Debug)]
pub struct Base {
    pub ruleset: SourceFile,
    pub encounter: Option<SourceFile>,
    pub seed: u64,
}

/// Where a replay goes once the log is used up.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Goal {
    /// Stop at the next decision.
    Pause,
    /// Answer the next decision with this option, then stop.
    Answer(usize),
    /// Make this attempt (an index as for `Answer`) at the next decision, by this character or
    /// role, then stop.
    Attempt(usize, crate::compile::ir::Who),
    /// Let the policy answer this many decisions, then stop.
    Decisions(u32),
    /// Let the policy answer until the current (or next) turn is over.
    Turn,
    /// Let the policy answer until the current (or next) iteration of this level is over.
    Level(LevelId),
    /// Let the policy answer to the end of the encounter.
    End,
    /// Let the policy answer until iteration N of this level is over (by its own numbers).
    Until(LevelId, u64),
    /// Play on: the policy answers the pending decision and every later one except those of
    /// choosers set to `ask`; to the end, or (with a level) until that iteration is over.
    Continue(Option<(LevelId, u64)>),
}

/// Where the open levels and turns stand, from the events so far.
#[derive(Clone, Debug)]
pub enum Frame {
    Level {
        level: LevelId,
        n: u64,
        /// The last order made inside this iteration, and who started a turn since.
        order: Option<(OrderId, Vec<EntityId>)>,
        acted: Vec<EntityId>,
    },
    Turn(EntityId),
    React(EntityId),
}

/// How the replay of a log ended.
pub enum End {
    Paused(Box<Pending>),
    /// Over, and the state it ended in (`show` reads the fields from it).
    Finished(crate::trace::EndReason, Option<Box<crate::runtime::control::Snapshot>>),
    /// A run error (rendered with the state's sources).
    Failed(Diag),
}

/// Where a replay stopped fitting its log.
#[derive(Clone, Debug)]
pub struct Divergence {
    /// The index of the log entry that no longer fits.
    pub entry: usize,
    pub reason: String,
}

/// The trace a session has shown: the GM's text view, where each event ends in it, and where the
/// open levels and turns stand.
#[derive(Debug, Default)]
pub struct Trace {
    pub text: String,
    /// The length of `text` after each event.
    pub ends: Vec<usize>,
    /// The events only the GM sees, by index, in order: the seed (the encounter's first line and
    /// a `seed` command) and the dice and cards forced for later, which would tell the players
    /// what is coming.
    pub gm_only: Vec<usize>,
    pub open: Vec<Frame>,
}

impl Trace {
    pub fn out(&self) -> &str {
        &self.text
    }

    /// The trace text of events `from..`.
    pub fn text_from(&self, from: usize) -> &str {
        let start = if from == 0 {
            0
        } else {
            self.ends.get(from - 1).copied().unwrap_or(self.text.len())
        };
        self.text.get(start..).unwrap_or("")
    }
}

/// The state after a replay.
pub struct State {
    pub program: Arc<Program>,
    pub sources: Sources,
    pub rec: Trace,
    pub end: End,
    /// When the run is over: the answers that choices never revealed took (never shown), and
    /// the picks made with them that the count leaves out.
    pub held: (Vec<u32>, u32),
    /// The decisions answered so far.
    pub decisions: usize,
    /// The picks made after the log was used up (by the goal).
    pub made: Vec<Op>,
    pub divergence: Option<Divergence>,
    pub seed: u64,
    /// Who the REPL asks and who plays by a policy, at the end of the replay.
    pub modes: Modes,
    /// The run, waiting at the pending decision for the next command, when it can go on.
    pub(super) live: Option<super::replay::Live>,
    /// The commands the waiting run went on with since this state was replayed.
    pub went_on: usize,
    /// The attempts queued for moments, waiting (`Ilse interrupt after Cap`), in the order queued.
    pub queued: Vec<String>,
    /// Each attempt made so far, carried out (`true`) or refused, in the order made.
    pub attempts: Vec<bool>,
}

impl State {
    /// The decisions answered so far, as the views count them: a secret choice not yet
    /// revealed counts as one, whatever was chosen with it (see [`Pending::uncounted`]).
    pub fn decisions_shown(&self) -> usize {
        let uncounted = self.pending().map_or(self.held.1 as usize, |pd| pd.uncounted as usize);
        self.decisions.saturating_sub(uncounted)
    }

    pub fn pending(&self) -> Option<&Pending> {
        match &self.end {
            End::Paused(p) => Some(p.as_ref()),
            _ => None,
        }
    }

    /// The state at the pending decision, or the one the encounter ended in.
    pub fn snapshot(&self) -> Option<&Snapshot> {
        match &self.end {
            End::Paused(p) => Some(&p.snapshot),
            End::Finished(_, last) => last.as_deref(),
            End::Failed(_) => None,
        }
    }

    pub fn character(&self, name: &str) -> Option<EntityId> {
        self.program
            .characters
            .iter()
            .position(|c| c.name == name)
            .map(|i| i as EntityId)
    }

    pub fn field(&self, name: &str) -> Option<FieldId> {
        self.program
            .fields
            .iter()
            .position(|f| f.name == name)
            .map(|i| i as FieldId)
    }
}

/// Where an effect begun by hand is counted, resolved to ids (a place still by who holds it).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CountAt {
    Place(EntityId, OrderId),
    TurnStart(EntityId),
    TurnEnd(EntityId),
    LevelStart(LevelId),
    LevelEnd(LevelId),
}

/// Reads `place of X in ORDER`, `start of turn(X)`, `end of turn(X)`, `start of LEVEL`,
/// `end of LEVEL`; the error says what is wrong.
pub fn count_at(p: &Program, text: &str) -> Result<CountAt, String> {
    let who = |name: &str| -> Result<EntityId, String> {
        let name = name.trim();
        p.characters
            .iter()
            .position(|c| c.name == name)
            .map(|i| i as EntityId)
            .ok_or_else(|| format!("no character is called `{name}`"))
    };
    let words: Vec<&str> = text.split_whitespace().collect();
    match words.as_slice() {
        ["place", "of", x, "in", o] => {
            let order = p
                .orders
                .iter()
                .position(|d| d.name == *o)
                .ok_or_else(|| format!("no order is called `{o}`"))?;
            Ok(CountAt::Place(who(x)?, order as OrderId))
        }
        [edge @ ("start" | "end"), "of", rest @ ..] => {
            let rest = rest.join(" ");
            let start = *edge == "start";
            if let Some(inner) = rest.strip_prefix("turn(").and_then(|r| r.strip_suffix(')')) {
                let e = who(inner)?;
                return Ok(if start {
                    CountAt::TurnStart(e)
                } else {
                    CountAt::TurnEnd(e)
                });
            }
            let l = p
                .level_id(&rest)
                .ok_or_else(|| format!("no level is called `{rest}` (a turn is written turn(NAME))"))?;
            Ok(if start {
                CountAt::LevelStart(l)
            } else {
                CountAt::LevelEnd(l)
            })
        }
        _ => Err(format!(
            "`{text}` is not a place to count at: write place of NAME in ORDER, start of turn(NAME), end of turn(NAME), start of LEVEL or end of LEVEL"
        )),
    }
}

/// The names of the characters an `add` text declares.
pub fn declared_names(text: &str) -> Vec<String> {
    match crate::syntax::parse(text, 0) {
        Ok(f) => f
            .items
            .iter()
            .flat_map(|i| match i {
                Item::Character(c) => c.members().into_iter().map(|m| m.node).collect(),
                _ => Vec::new(),
            })
            .collect(),
        Err(_) => Vec::new(),
    }
}

/// The files a log builds: the base, then each `add`.
pub fn files(base: &Base, log: &[Entry]) -> Vec<(String, String)> {
    let mut files = vec![(base.ruleset.path.clone(), base.ruleset.text.clone())];
    if let Some(e) = &base.encounter {
        files.push((e.path.clone(), e.text.clone()));
    }
    for e in log {
        for op in &e.ops {
            if let Op::Add(text) = op {
                files.push(("command".to_string(), text.clone()));
            }
        }
    }
    files
}

/// FNV-1a, 64 bits: the hash a session file keeps of each file it was made with.
pub fn hash(text: &str) -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in text.bytes() {
        h ^= b as u64;
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    format!("fnv1a64:{h:016x}")
}
