//! The spanned abstract syntax tree. Built by [`super::parse`]; pest pairs never leave the parser.

pub use crate::source::{FileId, Span};

mod cards;
mod expr;
pub use cards::*;
mod functions;
pub mod relabel;
pub use expr::*;
pub use functions::*;

/// A value with the span of the source text it came from.
#[derive(Clone, Debug, PartialEq)]
pub struct Spanned<T> {
    pub node: T,
    pub span: Span,
}

impl<T> Spanned<T> {
    pub fn new(node: T, span: Span) -> Self {
        Spanned { node, span }
    }
}

pub type Ident = Spanned<String>;

/// One parsed file: a ruleset, an encounter, or both.
#[derive(Clone, Debug, Default)]
pub struct File {
    pub items: Vec<Item>,
}

#[derive(Clone, Debug)]
/// Large parts are boxed so that an item stays small: a file of many short declarations costs
/// little memory per line.
pub enum Item {
    Ruleset(Spanned<String>),
    /// `encounter "NAME" [uses "PATH"]`: the encounter's name, and the ruleset it names.
    Encounter {
        name: Spanned<String>,
        uses: Option<Spanned<String>>,
    },
    Param {
        name: Ident,
        /// `param NAME(a, b) = EXPR`: a param with arguments, used as `NAME(x, y)`.
        /// Each argument is a number, or an entity of the named type (`a: character`).
        args: Vec<(Ident, Option<Ident>)>,
        value: Expr,
    },
    Stat {
        name: Ident,
        /// `stat NAME: TYPE`: the stat holds an entity of that type (or `none`).
        ty: Option<Ident>,
        /// `decimals N`: kept with N digits after the point (0: a whole number).
        decimals: u8,
        default: Option<Expr>,
    },
    Resource {
        name: Ident,
        /// `resource NAME(c)`: the name of the owner in the limits (which then may read it).
        owner: Option<Ident>,
        /// `decimals N`: kept with N digits after the point (0: a whole number).
        decimals: u8,
        min: Option<Box<Expr>>,
        max: Option<Box<Expr>>,
        /// `default E`: the start when the owner gives none (else 0), clamped like a given one.
        default: Option<Box<Expr>>,
    },
    Flag {
        name: Ident,
        /// `default E`: a truth value each character starts with (false if none).
        default: Option<Expr>,
        /// `per LEVEL, ...`: the levels (or `any turn`) whose start clears it.
        per: Vec<Per>,
    },
    /// `side NAME, ... [{ FIELDS }]`: the sides, and the fields every side has (`Stat`,
    /// `Resource` and `Flag` items).
    Side(Vec<Ident>, Vec<Item>),
    Tag(Vec<Ident>),
    Action(Box<ActionDecl>),
    Order(OrderDecl),
    Policy {
        name: Ident,
        /// For each decision it names, its preferences, best first.
        prefs: Vec<(Ident, Vec<Pref>)>,
    },
    DefaultPolicy(Ident),
    Setup(Block),
    Play(Block),
    Character(CharacterDecl),
    /// `unit NAME [= N UNIT]`: a unit of the game clock.
    Unit {
        name: Ident,
        of: Option<(i64, Ident)>,
    },
    /// `role NAME, ...`: deciders who are not characters.
    Role(Vec<Ident>),
    /// `trigger NAME(a, b)`: a happening that hooks answer.
    Trigger {
        name: Ident,
        params: Vec<Typed>,
    },
    Hook(Box<HookDecl>),
    /// `deck NAME, PLURAL { ... }`: marks the thing `NAME` as a deck of cards. The parser writes
    /// a deck out as the thing (with `rank`, `suit` and `joker`), a param per suit, and an
    /// entity per card, in deck order; then this. `copies`: `decks A, B` (several decks of this
    /// make, each with every card, written out deck after deck); `refill`: false for `no refill`.
    Deck {
        name: Ident,
        copies: Vec<Ident>,
        refill: bool,
        /// `decks per TYPE`, `one per TYPE`: cards made from the cast (see [`DeckCast`]).
        cast: Option<Box<DeckCast>>,
    },
    /// `kind NAME, ...`: kinds of action, declared on their own.
    Kind(Vec<Ident>),
    /// `forbid NAME [(c)] [when C] because "..."`: why an attempt that no decision offers now is
    /// refused; `c` is who attempts it. Without `when`, the condition is `true`.
    Forbid {
        name: Ident,
        who: Option<Ident>,
        rule: Box<Refusal>,
    },
    /// `measure NAME = EXPR [for each ...] at POINT`: a number recorded for the simulator.
    Measure(Box<MeasureDecl>),
    /// `attempt NAME [(c)] [at MOMENT, ...] [when C] { ... }`: an attempt that can be carried out.
    Attempt(Box<AttemptDecl>),
    /// `routine NAME(a, b) { ... }`: a named block, run by `do NAME(x, y)`.
    Routine {
        name: Ident,
        params: Vec<Typed>,
        /// `gives TYPE`: a function, called in an expression; its block gives the value.
        gives: Option<Ident>,
        body: Block,
    },
    /// `effect NAME, ...`
    Effect(Vec<Ident>),
    /// `global NAME [default E] [min E] [max E]`: a number of the table.
    Global {
        name: Ident,
        ty: Option<Ident>,
        /// `decimals N`: kept with N digits after the point (0: a whole number).
        decimals: u8,
        default: Option<Box<Expr>>,
        min: Option<Box<Expr>>,
        max: Option<Box<Expr>>,
    },
    /// `thing NAME, PLURAL { stat ... resource ... flag ... }`: a type of entity besides characters.
    Thing {
        name: Ident,
        plural: Ident,
        /// `for FIELD`: the field holding the entity each such thing stands for.
        stands_for: Option<Ident>,
        /// Its fields: `Stat`, `Resource` and `Flag` items.
        fields: Vec<Item>,
    },
    /// `TYPE NAME { field = value, ... }`: an entity of a declared thing type, in an encounter.
    Instance {
        ty: Ident,
        name: Ident,
        fields: Vec<(Ident, Expr)>,
    },
}

