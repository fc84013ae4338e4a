//! Stage 2: the checker. Finds every error of a set of parsed files in one pass: unknown and
//! duplicate names, wrong kinds, type errors, `end` outside its level, decisions without options,
//! characters missing a stat. Its output, [`Checked`], is the symbol table the compiler lowers with.
//!
//! Two passes. The first, `collect`, gathers every declaration into [`Decls`]
//! (`decls.rs`, `collect.rs`). The second walks every item and statement with a `Checker`
//! (`checker.rs`): top-level items in `items.rs`, declared entities in `entities.rs`, statements
//! in `stmt.rs`, decisions in `decisions.rs`, statements that change a field and their targets in
//! `targets.rs`, expressions and their types in `expr.rs`. `suggest.rs` words "unknown X" errors
//! with their did-you-mean. `at.rs` holds what the walk found at each place (the field an
//! `x.FIELD` names, ...), sorted once for the compiler to read back.

mod at;
mod attempts;
mod checker;
mod collect;
mod decisions;
mod decks;
mod decls;
mod entities;
mod expr;
mod fixed;
mod functions;
mod hooks;
pub mod index;
mod items;
mod moments;
mod owned;
mod pools;
mod reveal;
mod sides;
mod starts;
mod stmt;
mod suggest;
mod targets;
mod truth;

use crate::diag::Diag;
use crate::syntax::ast::*;
pub use at::{At, Found};
use checker::Checker;
pub use decks::DeckDef;
pub use decls::{CHARACTER, Decls, FieldKind, ROLE, SIDE, Sym};
pub use expr::ORDER_QUERIES;
pub use items::is_builtin_policy;
pub use suggest::unknown;

/// Parsed files that passed the checker, with their symbol table.
#[derive(Debug)]
pub struct Checked<'a> {
    /// Borrowed from the caller (a [`crate::Project`]): the ASTs are not copied.
    pub files: &'a [File],
    pub decls: Decls<'a>,
    /// The field each `x.FIELD` and target names, by the span of the field's name: a thing's
    /// fields are found through the type of `x`, which only the checker knows.
    pub fields_at: At<Span, u16>,
    /// The `{...}` parts of refusal texts that are numbers (or truth values), by span: written as
    /// numbers, where the others are entities written by name.
    pub numbers_at: At<Span, ()>,
    /// Numbers used where more decimals are kept (`1 + 0.5`, a whole number set into a field of
    /// 2 decimals), by span: the compiler multiplies each by the power of ten given.
    /// Keyed by (the place it is compiled at, see `Checker::site`; the expression's span).
    pub widen_at: At<(Span, Span), i64>,
    /// The decimals of numbers the trace shows (refusal text parts, measures), by span.
    pub decimals_at: At<Span, u8>,
    /// The secret `choose ... from`s whose `where` or `unless` reads an earlier secret pick
    /// (`as NAME`), by span: their `secret` event is traced even when nothing could be chosen.
    pub reads_picks: At<Span, ()>,
    /// The names that read a dice pool (`count f in p`, `for each f in p`, `remove 6 from p`,
    /// `p.size`), by span.
    pub pools_at: At<Span, ()>,
    /// The choosers written as an expression that gives a role (`by c.side.controller`), by
    /// the expression's span: the compiler asks the role it gives, not an entity.
    pub role_choosers: At<Span, ()>,
}

/// `none`'s type: an entity of any type.
pub const ANY: u16 = u16::MAX;

/// The type of an expression.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ty {
    Int,
    /// A number kept with this many decimals (1 to [`crate::limits::MAX_DECIMALS`]); a whole
    /// number is `Int`.
    Dec(u8),
    Bool,
    /// An entity of a type ([`CHARACTER`], a thing, or [`ANY`] for `none`).
    Entity(u16),
    Side,
    /// A decider who is not a character (declared with `role NAME`).
    Role,
    /// A dice pool (`roll DICE as p`): read only through its faces and size, never as a value.
    Pool,
    /// An error was already reported for this expression.
    Error,
}

