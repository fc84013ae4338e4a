//! Decks whose cards come from the cast (`decks per TYPE`, `one per TYPE`): once every file is
//! loaded, each is written out as the parser writes a deck: a card entity per card and entity of
//! the cast, then the `deck` marker, in a file of their own after the others (so the cards come
//! after the entities they belong to).

use super::ast::*;
use crate::diag::Diag;

/// The cards and decks of every deck made from the cast of `files`, or `None` when no deck is;
/// a make that would pass `MAX_DECK_CARDS` is refused.
pub fn cast_decks(files: &[File]) -> (Option<File>, Vec<Diag>) {
    let mut items = Vec::new();
    let mut diags = Vec::new();
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
