//! Decks of cards: each deck's draw pile and discard pile, and the card statements (`shuffle`,
//! `draw`, `discard`, `return`). A card is a declared entity of the deck's thing type; one that
//! is in neither pile has been drawn and is out (in a hand, on the table).

use super::state::{Machine, R};
use super::stmt::Flow;
use crate::compile::ir::*;
use crate::diag::Diag;
use crate::source::Span;
use crate::trace::Event;

/// One deck's piles; the top of the draw pile is the end of its list.
#[derive(Default, Clone, Debug)]
pub(super) struct Piles {
    pub(super) draw: Vec<EntityId>,
    pub(super) discard: Vec<EntityId>,
}

impl Machine<'_> {
    /// Every deck starts whole and shuffled, before `setup`.
    pub(super) fn deal_decks(&mut self) {
        for d in 0..self.p.decks.len() {
            self.gather_all(d as u16);
        }
    }

    /// Every card of deck `d` in play back in its draw pile, shuffled (traced).
    fn gather_all(&mut self, d: u16) {
        let ty = self.p.decks[d as usize];
        let mut draw = std::mem::take(&mut self.piles[d as usize].draw);
        draw.clear();
        if let Some(cards) = self.of_type.get(ty as usize) {
            draw.extend(cards.iter().copied().filter(|c| !self.absent[*c as usize]));
        }
        self.piles[d as usize].discard.clear();
        self.dice.shuffle(&mut draw);
        let n = draw.len();
        self.piles[d as usize].draw = draw;
        self.emit(Event::Shuffle { deck: ty, cards: n });
    }

    pub(super) fn st_cards(&mut self, act: &CardAct, span: Span) -> R<Flow> {
        match act {
            CardAct::Shuffle(d) => self.gather_all(*d),
            CardAct::Draw { deck, by, bind } => {
                let by = match by {
                    Some(b) => Some(self.entity(b, span)?),
                    None => None,
                };
                let card = self.draw(*deck, span)?;
                if let Some(slot) = bind {
                    self.locals[*slot as usize] = card as i64;
                }
                let ty = self.p.decks[*deck as usize];
                self.emit(Event::Draw { deck: ty, by, card });
            }
            CardAct::Discard(x) => {
                let card = self.entity(x, span)?;
                let d = self.deck_of(card, span)?;
                self.still_a_card(card, span)?;
                self.take_out(d, card);
                self.piles[d as usize].discard.push(card);
                self.emit(Event::Discard { card, returned: false });
            }
            CardAct::Return(x, d) => {
                let card = self.entity(x, span)?;
                self.still_a_card(card, span)?;
                self.take_out(*d, card);
                self.piles[*d as usize].draw.push(card);
                self.emit(Event::Discard { card, returned: true });
            }
        }
        Ok(Flow::Next)
    }

    /// The top card of deck `d` (or the next forced draw, wherever it is in the draw pile). An
    /// empty draw pile takes the discard pile, shuffled, first.
    fn draw(&mut self, d: u16, span: Span) -> R<EntityId> {
        let p = self.p;
        let ty = p.decks[d as usize];
        if self.piles[d as usize].draw.is_empty() {
            let mut discard = std::mem::take(&mut self.piles[d as usize].discard);
            self.dice.shuffle(&mut discard);
            let n = discard.len();
            let piles = &mut self.piles[d as usize];
            std::mem::swap(&mut piles.draw, &mut discard);
            piles.discard = discard;
            if n > 0 {
                self.emit(Event::Shuffle { deck: ty, cards: n });
            }
        }
        if let Some(&forced) = self.forced_draws.front() {
            let piles = &mut self.piles[d as usize];
            return match piles.draw.iter().position(|c| *c == forced) {
                Some(at) => {
                    self.forced_draws.pop_front();
                    Ok(piles.draw.remove(at))
                }
                None => Err(Box::new(
                    Diag::new(
                        "run::forced_draw",
                        format!(
                            "the forced draw `{}` is not in the draw pile of `{}`",
                            self.world().character_name(forced),
                            p.things[ty as usize].1
                        ),
                    )
                    .label(span, "drawn here")
                    .help("force only cards still in the pile, in the order they are drawn (--draws)"),
                )),
            };
        }
        let card = self.piles[d as usize].draw.pop();
        card.ok_or_else(|| {
            let left = self.of_type.get(ty as usize).is_some_and(|cards| {
                cards
                    .iter()
                    .any(|c| !self.gone.get(*c as usize).copied().unwrap_or(false))
            });
            let help = if left {
                "every card is out: `discard` cards so an empty pile can take them back, or `shuffle` the deck"
            } else {
                "every card of the deck was destroyed: none can come back; test for cards before drawing"
            };
            Box::new(
                Diag::new(
                    "run::empty_deck",
                    format!("the deck `{}` has no card left to draw", p.things[ty as usize].1),
                )
                .label(span, "drawn here")
                .help(help),
            )
        })
    }

    /// The deck a card belongs to.
    fn deck_of(&self, card: EntityId, span: Span) -> R<u16> {
        let ty = self.types.get(card as usize).copied();
        let d = self.p.decks.iter().position(|t| Some(*t) == ty);
        d.map(|d| d as u16).ok_or_else(|| {
            Box::new(
                Diag::new(
                    "run::not_a_card",
                    format!("{} is not a card of any deck", self.world().character_name(card)),
                )
                .label(span, "given here")
                .help("discard a card drawn from a deck"),
            )
        })
    }

    /// A card that was destroyed is out for good: it goes back to no pile.
    fn still_a_card(&self, card: EntityId, span: Span) -> R<()> {
        // The one record of what `destroy` took out (`Machine::gone`), as `alive` reads it.
        if !self.gone.get(card as usize).copied().unwrap_or(false) {
            return Ok(());
        }
        Err(Box::new(
            Diag::new(
                "run::destroyed",
                format!(
                    "{} was destroyed: it goes back to no pile",
                    self.world().character_name(card)
                ),
            )
            .label(span, "put back here")
            .help("a destroyed card leaves its deck for good; test it first, or discard it instead of destroying it"),
        ))
    }

    /// A destroyed card leaves its deck's piles for good.
    pub(super) fn forget_card(&mut self, card: EntityId) {
        let ty = self.types.get(card as usize).copied();
        if let Some(d) = self.p.decks.iter().position(|t| Some(*t) == ty) {
            self.take_out(d as u16, card);
        }
    }

    /// Takes a card out of whichever pile of deck `d` holds it (none, if it is out).
    fn take_out(&mut self, d: u16, card: EntityId) {
        let piles = &mut self.piles[d as usize];
        piles.draw.retain(|c| *c != card);
        piles.discard.retain(|c| *c != card);
    }
}
