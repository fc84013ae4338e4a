//! The trace: the ordered events a run emits, and its views (JSON lines and the GM's text).
//!
//! Events carry slots, never strings; the views look names up in the [`Program`].

mod json;
mod line;
mod names;
mod quote;
mod text;

use std::fmt;
use std::io;

use crate::compile::ir::*;
use crate::syntax::ast::Dice;

pub use json::JsonLines;
pub use quote::write_json_str;
pub use text::{Text, units_text};

/// Why an encounter ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EndReason {
    /// `play` ran to its end.
    Complete,
    /// `end encounter`, with its `because` text.
    Ended(Option<u16>),
    /// `--until LEVEL=N`, or the default limit on the outermost level.
    Until { level: LevelId, n: u64, default: bool },
}

/// How a resource changed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Change {
    Spend,
    Gain,
    Reset,
    Forfeit,
    Set,
}

impl Change {
    pub fn name(self) -> &'static str {
        match self {
            Change::Spend => "spend",
            Change::Gain => "gain",
            Change::Reset => "reset",
            Change::Forfeit => "forfeit",
            Change::Set => "set",
        }
    }
}

/// Who answered a decision.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DecidedBy {
    Answer,
    Policy,
}

/// One event of a run.
#[derive(Clone, Debug, PartialEq)]
pub enum Event<'a> {
    EncounterStart {
        seed: u64,
    },
    EncounterEnd {
        reason: EndReason,
    },
    LevelStart {
        level: LevelId,
        n: u64,
    },
    /// `reason` is set when an `end` statement ended the level early.
    LevelEnd {
        level: LevelId,
        n: u64,
        reason: Option<Option<u16>>,
    },
    Order {
        order: OrderId,
        ids: &'a [EntityId],
    },
    TurnStart {
        actor: EntityId,
    },
    TurnEnd {
        actor: EntityId,
    },
    Roll {
        actor: Option<EntityId>,
        label: LabelId,
        /// The dice rolled (computed parts evaluated).
        dice: Dice,
        faces: &'a [i64],
        total: i64,
    },
    Decision {
        decision: DecisionId,
        chooser: Who,
        options: &'a [OptionKey],
        picked: usize,
        by: DecidedBy,
    },
    Action {
        actor: EntityId,
        action: ActionId,
    },
    Resource {
        change: Change,
        actor: EntityId,
        field: FieldId,
        amount: i64,
        left: i64,
    },
    /// `transfer`: `amount` moved from one character's resource to another's (or the same's).
    Transfer {
        from: (EntityId, FieldId),
        to: (EntityId, FieldId),
        amount: i64,
        /// What the giver has left, and what the receiver now has.
        left: i64,
        total: i64,
    },
    /// `raise`: a trigger with its arguments (characters).
    Trigger {
        trigger: TriggerId,
        args: &'a [i64],
    },
    ReactionStart {
        actor: EntityId,
    },
    ReactionEnd {
        actor: EntityId,
    },
    EffectStart {
        effect: FieldId,
        target: EntityId,
        count: i64,
        at: Anchor,
    },
    EffectEnd {
        effect: FieldId,
        target: EntityId,
    },
    /// An effect's count went down and it goes on: `left` counts to go.
    EffectTick {
        effect: FieldId,
        target: EntityId,
        left: i64,
    },
    /// `mark` / `clear` of a flag, or a `per` flag cleared as its level's iteration starts.
    Flag {
        actor: EntityId,
        flag: FieldId,
        on: bool,
    },
    /// `elapse`: the game clock moved on; `clock` is the total, in the base unit.
    Time {
        amount: i64,
        unit: UnitId,
        clock: i64,
    },
    /// A field set by hand (a GM's ruling, in the REPL); `actor` is [`TABLE`] for a global.
    Manual {
        actor: EntityId,
        field: FieldId,
        value: i64,
    },
    /// The next dice forced by hand.
    Forced {
        rolls: &'a [i64],
    },
    /// The next cards drawn forced by hand (the REPL's `draw`), in order.
    ForcedDraws {
        cards: &'a [EntityId],
    },
    /// The dice stream restarted by hand from a new seed.
    Reseed {
        seed: u64,
    },
    /// A GM's ruling made by hand (in the REPL): an effect begun or ended, someone placed in a
    /// kept order, an order ranked again. The events it causes follow it.
    Ruling {
        text: &'a str,
    },
    /// A character left play (skipped by every loop, choice and order from now on) or joined it.
    Presence {
        actor: EntityId,
        present: bool,
    },
    /// `create`: a thing entered play, with the fields it was given.
    Create {
        id: EntityId,
        ty: TypeId,
        values: &'a [(FieldId, i64)],
    },
    /// A deck's draw pile shuffled: at the start (every card), by `shuffle`, or when an empty
    /// pile takes the discard pile.
    /// `deck`: its place in `Program::decks`.
    Shuffle {
        deck: u16,
        cards: usize,
    },
    /// `draw`: a card off the top of a deck (drawn by someone, if the statement says).
    Draw {
        deck: u16,
        by: Option<EntityId>,
        card: EntityId,
    },
    /// `take X from DECK`: a given card out of the draw pile (`into: false`); `shuffle X into
    /// DECK`: a card into the draw pile at a random place (`into: true`).
    Pile {
        deck: u16,
        card: EntityId,
        into: bool,
    },
    /// `discard` (onto the discard pile) or `return` (`returned`: on top of the draw pile).
    Discard {
        card: EntityId,
        returned: bool,
    },
    /// `destroy`: an entity left play for good.
    Destroy {
        id: EntityId,
    },
    /// An answer named an option the rules refuse now (`unless ... because`): every reason that
    /// applies; the decision is asked again.
    Refused {
        decision: DecisionId,
        chooser: Who,
        option: OptionKey,
        reasons: &'a [String],
    },
    /// An attempt (`attempt`) made and carried out: who made it; its block's events follow.
    Attempt {
        actor: Who,
        attempt: OptionKey,
    },
    /// An attempt made at a moment (before or after a turn, a level's start or end), refused:
    /// every reason that applies.
    AttemptRefused {
        actor: Who,
        attempt: OptionKey,
        reasons: &'a [String],
    },
    /// A `choose ... from` where the rules refuse every candidate (and the way out, if any):
    /// nothing could be chosen, so nothing was; each refused option with every reason.
    NoChoice {
        decision: DecisionId,
        chooser: Who,
        refused: &'a [(OptionKey, Vec<String>)],
    },
    /// A `together` walk begins: its members, who act at one moment.
    TogetherStart {
        actors: &'a [EntityId],
    },
    /// The `together` walk is over (its secret choices revealed).
    TogetherEnd,
    /// A change deferred to the end of a moment (`... at end of moment|LEVEL`) was not made: the
    /// entity it changes (`actor`) was destroyed meanwhile. `change`: the statement's word;
    /// `field`: the field or effect it names (none for `join`, `leave`, `destroy`).
    Lapsed {
        actor: EntityId,
        change: &'static str,
        field: Option<FieldId>,
    },
    /// A choice made in secret (`choose ... in secret`): who chose is known, not what; the
    /// `decision` event follows when the `together` walk reveals it.
    Secret {
        decision: DecisionId,
        chooser: Who,
    },
    /// `measure`: a measure's value, with the entity it is about (walked by its `for each`, or
    /// the turn's).
    Measure {
        measure: MeasureId,
        about: Option<EntityId>,
        value: i64,
    },
    /// `ready`: a response armed for `actor` on a point of play, lasting until `until` if set.
    Ready {
        actor: EntityId,
        ready: ReadyId,
        until: Option<Anchor>,
    },
    /// A readied response disarmed: it fired, expired, its owner left play, or was replaced.
    ReadyEnd {
        actor: EntityId,
        ready: ReadyId,
        reason: Disarmed,
    },
    /// A turn (`action: None`) or an action that does not happen: the moment before it took its
    /// actor out of play.
    Cancelled {
        actor: EntityId,
        action: Option<ActionId>,
    },
    /// The state the run ended in: the last event of every run that finished.
    Final {
        state: FinalState<'a>,
    },
}

