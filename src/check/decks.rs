//! Decks of cards in the checker: which deck a name names (a deck of its own make, or one of
//! the several decks of a make, `decks players, gm`), and the card statements and piles.

use super::Ty;
use super::checker::Checker;
use super::decls::Decls;
use crate::diag::Diag;
use crate::syntax::ast::*;

/// One deck (parallel to [`Decls::decks`], which holds its type).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DeckDef {
    /// The name the trace shows: the make's plural, or this deck's name among several.
    pub name: String,
    /// Whether an empty draw pile takes the discard pile back, shuffled (not with `no refill`).
    pub refill: bool,
    /// Whether it is one of the several decks of its make (`decks A, B`): then `cards` are its
    /// cards; else every entity of its type is.
    pub made: bool,
    pub cards: Vec<u32>,
}

impl Decls<'_> {
    /// Records a `deck` once its cards are declared: one deck, or one per name of `copies`,
    /// each with its share of the cards (written out deck after deck).
    pub(super) fn declare_deck(&mut self, t: u16, copies: &[Ident], refill: bool) {
        if copies.is_empty() {
            self.decks.push(t);
            let name = self.things.get(t as usize).map(|n| n.1.clone()).unwrap_or_default();
            self.deck_defs.push(DeckDef {
                name,
                refill,
                made: false,
                cards: Vec::new(),
            });
            return;
        }
        let cards: Vec<u32> = (0..self.entity_types.len() as u32)
            .filter(|e| self.entity_types[*e as usize] == t)
            .collect();
        let each = cards.len() / copies.len();
        for (k, c) in copies.iter().enumerate() {
            self.decks.push(t);
            let cards = cards.get(k * each..(k + 1) * each).unwrap_or(&[]).to_vec();
            self.deck_defs.push(DeckDef {
                name: c.node.clone(),
                refill,
                made: true,
                cards,
            });
        }
    }

    /// The deck `name` names: one of several decks by its own name, or a make of one deck by its
    /// name or plural. `Err` lists the decks of a make that has several.
    pub fn deck_named(&self, name: &str) -> Result<Option<u16>, Vec<String>> {
        if let Some(d) = self.deck_defs.iter().position(|d| d.made && d.name == name) {
            return Ok(Some(d as u16));
        }
        let t = self
            .thing(name)
            .or_else(|| self.things.iter().position(|t| t.1 == name).map(|t| t as u16));
        let Some(t) = t else { return Ok(None) };
        let mine: Vec<usize> = (0..self.decks.len()).filter(|d| self.decks[*d] == t).collect();
        match mine.as_slice() {
            [] => Ok(None),
            [d] if !self.deck_defs[*d].made => Ok(Some(*d as u16)),
            _ => Err(mine.iter().map(|d| self.deck_defs[*d].name.clone()).collect()),
        }
    }
}

impl Checker<'_> {
    /// `shuffle`, `draw`, `discard`, `return`, `take` and `shuffle ... into`: decks named, cards
    /// given.
    pub(super) fn cards(&mut self, op: &CardOp) {
        match op {
            CardOp::Shuffle(deck) => {
                self.deck(deck);
            }
            CardOp::Draw { deck, by, bind } => {
                let t = self.deck(deck);
                if let Some(by) = by {
                    self.entity(by, "who draws");
                }
                if let (Some(b), Some(t)) = (bind, t) {
                    self.bind(b, Ty::Entity(t));
                }
            }
            CardOp::Discard(card) => self.card(card, None, "`discard`"),
            CardOp::Return(card, deck) => self.card_to(card, deck, "`return`"),
            CardOp::Take(card, deck) => self.card_to(card, deck, "`take`"),
            CardOp::ShuffleIn(card, deck) => self.card_to(card, deck, "`shuffle ... into`"),
        }
    }

    fn card_to(&mut self, card: &Expr, deck: &Ident, what: &str) {
        let t = self.deck(deck);
        if t.is_some() {
            self.card(card, t, what);
        }
    }

    /// `draw pile of DECK`, `discard pile of DECK`: the type of its cards.
    pub(super) fn pile(&mut self, deck: &Ident) -> Ty {
        self.deck(deck).map_or(Ty::Error, Ty::Entity)
    }

    /// The type of the cards of the deck a name names, if it does (else reported).
    fn deck(&mut self, deck: &Ident) -> Option<u16> {
        match self.decls.deck_named(&deck.node) {
            Ok(Some(d)) => return self.decls.decks.get(d as usize).copied(),
            Ok(None) => {}
            Err(several) => {
                self.err(
                    Diag::new(
                        "check::deck",
                        format!("`{}` makes {} decks: which one?", deck.node, several.len()),
                    )
                    .label(deck.span, "several decks")
                    .help(format!("name one of its decks: {}", several.join(", "))),
                );
                return None;
            }
        }
        let decks: Vec<&str> = self.decls.deck_defs.iter().map(|d| d.name.as_str()).collect();
        self.err(
            Diag::new("check::unknown", format!("`{}` is not a deck of cards", deck.node))
                .label(deck.span, "not a deck")
                .help(if decks.is_empty() {
                    "declare one with `deck card, cards { suits ... ranks ... }`".to_string()
                } else {
                    format!("the decks are: {}", decks.join(", "))
                }),
        );
        None
    }

    /// A card: an entity of a deck (of `deck`, when given).
    fn card(&mut self, card: &Expr, deck: Option<u16>, what: &str) {
        let t = self.entity(card, what);
        let ok = match (t, deck) {
            (Ty::Entity(t), Some(d)) => t == d,
            (Ty::Entity(t), None) => self.decls.decks.contains(&t),
            _ => true,
        };
        if !ok {
            let tn = self.tn(t);
            self.err(
                Diag::new(
                    "check::type",
                    format!("{what} needs a card of the deck, but this is {tn}"),
                )
                .label(card.span, tn)
                .help("name a card drawn with `draw ... as x`, or a field that holds one"),
            );
        }
    }
}
