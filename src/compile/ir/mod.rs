//! The compiled form: every name resolved to a slot. The runtime reads only this.

mod block;
mod decks;
mod dice;

pub use block::{Block, BlockId, CodeCell, NO_BLOCK};
pub use decks::DeckIndex;
pub use dice::{CountingEx, DynDiceEx, FacesEx, PoolSt};

use crate::source::Span;
use crate::syntax::ast::{BinOp, Dice, LevelKind, Quant};

pub type FieldId = u16;
pub type LevelId = u16;
pub type ActionId = u16;
pub type OrderId = u16;
pub type DecisionId = u16;
pub type OptionId = u16;
pub type LabelId = u16;
pub type DiceId = u16;
pub type HookId = u16;
pub type MeasureId = u16;
pub type PolicyId = u16;
pub type TriggerId = u16;
/// A `ready` statement's definition: its place in `Program::moments.readies`.
pub type ReadyId = u16;
pub type RoleId = u16;
pub type UnitId = u16;
pub type KindId = u16;
pub type EntityId = u32;
/// A type of entity: [`CHARACTER`] or a declared thing.
pub type TypeId = u16;
pub use crate::check::CHARACTER;
/// `none` as a value: no entity.
pub const NONE: i64 = -1;
/// The owner of globals: the table, which is no character.
pub const TABLE: EntityId = EntityId::MAX;
/// A local variable's slot in the run's frame.
pub type Slot = u16;
/// A compiled ruleset plus encounter, ready to run; not changed after (`fixed`, `code` follow it).
#[derive(Debug, Clone)]
pub struct Program {
    pub ruleset_name: String,
    pub encounter_name: String,
    pub fields: Vec<FieldDef>,
    pub params: Vec<(String, Ex)>,
    /// The slots of each param's arguments (empty for a plain param).
    pub param_slots: Vec<Vec<Slot>>,
    pub sides: Vec<String>,
    /// The types of entity, name and plural: `character` first, then each `thing`.
    pub things: Vec<(String, String)>,
    pub tags: Vec<String>,
    pub actions: Vec<ActionDef>,
    pub orders: Vec<OrderDef>,
    pub levels: Vec<LevelDef>,
    pub decisions: Vec<String>,
    pub options: Vec<String>,
    pub policies: Vec<PolicyDef>,
    pub default_policy: Option<PolicyRef>,
    /// Every entity the encounter declares, characters and things, in declaration order.
    pub characters: Vec<CharacterDef>,
    /// Labels of rolls: what a roll was for (the field being set, the order being made).
    pub labels: Vec<String>,
    pub dice: Vec<(Dice, Span)>,
    /// `because` texts of `end` statements.
    pub reasons: Vec<String>,
    pub setup: Block,
    pub play: Block,
    /// How many blocks are numbered (`Block::id` from 0 to this).
    pub n_blocks: u32,
    /// The blocks' compiled form (`runtime::code`), made at the first run and shared after it.
    pub code: CodeCell,
    pub n_locals: usize,
    pub roles: Vec<String>,
    pub triggers: Vec<TriggerDef>,
    /// Units of the game clock with their size in the base unit (the first).
    pub units: Vec<(String, i64)>,
    pub kinds: Vec<String>,
    pub hooks: Vec<HookDef>,
    /// Each routine's body, as a hook run only by `do`.
    pub routines: Vec<HookId>,
    /// Hooks run at the start and at the end of every turn.
    pub turn_start: Vec<HookId>,
    pub turn_end: Vec<HookId>,
    /// Flags `per turn` (with no level named `turn`): cleared as each of their owner's turns starts.
    pub turn_clears: Vec<FieldId>,
    /// Flags `per any turn`: cleared for every entity of their owner type as any turn starts.
    pub any_turn_clears: Vec<FieldId>,
    /// Hooks run after every turn has ended (`on after turn(c)`), outside it.
    pub turn_after: Vec<HookId>,
    /// Hooks run as a character comes into play (`join`) and goes out of it (`leave`).
    pub join_hooks: Vec<HookId>,
    pub leave_hooks: Vec<HookId>,
    /// Hooks run as the encounter starts (before `setup`) and as it ends.
    pub encounter_start: Vec<HookId>,
    pub encounter_end: Vec<HookId>,
    /// The names of the `measure`s, by id.
    pub measures: Vec<String>,
    /// The decimals of each measure's values (kept times 10^N, as fields are).
    pub measure_decimals: Vec<u8>,
    /// The faces of dice with listed faces (`d[-1,0,1]`), by `Dice::faces`.
    pub faces: Vec<Vec<i64>>,
    /// The bodies of secret choices' options, run when the choices are revealed.
    pub bodies: Vec<Block>,
    /// `forbid`: what an answer may attempt that no decision offers now, and why it is refused;
    /// `attempts[k]` is the option `forbids[k]` stands for (what deciders match answers against).
    pub forbids: Vec<ForbidDef>,
    /// The thing types that are decks of cards (`deck`); their cards are the declared entities
    /// of the type, in deck order.
    pub decks: Vec<TypeId>,
    /// Each deck's name, refill and cards (parallel to `decks`).
    pub deck_defs: Vec<crate::check::DeckDef>,
    /// Each card's deck and each entity's deck of a make (`decks per TYPE`), for the runtime.
    pub deck_index: DeckIndex,
    /// For each type: the field holding the entity each such thing stands for (`thing ... for
    /// FIELD`), which the trace names beside it.
    pub stands_for: Vec<Option<FieldId>>,
    pub attempts: Vec<OptionKey>,
    /// The moments before turns and actions, effects' hooks, readied responses.
    pub moments: super::moments::Moments,
    /// For each of `attempts`, what carries it out, if declared (only forbidden: always refused).
    pub attempt_defs: Vec<Option<AttemptDef>>,
    /// What the compiler fixed for the run loop: rank tables, constant costs, edges with work.
    pub fixed: super::Fixed,
}

