//! Decks whose cards come from the cast (`decks per TYPE`, `one per TYPE`): once every file is
//! loaded, each is written out as the parser writes a deck: a card entity per card and entity of
//! the cast, then the `deck` marker, in a file of their own after the others (so the cards come
//! after the entities they belong to).

use super::ast::*;
use crate::diag::Diag;

/// The cards and decks of every deck made from the cast of `files`, or `None` when no deck is;
/// a make that would pass `MAX_DECK_CARDS` is refused, and so is a make, or a deck of the files,
/// with which the cards of all decks would pass `MAX_DECK_CARDS_TOTAL`.
pub fn cast_decks(files: &[File]) -> (Option<File>, Vec<Diag>) {
    let mut items = Vec::new();
    let mut diags = Vec::new();
    let mut total = declared_cards(files, &mut diags);
    for item in files.iter().flat_map(|f| &f.items) {
        let Item::Deck {
            name,
            refill,
            cast: Some(cast),
            ..
        } = item
        else {
            continue;
        };
        let owner = match cast.as_ref() {
            DeckCast::DeckPer { owner, .. } | DeckCast::OnePer { owner, .. } => owner,
            DeckCast::Dealt { .. } => continue,
        };
        if let Some(d) = not_an_owner(files, name, owner) {
            diags.push(d);
            continue;
        }
        let owners = cast_of(files, &owner.node);
        let per_deck = match cast.as_ref() {
            DeckCast::DeckPer { cards, .. } => cards.len(),
            _ => 1,
        };
        let most = crate::limits::MAX_DECK_CARDS;
        if owners.len().saturating_mul(per_deck) > most {
            diags.push(
                Diag::new(
                    "syntax::deck",
                    format!("{} cards for {} entities", owners.len().saturating_mul(per_deck), owners.len()),
                )
                .label(name.span, "cards made from the cast")
                .help(format!(
                    "the decks of one make hold at most {most} cards in all: give the deck fewer cards, or the cast fewer entities of {}",
                    owner.node
                )),
            );
            continue;
        }
        let made = owners.len().saturating_mul(per_deck);
        if total.saturating_add(made) > crate::limits::MAX_DECK_CARDS_TOTAL {
            if total <= crate::limits::MAX_DECK_CARDS_TOTAL {
                diags.push(too_many_cards(name.span));
            }
            total = total.saturating_add(made);
            continue;
        }
        total += made;
        let dealt = Some(Box::new(DeckCast::Dealt { owner: owner.clone() }));
        match cast.as_ref() {
            DeckCast::DeckPer { cards, .. } => {
                if owners.is_empty() {
                    continue;
                }
                for o in &owners {
                    for card in cards {
                        if let Item::Instance { ty, name, fields } = card {
                            items.push(Item::Instance {
                                ty: ty.clone(),
                                name: Spanned::new(format!("{} of {}", name.node, o.node), name.span),
                                fields: fields.clone(),
                            });
                        }
                    }
                }
                items.push(Item::Deck {
                    name: name.clone(),
                    copies: owners,
                    refill: *refill,
                    cast: dealt,
                });
            }
            DeckCast::OnePer { fields, .. } => {
                for (k, o) in owners.iter().enumerate() {
                    let at = |v: ExprKind| Spanned::new(v, name.span);
                    let values = [
                        at(ExprKind::Int(k as i64 + 1)),
                        at(ExprKind::Int(0)),
                        at(ExprKind::Bool(false)),
                        Spanned::new(ExprKind::Name(o.node.clone()), o.span),
                    ];
                    items.push(Item::Instance {
                        ty: name.clone(),
                        name: Spanned::new(format!("{} of {}", name.node, o.node), name.span),
                        // Each field at its declaration's span: fields resolve by span.
                        fields: fields.iter().cloned().zip(values).collect(),
                    });
                }
                items.push(Item::Deck {
                    name: name.clone(),
                    copies: Vec::new(),
                    refill: *refill,
                    cast: dealt,
                });
            }
            DeckCast::Dealt { .. } => {}
        }
    }
    let any = files
        .iter()
        .flat_map(|f| &f.items)
        .any(|i| matches!(i, Item::Deck { cast: Some(c), .. } if !matches!(c.as_ref(), DeckCast::Dealt { .. })));
    (any.then_some(File { items }), diags)
}

