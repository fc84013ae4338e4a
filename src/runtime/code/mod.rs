//! The run loop compiled (issue 31): each numbered block of the program (`Block::id`) as a list
//! of closures, one per statement, made once per program and shared by every run after.
//!
//! The statements a run meets at every step whose work is an expression (`if` with its
//! condition, `let`) get a closure of their own, their expressions compiled too (`expr.rs`): a
//! local's field compared with a number (`c.speed > 0`), `and`/`or`/`not`, arithmetic,
//! quantifiers over a collection read in place, with no walk of the expression's tree. A
//! `choose` whose options are fixed gets one holding them listed (`policy_path.rs`). Every
//! other statement is `None` and walked as before ([`Machine::stmt`]); its nested blocks still
//! reach their compiled code through their numbers. A block none of whose statements is compiled
//! is walked whole.
//!
//! The closures charge the same steps, make the same checks, raise the same errors with the same
//! spans, and evaluate in the same order (dice!) as the walk, which stays as the reference
//! ([`crate::runtime::run_walked`]; `tests/compiled.rs` compares the two on every bundled
//! ruleset). Nothing here allocates per step, nor touches a string or a hash map.

mod expr;
mod stmt;

pub(super) use expr::Filter;
pub(super) use stmt::StFn;

use crate::compile::ir::*;
use std::sync::Arc;

/// The compiled blocks of one program, by block number: `None` for a block walked whole.
pub(super) struct Code {
    blocks: Vec<Option<Box<[Option<StFn>]>>>,
}

impl Code {
    /// The compiled statements of block `id`, if it has any.
    #[inline(always)]
    pub(super) fn block(&self, id: BlockId) -> Option<&[Option<StFn>]> {
        self.blocks.get(id as usize).and_then(Option::as_deref)
    }

    /// Compiles every numbered block of `p`.
    fn build(p: &Program) -> Code {
        let mut code = Code {
            blocks: (0..p.n_blocks).map(|_| None).collect(),
        };
        let mut visit = |b: &Block| code.add(p, b);
        each_block(p, &mut visit);
        code
    }

    fn add(&mut self, p: &Program, b: &Block) {
        let ops: Box<[Option<StFn>]> = b.stmts.iter().map(|s| stmt::compile(p, s)).collect();
        if ops.iter().any(Option::is_some)
            && let Some(slot) = self.blocks.get_mut(b.id as usize)
        {
            *slot = Some(ops);
        }
    }
}

/// The compiled code of `p`: made at its first run (under a lock, once for every thread), then
/// shared.
pub(super) fn of(p: &Program) -> Option<&Code> {
    let made = p.code.0.get_or_init(|| Arc::new(Code::build(p)));
    made.downcast_ref::<Code>()
}

/// Every block of the program, each once, nested blocks after the block holding them.
fn each_block(p: &Program, f: &mut dyn FnMut(&Block)) {
    for b in [&p.setup, &p.play] {
        block(b, f);
    }
    for a in &p.actions {
        block(&a.body, f);
    }
    for h in &p.hooks {
        block(&h.body, f);
    }
    for b in &p.bodies {
        block(b, f);
    }
    for r in &p.moments.readies {
        block(&r.body, f);
    }
}

fn block(b: &Block, f: &mut dyn FnMut(&Block)) {
    f(b);
    for s in b {
        nested(s, f);
    }
}

/// The blocks a statement holds.
fn nested(s: &St, f: &mut dyn FnMut(&Block)) {
    match s {
        St::Level { body, .. }
        | St::Turn { body, .. }
        | St::ForEach { body, .. }
        | St::Repeat { body, .. }
        | St::React { body, .. }
        | St::Count { body, .. }
        | St::Moment { body, .. } => block(body, f),
        St::If { then, otherwise, .. } => {
            block(then, f);
            block(otherwise, f);
        }
        St::Choose { options, .. } => {
            for o in options {
                block(&o.body, f);
            }
        }
        St::ChooseFrom { body, decline, .. } => {
            block(body, f);
            if let Some(d) = decline {
                block(&d.block, f);
            }
        }
        St::Pool(pool) => {
            if let PoolSt::ForFaces { body, .. } = &**pool {
                block(body, f);
            }
        }
        St::Deferred { change, .. } => nested(change, f),
        _ => {}
    }
}