const CHAR: Ty = Ty::Entity(CHARACTER);

impl Ty {
    /// Whether a value of this type may stand where `want` is expected (`none` is any entity).
    /// A number fits where one with as many decimals or more is wanted (it is widened).
    fn fits(self, want: Ty) -> bool {
        self == want
            || self == Ty::Error
            || matches!((self, want), (Ty::Entity(ANY), Ty::Entity(_) | Ty::Side | Ty::Role))
            || matches!((self.scale(), want), (Some(s), Ty::Dec(w)) if s <= w)
    }

    /// How many decimals a number keeps (`None`: not a number). An error counts as a whole
    /// number, so it is not reported again.
    fn scale(self) -> Option<u8> {
        match self {
            Ty::Int | Ty::Error => Some(0),
            Ty::Dec(s) => Some(s),
            _ => None,
        }
    }

    /// The number type of `s` decimals.
    fn of_scale(s: u8) -> Ty {
        if s == 0 { Ty::Int } else { Ty::Dec(s) }
    }

    fn is_entity(self) -> bool {
        matches!(self, Ty::Entity(_) | Ty::Error)
    }
}

/// Checks the files of one run (a ruleset, then encounters) together.
pub fn check(files: &[File]) -> Result<Checked<'_>, Vec<Diag>> {
    suggest::reset_work();
    let mut diags = Vec::new();
    // At most so many diagnostics per file are held while checking; the rest are counted.
    let mut capped = crate::diag::Capped::default();
    let cap = crate::limits::MAX_DIAGNOSTICS_PER_FILE;
    let decls = collect::collect(files, &mut diags, &mut capped);
    let mut c = Checker {
        decls: &decls,
        diags: &mut diags,
        scopes: Vec::new(),
        levels: Vec::new(),
        repeats: 0,
        param_tys: vec![None; decls.params.len()],
        silent: false,
        tied: None,
        together: 0,
        deferred: None,
        walks: Vec::new(),
        revealed: None,
        heading: false,
        holding: false,
        in_held: false,
        picks: Vec::new(),
        reading: None,
        reads: Default::default(),
        role_choosers: Default::default(),
        field_owner: CHARACTER,
        reveals: Vec::new(),
        held_names: Default::default(),
        fields_at: Found::default(),
        numbers_at: Default::default(),
        widen_at: Found::default(),
        site: Span::default(),
        decimals_at: Found::default(),
        moments: Default::default(),
        held_moments: Default::default(),
        pools: Default::default(),
        giving: None,
        next_giving: None,
        lets: Vec::new(),
        block_start: 0,
        fence: 0,
        calls: false,
        sheltered: 0,
    };
    for file in files {
        for item in &file.items {
            c.item(item);
            capped.compact(c.diags, cap);
        }
    }
    c.characters(files);
    c.reveals_held();
    c.held_deferrals();
    let mut reads = Found::default();
    std::mem::take(&mut c.reads)
        .into_iter()
        .for_each(|s| reads.insert(s, ()));
    let reads_picks = reads.seal();
    let role_choosers = std::mem::take(&mut c.role_choosers).seal();
    let fields_at = std::mem::take(&mut c.fields_at).seal();
    let numbers_at = std::mem::take(&mut c.numbers_at).seal();
    let widen_at = std::mem::take(&mut c.widen_at).seal();
    let decimals_at = std::mem::take(&mut c.decimals_at).seal();
    let pools_at = std::mem::take(&mut c.pools.at).seal();
    if diags.is_empty() {
        Ok(Checked {
            files,
            decls,
            fields_at,
            numbers_at,
            widen_at,
            decimals_at,
            reads_picks,
            pools_at,
            role_choosers,
        })
    } else {
        Err(capped.finish(diags, cap))
    }
}
