//! Levels, turns and `repeat`: the loops that count (level iterations, `--until` and the default
//! stop) and the hooks and count-downs at their starts and ends.

use super::state::{Ctx, Machine, NO_CTX, NO_LABEL, R};
use super::stmt::Flow;
use crate::compile::ir::*;
use crate::limits::DEFAULT_OUTER_LIMIT;
use crate::source::Span;
use crate::trace::{EndReason, Event};

impl Machine<'_> {
    pub(super) fn level(&mut self, level: LevelId, repeat: &Repeat, body: &[St], span: Span) -> R<Flow> {
        let ctx = Ctx {
            label: NO_LABEL,
            actor: None,
        };
        self.counters[level as usize] = 0;
        self.running[level as usize] = true;
        self.loops.push(span);
        let result = loop {
            if let Repeat::While(c) = repeat
                && self.eval(c, ctx)? == 0
            {
                break Flow::Next;
            }
            self.tick(span)?;
            self.counters[level as usize] += 1;
            let n = self.counters[level as usize];
            let p = self.p;
            for f in &p.levels[level as usize].clears {
                for e in 0..p.characters.len() {
                    self.put(e as EntityId, *f, 0);
                }
            }
            self.emit(Event::LevelStart { level, n });
            let def = &p.levels[level as usize];
            self.count_down(Anchor::LevelStart(level));
            let mut flow = self.hooks(&def.on_start, &[], span)?;
            if let Flow::Next = flow {
                flow = self.block(body)?;
            }
            // The iteration is over, however it ended, unless the run itself is stopping.
            if !matches!(flow, Flow::Stop(_)) {
                match self.hooks(&def.on_end, &[], span)? {
                    Flow::Next => {}
                    other => flow = other,
                }
                self.count_down(Anchor::LevelEnd(level));
            }
            match flow {
                Flow::Next => self.emit(Event::LevelEnd { level, n, reason: None }),
                Flow::End(Some(l), r) if l == level => {
                    self.emit(Event::LevelEnd {
                        level,
                        n,
                        reason: Some(r),
                    });
                    if self.stops_after(level, n, repeat) {
                        break Flow::Stop(EndReason::Until {
                            level,
                            n,
                            default: self.until_default,
                        });
                    }
                    break Flow::Next;
                }
                other => {
                    self.emit(Event::LevelEnd { level, n, reason: None });
                    break other;
                }
            }
            if self.stops_after(level, n, repeat) {
                break Flow::Stop(EndReason::Until {
                    level,
                    n,
                    default: self.until_default,
                });
            }
            match repeat {
                Repeat::Once => break Flow::Next,
                Repeat::Until(c) if self.eval(c, ctx)? != 0 => break Flow::Next,
                _ => {}
            }
        };
        self.running[level as usize] = false;
        self.loops.pop();
        Ok(result)
    }

    /// Whether the run stops after iteration `n` of `level`: `--until`, or the default stop (the
    /// 10th iteration of a level repeating with no condition).
    fn stops_after(&self, level: LevelId, n: u64, repeat: &Repeat) -> bool {
        match self.until {
            Some(u) => u == (level, n),
            None => matches!(repeat, Repeat::Forever) && n == DEFAULT_OUTER_LIMIT,
        }
    }

    pub(super) fn repeat(&mut self, repeat: &Repeat, body: &[St], span: Span) -> R<Flow> {
        self.loops.push(span);
        let result = loop {
            if let Repeat::While(c) = repeat
                && self.eval(c, NO_CTX)? == 0
            {
                break Flow::Next;
            }
            self.tick(span)?;
            match self.block(body)? {
                Flow::Next => {}
                Flow::EndRepeat => break Flow::Next,
                other => break other,
            }
            match repeat {
                Repeat::Once => break Flow::Next,
                Repeat::Until(c) if self.eval(c, NO_CTX)? != 0 => break Flow::Next,
                _ => {}
            }
        };
        self.loops.pop();
        Ok(result)
    }

    /// `turn`: count-downs at the actor's place and turn start, the turn-start hooks, the body,
    /// then (however it ended, unless the run is stopping) the turn-end hooks and count-downs.
    pub(super) fn st_turn(&mut self, actor: &Ex, body: &[St], span: Span) -> R<Flow> {
        let a = self.entity(actor, span)?;
        let p = self.p;
        // Durations counted at a place end right before a turn begins at that place.
        self.count_down_places(a);
        self.emit(Event::TurnStart { actor: a });
        self.count_down(Anchor::TurnStart(a));
        let mut flow = self.turn_hooks(&p.turn_start, a, span)?;
        if let Flow::Next = flow {
            flow = self.block(body)?;
        }
        // The turn is over, however it ended, unless the run itself is stopping.
        if !matches!(flow, Flow::Stop(_)) {
            match self.turn_hooks(&p.turn_end, a, span)? {
                Flow::Next => {}
                other => flow = other,
            }
            self.count_down(Anchor::TurnEnd(a));
        }
        self.emit(Event::TurnEnd { actor: a });
        Ok(flow)
    }
}
