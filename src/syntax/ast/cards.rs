//! Decks in the AST: a deck made from the cast, a deck a statement names, and what a card
//! statement does.

use super::*;

/// A deck whose cards come from the cast, known once every file is loaded
/// (`syntax::cast_decks` writes them out).
#[derive(Clone, Debug)]
pub enum DeckCast {
    /// `decks per TYPE`: a deck of these cards for each entity of `owner`.
    DeckPer { owner: Ident, cards: Vec<Item> },
    /// `one per TYPE`: a card for each entity of `owner`, its field `holder` holding it;
    /// `fields`: `rank`, `suit`, `joker` and `holder`, each at the span of its declaration.
    OnePer { owner: Ident, fields: Vec<Ident> },
    /// Written out from the cast: `copies` are the owners of `decks per`, or (none) the cards
    /// of `one per` are declared before it.
    Dealt { owner: Ident },
}

/// A deck in a statement or a pile: its name, or `x.PLURAL` (the deck of the entity `x`, of a
/// make with `decks per TYPE`).
#[derive(Clone, Debug, PartialEq)]
pub struct DeckRef {
    pub owner: Option<Box<Expr>>,
    pub name: Ident,
}

/// What a statement does with a deck's cards.
#[derive(Clone, Debug)]
pub enum CardOp {
    /// Every card of the deck back in its draw pile, shuffled.
    Shuffle(DeckRef),
    /// The top card of the deck's draw pile, drawn (by someone, for the trace) and named.
    Draw {
        deck: DeckRef,
        by: Option<Expr>,
        bind: Option<Ident>,
    },
    /// A card onto its deck's discard pile.
    Discard(Expr),
    /// A card back on top of its deck's draw pile.
    Return(Expr, DeckRef),
    /// `take X from DECK`: a given card out of the draw pile.
    Take(Expr, DeckRef),
    /// `shuffle X into DECK`: a card into the draw pile, at a random place.
    ShuffleIn(Expr, DeckRef),
}