/// `attempt NAME [(c)] [at MOMENT, ...] [when C] { ... }`: the hook running its body (binding who
/// attempts, then whose turn it is, where written; its filter is the `when`), and its moments.
#[derive(Debug, Clone)]
pub struct AttemptDef {
    pub hook: HookId,
    pub who: Option<Slot>,
    pub turn: Option<Slot>,
    /// Where it may be made; empty: at any moment.
    pub at: Vec<MomentDef>,
    /// The moments as written, for the reason of a refusal.
    pub windows: String,
}

/// A moment an attempt may be made at (`at ...`), or is made at.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MomentDef {
    BeforeTurn,
    AfterTurn,
    LevelStart(LevelId),
    LevelEnd(LevelId),
    Decision(DecisionId),
}

/// The moment an attempt is made at: before or after someone's turn, a level's start or end
/// (while it runs), or while a decision is asked.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Moment {
    BeforeTurn(EntityId),
    AfterTurn(EntityId),
    LevelStart(LevelId),
    LevelEnd(LevelId),
    /// While a decision is asked, of this chooser.
    Decision(DecisionId, Who),
}

#[derive(Debug, Clone)]
pub struct TriggerDef {
    pub name: String,
    /// What each argument is, for the trace (`trigger hit(c, n: number)`).
    pub args: Vec<ArgKind>,
    /// The hooks answering it, in declaration order.
    pub hooks: Vec<HookId>,
}

/// What a trigger's argument is: an entity (traced by its name), a number, a truth value or a
/// side (traced by its name).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ArgKind {
    Entity,
    Number,
    Truth,
    Side,
}

/// A hook: the slots its variables are bound to, an optional filter, and its body.
#[derive(Debug, Clone)]
pub struct HookDef {
    pub vars: Vec<Slot>,
    pub filter: Option<Ex>,
    pub body: Block,
    /// Every slot the hook binds, saved and restored around it so hooks may nest.
    pub frame: (Slot, Slot),
    /// For a turn hook: the type of entity whose turns it answers.
    pub ty: TypeId,
}

#[derive(Debug, Clone)]
pub struct FieldDef {
    pub name: String,
    pub kind: crate::check::FieldKind,
    pub default: Option<Ex>,
    pub min: Option<Ex>,
    pub max: Option<Ex>,
    /// For flags: cleared as each iteration of these levels starts.
    pub per: Vec<LevelId>,
    /// The type of entity it belongs to.
    pub owner: TypeId,
    /// `stat NAME: TYPE`: it holds an entity of this type (or `none`).
    pub refers: Option<TypeId>,
    /// `decimals N`: its values are kept times 10^N (5.75 with 2 decimals is 575).
    pub decimals: u8,
    /// `global NAME: truth`: it holds a truth value (0 or 1), written `true`/`false`.
    pub truth: bool,
    /// `resource NAME(c) ...`: the slot naming the owner in `min` and `max`, which are then
    /// worked out for the owner at each change of the resource; and where the resource is
    /// declared (reported when its limits cross).
    pub owned: Option<(Slot, Span)>,
}

