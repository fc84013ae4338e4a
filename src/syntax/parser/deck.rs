//! `deck NAME, PLURAL { ... }`: a deck written out as its thing, its suits' params and its cards.

use super::Pair;

use super::items::once;
use super::{Builder, R, Rule, last_inner, next, parts, too_large};
use crate::diag::Diag;
use crate::syntax::ast::*;

impl Builder {
    /// `deck NAME, PLURAL { suits ... ranks ... jokers ... fields }`, written out as a thing with
    /// `rank`, `suit` and `joker`, a param per suit (its place, lowest first), an entity per
    /// card (suits within rank: `2 clubs`, `2 hearts`, ..., then `joker 1`, ...), and the marker.
    pub(super) fn deck_decl(&self, pair: Pair) -> R<Vec<Item>> {
        let span = self.span(&pair);
        let mut it = parts(pair);
        let name = self.ident(next(&mut it, span)?);
        let plural = self.ident(next(&mut it, span)?);
        // `deck NAME, PLURAL for FIELD`: each card stands for the entity its field holds.
        let mut stands_for = it.next_if(|p| p.as_rule() == Rule::ident).map(|p| self.ident(p));
        // Each written-out field name has a span of its own (a field a name resolves to is
        // recorded by span): `rank` at the deck's name, `suit` at its plural, `joker` at the whole.
        let plural_span = plural.span;
        let at = |text: &str| {
            let s = match text {
                "suit" => plural_span,
                "joker" => span,
                _ => name.span,
            };
            Spanned::new(text.to_string(), s)
        };
        let int = |v: i64| Expr {
            node: ExprKind::Int(v),
            span: name.span,
        };
        // A rank: a whole number from 0 to 1,000,000.
        let number = |p: Pair| -> R<i64> {
            let pspan = self.span(&p);
            let text = p.as_str();
            match text.parse::<i64>() {
                Ok(v) if (0..=1_000_000).contains(&v) => Ok(v),
                Ok(v) if v < 0 => Err(Diag::new("syntax::deck", format!("`{text}` is not a card's rank"))
                    .label(pspan, "a rank is not negative")
                    .help("ranks are whole numbers from 0 to 1,000,000: number the cards from 0 and work out their values in the rules (`x.rank - 3`)")),
                _ => Err(Diag::new("syntax::deck", format!("`{text}` is too large for a card's rank"))
                    .label(pspan, "at most 1,000,000")
                    .help("ranks are whole numbers from 0 to 1,000,000")),
            }
        };
        // How many jokers: a whole number (the deck's size is held to its limit below).
        let count = |p: Pair| -> R<usize> {
            let pspan = self.span(&p);
            let text = p.as_str();
            match text.parse::<i64>() {
                Ok(v) if v < 0 => Err(
                    Diag::new("syntax::deck", format!("`jokers {text}`: a count is not negative"))
                        .label(pspan, "how many jokers")
                        .help("write how many jokers the deck has, or leave `jokers` out for none"),
                ),
                Ok(v) => Ok(usize::try_from(v).unwrap_or(usize::MAX)),
                Err(_) => Err(too_large(pspan)),
            }
        };
        let mut fields = vec![
            Item::Stat {
                name: at("rank"),
                ty: None,
                decimals: 0,
                default: None,
            },
            Item::Stat {
                name: at("suit"),
                ty: None,
                decimals: 0,
                default: None,
            },
            Item::Flag {
                name: at("joker"),
                default: None,
                per: Vec::new(),
            },
        ];
        let (mut suits, mut ranks, mut jokers) = (Vec::new(), Vec::new(), None);
        // Each of `suits`, `ranks` and `jokers` is one line: a second would add to the first or
        // replace it.
        let (mut suits_at, mut ranks_at) = (None, None);
        // `decks A, B` (several decks of this make) and `no refill`, each once.
        let (mut copies, mut copies_at, mut refill, mut refill_at) = (Vec::new(), None, true, None);
        // `decks per TYPE` (a deck for each entity) or `one per TYPE` (a card for each entity).
        let (mut per, mut one_per, mut one_at) = (None, None, None);
        for p in it {
            let pspan = self.span(&p);
            match p.as_rule() {
                Rule::deck_suits => {
                    once(&mut suits_at, (), "`suits`", pspan)
                        .map_err(|d| d.help("list every suit after one `suits`: `suits clubs, hearts`"))?;
                    suits.extend(self.ident_list(last_inner(p, pspan)?))
                }
                Rule::deck_ranks => {
                    once(&mut ranks_at, (), "`ranks`", pspan)
                        .map_err(|d| d.help("list every rank after one `ranks`: `ranks 2 to 10, J = 11`"))?;
                    for r in parts(p) {
                        let rspan = self.span(&r);
                        let mut ri = parts(r);
                        let first = next(&mut ri, rspan)?;
                        match (first.as_rule(), ri.next()) {
                            (Rule::ident, Some(v)) => ranks.push((first.as_str().to_string(), number(v)?)),
                            (_, Some(to)) => {
                                let (lo, hi) = (number(first)?, number(to)?);
                                let most = crate::limits::MAX_RANK_RUN;
                                if hi < lo {
                                    return Err(Diag::new(
                                        "syntax::deck",
                                        format!("the ranks {lo} to {hi} run downwards"),
                                    )
                                    .label(rspan, "this run of ranks")
                                    .help(format!("write the lower rank first: `{hi} to {lo}`")));
                                }
                                if hi - lo >= most {
                                    return Err(Diag::new(
                                        "syntax::deck",
                                        format!("the ranks {lo} to {hi} are {} ranks in one run", hi - lo + 1),
                                    )
                                    .label(rspan, format!("a run holds at most {most} ranks"))
                                    .help(format!(
                                        "split it into runs of at most {most}: `{lo} to {}, {}`",
                                        lo + most - 1,
                                        match hi - lo + 1 - most {
                                            1 => hi.to_string(),
                                            n if n <= most => format!("{} to {hi}", lo + most),
                                            _ => format!("{} to {}, ...", lo + most, lo + 2 * most - 1),
                                        }
                                    )));
                                }
                                ranks.extend((lo..=hi).map(|v| (v.to_string(), v)));
                            }
                            (_, None) => {
                                let v = number(first)?;
                                ranks.push((v.to_string(), v));
                            }
                        }
                    }
                }
                Rule::deck_jokers => {
                    if let Some((_, _, first)) = jokers {
                        once(&mut Some(((), first)), (), "`jokers`", pspan)?;
                    }
                    let mut ji = parts(p);
                    let n = count(next(&mut ji, pspan)?)?;
                    let rank = ji.next().map(number).transpose()?;
                    jokers = Some((n, rank, pspan));
                }
                Rule::deck_copies => {
                    once(&mut copies_at, (), "`decks`", pspan)
                        .map_err(|d| d.help("name every deck of this make after one `decks`: `decks players, gm`"))?;
                    let list = last_inner(p, pspan)?;
                    if list.as_rule() == Rule::deck_per {
                        per = Some(self.ident(last_inner(list, pspan)?));
                        continue;
                    }
                    copies = self.ident_list(list);
                    if let Some((k, c)) = copies
                        .iter()
                        .enumerate()
                        .find(|(k, c)| copies[..*k].iter().any(|b| b.node == c.node))
                    {
                        let first = copies[..k].iter().find(|b| b.node == c.node).map_or(c.span, |b| b.span);
                        return Err(
                            Diag::new("syntax::deck", format!("the deck `{}` is named twice", c.node))
                                .label(c.span, "named again here")
                                .label(first, "first named here")
                                .help("give each deck of this make its own name: `decks players, gm`"),
                        );
                    }
                }
                Rule::deck_one_per => {
                    once(&mut one_at, (), "`one per`", pspan).map_err(|d| d.help("write `one per TYPE` once"))?;
                    one_per = Some((self.ident(last_inner(p, pspan)?), pspan));
                }
                Rule::deck_no_refill => {
                    once(&mut refill_at, (), "`no refill`", pspan).map_err(|d| d.help("write `no refill` once"))?;
                    refill = false;
                }
                _ => fields.push(self.item(p)?),
            }
        }
        // `one per TYPE` makes the cards: nothing else may.
        if let Some((owner, at_one)) = one_per {
            if let Some(other) = suits_at
                .or(ranks_at)
                .or(copies_at)
                .map(|a: ((), Span)| a.1)
                .or(jokers.map(|j| j.2))
            {
                return Err(Diag::new("syntax::deck", "`one per` makes this deck's cards")
                    .label(at_one, "a card for each entity")
                    .label(other, "cards made again here")
                    .help("a deck of `one per TYPE` has no `suits`, `ranks`, `jokers` or `decks`: its cards are the entities' (ranked 1, 2, ... in the cast's order)"));
            }
            fields.push(Item::Stat {
                name: Spanned::new("holder".to_string(), owner.span),
                ty: Some(owner.clone()),
                decimals: 0,
                default: None,
            });
            stands_for = stands_for.or_else(|| Some(Spanned::new("holder".to_string(), owner.span)));
            let fields_at = vec![
                at("rank"),
                at("suit"),
                at("joker"),
                Spanned::new("holder".to_string(), owner.span),
            ];
            let cast = Some(Box::new(DeckCast::OnePer {
                owner,
                fields: fields_at,
            }));
            return Ok(vec![
                Item::Thing {
                    name: name.clone(),
                    plural,
                    stands_for,
                    fields,
                },
                Item::Deck {
                    name,
                    copies,
                    refill,
                    cast,
                },
            ]);
        }
        // Jokers rank above the highest rank: a deck has ranks, as the docs say.
        if ranks.is_empty() {
            return Err(Diag::new("syntax::deck", "this deck has no ranks")
                .label(name.span, "a deck without `ranks`")
                .help("give it at least one rank: `ranks 1 to 10` (jokers are ranked above the highest rank)"));
        }
        let cards = (ranks.len() * suits.len().max(1)).saturating_add(jokers.map_or(0, |j| j.0));
        let most = crate::limits::MAX_DECK_CARDS;
        if copies.len() > 1 && cards.saturating_mul(copies.len()) > most {
            return Err(
                Diag::new("syntax::deck", format!("{} decks of {cards} cards", copies.len()))
                    .label(span, "these decks")
                    .help(format!(
                        "the decks of one make hold at most {most} cards in all: give them fewer cards, or fewer decks"
                    )),
            );
        }
        if cards > most {
            return Err(Diag::new("syntax::deck", format!("a deck of {cards} cards"))
                .label(span, "this deck")
                .help(format!(
                    "a deck holds at most {most} cards: give it fewer ranks, suits or jokers"
                )));
        }
        let mut items = vec![Item::Thing {
            name: name.clone(),
            plural,
            stands_for,
            fields,
        }];
        for (k, s) in suits.iter().enumerate() {
            items.push(Item::Param {
                name: s.clone(),
                args: Vec::new(),
                value: int(k as i64 + 1),
            });
        }
        let card = |label: String, rank: i64, suit: i64, joker: bool| Item::Instance {
            ty: name.clone(),
            name: at(&label),
            fields: vec![
                (at("rank"), int(rank)),
                (at("suit"), int(suit)),
                (
                    at("joker"),
                    Expr {
                        node: ExprKind::Bool(joker),
                        span: name.span,
                    },
                ),
            ],
        };
        // Each deck of the make has every card, its name followed by `of DECK` (`Q hearts of gm`);
        // a deck without `decks` is the one deck of its make, its cards named plainly.
        let owners: Vec<Option<&Ident>> = if copies.is_empty() {
            vec![None]
        } else {
            copies.iter().map(Some).collect()
        };
        for owner in owners {
            let named = |label: String| match owner {
                Some(o) => format!("{label} of {}", o.node),
                None => label,
            };
            for (label, rank) in &ranks {
                if suits.is_empty() {
                    items.push(card(named(label.clone()), *rank, 0, false));
                }
                for (k, s) in suits.iter().enumerate() {
                    items.push(card(named(format!("{label} {}", s.node)), *rank, k as i64 + 1, false));
                }
            }
            if let Some((n, rank, _)) = jokers {
                let top = ranks.iter().map(|r| r.1).max().unwrap_or(0) + 1;
                for k in 1..=n {
                    let label = if n == 1 {
                        "joker".to_string()
                    } else {
                        format!("joker {k}")
                    };
                    items.push(card(named(label), rank.unwrap_or(top), 0, true));
                }
            }
        }
        if let Some(owner) = per {
            // Written out for each entity of `owner` once the cast is known (`cast_decks`).
            let at_suits = 1 + suits.len();
            let cards = items.split_off(at_suits);
            let cast = Some(Box::new(DeckCast::DeckPer { owner, cards }));
            items.push(Item::Deck {
                name,
                copies,
                refill,
                cast,
            });
            return Ok(items);
        }
        items.push(Item::Deck {
            name,
            copies,
            refill,
            cast: None,
        });
        Ok(items)
    }

