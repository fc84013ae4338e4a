//! Which deck a card, or an entity's deck of a make, is: worked out once from the declared
//! entities, so that a card statement finds its deck without walking every deck.

use super::{EntityId, Program, TypeId};

/// No deck.
const NO_DECK: u16 = u16::MAX;

/// The decks of cards by card and by owner.
#[derive(Debug, Clone, Default)]
pub struct DeckIndex {
    /// For each declared entity, by id: the deck it is a card of (`NO_DECK` for none).
    by_card: Vec<u16>,
    /// For each type: the deck that holds every entity of that type (one not of several decks
    /// of a make), for the entities made during the run.
    by_type: Vec<u16>,
    /// `(make, owner, deck)` for `decks per TYPE`, sorted by make and owner (the first deck
    /// declared for a pair, if two were).
    owned: Vec<(TypeId, EntityId, u16)>,
}

impl DeckIndex {
    /// The index of `p`'s decks, once its characters (the cast, with the cards) are declared.
    pub fn new(p: &Program) -> Self {
        // The first deck of type `ty` that holds `card`: of all its type's entities, or the one
        // of its make's several that lists it.
        let first = |ty: TypeId, card: Option<EntityId>| {
            (0..p.decks.len())
                .find(|&d| {
                    p.decks[d] == ty
                        && (!p.deck_defs[d].made
                            || card.is_some_and(|c| p.deck_defs[d].cards.binary_search(&c).is_ok()))
                })
                .map_or(NO_DECK, |d| d as u16)
        };
        let by_card = (p.characters.iter().enumerate())
            .map(|(id, c)| first(c.ty, Some(id as EntityId)))
            .collect();
        let by_type = (0..p.things.len().max(1)).map(|t| first(t as TypeId, None)).collect();
        let mut owned: Vec<(TypeId, EntityId, u16)> = (p.deck_defs.iter().enumerate())
            .filter_map(|(d, def)| Some((p.decks[d], def.owner?, d as u16)))
            .collect();
        owned.sort_by_key(|&(make, owner, d)| (make, owner, d));
        owned.dedup_by_key(|&mut (make, owner, _)| (make, owner));
        DeckIndex {
            by_card,
            by_type,
            owned,
        }
    }

    /// The deck card `card` (of type `ty`) belongs to, if any.
    pub fn deck_of(&self, card: EntityId, ty: TypeId) -> Option<u16> {
        let d = match self.by_card.get(card as usize) {
            Some(&d) => d,
            None => self.by_type.get(ty as usize).copied().unwrap_or(NO_DECK),
        };
        (d != NO_DECK).then_some(d)
    }

    /// The deck of make `make` that belongs to `owner` (`decks per TYPE`), if it has one.
    pub fn owned(&self, make: TypeId, owner: EntityId) -> Option<u16> {
        let at = self
            .owned
            .binary_search_by_key(&(make, owner), |&(m, o, _)| (m, o))
            .ok()?;
        Some(self.owned[at].2)
    }
}
