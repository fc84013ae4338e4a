//! Hooks, triggers and routines: `raise`, `do`, reactions, the turn hooks, and the frames of
//! slots each hook saves and restores so they may nest.

use super::state::{Machine, NO_CTX, R, too_deep};
use super::stmt::Flow;
use crate::compile::ir::*;
use crate::limits::MAX_CALL_DEPTH;
use crate::source::Span;
use crate::trace::Event;

impl Machine<'_> {
    /// The turn hooks answering the turns of `a`'s type of entity.
    #[inline]
    pub(super) fn turn_hooks(&mut self, ids: &[HookId], a: EntityId, span: Span) -> R<Flow> {
        if ids.is_empty() {
            return Ok(Flow::Next);
        }
        self.turn_hooks_of(ids, a, span)
    }

    /// [`Machine::turn_hooks`] when there are some.
    #[inline(never)]
    fn turn_hooks_of(&mut self, ids: &[HookId], a: EntityId, span: Span) -> R<Flow> {
        let p = self.p;
        let ty = self.types.get(a as usize).copied();
        for &id in ids {
            if Some(p.hooks[id as usize].ty) != ty {
                continue;
            }
            match self.hooks(&[id], &[a as i64], span)? {
                Flow::Next => {}
                other => return Ok(other),
            }
        }
        Ok(Flow::Next)
    }

    /// Runs hooks in order, each with its variables bound to `args`. `span`: what ran them.
    /// Each saves its frame of slots and restores it when it returns (hooks may nest, up to
    /// `MAX_CALL_DEPTH`); a hook whose filter fails is skipped.
    #[inline]
    pub(super) fn hooks(&mut self, ids: &[HookId], args: &[i64], span: Span) -> R<Flow> {
        if ids.is_empty() {
            return Ok(Flow::Next);
        }
        self.run_hooks(ids, args, span)
    }

    /// [`Machine::hooks`] when there are some.
    #[inline(never)]
    fn run_hooks(&mut self, ids: &[HookId], args: &[i64], span: Span) -> R<Flow> {
        let p = self.p;
        if !ids.is_empty() && self.depth >= MAX_CALL_DEPTH {
            return Err(Box::new(too_deep(span)));
        }
        for &id in ids {
            let h = &p.hooks[id as usize];
            let (lo, hi) = (h.frame.0 as usize, h.frame.1 as usize);
            let mark = self.saved.len();
            self.saved.extend_from_slice(&self.locals[lo..hi]);
            self.depth += 1;
            for (slot, v) in h.vars.iter().zip(args) {
                self.locals[*slot as usize] = *v;
            }
            let run = match &h.filter {
                Some(f) => self.eval(f, NO_CTX).map(|v| v != 0),
                None => Ok(true),
            };
            let flow = match run {
                Ok(true) => self.block(&h.body),
                Ok(false) => Ok(Flow::Next),
                Err(e) => Err(e),
            };
            self.depth -= 1;
            self.locals[lo..hi].copy_from_slice(&self.saved[mark..]);
            self.saved.truncate(mark);
            match flow? {
                Flow::Next => {}
                other => return Ok(other),
            }
        }
        Ok(Flow::Next)
    }

    /// `raise`: traces the trigger, then runs its hooks with their variables bound to the arguments.
    pub(super) fn st_raise(&mut self, trigger: TriggerId, args: &[Ex], span: Span) -> R<Flow> {
        let (vals, n) = self.eval_args(args, NO_CTX)?;
        self.emit(Event::Trigger {
            trigger,
            args: &vals[..n],
        });
        let p = self.p;
        match self.hooks(&p.triggers[trigger as usize].hooks, &vals[..n], span)? {
            Flow::Next => self.fire_ready(crate::compile::Point::Trigger(trigger), &vals[..n], span),
            other => Ok(other),
        }
    }

    /// `do`: runs one routine (a hook) with its variables bound to the arguments.
    pub(super) fn st_do(&mut self, hook: HookId, args: &[Ex], span: Span) -> R<Flow> {
        let (vals, n) = self.eval_args(args, NO_CTX)?;
        // A routine that gives, run by `do`: its value is dropped.
        match self.hooks(&[hook], &vals[..n], span)? {
            Flow::Give => Ok(Flow::Next),
            other => Ok(other),
        }
    }

    /// A reaction: the actor's block, between its start and end events; an actor that is `none`
    /// is reported where it is written.
    pub(super) fn st_react(&mut self, actor: &Ex, body: &Block, span: Span) -> R<Flow> {
        let a = self.alive(actor, span)?;
        self.emit(Event::ReactionStart { actor: a });
        self.acting.push(a);
        let flow = self.block(body)?;
        self.acting.pop();
        self.emit(Event::ReactionEnd { actor: a });
        Ok(flow)
    }

    /// `join` / `leave`: a declared character comes into play (its fields set the first time)
    /// or goes out of it, traced, then the `on join` / `on leave` hooks run. Joining one in play,
    /// or leaving one out of it, changes nothing.
    pub(super) fn presence(&mut self, e: EntityId, join: bool, span: Span) -> R<Flow> {
        let i = e as usize;
        if i >= self.p.characters.len() || self.absent.get(i).copied() != Some(join) {
            return Ok(Flow::Next);
        }
        if join && !self.joined.get(i).copied().unwrap_or(true) {
            self.init_character(e)?;
            if let Some(j) = self.joined.get_mut(i) {
                *j = true;
            }
        }
        self.absent[i] = !join;
        self.emit(Event::Presence {
            actor: e,
            present: join,
        });
        if !join {
            self.disarm_owner(e);
        }
        let p = self.p;
        let hooks = if join { &p.join_hooks } else { &p.leave_hooks };
        let at = if join {
            crate::compile::Point::Join
        } else {
            crate::compile::Point::Leave
        };
        match self.hooks(hooks, &[e as i64], span)? {
            Flow::Next => self.fire_ready(at, &[e as i64], span),
            other => Ok(other),
        }
    }
}