#[derive(Debug, Clone)]
pub struct ActionDef {
    pub name: String,
    pub actor: Slot,
    pub kinds: Vec<KindId>,
    pub costs: Vec<(Ex, FieldId)>,
    pub when: Option<Ex>,
    pub body: Block,
    pub label: LabelId,
    /// Every slot the action binds, saved and restored around it so actions may nest.
    pub frame: (Slot, Slot),
}

#[derive(Debug, Clone)]
pub struct OrderDef {
    pub name: String,
    /// The type of entity it sorts.
    pub ty: TypeId,
    pub var: Slot,
    pub keys: Vec<KeyDef>,
    pub label: LabelId,
}

#[derive(Debug, Clone)]
pub struct KeyDef {
    pub value: Ex,
    pub roll: bool,
    pub descending: bool,
    pub until_settled: bool,
    /// `until settled at most N`: rolls after which a group stays tied.
    pub at_most: Option<Ex>,
    /// `when COND`: sort a tied group only when COND holds of it (`Coll::Tied`).
    pub when: Option<Ex>,
    /// `chosen by WHO`: who picks the order of a tied group, the decision (the order's name), and
    /// the policies' conditional preferences for it.
    pub chosen: Option<(ChooserEx, DecisionId, Vec<PolicyPrefs>)>,
    pub span: Span,
}

#[derive(Debug, Clone)]
pub struct LevelDef {
    pub name: String,
    pub kind: LevelKind,
    /// Flags cleared as each iteration starts.
    pub clears: Vec<FieldId>,
    /// Hooks run as each iteration starts and as it ends.
    pub on_start: Vec<HookId>,
    pub on_end: Vec<HookId>,
    /// `counting from ...`: numbered the game's way (so it may have a number 0).
    pub counting: bool,
    /// How many statements of `setup` and `play` open this level.
    pub statements: u16,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PolicyRef {
    First,
    Random,
    Declared(u16),
}

/// A secret `choose ... from`'s blocks kept aside for the reveal: its body and its decline
/// block, as indices into `Program::bodies`.
pub type Deferred = (u32, Option<u32>);

/// One policy's preferences for a decision, compiled where the decision is made (because some
/// have conditions, read in that place's scope), best first.
#[derive(Debug, Clone)]
pub struct PolicyPrefs {
    pub policy: PolicyId,
    pub prefs: Vec<PrefDef>,
}

/// A preference: an option to take, or a slot each candidate is bound to in turn; and the
/// condition that must hold.
#[derive(Debug, Clone)]
pub struct PrefDef {
    pub pick: Pick,
    pub cond: Option<Ex>,
}

#[derive(Debug, Clone, Copy)]
pub enum Pick {
    Option(OptionKey),
    Candidate(Slot),
}

#[derive(Debug, Clone)]
pub struct PolicyDef {
    pub name: String,
    /// For each decision, the options it prefers, best first.
    pub prefs: Vec<Vec<OptionKey>>,
}

#[derive(Debug, Clone)]
pub struct CharacterDef {
    pub name: String,
    pub ty: TypeId,
    pub side: Option<u16>,
    pub tags: Vec<u16>,
    pub fields: Vec<(FieldId, Ex)>,
    /// `absent`: out of play until a `join`.
    pub absent: bool,
    /// A member of a group (`character N × NAME`): the first member's id and the number of
    /// members (ids from the first on). `None` for an entity declared alone.
    pub group: Option<(EntityId, u32)>,
}

/// One option of a decision as the runtime offers it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum OptionKey {
    Named(OptionId),
    Action(ActionId),
    Character(EntityId),
}

/// Who makes a decision: a character or a role.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Who {
    Character(EntityId),
    Role(RoleId),
}

/// A chooser as written: a role, or an expression giving a character.
#[derive(Debug, Clone)]
pub enum ChooserEx {
    Role(RoleId),
    /// An expression that gives a role (`by c.side.controller`); the span is reported when it
    /// gives `none`.
    RoleOf(Ex, Span),
    Character(Ex),
}