/// One preference of a policy: an option (an option, action or character by name), taken
/// when its condition holds (`when`); or (`where`) a variable and the condition a candidate of a
/// `choose ... from` must meet, bound to that variable. Conditions are read where the decision is
/// made.
#[derive(Clone, Debug)]
pub struct Pref {
    pub name: Ident,
    pub cond: Option<(PrefCond, Expr)>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PrefCond {
    When,
    Where,
}

/// A name with an optional type (`p: player`); without one, a character.
#[derive(Clone, Debug)]
pub struct Typed {
    pub name: Ident,
    pub ty: Option<Ident>,
}

/// `on start of turn(c)`, `on end of LEVEL`, `on TRIGGER(a, b)`: when a hook runs.
#[derive(Clone, Debug)]
pub enum HookOn {
    TurnStart,
    TurnEnd,
    /// `on after turn(c)`: after the turn's end event, outside the turn.
    TurnAfter,
    /// `on before turn(c)`: before the turn's start event, outside the turn.
    TurnBefore,
    /// `on before ACTION(c)`: an action was declared (its event traced, its costs paid) and is
    /// about to resolve; `on after ACTION(c)`: its body has run.
    ActionBefore(ActionSel),
    ActionAfter(ActionSel),
    /// `on start of EFFECT(c)` / `on end of EFFECT(c)`: an instance of the effect began or ended.
    EffectStart(Ident),
    EffectEnd(Ident),
    LevelStart(Ident),
    LevelEnd(Ident),
    /// `on start of encounter` (before `setup`), `on end of encounter` (as the run ends).
    EncounterStart,
    EncounterEnd,
    /// `on join(c)` / `on leave(c)`: a character came into play or went out of it.
    Join,
    Leave,
    Trigger(Ident),
}

/// `ready OWNER on POINT [where C] [until EDGE] { ... }`: a one-shot response owned by `OWNER`,
/// armed when the statement runs, run right after POINT's hooks the next time it happens (and
/// `C` holds), unless its owner left play or EDGE came first.
#[derive(Clone, Debug)]
pub struct Ready {
    pub owner: Expr,
    /// `Trigger`, `Join`, `Leave`, `ActionBefore` or `ActionAfter`.
    pub on: HookOn,
    /// The variables bound to the point's arguments.
    pub vars: Vec<Ident>,
    pub filter: Option<Expr>,
    /// `until start|end of turn(x)|LEVEL` (never a place).
    pub until: Option<CountAt>,
    pub body: Block,
    pub span: Span,
}

/// Which actions a hook `on before|after ...(c)` answers.
#[derive(Clone, Debug)]
pub enum ActionSel {
    /// `action(c)`: every action.
    Any,
    /// `NAME(c)`: one declared action.
    Named(Ident),
    /// `action of kind K, ...(c)`: the actions of any of these kinds.
    Kinds(Vec<Ident>),
}

#[derive(Clone, Debug)]
pub struct HookDecl {
    pub on: HookOn,
    /// The variables the hook binds: the turn's entity, or the trigger's arguments.
    pub vars: Vec<Ident>,
    /// `on start of turn(p: TYPE)`: the type of entity whose turns it answers (characters' if none).
    pub turn_ty: Option<Ident>,
    pub filter: Option<Expr>,
    pub body: Block,
    pub span: Span,
}

/// `attempt NAME [(c)] [at MOMENT, ...] [when C] { ... }`: made at one of its moments (any
/// moment without `at`), and carried out (its body runs) when `C` holds and no `forbid` line of
/// its name does; `c` is who attempts it.
#[derive(Clone, Debug)]
pub struct AttemptDecl {
    pub name: Ident,
    pub who: Option<Ident>,
    pub at: Vec<Spanned<Moment>>,
    pub when: Option<Expr>,
    pub body: Block,
    pub span: Span,
}

/// A moment an attempt may be made at.
#[derive(Clone, Debug, PartialEq)]
pub enum Moment {
    /// `before turn [(x)]`: before a turn starts, outside it; `x` is whose turn it is.
    BeforeTurn(Option<Ident>),
    /// `after turn [(x)]`: once a turn is over.
    AfterTurn(Option<Ident>),
    /// `start of LEVEL` / `end of LEVEL`: as an iteration of the level starts or ends.
    LevelStart(Ident),
    LevelEnd(Ident),
    /// `DECISION [(x)]`: while a decision of that name is being asked (of anyone); `x` is who is
    /// deciding.
    Decision(Ident, Option<Ident>),
}

/// `measure NAME = EXPR [for each c in COLL [where C]] at POINT`: the value of EXPR, recorded
/// (a `measure` event) where a hook with the same point would run.
#[derive(Clone, Debug)]
pub struct MeasureDecl {
    pub name: Ident,
    pub value: Expr,
    /// `for each c in COLL [where C]`: one value per entity walked, recorded with it.
    pub each: Option<(Ident, Collection, Option<Expr>)>,
    /// `out of play`, `including out of play` after the collection of `for each`.
    pub each_presence: Presence,
    /// Where it is taken: `on`, the variables it binds (a turn's entity, a trigger's arguments)
    /// and the type of a turn's entity, as for a hook.
    pub at: HookOn,
    pub vars: Vec<Ident>,
    pub turn_ty: Option<Ident>,
    pub span: Span,
}

impl MeasureDecl {
    /// The hook that takes it: at its point, (for each entity walked) a `record` of its value,
    /// with the entity walked or the turn's entity as the one it is about.
    pub fn hook(&self) -> HookDecl {
        let span = self.span;
        let turn_var = matches!(
            self.at,
            HookOn::TurnStart
                | HookOn::TurnEnd
                | HookOn::TurnAfter
                | HookOn::TurnBefore
                | HookOn::ActionBefore(_)
                | HookOn::ActionAfter(_)
                | HookOn::EffectStart(_)
                | HookOn::EffectEnd(_)
        )
        .then(|| self.vars.first().cloned())
        .flatten();
        let record = |about: Option<Ident>| Stmt::Record {
            measure: self.name.clone(),
            value: self.value.clone(),
            about,
            span,
        };
        let body = match &self.each {
            Some((var, coll, filter)) => Stmt::ForEach(Box::new(ForEach {
                together: false,
                anew: false,
                ties: false,
                again: false,
                var: var.clone(),
                coll: coll.clone(),
                presence: self.each_presence,
                backwards: false,
                from: None,
                filter: filter.clone(),
                order: None,
                body: Block {
                    stmts: vec![record(Some(var.clone()))],
                    span,
                },
                span,
            })),
            None => record(turn_var),
        };
        HookDecl {
            on: self.at.clone(),
            vars: self.vars.clone(),
            turn_ty: self.turn_ty.clone(),
            filter: None,
            body: Block {
                stmts: vec![body],
                span,
            },
            span,
        }
    }
}

/// `or NAME [unless C because "..."]* [{ ... }]` after a `choose ... from`: the option that
/// declines, when it is refused, and what it does.
#[derive(Clone, Debug)]
pub struct Decline {
    pub option: Ident,
    pub refusals: Vec<Refusal>,
    pub block: Block,
}

/// `unless C because "text {expr} text"`
#[derive(Clone, Debug)]
pub struct Refusal {
    pub cond: Expr,
    pub message: Vec<Part>,
    pub span: Span,
}

/// A piece of a message: text, or a character expression whose name is filled in.
#[derive(Clone, Debug)]
pub enum Part {
    Text(String),
    Name(Expr),
}

/// Where an effect's duration is counted down.
#[derive(Clone, Debug)]
pub enum CountAt {
    /// Each time a walk of the kept order reaches the place `c` holds now.
    Place(Expr, Ident),
    TurnStart(Expr),
    TurnEnd(Expr),
    LevelStart(Ident),
    LevelEnd(Ident),
}

/// How long a `begin` lasts: `for N` counts of its `counted at`, or `until [start|end] of [next]
/// X` (the edge is its `counted at`; `next` skips a turn of X, an iteration of a level, under way
/// when it begins).
#[derive(Clone, Debug)]
pub enum Lasting {
    For(Expr),
    Until { next: bool, span: Span },
}

/// What clears a `flag ... per`: each iteration of a level (`turn` with no level of that name:
/// the owner's own turns), or `any turn`, anyone's.
#[derive(Clone, Debug)]
pub enum Per {
    Level(Ident),
    AnyTurn(Span),
}

/// Where `place` puts a character.
#[derive(Clone, Debug)]
pub enum PlaceTo {
    First,
    Last,
    Before(Expr),
    After(Expr),
    /// `swap c with x in ORDER`: the two trade places.
    Swap(Expr),
}

/// What a loop walks: every character, or a kept order (`rank NAME`).
#[derive(Clone, Debug, PartialEq)]
pub enum Collection {
    Characters,
    Ranked(Ident),
    /// `draw pile of DECK` (`false`) or `discard pile of DECK` (`true`).
    Pile(DeckRef, bool),
}

#[derive(Clone, Debug)]
pub struct ActionDecl {
    pub name: Ident,
    pub actor: Ident,
    /// `kind K, ...`: what sort of activity this is (options can offer one kind only).
    pub kinds: Vec<Ident>,
    pub costs: Vec<Cost>,
    pub when: Option<Expr>,
    pub body: Block,
}

#[derive(Clone, Debug)]
pub struct Cost {
    pub amount: Expr,
    pub resource: Ident,
}

#[derive(Clone, Debug)]
pub struct OrderDecl {
    pub name: Ident,
    pub var: Ident,
    /// `order NAME(p: TYPE)`: what it sorts (characters if none).
    pub ty: Option<Ident>,
    pub keys: Vec<OrderKey>,
}

#[derive(Clone, Debug)]
pub struct OrderKey {
    pub value: Expr,
    /// `roll EXPR ...`: rolled only among the characters still tied.
    pub roll: bool,
    pub descending: bool,
    /// `until settled`: roll again among those still tied.
    pub until_settled: bool,
    /// `until settled at most N`: after N rolls a group stays tied (for the next key).
    pub at_most: Option<Expr>,
    /// `when COND`: the key sorts a tied group only when COND holds of it (`tied` names it).
    pub when: Option<Expr>,
    /// `chosen by WHO`: WHO picks the order of each tied group (then `value` is unused).
    pub chosen: Option<Expr>,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub struct CharacterDecl {
    /// For a group, `NAME` of `character N × NAME`: its members are `NAME 1` to `NAME N`
    /// ([`CharacterDecl::members`]).
    pub name: Ident,
    /// `character N × NAME { ... }`: a group of N identical characters (the count as written,
    /// at its span; the checker refuses one below 1 or above `MAX_GROUP`, `check::group`).
    pub group: Option<Box<Spanned<i64>>>,
    /// Every `side NAME` written, in order: a character has at most one (the checker refuses a
    /// second, `check::duplicate`).
    pub sides: Vec<Ident>,
    pub tags: Vec<Ident>,
    pub fields: Vec<(Ident, Expr)>,
    /// Where `absent` is written (out of play until a `join` brings it in); more than once is
    /// `check::duplicate`.
    pub absent: Vec<Span>,
}

impl CharacterDecl {
    /// The characters the declaration declares, in order, each at the declaration's name: the
    /// one named, or a group's members `NAME 1` to `NAME N` (none for a count below 1, at most
    /// `MAX_GROUP`: the checker refuses the rest).
    pub fn members(&self) -> Vec<Ident> {
        match &self.group {
            None => vec![self.name.clone()],
            Some(n) => {
                let most = n.node.clamp(0, crate::limits::MAX_GROUP as i64);
                (1..=most)
                    .map(|k| Spanned::new(format!("{} {k}", self.name.node), self.name.span))
                    .collect()
            }
        }
    }
}

#[derive(Clone, Debug, Default)]
pub struct Block {
    pub stmts: Vec<Stmt>,
    pub span: Span,
}

/// What a level reports in the trace.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LevelKind {
    Level,
    Phase,
    Round,
}

/// `counting from A [down] [to B | within LO to HI]`: how a level numbers its iterations.
#[derive(Clone, Debug)]
pub struct Counting {
    pub from: Expr,
    pub down: bool,
    /// `to B`: the last iteration is the one numbered B (the level repeats up to it).
    pub to: Option<Expr>,
    /// `within LO to HI`: the numbers wrap round within LO..=HI.
    pub within: Option<(Expr, Expr)>,
}

#[derive(Clone, Debug)]
pub enum Loop {
    Once,
    Forever,
    While(Expr),
    Until(Expr),
}

/// `for each x in COLL ...`: a walk (boxed in [`Stmt`]: it has many parts).
#[derive(Clone, Debug)]
pub struct ForEach {
    /// `together for each`: the members act at the same moment.
    pub together: bool,
    /// `by ORDER anew`: sorted again before each member's moment.
    pub anew: bool,
    /// `by ORDER ties together`: members tied on the order's value keys act as one moment.
    pub ties: bool,
    /// `repeat for first c in ...`: sorted before every pass, the first has the moment, again and
    /// again until no one passes `where`.
    pub again: bool,
    pub var: Ident,
    pub coll: Collection,
    /// `out of play`, `including out of play`: whom it walks (as a `choose ... from`).
    pub presence: Presence,
    /// `backwards`: walk the list from its end.
    pub backwards: bool,
    /// `from X`: start at X and wrap round past the end.
    pub from: Option<Expr>,
    pub filter: Option<Expr>,
    pub order: Option<Ident>,
    pub body: Block,
    pub span: Span,
}

/// Whom a `choose ... from`, a quantifier or a `for each` draws from: those in play (the default),
/// those out of play (`out of play`), or both (`including out of play`). Destroyed things never.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Presence {
    #[default]
    InPlay,
    OutOfPlay,
    Both,
}