/// Why a readied response was disarmed (the `ready_end` event's `reason`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Disarmed {
    /// Its point came and its condition held: it ran.
    Fired,
    /// Its `until` edge came first.
    Expired,
    /// Its owner went out of play.
    LeftPlay,
    /// Its owner was out of play when it would have been armed.
    OutOfPlay,
    /// Its owner readied a response on the same point again.
    Replaced,
    /// `disarm`.
    Disarmed,
}

impl Disarmed {
    pub fn as_str(self) -> &'static str {
        match self {
            Disarmed::Fired => "fired",
            Disarmed::Expired => "expired",
            Disarmed::LeftPlay => "left play",
            Disarmed::OutOfPlay => "out of play",
            Disarmed::Replaced => "replaced",
            Disarmed::Disarmed => "disarmed",
        }
    }
}

/// The state a run ended in, borrowed from the interpreter: the content of the `final` event.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FinalState<'a> {
    /// Every entity's fields, entity-major, one slot per declared field.
    pub values: &'a [i64],
    /// The fields a never-joined character would only get when it joins, like `values` (empty
    /// when there are none): they have no value and are left out.
    pub pending: &'a [bool],
    /// The table's globals, by field id.
    pub globals: &'a [i64],
    /// The sides' fields, side-major like `values` (empty when no side has fields).
    pub sides: &'a [i64],
    /// Entities out of play (characters not joined or gone, things destroyed).
    pub absent: &'a [bool],
    /// Every entity's type: the declared ones, then those `create` made.
    pub types: &'a [TypeId],
    /// The game clock, in the base unit.
    pub clock: i64,
}

