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
    /// The entity it belongs to (`decks per TYPE`).
    pub owner: Option<u32>,
}

impl Decls<'_> {
    /// Records a `deck` once its cards are declared: one deck, or one per name of `copies`,
    /// each with its share of the cards (written out deck after deck).
    pub(super) fn declare_deck(&mut self, t: u16, copies: &[Ident], refill: bool, cast: Option<&DeckCast>) {
        // `decks per TYPE` declares its decks once the cast is known (`Dealt`).
        let per = match cast {
            Some(DeckCast::DeckPer { owner, .. }) => {
                if let Some(o) = self.thing(&owner.node) {
                    self.deck_owners.push((t, o));
                }
                return;
            }
            Some(DeckCast::OnePer { .. }) => return,
            Some(DeckCast::Dealt { .. }) => !copies.is_empty(),
            None => false,
        };
        if copies.is_empty() {
            self.decks.push(t);
            let name = self.things.get(t as usize).map(|n| n.1.clone()).unwrap_or_default();
            self.deck_defs.push(DeckDef {
                name,
                refill,
                made: false,
                cards: Vec::new(),
                owner: None,
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
            let owner = if per {
                self.entity(&c.node).map(|e| e as u32)
            } else {
                None
            };
            // An entity's deck is called by its make and its owner: `abilities of Goblins`.
            let plural = self.things.get(t as usize).map_or("", |n| n.1.as_str());
            self.deck_defs.push(DeckDef {
                name: if per {
                    format!("{plural} of {}", c.node)
                } else {
                    c.node.clone()
                },
                refill,
                made: true,
                cards,
                owner,
            });
        }
    }

    /// The decks of a make (`decks A, B`) are named apart from every make and every other
    /// make's decks: a statement reads a deck by that name alone.
    pub(super) fn deck_names_once(&self, copies: &[Ident], diags: &mut Vec<Diag>) {
        for c in copies {
            let make = self.make_named(&c.node);
            let twice = self
                .deck_defs
                .iter()
                .filter(|d| d.made && d.owner.is_none() && d.name == c.node)
                .count()
                > 1;
            if make.is_some() || twice {
                diags.push(
                    Diag::new("check::duplicate", format!("`{}` names two decks", c.node))
                        .label(c.span, "a deck named again")
                        .help("give each deck its own name, apart from every deck's make (its `deck NAME, PLURAL`)"),
                );
            }
        }
    }

    /// The deck `name` names: one of several decks by its own name, or a make of one deck by its
    /// name or plural. `Err` lists the decks of a make that has several.
    pub fn deck_named(&self, name: &str) -> Result<Option<u16>, Vec<String>> {
        if let Some(d) = self
            .deck_defs
            .iter()
            .position(|d| d.made && d.owner.is_none() && d.name == name)
        {
            return Ok(Some(d as u16));
        }
        let Some(t) = self.make_named(name) else {
            return Ok(None);
        };
        let mine: Vec<usize> = (0..self.decks.len()).filter(|d| self.decks[*d] == t).collect();
        match mine.as_slice() {
            [] => Ok(None),
            [d] if !self.deck_defs[*d].made => Ok(Some(*d as u16)),
            _ => Err(mine.iter().map(|d| self.deck_defs[*d].name.clone()).collect()),
        }
    }

    /// The type a deck's make is called by, by its name or plural.
    pub fn make_named(&self, name: &str) -> Option<u16> {
        self.thing(name)
            .or_else(|| self.things.iter().position(|t| t.1 == name).map(|t| t as u16))
    }

    /// Where `x.NAME` finds its deck: the first deck of the make (`decks per TYPE`) called NAME;
    /// the runtime picks the deck of `x` among its make's.
    pub fn owned_deck(&self, name: &str) -> u16 {
        let t = self.make_named(name);
        self.decks.iter().position(|d| Some(*d) == t).unwrap_or(0) as u16
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
                // Bound even when the deck is not known, so its uses are not reported again.
                if let Some(b) = bind {
                    self.bind(b, t.map_or(Ty::Error, Ty::Entity));
                }
            }
            CardOp::Discard(card) => self.card(card, None, "`discard`"),
            CardOp::Return(card, deck) => self.card_to(card, deck, "`return`"),
            CardOp::Take(card, deck) => self.card_to(card, deck, "`take`"),
            CardOp::ShuffleIn(card, deck) => self.card_to(card, deck, "`shuffle ... into`"),
        }
    }

    fn card_to(&mut self, card: &Expr, deck: &DeckRef, what: &str) {
        let t = self.deck(deck);
        if t.is_some() {
            self.card(card, t, what);
        }
    }

    /// `draw pile of DECK`, `discard pile of DECK`: the type of its cards.
    pub(super) fn pile(&mut self, deck: &DeckRef) -> Ty {
        if let Some(owner) = &deck.owner {
            self.err(
                Diag::new("check::deck", "the piles of an entity's deck are not walked")
                    .label(join(owner.span, deck.name.span), "an entity's deck")
                    .help("walk the piles of a deck named by its name (`draw pile of gm`); keep an entity's cards in its fields to count them"),
            );
            return Ty::Error;
        }
        self.deck(deck).map_or(Ty::Error, Ty::Entity)
    }

    /// The type of the cards of a deck, if it names one (else reported): `NAME`, or `x.PLURAL`
    /// for the deck of `x` (of a make with `decks per TYPE`).
    fn deck(&mut self, deck: &DeckRef) -> Option<u16> {
        let DeckRef { owner, name: deck } = deck;
        let per = self
            .decls
            .make_named(&deck.node)
            .and_then(|t| self.decls.deck_owners.iter().find(|(m, _)| *m == t).copied());
        if let Some(owner) = owner {
            let ot = self.entity(owner, "whose deck");
            return match (per, ot) {
                (_, Ty::Error) => None,
                (Some((t, o)), Ty::Entity(ot)) if o == ot => Some(t),
                _ => {
                    let tn = self.tn(ot);
                    let help = match per {
                        Some((_, o)) => format!(
                            "`{}` is a deck of each {}: write `x.{}` for such an x",
                            deck.node, self.decls.things[o as usize].0, deck.node
                        ),
                        None => {
                            "give a make a deck per entity with `decks per TYPE` in its `deck` declaration".to_string()
                        }
                    };
                    self.err(
                        Diag::new("check::deck", format!("{tn} has no deck `{}`", deck.node))
                            .label(join(owner.span, deck.span), "no such deck")
                            .help(help),
                    );
                    None
                }
            };
        }
        if let Some((_, o)) = per {
            let whose = &self.decls.things[o as usize].0;
            self.err(
                Diag::new(
                    "check::deck",
                    format!("`{}` is a deck of each {whose}: whose?", deck.node),
                )
                .label(deck.span, "a deck per entity")
                .help(format!("name whose deck: `x.{}`", deck.node)),
            );
            return None;
        }
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
        let decks: Vec<&str> = self
            .decls
            .deck_defs
            .iter()
            .filter(|d| d.owner.is_none())
            .map(|d| d.name.as_str())
            .collect();
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

/// From the start of `a` to the end of `b` (of one file).
fn join(a: Span, b: Span) -> Span {
    Span {
        end: b.end.max(a.end),
        ..a
    }
}
