//! The names of a program written once as JSON strings, for the JSON view ([`Quoted`]).
//!
//! Most of what a JSON line holds is names: who acted, the decision, its options, the field. The
//! view writes each of them once, when a run starts, from the program the run's events come
//! with; an event then copies a name's bytes whole instead of looking it up and escaping it.

use super::line::{Line, WIDE};
use super::{World, write_json_str};
use crate::compile::ir::*;

/// Names, each written as a JSON string (quotes included) into one buffer, found by index.
#[derive(Default)]
pub(super) struct List {
    /// The names one after another, then [`WIDE`] bytes more: a short name is copied with the
    /// bytes after it, [`WIDE`] at once ([`Line::put_wide`]).
    bytes: Vec<u8>,
    /// Where each name starts in `bytes`, and after the last one, where it ends.
    starts: Vec<usize>,
}

impl List {
    /// An empty list, in which every name is missing.
    const EMPTY: List = List {
        bytes: Vec::new(),
        starts: Vec::new(),
    };

    /// The list of `names`, written again into the buffers this one holds.
    fn fill<'a>(&mut self, names: impl Iterator<Item = &'a str>) {
        self.bytes.clear();
        self.starts.clear();
        self.starts.push(0);
        for n in names {
            // Writing into a `Vec` cannot fail.
            let _ = write_json_str(&mut self.bytes, n);
            self.starts.push(self.bytes.len());
        }
        self.bytes.extend_from_slice(&[0; WIDE]);
    }

    /// Writes name `i` as a JSON string into `line`, if the list has it; `false` if not.
    #[inline]
    pub(super) fn put(&self, i: usize, line: &mut Line) -> bool {
        let (Some(&start), Some(&end)) = (self.starts.get(i), self.starts.get(i + 1)) else {
            return false;
        };
        let n = end.wrapping_sub(start);
        if n <= WIDE
            && let Some(wide) = self.bytes.get(start..start + WIDE)
            && let Ok(wide) = <&[u8; WIDE]>::try_from(wide)
        {
            line.put_wide(wide, n);
            return true;
        }
        match self.bytes.get(start..end) {
            Some(name) => {
                line.put(name);
                true
            }
            None => false,
        }
    }
}

/// A program's names as JSON strings: the entities it declares, its decisions, options, actions,
/// fields and roll labels, each list indexed as the program indexes it.
///
/// They are written from the program in [`World::p`] as a run starts (its `encounter_start`
/// event) and given only for events that come with that same program ([`Quoted::of`]) until the
/// run's `final` event: a run holds its program borrowed from its first event to its last, so
/// the names cannot change under the table. Any other event (another program, or one that came
/// without a run's start) finds every list empty, and its names are written from the program.
#[derive(Default)]
pub(super) struct Quoted {
    /// The address of the program the names were written from, while they hold (compared, never
    /// followed).
    program: Option<usize>,
    pub entities: List,
    pub decisions: List,
    pub options: List,
    pub actions: List,
    pub fields: List,
    pub labels: List,
}

/// No names: every lookup misses.
static NONE: Quoted = Quoted {
    program: None,
    entities: List::EMPTY,
    decisions: List::EMPTY,
    options: List::EMPTY,
    actions: List::EMPTY,
    fields: List::EMPTY,
    labels: List::EMPTY,
};

/// The address of `p`, as the identity of the program a run borrows.
fn address(p: &Program) -> usize {
    std::ptr::from_ref(p) as usize
}

impl Quoted {
    /// Writes the names of `w`'s program, for the run that starts.
    pub(super) fn start(&mut self, w: &World<'_>) {
        let p = w.p;
        self.entities
            .fill((0..p.characters.len()).map(|id| p.character_name(id as EntityId)));
        self.decisions.fill(p.decisions.iter().map(String::as_str));
        self.options.fill(p.options.iter().map(String::as_str));
        self.actions.fill(p.actions.iter().map(|a| a.name.as_str()));
        self.fields.fill(p.fields.iter().map(|f| f.name.as_str()));
        self.labels.fill(p.labels.iter().map(String::as_str));
        self.program = Some(address(p));
    }

    /// The run is over: its names are no longer given.
    pub(super) fn end(&mut self) {
        self.program = None;
    }

    /// The names for an event that comes with `w`: these, if they were written from its program
    /// for the run under way; else none.
    #[inline]
    pub(super) fn of(&self, w: &World<'_>) -> &Quoted {
        if self.program == Some(address(w.p)) {
            self
        } else {
            &NONE
        }
    }
}