    /// A deck in a statement: `NAME`, or `x.PLURAL` / `x.FIELD.PLURAL` / `(EXPR).PLURAL` (an
    /// entity's deck).
    pub(super) fn deck_ref(&self, pair: Pair) -> R<DeckRef> {
        let span = self.span(&pair);
        let inner = last_inner(pair, span)?;
        if inner.as_rule() != Rule::deck_owned {
            return Ok(DeckRef {
                owner: None,
                name: self.ident(inner),
            });
        }
        let mut it = parts(inner);
        let first = next(&mut it, span)?;
        let fspan = self.span(&first);
        let mut owner = match first.as_rule() {
            Rule::target_paren => self.expr(last_inner(first, fspan)?)?,
            _ => Spanned::new(ExprKind::Name(first.as_str().to_string()), fspan),
        };
        // `d.holder.abilities`: every name but the last is a field read on the way.
        let mut names: Vec<Pair> = it.collect();
        let name = self.ident(next(&mut names.pop().into_iter(), span)?);
        let names: Vec<Ident> = names.into_iter().map(|p| self.ident(p)).collect();
        for f in names {
            let fspan = Span {
                file: owner.span.file,
                start: owner.span.start,
                end: f.span.end,
            };
            owner = Spanned::new(ExprKind::Field(Box::new(owner), f), fspan);
        }
        Ok(DeckRef {
            owner: Some(Box::new(owner)),
            name,
        })
    }
}