impl<'a> FinalState<'a> {
    /// The entities the state shows, with whether each is in play: every entity the encounter
    /// declares (in play or not), then every made thing still in play.
    /// The cards of decks are left out: where they lie is not a field, and their ranks and suits
    /// never change.
    pub fn entities<'p>(&self, p: &'p Program) -> impl Iterator<Item = (EntityId, bool)> + use<'a, 'p> {
        let (declared, absent, types) = (p.characters.len(), self.absent, self.types);
        (0..self.types.len()).filter_map(move |id| {
            let in_play = !absent.get(id).copied().unwrap_or(false);
            let card = types.get(id).is_some_and(|t| p.decks.contains(t));
            ((id < declared || in_play) && !card).then_some((id as EntityId, in_play))
        })
    }

    /// An entity's fields (those of its type, globals aside) with their values, in declaration
    /// order; a never-joined character's fields that have no value yet are left out.
    pub fn fields<'p>(&self, p: &'p Program, id: EntityId) -> impl Iterator<Item = (FieldId, i64)> + use<'a, 'p> {
        let ty = self.types.get(id as usize).copied();
        let n = p.fields.len();
        let row = self.values.get(id as usize * n..(id as usize + 1) * n).unwrap_or(&[]);
        let pending = self.pending.get(id as usize * n..(id as usize + 1) * n).unwrap_or(&[]);
        p.fields.iter().zip(row).enumerate().filter_map(move |(f, (def, v))| {
            let unset = pending.get(f).copied().unwrap_or(false);
            (Some(def.owner) == ty && def.kind != crate::check::FieldKind::Global && !unset)
                .then_some((f as FieldId, *v))
        })
    }

    /// Each side's fields with their values, in declaration order: the sides' rows, side by
    /// side (none when no side has fields).
    pub fn side_fields<'p>(&self, p: &'p Program, s: usize) -> impl Iterator<Item = (FieldId, i64)> + use<'a, 'p> {
        let n = p.fields.len();
        let row = self.sides.get(s * n..(s + 1) * n).unwrap_or(&[]);
        p.fields
            .iter()
            .zip(row)
            .enumerate()
            .filter_map(|(f, (def, v))| (def.owner == crate::check::SIDE).then_some((f as FieldId, *v)))
    }

    /// The globals, with their values, in declaration order.
    pub fn globals<'p>(&self, p: &'p Program) -> impl Iterator<Item = (FieldId, i64)> + use<'a, 'p> {
        p.fields
            .iter()
            .zip(self.globals)
            .enumerate()
            .filter_map(|(f, (def, v))| (def.kind == crate::check::FieldKind::Global).then_some((f as FieldId, *v)))
    }
}

/// What the views name entities in: the program, and the names of the things `create` made
/// (ids after the declared entities, in the order they were made).
pub struct World<'a> {
    pub p: &'a Program,
    pub made: &'a [String],
    /// Every entity's fields, entity-major, and every entity's type, as the run has them now
    /// (empty where the state is not known): for the things that stand for someone.
    pub values: &'a [i64],
    pub types: &'a [TypeId],
}

impl std::ops::Deref for World<'_> {
    type Target = Program;
    fn deref(&self) -> &Program {
        self.p
    }
}

