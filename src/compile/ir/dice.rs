//! The compiled form of the dice and counts that are worked out as they run: a level's
//! numbering, dice with computed parts, dice pools and quantifiers over a roll's faces.

use super::{Block, Ex, Slot};
use crate::source::Span;
use crate::syntax::ast::{Keep, Quant};

/// `counting from A [down] [to B | within LO to HI]`.
#[derive(Debug, Clone)]
pub struct CountingEx {
    pub from: Ex,
    pub down: bool,
    pub to: Option<Ex>,
    pub within: Option<(Ex, Ex)>,
}

/// Dice with computed parts: the count, the sides, and which and how many are kept.
#[derive(Debug, Clone)]
pub struct DynDiceEx {
    pub count: Ex,
    pub sides: Ex,
    pub keep: Option<(Keep, Ex)>,
    /// Listed faces (`(n)d[0,1,2]`): an index into `Program::faces`.
    pub faces: Option<u16>,
    /// `!` (`Some(None)`: on the highest face) or `!T`: a die showing `T` or more is rolled again.
    pub explode: Option<Option<Ex>>,
}

/// A statement on a dice pool. A pool's slot holds where its faces are in the machine's pool
/// arena and how many there are (`runtime::pools`).
#[derive(Debug, Clone)]
pub enum PoolSt {
    /// `roll DICE as p`: the dice (an `Ex::Dice` or `Ex::DynDice`) rolled into a new pool.
    RollAs { slot: Slot, dice: Ex, span: Span },
    /// `remove FACE from p`: one die showing FACE taken out (the first in rolled order).
    Remove { slot: Slot, face: Ex, span: Span },
    /// `for each f in p [where C] { ... }`: each face in rolled order.
    ForFaces {
        var: Slot,
        pool: Slot,
        filter: Option<Ex>,
        body: Block,
        span: Span,
    },
}

/// `count f in 6d10 where f >= 7: ...`: a quantifier over the faces of one roll.
#[derive(Debug, Clone)]
pub struct FacesEx {
    pub quant: Quant,
    pub var: Slot,
    /// The dice: an `Ex::Dice` or `Ex::DynDice`.
    pub dice: Ex,
    pub filter: Option<Ex>,
    pub body: Option<Ex>,
    /// The quantifier's text: where a run that spends its step budget in it stops.
    pub span: Span,
}