/// `choose NAME by WHO from x in COLL ...`: pick one of a collection (boxed in [`Stmt`]).
#[derive(Clone, Debug)]
pub struct ChooseFrom {
    pub secret: bool,
    /// `in secret until revealed`: held until a `reveal` shows it.
    pub held: bool,
    /// `as NAME`: the pick, for the same chooser's later secret choices of this decision.
    pub bind: Option<Ident>,
    pub name: Ident,
    pub chooser: Expr,
    pub var: Ident,
    pub coll: Collection,
    /// `out of play`, `including out of play`: whom the candidates are drawn from.
    pub presence: Presence,
    pub filter: Option<Expr>,
    pub order: Option<Ident>,
    pub body: Block,
    /// `or NAME [unless ...]* [{ ... }]`: the option that declines, and what it does.
    pub decline: Option<Box<Decline>>,
    /// `unless C because "..."`: candidates not offered, and why.
    pub refusals: Vec<Refusal>,
    pub span: Span,
}

/// `transfer N|all from a.RES to b.RES` (boxed in [`Stmt`]).
#[derive(Clone, Debug)]
pub struct Transfer {
    pub amount: Option<Expr>,
    pub from: Target,
    pub to: Target,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub enum Stmt {
    Level {
        kind: LevelKind,
        name: Ident,
        /// `counting from ...`: the game's own numbers for its iterations.
        counting: Option<Box<Counting>>,
        repeat: Loop,
        body: Block,
        span: Span,
    },
    Turn {
        actor: Expr,
        body: Block,
        span: Span,
    },
    ForEach(Box<ForEach>),
    If {
        cond: Expr,
        then: Block,
        otherwise: Option<Block>,
        span: Span,
    },
    Choose {
        /// `in secret`: revealed, and its option run, when the `together` walk ends.
        secret: bool,
        /// `in secret until revealed`: held until a `reveal` shows it.
        held: bool,
        name: Ident,
        chooser: Expr,
        options: Vec<OptionDecl>,
        span: Span,
    },
    /// `choose NAME by WHO from c in COLL [where C] [by ORDER] { ... }`: pick a character.
    ChooseFrom(Box<ChooseFrom>),
    /// `repeat [while C | until C] { ... }`: a loop that is not a level; `end repeat` leaves it.
    Repeat {
        repeat: Loop,
        body: Block,
        span: Span,
    },
    EndRepeat {
        span: Span,
    },
    /// `create THING { field = value } [as x]`
    Create {
        thing: Ident,
        fields: Vec<(Ident, Expr)>,
        bind: Option<Ident>,
        span: Span,
    },
    /// `shuffle DECK`, `draw from DECK [by C] [as x]`, `discard X`, `return X to DECK`.
    Cards {
        op: CardOp,
        span: Span,
    },
    /// `join X` (true) / `leave X` (false): a declared character comes into play or goes out.
    Presence {
        who: Expr,
        join: bool,
        span: Span,
    },
    /// `destroy x`: the entity leaves play.
    Destroy {
        what: Expr,
        span: Span,
    },
    /// `roll DICE as p`, `remove FACE from p`: dice pools.
    Pool(Box<PoolStmt>),
    /// `let x [: TYPE] = EXPR`
    Let {
        name: Ident,
        /// `: TYPE`, as an argument's: what the local holds (so it may start as `none`).
        ty: Option<Ident>,
        value: Expr,
        span: Span,
    },
    /// `rank ORDER`: sort every character now and keep the result.
    Rank {
        order: Ident,
        /// `where C`, with the order's own variable: only those for whom C holds are ranked.
        filter: Option<Expr>,
        span: Span,
    },
    /// `transfer N|all from a.RES to b.RES`.
    Transfer(Box<Transfer>),
    /// `raise TRIGGER(args)`: run the hooks answering it, now.
    Raise {
        trigger: Ident,
        args: Vec<Expr>,
        span: Span,
    },
    /// `place c first|last|before x|after x in ORDER`: move a character within a kept order.
    Place {
        who: Expr,
        to: Box<PlaceTo>,
        order: Ident,
        span: Span,
    },
    /// `begin EFFECT on c for N counted at ...`, or `... until [start|end] of [next] X`.
    Begin {
        effect: Ident,
        target: Expr,
        count: Box<Lasting>,
        at: Box<CountAt>,
        span: Span,
    },
    /// `stop EFFECT on c`: end every instance of the effect on `c` now.
    Stop {
        effect: Ident,
        target: Expr,
        span: Span,
    },
    /// `reveal [all] DECISION of WHO`: the earliest (every) choice WHO holds of DECISION, shown.
    Reveal {
        decision: Ident,
        chooser: Expr,
        all: bool,
        span: Span,
    },
    /// `for each i in A [down] to B { ... }`: numbers counted (see `functions.rs`).
    Count(Box<CountLoop>),
    /// `give EXPR`: the value of a routine declared with `gives TYPE`.
    Give {
        value: Expr,
        span: Span,
    },
    /// `do ROUTINE(args)`: run a routine here.
    Do {
        routine: Ident,
        args: Vec<Expr>,
        span: Span,
    },
    /// `ready c on POINT [where C] [until EDGE] { ... }`: a one-shot response armed now.
    Ready(Box<Ready>),
    /// `disarm c [on POINT]`: `c`'s armed responses (on POINT only, if given) are disarmed;
    /// POINT is `Trigger`, `Join`, `Leave`, `ActionBefore` or `ActionAfter`.
    Disarm {
        owner: Expr,
        on: Option<HookOn>,
        span: Span,
    },
    /// `react c { ... }`: an out-of-order window for `c`.
    React {
        actor: Expr,
        body: Block,
        span: Span,
    },
    /// `elapse N UNIT`: the game clock moves on.
    Elapse {
        amount: Expr,
        unit: Ident,
        span: Span,
    },
    End {
        level: Option<Ident>,
        reason: Option<Spanned<String>>,
        span: Span,
    },
    Spend {
        amount: Option<Expr>,
        target: Target,
        span: Span,
    },
    Gain {
        amount: Expr,
        target: Target,
        span: Span,
    },
    Reset {
        target: Target,
        value: Expr,
        span: Span,
    },
    Forfeit {
        target: Target,
        span: Span,
    },
    Set {
        target: Target,
        value: Expr,
        span: Span,
    },
    Mark {
        target: Target,
        on: bool,
        span: Span,
    },
    /// A measure's value, recorded (written only by a `measure` declaration, see
    /// [`MeasureDecl::hook`]); `about`: the variable naming the entity it is about.
    Record {
        measure: Ident,
        value: Expr,
        about: Option<Ident>,
        span: Span,
    },
    /// `together { ... }`: a moment with no walk.
    Moment {
        body: Block,
        span: Span,
    },
    /// `CHANGE at end of moment|LEVEL`: a change worked out now, applied when the moment ends.
    Deferred(Box<Deferred>),
}

/// `CHANGE at end of moment` / `CHANGE at end of LEVEL` (boxed in [`Stmt`]).
#[derive(Clone, Debug)]
pub struct Deferred {
    /// The change: `spend`, `gain`, `reset`, `forfeit`, `set`, `mark`, `clear`, `transfer`,
    /// `join`, `leave`, `destroy`, `begin` or `stop`.
    pub stmt: Stmt,
    /// `None`: the innermost moment; else the level whose current iteration's end applies it.
    pub level: Option<Ident>,
    /// Where `at end of ...` is written.
    pub at: Span,
    pub span: Span,
}

impl Stmt {
    pub fn span(&self) -> Span {
        match self {
            Stmt::Pool(p) => p.span,
            Stmt::ForEach(f) => f.span,
            Stmt::ChooseFrom(c) => c.span,
            Stmt::Transfer(t) => t.span,
            Stmt::Ready(r) => r.span,
            Stmt::Deferred(d) => d.span,
            Stmt::Count(c) => c.span,
            Stmt::Give { span, .. } => *span,
            Stmt::Moment { span, .. } => *span,
            Stmt::Level { span, .. }
            | Stmt::Turn { span, .. }
            | Stmt::If { span, .. }
            | Stmt::Choose { span, .. }
            | Stmt::Repeat { span, .. }
            | Stmt::EndRepeat { span }
            | Stmt::Create { span, .. }
            | Stmt::Destroy { span, .. }
            | Stmt::Cards { span, .. }
            | Stmt::Presence { span, .. }
            | Stmt::Let { span, .. }
            | Stmt::Rank { span, .. }
            | Stmt::Raise { span, .. }
            | Stmt::Do { span, .. }
            | Stmt::Place { span, .. }
            | Stmt::Begin { span, .. }
            | Stmt::Stop { span, .. }
            | Stmt::Reveal { span, .. }
            | Stmt::React { span, .. }
            | Stmt::Disarm { span, .. }
            | Stmt::Elapse { span, .. }
            | Stmt::End { span, .. }
            | Stmt::Spend { span, .. }
            | Stmt::Gain { span, .. }
            | Stmt::Reset { span, .. }
            | Stmt::Forfeit { span, .. }
            | Stmt::Set { span, .. }
            | Stmt::Mark { span, .. }
            | Stmt::Record { span, .. } => *span,
        }
    }
}

#[derive(Clone, Debug)]
pub struct OptionDecl {
    /// `None` for `option action`: one option per action in the catalogue.
    pub name: Option<Ident>,
    /// `option action of kind K, ...`: only actions of these kinds.
    pub kinds: Vec<Ident>,
    /// `option action using RES`: every cost is paid from this resource instead.
    pub using: Option<Ident>,
    pub when: Option<Expr>,
    /// `unless C because "..."`: not offered while C holds; an answer naming it is refused.
    pub refusals: Vec<Refusal>,
    pub body: Block,
    pub span: Span,
}

/// `c.FIELD`: a variable and one of its fields; or `NAME`, a global (`var` is `None`).
#[derive(Clone, Debug)]
pub struct Target {
    pub var: Option<Ident>,
    /// The owner as an expression, when it is more than a variable (`c.held`, `(first ...)`).
    pub base: Option<Box<Expr>>,
    pub field: Ident,
    pub span: Span,
}