impl World<'_> {
    /// A world with nothing made yet.
    pub fn of(p: &Program) -> World<'_> {
        World {
            p,
            made: &[],
            values: &[],
            types: &[],
        }
    }

    /// Whether entity `id` is of a type whose things stand for someone.
    pub fn stands(&self, id: EntityId) -> bool {
        let ty = self.types.get(id as usize).copied();
        ty.and_then(|t| self.p.stands_for.get(t as usize).copied().flatten())
            .is_some()
    }

    /// Who a thing stands for (`thing NAME, PLURAL for FIELD`): the entity its field holds now,
    /// if its type says so and it holds one.
    pub fn stands_for(&self, id: EntityId) -> Option<&str> {
        let ty = *self.types.get(id as usize)?;
        let f = self.p.stands_for.get(ty as usize).copied().flatten()?;
        let n = self.p.fields.len();
        let v = *self.values.get(id as usize * n + f as usize)?;
        (v >= 0).then(|| self.character_name(v as EntityId))
    }

    pub fn character_name(&self, id: EntityId) -> &str {
        let n = self.p.characters.len();
        match (id as usize).checked_sub(n) {
            Some(k) if id != TABLE && self.p.side_of_owner(id).is_none() => {
                self.made.get(k).map_or("?", String::as_str)
            }
            _ => self.p.character_name(id),
        }
    }

    /// The name of the entity a value holds, or `None` for `none` (a trigger's argument, a
    /// variable): never "the table" or anyone else.
    pub fn entity_name(&self, v: i64) -> Option<&str> {
        (v >= 0 && v < i64::from(TABLE)).then(|| self.character_name(v as EntityId))
    }

    pub fn option_name(&self, key: OptionKey) -> &str {
        match key {
            OptionKey::Character(e) => self.character_name(e),
            k => self.p.option_name(k),
        }
    }

    pub fn who_name(&self, who: Who) -> &str {
        match who {
            Who::Character(e) => self.character_name(e),
            w => self.p.who_name(w),
        }
    }

    /// The type name of an entity (`character`, or a declared thing).
    pub fn type_name(&self, ty: TypeId) -> &str {
        self.p.things.get(ty as usize).map_or("thing", |t| t.0.as_str())
    }

    /// A field's value as text: a number, or for an entity-valued field a name (or `none`).
    pub fn value_text(&self, field: FieldId, v: i64) -> String {
        let mut s = String::new();
        let _ = self.write_value(&mut s, field, v);
        s
    }

    /// Writes [`World::value_text`] into `out`, without a `String` of its own.
    pub fn write_value(&self, out: &mut impl fmt::Write, field: FieldId, v: i64) -> fmt::Result {
        // A truth global: `true` or `false`.
        if self.p.fields.get(field as usize).is_some_and(|f| f.truth) {
            return out.write_str(if v != 0 { "true" } else { "false" });
        }
        match self.p.fields.get(field as usize).and_then(|f| f.refers) {
            Some(_) if v < 0 => out.write_str("none"),
            Some(t @ (crate::check::SIDE | crate::check::ROLE)) => out.write_str(self.held_name(t, v)),
            Some(_) => out.write_str(self.character_name(v as EntityId)),
            None => write!(out, "{}", Decimal(v, self.decimals(field))),
        }
    }

    /// The name of side or role `v` held by a field of type `t` ([`crate::check::SIDE`] or
    /// [`crate::check::ROLE`]).
    pub fn held_name(&self, t: TypeId, v: i64) -> &str {
        self.p.held(t, v).unwrap_or("?")
    }

    /// How many decimals field `f` keeps.
    pub fn decimals(&self, f: FieldId) -> u8 {
        self.p.fields.get(f as usize).map_or(0, |f| f.decimals)
    }
}

/// A number kept with decimals, written with exactly that many after the point (`575` with 2
/// decimals is `5.75`; `-5` is `-0.05`); with none, a whole number.
#[derive(Clone, Copy, Debug)]
pub struct Decimal(pub i64, pub u8);

impl fmt::Display for Decimal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let Decimal(v, d) = *self;
        if d == 0 {
            return write!(f, "{v}");
        }
        let scale = 10u64.pow(u32::from(d));
        let a = v.unsigned_abs();
        let sign = if v < 0 { "-" } else { "" };
        write!(f, "{sign}{}.{:0w$}", a / scale, a % scale, w = d as usize)
    }
}

