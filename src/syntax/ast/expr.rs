//! Expressions of the syntax tree: operators, quantifiers, dice, and `ExprKind`.

use std::fmt;

use super::*;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UnOp {
    Neg,
    Not,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BinOp {
    Or,
    And,
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    Add,
    Sub,
    Mul,
    Div,
}

impl BinOp {
    pub fn symbol(self) -> &'static str {
        match self {
            BinOp::Or => "or",
            BinOp::And => "and",
            BinOp::Eq => "==",
            BinOp::Ne => "!=",
            BinOp::Lt => "<",
            BinOp::Le => "<=",
            BinOp::Gt => ">",
            BinOp::Ge => ">=",
            BinOp::Add => "+",
            BinOp::Sub => "-",
            BinOp::Mul => "*",
            BinOp::Div => "/",
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Quant {
    Any,
    All,
    Count,
    Sum,
    Max,
    Min,
    /// `first x in COLL [where C] [by ORDER]`: an entity, or `none`.
    First,
    Last,
}

/// A dice expression: `count` dice of `sides` faces, optionally keeping the highest or lowest few.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Dice {
    pub count: u32,
    pub sides: u32,
    pub keep: Option<(Keep, u32)>,
    /// Listed faces (`d[-1,0,1]`): an index into the program's face lists; `None`: 1 to `sides`.
    pub faces: Option<u16>,
    /// Exploding (`d6!`, `d10!9`): a die showing this face or more is rolled again and added.
    pub explode: Option<i64>,
}

/// `[N]d[F, F, ...][khK|klK]`: dice whose faces are listed.
#[derive(Clone, Debug, PartialEq)]
pub struct FaceDice {
    pub count: u32,
    pub faces: Vec<i64>,
    pub keep: Option<(Keep, u32)>,
    /// `!` (`Some(None)`: on the highest face) or `!N`.
    pub explode: Option<Option<i64>>,
}

/// `(N)d(S)[kh(K)|kl(K)]`: the parts of dice written with expressions (a literal part is an
/// `Int`).
#[derive(Clone, Debug, PartialEq)]
pub struct DynDice {
    pub count: Expr,
    pub sides: Expr,
    pub keep: Option<(Keep, Expr)>,
    /// Listed faces (`(c.pool)d[0,1,2]`): then `sides` is their number.
    pub faces: Option<Vec<i64>>,
    /// `!` (`Some(None)`: on the highest face) or `!N`, `!(EXPR)`: again on that face or more.
    pub explode: Option<Option<Expr>>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Keep {
    Highest,
    Lowest,
}

impl fmt::Display for Dice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.count != 1 {
            write!(f, "{}", self.count)?;
        }
        write!(f, "d{}", self.sides)?;
        match self.keep {
            Some((Keep::Highest, k)) => write!(f, "kh{k}"),
            Some((Keep::Lowest, k)) => write!(f, "kl{k}"),
            None => Ok(()),
        }?;
        match self.explode {
            Some(t) if t == self.sides as i64 && self.faces.is_none() => write!(f, "!"),
            Some(t) => write!(f, "!{t}"),
            None => Ok(()),
        }
    }
}

pub type Expr = Spanned<ExprKind>;

#[derive(Clone, Debug, PartialEq)]
pub struct QuantExpr {
    pub quant: Quant,
    pub var: Ident,
    pub coll: Collection,
    /// `out of play`, `including out of play`: whom it walks (as a `choose ... from`).
    pub presence: Presence,
    pub filter: Option<Box<Expr>>,
    /// `by ORDER` (for `first` and `last`).
    pub by: Option<Ident>,
    pub body: Option<Box<Expr>>,
}

/// A statement on a dice pool.
#[derive(Clone, Debug, PartialEq)]
pub struct PoolStmt {
    pub op: PoolOp,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub enum PoolOp {
    /// `roll DICE as p`: the faces, in rolled order, held for the rest of the block.
    RollAs { dice: Expr, name: Ident },
    /// `remove FACE from p`: one die showing FACE taken out.
    Remove { face: Expr, pool: Ident },
}

/// `count f in 6d10 where f >= 7`: a quantifier over the faces of one roll (each face a number).
#[derive(Clone, Debug, PartialEq)]
pub struct FacesQuant {
    pub quant: Quant,
    pub var: Ident,
    /// The dice rolled: a dice expression.
    pub dice: Expr,
    pub filter: Option<Box<Expr>>,
    pub body: Option<Box<Expr>>,
}

#[derive(Clone, Debug, PartialEq)]
pub enum ExprKind {
    Int(i64),
    /// A number written with decimals: its digits as a whole number, and how many are decimals
    /// (`5.75` is `Dec(575, 2)`).
    Dec(i64, u8),
    Bool(bool),
    Dice(Dice),
    /// Dice whose count, size or number kept is computed (`(c.pool)d6`, `d(c.die)`).
    DynDice(Box<DynDice>),
    /// Dice with listed faces (`d[-1,0,1]`).
    FaceDice(Box<FaceDice>),
    /// A bare name: a variable, a parameter, a side or a tag.
    Name(String),
    /// `c.FIELD`
    Field(Box<Expr>, Ident),
    Is(Box<Expr>, Ident),
    Unary(UnOp, Box<Expr>),
    Binary(BinOp, Box<Expr>, Box<Expr>),
    Call(Ident, Vec<Expr>),
    /// `any`, `all`, `count`, `sum`, `first`, ... (boxed: it is the largest form).
    Quant(Box<QuantExpr>),
    /// `none`: no entity.
    None,
    /// `if C then A else B`
    If(Box<Expr>, Box<Expr>, Box<Expr>),
    /// `count f in 6d10 where f >= 7`: a quantifier over a roll's faces.
    Faces(Box<FacesQuant>),
}

// What a file costs to hold is mostly these three: a checked file of the densest statements or
// expressions must stay well under 100 MB (docs/limits.md). Boxing the rare large forms
// (`QuantExpr`, `ForEach`, `ChooseFrom`, `Transfer`, ...) keeps every one small; a new form that
// would make them larger belongs in a box too.
#[cfg(target_pointer_width = "64")]
const _: () = assert!(std::mem::size_of::<Expr>() <= 80);
#[cfg(target_pointer_width = "64")]
const _: () = assert!(std::mem::size_of::<Stmt>() <= 200);
#[cfg(target_pointer_width = "64")]
const _: () = assert!(std::mem::size_of::<Item>() <= 168);
