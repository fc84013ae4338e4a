//! Decks of cards: each deck's draw pile and discard pile, and the card statements (`shuffle`,
//! `draw`, `discard`, `return`, `take`, `shuffle ... into`). A card is a declared entity of the
//! deck's thing type (of one deck of its make, when the make has several); one that is in
//! neither pile has been drawn and is out (in a hand, on the table).

use super::state::{Machine, R};
use super::stmt::Flow;
use crate::compile::ir::*;
use crate::diag::Diag;
use crate::source::Span;
use crate::trace::Event;

/// One deck's piles; the top of the draw pile is the end of its list. `listed` holds each pile
/// again in deck order (ids ascending), for `draw pile of DECK`: the draw pile's own order is
/// secret. Each card statement keeps the lists in step (a binary search, no sort); their room
/// is reserved for the whole deck when it is gathered, so they never grow after.
#[derive(Default, Clone, Debug)]
pub(super) struct Piles {
    pub(super) draw: Vec<EntityId>,
    pub(super) discard: Vec<EntityId>,
    listed: [Vec<EntityId>; 2],
}

impl Piles {
    /// The draw pile (`false`) or the discard pile (`true`), in deck order.
    pub(super) fn listed(&self, discard: bool) -> &[EntityId] {
        &self.listed[usize::from(discard)]
    }

    /// Puts `card` in the list of the draw pile (`false`) or the discard pile (`true`).
    fn list(&mut self, discard: bool, card: EntityId) {
        let l = &mut self.listed[usize::from(discard)];
        if let Err(at) = l.binary_search(&card) {
            l.insert(at, card);
        }
    }

    /// Whether each list holds its pile's cards, in deck order (checked in debug builds, so
    /// that every test that moves cards checks the lists kept in step).
    fn in_step(&self) -> bool {
        [(&self.draw, &self.listed[0]), (&self.discard, &self.listed[1])]
            .into_iter()
            .all(|(pile, l)| pile.len() == l.len() && l.is_sorted() && pile.iter().all(|c| l.binary_search(c).is_ok()))
    }

    /// Takes `card` off a pile's list: whether it was on it.
    fn unlist(&mut self, discard: bool, card: EntityId) -> bool {
        let l = &mut self.listed[usize::from(discard)];
        match l.binary_search(&card) {
            Ok(at) => {
                l.remove(at);
                true
            }
            Err(_) => false,
        }
    }
}