/// The `forbid` lines of one name, in the order written: each with the slot of who attempts it
/// (`forbid NAME(c) ...`), if it names them.
#[derive(Debug, Clone)]
pub struct ForbidDef {
    pub rules: Vec<(Option<Slot>, RefusalDef)>,
}

/// `or NAME [unless ...]* [{ ... }]`: the option that declines a `choose ... from`, the rules that
/// refuse it, and its block.
#[derive(Debug, Clone)]
pub struct Decline {
    pub option: OptionId,
    pub refusals: Vec<RefusalDef>,
    pub block: Block,
}

/// `unless C because "..."`: the condition, and the message's parts (text, or a character's name).
#[derive(Debug, Clone)]
pub struct RefusalDef {
    pub cond: Ex,
    pub message: Vec<MessagePart>,
    pub span: Span,
}

/// A piece of a refusal's text: words, an entity written by name, or a number.
#[derive(Debug, Clone)]
pub enum MessagePart {
    Text(String),
    Name(Ex),
    /// A number, and the decimals it keeps.
    Number(Ex, u8),
}

/// Where an effect's duration is counted down, as written.
#[derive(Debug, Clone)]
pub enum CountEx {
    Place(Ex, OrderId),
    TurnStart(Ex),
    TurnEnd(Ex),
    LevelStart(LevelId),
    LevelEnd(LevelId),
}

/// How long a `begin` lasts: `for N` counts, or `until` the edge it is counted at (`next`: a
/// turn of the one it counts, an iteration of the level, under way when it begins is skipped).
#[derive(Debug, Clone)]
pub enum Lasts {
    For(Ex),
    Until { next: bool },
}

/// Where a running effect's duration is counted down.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Anchor {
    /// Each time a walk of the kept order reaches this place (0-based).
    Place(OrderId, usize),
    TurnStart(EntityId),
    TurnEnd(EntityId),
    LevelStart(LevelId),
    LevelEnd(LevelId),
}

/// What a card statement does; a deck is its place in [`Program::decks`].
#[derive(Debug, Clone)]
pub enum CardAct {
    Shuffle(DeckAt),
    Draw {
        deck: DeckAt,
        by: Option<Ex>,
        bind: Option<Slot>,
    },
    Discard(Ex),
    Return(Ex, DeckAt),
    /// `take X from DECK`: out of the draw pile.
    Take(Ex, DeckAt),
    /// `shuffle X into DECK`: into the draw pile at a random place.
    ShuffleIn(Ex, DeckAt),
}

/// A deck a card statement names: its place in [`Program::decks`], or (`owner`) the deck of
/// that entity among the decks of the make `deck` begins (`decks per TYPE`).
#[derive(Debug, Clone)]
pub struct DeckAt {
    pub deck: u16,
    pub owner: Option<Ex>,
}

/// Where `place` puts a character.
#[derive(Debug, Clone)]
pub enum PlaceAt {
    First,
    Last,
    Before(Ex),
    After(Ex),
    /// `swap c with x`: the two trade places.
    Swap(Ex),
}

/// What a loop walks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Coll {
    /// Every entity of a type in play, in the order they entered it.
    All(TypeId),
    /// The order kept by the last `rank` of this order.
    Ranked(OrderId),
    /// `tied`: the group an ordering key is about to sort (in a key's `when`).
    Tied,
    /// `sides`: every side (its index), in declaration order; never out of play.
    Sides,
    /// `draw pile of DECK` (`false`) or `discard pile of DECK` (`true`), in deck order.
    Pile(u16, bool),
}

#[derive(Debug, Clone)]
pub enum Repeat {
    Once,
    Forever,
    While(Ex),
    Until(Ex),
}