/// How many cards the decks of `files` declare (the entities of a deck's type, in every file);
/// past `MAX_DECK_CARDS_TOTAL`, a diagnostic at the deck whose cards pass it.
fn declared_cards(files: &[File], diags: &mut Vec<Diag>) -> usize {
    let decks: std::collections::HashSet<&str> = files
        .iter()
        .flat_map(|f| &f.items)
        .filter_map(|i| match i {
            Item::Deck { name, .. } => Some(name.node.as_str()),
            _ => None,
        })
        .collect();
    let mut total = 0usize;
    for item in files.iter().flat_map(|f| &f.items) {
        if let Item::Instance { ty, .. } = item
            && decks.contains(ty.node.as_str())
        {
            total += 1;
            if total == crate::limits::MAX_DECK_CARDS_TOTAL + 1 {
                diags.push(too_many_cards(ty.span));
            }
        }
    }
    total
}

/// How many cards the items a deck is written out as hold: its cards, and those a `decks per
/// TYPE` keeps in its marker until the cast is known.
pub fn cards_in(items: &[Item]) -> usize {
    items
        .iter()
        .map(|i| match i {
            Item::Instance { .. } => 1,
            Item::Deck { cast: Some(c), .. } => match c.as_ref() {
                DeckCast::DeckPer { cards, .. } => cards.len(),
                _ => 0,
            },
            _ => 0,
        })
        .sum()
}

/// `syntax::deck` at the deck with whose cards the decks of a run hold more than
/// `MAX_DECK_CARDS_TOTAL`.
pub fn too_many_cards(at: Span) -> Diag {
    let most = crate::limits::MAX_DECK_CARDS_TOTAL;
    Diag::new("syntax::deck", format!("the decks hold more than {most} cards in all"))
        .label(at, "this deck's cards take them past it")
        .help(format!(
            "the decks of a run (the ruleset's, the encounter's and those made from the cast) hold at most {most} cards together, each card an entity: give the decks fewer cards, or make fewer decks"
        ))
}

/// `syntax::deck` for a deck made per something that is no type of the cast: a side or a role
/// (no entities), or the cards of a deck made from the cast (its own, or another's), which are
/// not in the cast yet and would make none.
fn not_an_owner(files: &[File], deck: &Ident, owner: &Ident) -> Option<Diag> {
    let per = |what: String, help: &str| {
        Diag::new("syntax::deck", what)
            .label(owner.span, "not a type of the cast")
            .label(deck.span, "this deck")
            .help(help.to_string())
    };
    if owner.node == "side" || owner.node == "role" {
        return Some(per(
            format!("a deck is made per entity, and a {} is not one", owner.node),
            "`one per` and `decks per` name `character` or a thing; for a value per side, give the sides fields: `side NAME, ... { FIELDS }`",
        ));
    }
    let cast = files.iter().flat_map(|f| &f.items).any(|i| {
        matches!(i, Item::Deck { name, cast: Some(c), .. }
            if name.node == owner.node && matches!(c.as_ref(), DeckCast::DeckPer { .. } | DeckCast::OnePer { .. }))
    });
    cast.then(|| {
        let whose = if owner.node == deck.node {
            "its own cards".to_string()
        } else {
            format!("the cards of `{}`", owner.node)
        };
        per(
            format!("a deck cannot be made per {whose}: they are made from the cast themselves, so it would have none"),
            "make it per `character` or a thing, or per the cards of a deck that declares them (`ranks ...`)",
        )
    })
}

/// The entities of type `ty` the files declare, in order (`character` for characters).
fn cast_of(files: &[File], ty: &str) -> Vec<Ident> {
    let mut out = Vec::new();
    for item in files.iter().flat_map(|f| &f.items) {
        match item {
            Item::Character(c) if ty == "character" => out.extend(c.members()),
            Item::Instance { ty: t, name, .. } if t.node == ty => out.push(name.clone()),
            _ => {}
        }
    }
    out
}