impl Machine<'_> {
    /// Every deck starts whole and shuffled, before `setup`.
    pub(super) fn deal_decks(&mut self) {
        for d in 0..self.p.decks.len() {
            self.gather_all(d as u16);
        }
    }

    /// The cards of deck `d`: its share of its make's cards, or every entity of its type.
    fn deck_cards(&self, d: u16) -> &[EntityId] {
        let def = &self.p.deck_defs[d as usize];
        if def.made {
            return &def.cards;
        }
        let ty = self.p.decks[d as usize];
        self.of_type.get(ty as usize).map_or(&[], Vec::as_slice)
    }

    /// Every card of deck `d` in play back in its draw pile, shuffled (traced).
    fn gather_all(&mut self, d: u16) {
        let piles = &mut self.piles[d as usize];
        let (mut draw, mut listed) = (std::mem::take(&mut piles.draw), std::mem::take(&mut piles.listed));
        draw.clear();
        draw.extend(self.deck_cards(d).iter().copied().filter(|c| !self.absent[*c as usize]));
        // The deck's cards are in deck order (ids ascending): so is the draw pile, unshuffled.
        debug_assert!(draw.is_sorted());
        let (n, all) = (draw.len(), self.deck_cards(d).len());
        let [on_draw, on_discard] = &mut listed;
        on_draw.clear();
        on_draw.extend_from_slice(&draw);
        on_draw.reserve(all - n);
        on_discard.clear();
        on_discard.reserve(all);
        self.dice.shuffle(&mut draw);
        let piles = &mut self.piles[d as usize];
        piles.discard.clear();
        piles.draw = draw;
        piles.listed = listed;
        self.emit(Event::Shuffle { deck: d, cards: n });
    }

    pub(super) fn st_cards(&mut self, act: &CardAct, span: Span) -> R<Flow> {
        match act {
            CardAct::Shuffle(d) => {
                let d = self.deck_at(d, span)?;
                // A shuffle moves every card of the deck: a step each.
                self.charge(self.deck_cards(d).len() as u64, span)?;
                self.gather_all(d)
            }
            CardAct::Draw { deck, by, bind } => {
                let deck = &self.deck_at(deck, span)?;
                let by = match by {
                    Some(b) => Some(self.entity(b, span)?),
                    None => None,
                };
                let card = self.draw(*deck, span)?;
                self.piles[*deck as usize].unlist(false, card);
                if let Some(slot) = bind {
                    self.locals[*slot as usize] = card as i64;
                }
                self.emit(Event::Draw { deck: *deck, by, card });
            }
            CardAct::Discard(x) => {
                let card = self.entity(x, span)?;
                let d = self.deck_of(card, span)?;
                self.still_a_card(card, span)?;
                let looked = self.take_out(d, card);
                self.charge(looked, span)?;
                self.piles[d as usize].discard.push(card);
                self.piles[d as usize].list(true, card);
                self.emit(Event::Discard { card, returned: false });
            }
            CardAct::Return(x, d) => {
                let d = &self.deck_at(d, span)?;
                let card = self.card_of(x, *d, span)?;
                let looked = self.take_out(*d, card);
                self.charge(looked, span)?;
                self.piles[*d as usize].draw.push(card);
                self.piles[*d as usize].list(false, card);
                self.emit(Event::Discard { card, returned: true });
            }
            CardAct::Take(x, d) => {
                let d = &self.deck_at(d, span)?;
                let card = self.card_of(x, *d, span)?;
                // Looking through the draw pile for the card: a step per card looked at.
                let found = self.piles[*d as usize].draw.iter().position(|c| *c == card);
                let looked = found.map_or(self.piles[*d as usize].draw.len(), |at| at + 1);
                self.charge(looked as u64, span)?;
                let piles = &mut self.piles[*d as usize];
                let Some(at) = found else {
                    return Err(Box::new(
                        Diag::new(
                            "run::not_in_pile",
                            format!(
                                "{} is not in the draw pile of `{}`",
                                self.world().character_name(card),
                                self.p.deck_defs[*d as usize].name
                            ),
                        )
                        .label(span, "taken here")
                        .help(if self.p.deck_defs[*d as usize].owner.is_some() {
                            // An entity's deck has no pile collections to test.
                            "take only a card still in the draw pile: an entity's deck has no `draw pile of`, so keep where its cards are in a field of the deck's cards (`flag out`), or put one back from wherever it is with `shuffle X into DECK`"
                        } else {
                            "take only a card still in the draw pile: test it first with `any x in draw pile of DECK: x == CARD`"
                        }),
                    ));
                };
                piles.draw.remove(at);
                piles.unlist(false, card);
                self.emit(Event::Pile {
                    deck: *d,
                    card,
                    into: false,
                });
            }
            CardAct::ShuffleIn(x, d) => {
                let d = &self.deck_at(d, span)?;
                let card = self.card_of(x, *d, span)?;
                let looked = self.take_out(*d, card);
                self.charge(looked, span)?;
                let at = self.dice.place(self.piles[*d as usize].draw.len());
                let piles = &mut self.piles[*d as usize];
                piles.draw.insert(at.min(piles.draw.len()), card);
                piles.list(false, card);
                self.emit(Event::Pile {
                    deck: *d,
                    card,
                    into: true,
                });
            }
        }
        debug_assert!(self.piles.iter().all(Piles::in_step));
        Ok(Flow::Next)
    }

    /// The deck a statement names: the deck itself, or the deck of the entity `owner` gives
    /// among its make's (`decks per TYPE`).
    fn deck_at(&mut self, at: &DeckAt, span: Span) -> R<u16> {
        let Some(owner) = &at.owner else {
            return Ok(at.deck);
        };
        let e = self.entity(owner, span)?;
        let p = self.p;
        let make = p.decks.get(at.deck as usize).copied();
        let d = make.and_then(|m| p.deck_index.owned(m, e));
        d.ok_or_else(|| {
            let what = make.map_or("", |t| p.things[t as usize].1.as_str());
            Box::new(
                Diag::new(
                    "run::no_deck",
                    format!("{} has no deck of {what}", self.world().character_name(e)),
                )
                .label(span, "its deck")
                .help(
                    "each entity of the cast when the run starts has its deck; one made later has none: test it first",
                ),
            )
        })
    }

    /// The card `x` gives, checked to be a card of deck `d` still in play.
    fn card_of(&mut self, x: &Ex, d: u16, span: Span) -> R<EntityId> {
        let card = self.entity(x, span)?;
        if self.deck_of(card, span)? != d {
            return Err(Box::new(
                Diag::new(
                    "run::not_a_card",
                    format!(
                        "{} is not a card of the deck `{}`",
                        self.world().character_name(card),
                        self.p.deck_defs[d as usize].name
                    ),
                )
                .label(span, "given here")
                .help("each deck of a make has its own cards: put a card back in the deck it came from"),
            ));
        }
        self.still_a_card(card, span)?;
        Ok(card)
    }

    /// The top card of deck `d` (or the next forced draw, wherever it is in the draw pile). An
    /// empty draw pile takes the discard pile, shuffled, first (unless the deck has `no refill`).
    fn draw(&mut self, d: u16, span: Span) -> R<EntityId> {
        let p = self.p;
        let def = &p.deck_defs[d as usize];
        if self.piles[d as usize].draw.is_empty() && def.refill {
            // The discard pile shuffled back moves every card in it: a step each.
            self.charge(self.piles[d as usize].discard.len() as u64, span)?;
            let mut discard = std::mem::take(&mut self.piles[d as usize].discard);
            self.dice.shuffle(&mut discard);
            let n = discard.len();
            let piles = &mut self.piles[d as usize];
            std::mem::swap(&mut piles.draw, &mut discard);
            piles.discard = discard;
            // The draw pile was empty: the lists change places as the piles do.
            piles.listed.swap(0, 1);
            if n > 0 {
                self.emit(Event::Shuffle { deck: d, cards: n });
            }
        }
        if let Some(&forced) = self.forced_draws.front() {
            let found = self.piles[d as usize].draw.iter().position(|c| *c == forced);
            let looked = found.map_or(self.piles[d as usize].draw.len(), |at| at + 1);
            self.charge(looked as u64, span)?;
            let piles = &mut self.piles[d as usize];
            return match found {
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
                            def.name
                        ),
                    )
                    .label(span, "drawn here")
                    .help("force only cards still in the pile, in the order they are drawn (--draws)"),
                )),
            };
        }
        let card = self.piles[d as usize].draw.pop();
        card.ok_or_else(|| {
            let left = self
                .deck_cards(d)
                .iter()
                .any(|c| !self.gone.get(*c as usize).copied().unwrap_or(false));
            // A deck made from a cast with no entity of its type never had a card.
            let ty = self.p.decks[d as usize];
            let help = if !def.made && !self.types.contains(&ty) {
                "this deck has no cards at all: it is made from the cast, which has no entity of its type; test `count x in draw pile of DECK` before drawing"
            } else if !left {
                "every card of the deck was destroyed: none can come back; test for cards before drawing"
            } else if !def.refill {
                "this deck has `no refill`: its discards come back only by `shuffle DECK` or `shuffle X into DECK`; test `count x in draw pile of DECK` before drawing"
            } else {
                "every card is out: `discard` cards so an empty pile can take them back, or `shuffle` the deck"
            };
            Box::new(
                Diag::new("run::empty_deck", format!("the deck `{}` has no card left to draw", def.name))
                    .label(span, "drawn here")
                    .help(help),
            )
        })
    }

    /// The deck a card belongs to: the one deck of its type, or the one of its make's several
    /// decks that holds it.
    fn deck_of(&self, card: EntityId, span: Span) -> R<u16> {
        let ty = self.types.get(card as usize).copied();
        let d = ty.and_then(|ty| self.p.deck_index.deck_of(card, ty));
        d.ok_or_else(|| {
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
        if let Ok(d) = self.deck_of(card, Span::default()) {
            // Once per card at most: a card is destroyed once.
            let _ = self.take_out(d, card);
            debug_assert!(self.piles[d as usize].in_step());
        }
    }

    /// Takes a card out of whichever pile of deck `d` holds it (none, if it is out): the lists
    /// say which, so a drawn card costs no walk of the piles. Returns how many cards of a pile it
    /// looked through (a card statement charges them as steps).
    fn take_out(&mut self, d: u16, card: EntityId) -> u64 {
        let piles = &mut self.piles[d as usize];
        let mut looked = 0;
        if piles.unlist(false, card) {
            looked += piles.draw.len() as u64;
            piles.draw.retain(|c| *c != card);
        }
        if piles.unlist(true, card) {
            looked += piles.discard.len() as u64;
            piles.discard.retain(|c| *c != card);
        }
        looked
    }
}