/// A compiled statement.
#[derive(Debug, Clone)]
pub enum St {
    Level {
        level: LevelId,
        repeat: Repeat,
        /// The game's own numbers (`counting from ...`); `None`: 1, 2, 3, ...
        counting: Option<Box<CountingEx>>,
        body: Block,
        span: Span,
    },
    Turn {
        actor: Ex,
        body: Block,
        span: Span,
    },
    ForEach {
        /// `together for each`: one moment for every member (no re-check, traced as a group).
        together: bool,
        /// `by ORDER anew`: sorted again before each member's moment.
        anew: bool,
        /// `by ORDER ties together`: each group tied on the order's value keys is one moment.
        ties: bool,
        /// `repeat for first`: sorted before every pass, the first has the moment, until no one
        /// passes.
        again: bool,
        var: Slot,
        coll: Coll,
        /// `out of play`, `including out of play`: whom it walks.
        presence: crate::syntax::ast::Presence,
        backwards: bool,
        /// `from X`: start at X, wrapping round.
        from: Option<Ex>,
        filter: Option<Ex>,
        order: Option<OrderId>,
        body: Block,
        span: Span,
    },
    If {
        cond: Ex,
        then: Block,
        otherwise: Block,
    },
    Choose {
        /// `in secret`: revealed, and its option run, when the enclosing `together` walk ends.
        secret: bool,
        /// `in secret until revealed`: held until a `reveal` shows it.
        held: bool,
        decision: DecisionId,
        chooser: ChooserEx,
        options: Vec<OptionDef>,
        /// The policies whose preferences for this decision have conditions, read here.
        prefs: Vec<PolicyPrefs>,
        span: Span,
    },
    ChooseFrom {
        secret: bool,
        /// `in secret until revealed`: held until a `reveal` shows it.
        held: bool,
        /// `as NAME`: the slot given the pick (or `none`) as it is made.
        bind: Option<Slot>,
        /// Its `where` or `unless` reads an earlier secret pick: its `secret` event is traced
        /// even when nothing could be chosen (that nothing could would tell).
        reads: bool,
        decision: DecisionId,
        chooser: ChooserEx,
        var: Slot,
        coll: Coll,
        presence: crate::syntax::ast::Presence,
        filter: Option<Ex>,
        order: Option<OrderId>,
        body: Block,
        decline: Option<Decline>,
        refusals: Vec<RefusalDef>,
        prefs: Vec<PolicyPrefs>,
        /// In a secret choice: the body and the decline block are `Program::bodies[id]`.
        deferred: Option<Deferred>,
        span: Span,
    },
    Repeat {
        repeat: Repeat,
        body: Block,
        span: Span,
    },
    EndRepeat,
    Create {
        thing: TypeId,
        fields: Vec<(FieldId, Ex)>,
        bind: Option<Slot>,
        span: Span,
    },
    Destroy {
        what: Ex,
        span: Span,
    },
    /// `shuffle`, `draw`, `discard`, `return`: a deck's cards move.
    Cards {
        act: CardAct,
        span: Span,
    },
    Let {
        slot: Slot,
        value: Ex,
    },
    /// `roll DICE as p`, `remove FACE from p`, `for each f in p`: dice pools.
    Pool(Box<PoolSt>),
    Rank {
        order: OrderId,
        /// `where C`: the slot bound to each candidate, and C.
        filter: Option<(Slot, Ex)>,
    },
    Transfer {
        amount: Option<Ex>,
        from: Target,
        to: Target,
        span: Span,
    },
    Raise {
        trigger: TriggerId,
        args: Vec<Ex>,
        span: Span,
    },
    React {
        actor: Ex,
        body: Block,
        span: Span,
    },
    /// `disarm OWNER [on POINT]`: the owner's responses (on that point only, if set) disarmed.
    Disarm {
        owner: Ex,
        on: Option<super::moments::ReadyOn>,
        span: Span,
    },
    /// `ready OWNER on ... [until EDGE] { ... }`: arms response `ready` for the owner.
    Ready {
        ready: ReadyId,
        owner: Ex,
        until: Option<CountEx>,
        span: Span,
    },
    Begin {
        effect: FieldId,
        target: Ex,
        count: Lasts,
        at: CountEx,
        span: Span,
    },
    Stop {
        effect: FieldId,
        target: Ex,
        span: Span,
    },
    /// `reveal [all] DECISION of WHO`: the earliest (every) choice WHO holds of DECISION.
    Reveal {
        decision: DecisionId,
        chooser: ChooserEx,
        all: bool,
        span: Span,
    },
    Place {
        who: Ex,
        to: PlaceAt,
        order: OrderId,
        span: Span,
    },
    Do {
        hook: HookId,
        args: Vec<Ex>,
        span: Span,
    },
    /// `for each i in A [down] to B { ... }`: `var` takes each number, the bounds worked out once.
    Count {
        var: Slot,
        from: Ex,
        to: Ex,
        down: bool,
        body: Block,
        span: Span,
    },
    /// `give EXPR`: the value of the routine running; it returns here.
    Give {
        value: Ex,
    },
    Elapse {
        amount: Ex,
        unit: UnitId,
        span: Span,
    },
    End {
        level: Option<LevelId>,
        reason: Option<u16>,
    },
    Spend {
        amount: Option<Ex>,
        target: Target,
        span: Span,
    },
    Gain {
        amount: Ex,
        target: Target,
        span: Span,
    },
    Reset {
        target: Target,
        value: Ex,
        span: Span,
    },
    Forfeit {
        target: Target,
    },
    Set {
        target: Target,
        value: Ex,
        span: Span,
    },
    Mark {
        target: Target,
        on: bool,
    },
    /// `join X` (true) / `leave X` (false).
    Presence {
        who: Ex,
        join: bool,
        span: Span,
    },
    /// A measure's value, recorded; `about`: the slot of the entity it is about (`side`: of
    /// the side, in a measure `for each s in sides`).
    Record {
        measure: MeasureId,
        value: Ex,
        about: Option<Slot>,
        side: bool,
    },
    /// `together { ... }`: a moment with no walk.
    Moment {
        body: Block,
        span: Span,
    },
    /// `CHANGE at end of moment|LEVEL`: the change's target and amount worked out now, the change
    /// made when the innermost moment (`level: None`) or the level's current iteration ends.
    Deferred {
        change: Box<St>,
        level: Option<LevelId>,
        /// Where `at end of ...` is written.
        at: Span,
        span: Span,
    },
}