/// Appends `v`, kept with `decimals` decimals, to `out`.
/// How exploding dice are written: `Some(None)` for `!` (on the highest face), `Some(Some(T))`
/// for `!T`; `None` when they do not explode. `faces`: the listed faces, if any.
pub fn explode_mark(d: &crate::syntax::ast::Dice, faces: &[i64]) -> Option<Option<i64>> {
    let t = d.explode?;
    let highest = match d.faces {
        Some(_) => faces.iter().copied().max().unwrap_or(0),
        None => i64::from(d.sides),
    };
    Some((t != highest).then_some(t))
}

pub fn push_decimal(out: &mut String, v: i64, decimals: u8) {
    use fmt::Write as _;
    let _ = write!(out, "{}", Decimal(v, decimals));
}

/// Receives the events of a run, in order.
pub trait Sink {
    fn event(&mut self, world: &World<'_>, event: &Event<'_>);
}

/// Collects nothing: for runs whose result is all that matters.
pub struct NullSink;

impl Sink for NullSink {
    fn event(&mut self, _: &World<'_>, _: &Event<'_>) {}
}

/// Where a duration is counted, in words: `place 2 of ORDER`, `start of NAME's turn`.
pub fn anchor_text(p: &World<'_>, a: Anchor) -> String {
    let mut s = String::new();
    let _ = write_anchor(&mut s, p, a);
    s
}

/// Writes [`anchor_text`] into `out`, without a `String` of its own.
pub fn write_anchor(out: &mut impl fmt::Write, p: &World<'_>, a: Anchor) -> fmt::Result {
    let level = |l: LevelId| p.levels.get(l as usize).map(|l| l.name.as_str()).unwrap_or("?");
    match a {
        Anchor::Place(o, i) => write!(
            out,
            "place {} of {}",
            i + 1,
            p.orders.get(o as usize).map_or("?", |o| o.name.as_str())
        ),
        Anchor::TurnStart(e) => write!(out, "start of {}'s turn", p.character_name(e)),
        Anchor::TurnEnd(e) => write!(out, "end of {}'s turn", p.character_name(e)),
        Anchor::LevelStart(l) => write!(out, "start of {}", level(l)),
        Anchor::LevelEnd(l) => write!(out, "end of {}", level(l)),
    }
}

fn unit_name(p: &Program, u: UnitId) -> &str {
    p.units.get(u as usize).map(|u| u.0.as_str()).unwrap_or("time")
}

/// Why an encounter (or, with [`EndReason::Ended`], a level) ended, in words.
pub fn reason_text(p: &Program, r: &EndReason) -> String {
    let mut s = String::new();
    let _ = write_reason(&mut s, p, r);
    s
}

/// Writes [`reason_text`] into `out`, without a `String` of its own.
pub fn write_reason(out: &mut impl fmt::Write, p: &Program, r: &EndReason) -> fmt::Result {
    match r {
        EndReason::Complete => out.write_str("complete"),
        EndReason::Ended(Some(i)) => out.write_str(p.reasons.get(*i as usize).map_or("", String::as_str)),
        EndReason::Ended(None) => out.write_str("ended"),
        EndReason::Until { level, n, default } => {
            let name = p.levels.get(*level as usize).map(|l| l.name.as_str()).unwrap_or("?");
            if *default {
                write!(out, "limit {name}={n}")
            } else {
                write!(out, "until {name}={n}")
            }
        }
    }
}

/// Where a view writes: its writer, and the first error writing to it. After an error the view
/// writes nothing more (a closed pipe stays closed); the run goes on, and the caller asks.
struct Out<W> {
    w: W,
    error: Option<io::Error>,
}

impl<W: io::Write> Out<W> {
    fn new(w: W) -> Self {
        Out { w, error: None }
    }

    /// Writes with `f` unless an earlier write failed; keeps the first error.
    fn emit(&mut self, f: impl FnOnce(&mut W) -> io::Result<()>) {
        if self.error.is_none() {
            self.error = f(&mut self.w).err();
        }
    }

    /// Flushes the writer, or gives back (a copy of) the first error if a write failed.
    fn flush(&mut self) -> io::Result<()> {
        match &self.error {
            Some(e) => Err(io::Error::new(e.kind(), e.to_string())),
            None => self.w.flush(),
        }
    }
}

impl Out<Vec<u8>> {
    /// What was written, as text (the views write only UTF-8).
    fn text(&self) -> &str {
        std::str::from_utf8(&self.w).unwrap_or("")
    }
}