#[derive(Debug, Clone)]
pub struct Target {
    /// The character variable; `None` for a global (or when `base` says whose).
    pub var: Option<Slot>,
    /// The owner as an expression: `c.held.out`, `(first x in cards ...).fast`.
    pub base: Option<Box<Ex>>,
    pub field: FieldId,
    pub label: LabelId,
    /// Where it is written: an owner that is `none` is reported here.
    pub span: Span,
}

#[derive(Debug, Clone)]
pub struct OptionDef {
    /// `None`: the action catalogue.
    pub name: Option<OptionId>,
    /// For the catalogue: only actions of these kinds (empty: all).
    pub kinds: Vec<KindId>,
    /// For the catalogue: pay every cost from this resource.
    pub using: Option<FieldId>,
    pub when: Option<Ex>,
    pub refusals: Vec<RefusalDef>,
    pub body: Block,
    /// In a secret choice: the body is `Program::bodies[id]`, run when the choice is revealed.
    pub deferred: Option<u32>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Func {
    Highest,
    Lowest,
    Abs,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Member {
    Side(u16),
    Tag(u16),
}

/// A compiled expression. Numbers, truth values (0/1) and entities (their index, [`NONE`] for
/// none) are all `i64`.
#[derive(Debug, Clone)]
pub enum Ex {
    Int(i64),
    Local(Slot),
    Param(u16),
    /// An entity's field; the span is reported when the entity is `none`.
    Field(Box<Ex>, FieldId, Span),
    /// `x is NAME`; the span is reported when `x` is `none`.
    Is(Box<Ex>, Member, Span),
    Dice(DiceId),
    /// Dice with computed parts: count, sides, the number kept; the span of the whole.
    DynDice(Box<DynDiceEx>, Span),
    Neg(Box<Ex>, Span),
    Not(Box<Ex>),
    Bin(BinOp, Box<Ex>, Box<Ex>, Span),
    Call(Func, Vec<Ex>, Span),
    Quant {
        quant: Quant,
        var: Slot,
        coll: Coll,
        /// `out of play`, `including out of play`: whom it walks.
        presence: crate::syntax::ast::Presence,
        filter: Option<Box<Ex>>,
        /// For `first` and `last`: the order to sort by.
        by: Option<OrderId>,
        body: Option<Box<Ex>>,
        /// The quantifier's text: where a run that spends its step budget in it stops.
        span: Span,
    },
    If(Box<Ex>, Box<Ex>, Box<Ex>),
    /// A character's side (its index), or -1 for a character on no side; the span is reported
    /// when the character is `none`.
    SideOf(Box<Ex>, Span),
    /// The owner of a side's fields for the side an expression gives (see
    /// [`Program::side_owner`]); the span is reported when it gives `none`.
    SideOwner(Box<Ex>, Span),
    /// `x.in_play`: `x` is in play (joined, not gone by `leave`, not destroyed).
    InPlay(Box<Ex>, Span),
    /// `c.group`: the first member of `c`'s group in play (the first member when none is), `c`
    /// itself for a character declared alone.
    GroupOf(Box<Ex>, Span),
    /// The current iteration of a level, from 1 (0 before it first runs).
    LevelNumber(LevelId),
    /// A param with arguments, called.
    ParamCall(u16, Vec<Ex>),
    /// A routine that gives a value, called: its hook, its arguments, the call.
    Routine(HookId, Vec<Ex>, Span),
    /// A character's place in a kept order, from 1 (0 when it is not in it, or `none`).
    Position(Box<Ex>, OrderId),
    /// The character right below one in a kept order (itself when last or not in it; `none`
    /// for `none`).
    Below(Box<Ex>, OrderId),
    /// The entity after (or, when `false`, before) one in a kept order, wrapping round (`none`
    /// when it is not in it, or `none`).
    Next(Box<Ex>, OrderId, bool),
    /// A quantifier over the faces of one roll, or of a pool (`dice` is then its `Local`).
    Faces(Box<FacesEx>),
    /// `p.size`: how many dice the pool in this slot holds.
    PoolSize(Slot),
}

impl Program {
    pub fn option_name(&self, key: OptionKey) -> &str {
        match key {
            OptionKey::Named(i) => self.options.get(i as usize).map(String::as_str).unwrap_or("?"),
            OptionKey::Action(i) => self.actions.get(i as usize).map(|a| a.name.as_str()).unwrap_or("?"),
            OptionKey::Character(e) => self.character_name(e),
        }
    }

    pub fn who_name(&self, who: Who) -> &str {
        match who {
            Who::Character(e) => self.character_name(e),
            Who::Role(r) => self.roles.get(r as usize).map(String::as_str).unwrap_or("?"),
        }
    }

    pub fn character_name(&self, id: EntityId) -> &str {
        if id == TABLE {
            return "the table";
        }
        if let Some(s) = self.side_of_owner(id) {
            return &self.sides[s];
        }
        self.characters.get(id as usize).map(|c| c.name.as_str()).unwrap_or("?")
    }

    /// The owner of side `s`'s fields (`side NAME { FIELDS }`): counted down from just below
    /// [`TABLE`], past any id an entity can have, so a side stands as the actor of its fields'
    /// events as a character does.
    pub fn side_owner(s: usize) -> EntityId {
        TABLE - 1 - s as EntityId
    }

    /// The side whose fields `id` owns, if it is a side's owner (see [`Program::side_owner`]).
    pub fn side_of_owner(&self, id: EntityId) -> Option<usize> {
        Self::side_among(id, self.sides.len())
    }

    /// The side whose fields `id` owns among `n` sides: the one numbering of side owners, for
    /// those that keep the count of sides without the program (snapshots, `sim`'s tallies).
    pub fn side_among(id: EntityId, n: usize) -> Option<usize> {
        let s = (TABLE - 1).checked_sub(id)? as usize;
        (s < n).then_some(s)
    }

    /// The name of side or role `v` held by a value of type `t` ([`crate::check::SIDE`] or
    /// [`crate::check::ROLE`]), if `v` is one (`none` is not).
    pub fn held(&self, t: TypeId, v: i64) -> Option<&str> {
        let names = if t == crate::check::SIDE {
            &self.sides
        } else {
            &self.roles
        };
        usize::try_from(v).ok().and_then(|i| names.get(i)).map(String::as_str)
    }

    /// Whether any side has fields (`side NAME, ... { FIELDS }`).
    pub fn sides_have_fields(&self) -> bool {
        self.fields.iter().any(|f| f.owner == crate::check::SIDE)
    }

    pub fn level_id(&self, name: &str) -> Option<LevelId> {
        self.levels.iter().position(|l| l.name == name).map(|i| i as LevelId)
    }

    pub fn policy(&self, name: &str) -> Option<PolicyRef> {
        match name {
            "first" => Some(PolicyRef::First),
            "random" => Some(PolicyRef::Random),
            _ => self
                .policies
                .iter()
                .position(|p| p.name == name)
                .map(|i| PolicyRef::Declared(i as u16)),
        }
    }
}
