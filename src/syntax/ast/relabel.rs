//! A parsed [`File`] moved to another file id: every [`Span`] in the tree (and so every
//! [`Spanned`]) names the new file; nothing else changes. `check R E` parses an encounter once,
//! alone (file 0), and hands that parse to each pair it is checked in (where it is file 1).
//!
//! Each type's impl takes its node apart in full, with no `..` and no wildcard arm: a field or a
//! variant added later does not compile until it is handled here. Types that hold no span are
//! taken apart too (a span added to one later is then not missed).

use super::*;

mod code;

/// Moves every span of a node to file `to`, in place.
pub trait Relabel {
    fn relabel(&mut self, to: FileId);
}

/// `node`, moved to file `to`.
pub fn relabelled<T: Relabel>(mut node: T, to: FileId) -> T {
    node.relabel(to);
    node
}

impl Relabel for Span {
    fn relabel(&mut self, to: FileId) {
        let Span { file, start: _, end: _ } = self;
        *file = to;
    }
}

impl<T: Relabel> Relabel for Spanned<T> {
    fn relabel(&mut self, to: FileId) {
        let Spanned { node, span } = self;
        node.relabel(to);
        span.relabel(to);
    }
}

impl<T: Relabel> Relabel for Option<T> {
    fn relabel(&mut self, to: FileId) {
        if let Some(x) = self {
            x.relabel(to);
        }
    }
}

impl<T: Relabel> Relabel for Vec<T> {
    fn relabel(&mut self, to: FileId) {
        for x in self {
            x.relabel(to);
        }
    }
}

impl<T: Relabel + ?Sized> Relabel for Box<T> {
    fn relabel(&mut self, to: FileId) {
        (**self).relabel(to);
    }
}

impl<A: Relabel, B: Relabel> Relabel for (A, B) {
    fn relabel(&mut self, to: FileId) {
        let (a, b) = self;
        a.relabel(to);
        b.relabel(to);
    }
}

impl<A: Relabel, B: Relabel, C: Relabel> Relabel for (A, B, C) {
    fn relabel(&mut self, to: FileId) {
        let (a, b, c) = self;
        a.relabel(to);
        b.relabel(to);
        c.relabel(to);
    }
}

/// Values that hold no span.
macro_rules! no_span {
    ($($t:ty),*) => {
        $(impl Relabel for $t {
            fn relabel(&mut self, _: FileId) {}
        })*
    };
}
no_span!(String, i64, u32, u8, bool);

/// Enums whose variants hold nothing: each variant named, so one that comes to hold a span is
/// not missed.
macro_rules! unit_enum {
    ($t:ident: $($v:ident),*) => {
        impl Relabel for $t {
            fn relabel(&mut self, _: FileId) {
                match self {
                    $($t::$v)|* => {}
                }
            }
        }
    };
}
unit_enum!(PrefCond: When, Where);
unit_enum!(LevelKind: Level, Phase, Round);
unit_enum!(Presence: InPlay, OutOfPlay, Both);
unit_enum!(UnOp: Neg, Not);
unit_enum!(BinOp: Or, And, Eq, Ne, Lt, Le, Gt, Ge, Add, Sub, Mul, Div);
unit_enum!(Quant: Any, All, Count, Sum, Max, Min, First, Last);
unit_enum!(Keep: Highest, Lowest);

impl Relabel for File {
    fn relabel(&mut self, to: FileId) {
        let File { items } = self;
        items.relabel(to);
    }
}

impl Relabel for Item {
    fn relabel(&mut self, to: FileId) {
        match self {
            Item::Ruleset(name) => name.relabel(to),
            Item::Encounter { name, uses } => {
                name.relabel(to);
                uses.relabel(to);
            }
            Item::Param { name, args, value } => {
                name.relabel(to);
                args.relabel(to);
                value.relabel(to);
            }
            Item::Stat {
                name,
                ty,
                decimals,
                default,
            } => {
                name.relabel(to);
                ty.relabel(to);
                decimals.relabel(to);
                default.relabel(to);
            }
            Item::Resource {
                name,
                owner,
                decimals,
                min,
                max,
                default,
            } => {
                name.relabel(to);
                owner.relabel(to);
                decimals.relabel(to);
                min.relabel(to);
                max.relabel(to);
                default.relabel(to);
            }
            Item::Flag { name, default, per } => {
                name.relabel(to);
                default.relabel(to);
                per.relabel(to);
            }
            Item::Side(names, fields) => {
                names.relabel(to);
                fields.relabel(to);
            }
            Item::Tag(names) | Item::Role(names) | Item::Kind(names) | Item::Effect(names) => names.relabel(to),
            Item::Action(a) => a.relabel(to),
            Item::Order(o) => o.relabel(to),
            Item::Policy { name, prefs } => {
                name.relabel(to);
                prefs.relabel(to);
            }
            Item::DefaultPolicy(name) => name.relabel(to),
            Item::Setup(b) | Item::Play(b) => b.relabel(to),
            Item::Character(c) => c.relabel(to),
            Item::Unit { name, of } => {
                name.relabel(to);
                of.relabel(to);
            }
            Item::Trigger { name, params } => {
                name.relabel(to);
                params.relabel(to);
            }
            Item::Hook(h) => h.relabel(to),
            Item::Deck {
                name,
                copies,
                refill,
                cast,
            } => {
                name.relabel(to);
                copies.relabel(to);
                refill.relabel(to);
                cast.relabel(to);
            }
            Item::Forbid { name, who, rule } => {
                name.relabel(to);
                who.relabel(to);
                rule.relabel(to);
            }
            Item::Measure(m) => m.relabel(to),
            Item::Attempt(a) => a.relabel(to),
            Item::Routine {
                name,
                params,
                gives,
                body,
            } => {
                name.relabel(to);
                params.relabel(to);
                gives.relabel(to);
                body.relabel(to);
            }
            Item::Global {
                name,
                ty,
                decimals,
                default,
                min,
                max,
            } => {
                name.relabel(to);
                ty.relabel(to);
                decimals.relabel(to);
                default.relabel(to);
                min.relabel(to);
                max.relabel(to);
            }
            Item::Thing {
                name,
                plural,
                stands_for,
                fields,
            } => {
                name.relabel(to);
                plural.relabel(to);
                stands_for.relabel(to);
                fields.relabel(to);
            }
            Item::Instance { ty, name, fields } => {
                ty.relabel(to);
                name.relabel(to);
                fields.relabel(to);
            }
        }
    }
}

impl Relabel for Pref {
    fn relabel(&mut self, to: FileId) {
        let Pref { name, cond } = self;
        name.relabel(to);
        cond.relabel(to);
    }
}

impl Relabel for Typed {
    fn relabel(&mut self, to: FileId) {
        let Typed { name, ty } = self;
        name.relabel(to);
        ty.relabel(to);
    }
}

impl Relabel for HookOn {
    fn relabel(&mut self, to: FileId) {
        match self {
            HookOn::TurnStart
            | HookOn::TurnEnd
            | HookOn::TurnAfter
            | HookOn::TurnBefore
            | HookOn::EncounterStart
            | HookOn::EncounterEnd
            | HookOn::Join
            | HookOn::Leave => {}
            HookOn::ActionBefore(sel) | HookOn::ActionAfter(sel) => sel.relabel(to),
            HookOn::EffectStart(name)
            | HookOn::EffectEnd(name)
            | HookOn::LevelStart(name)
            | HookOn::LevelEnd(name)
            | HookOn::Trigger(name) => name.relabel(to),
        }
    }
}

impl Relabel for Ready {
    fn relabel(&mut self, to: FileId) {
        let Ready {
            owner,
            on,
            vars,
            filter,
            until,
            body,
            span,
        } = self;
        owner.relabel(to);
        on.relabel(to);
        vars.relabel(to);
        filter.relabel(to);
        until.relabel(to);
        body.relabel(to);
        span.relabel(to);
    }
}

impl Relabel for ActionSel {
    fn relabel(&mut self, to: FileId) {
        match self {
            ActionSel::Any => {}
            ActionSel::Named(name) => name.relabel(to),
            ActionSel::Kinds(kinds) => kinds.relabel(to),
        }
    }
}

impl Relabel for HookDecl {
    fn relabel(&mut self, to: FileId) {
        let HookDecl {
            on,
            vars,
            turn_ty,
            filter,
            body,
            span,
        } = self;
        on.relabel(to);
        vars.relabel(to);
        turn_ty.relabel(to);
        filter.relabel(to);
        body.relabel(to);
        span.relabel(to);
    }
}

impl Relabel for AttemptDecl {
    fn relabel(&mut self, to: FileId) {
        let AttemptDecl {
            name,
            who,
            at,
            when,
            body,
            span,
        } = self;
        name.relabel(to);
        who.relabel(to);
        at.relabel(to);
        when.relabel(to);
        body.relabel(to);
        span.relabel(to);
    }
}

impl Relabel for Moment {
    fn relabel(&mut self, to: FileId) {
        match self {
            Moment::BeforeTurn(x) | Moment::AfterTurn(x) => x.relabel(to),
            Moment::LevelStart(level) | Moment::LevelEnd(level) => level.relabel(to),
            Moment::Decision(name, x) => {
                name.relabel(to);
                x.relabel(to);
            }
        }
    }
}

impl Relabel for MeasureDecl {
    fn relabel(&mut self, to: FileId) {
        let MeasureDecl {
            name,
            value,
            each,
            each_presence,
            at,
            vars,
            turn_ty,
            span,
        } = self;
        name.relabel(to);
        value.relabel(to);
        each.relabel(to);
        each_presence.relabel(to);
        at.relabel(to);
        vars.relabel(to);
        turn_ty.relabel(to);
        span.relabel(to);
    }
}

impl Relabel for Decline {
    fn relabel(&mut self, to: FileId) {
        let Decline {
            option,
            refusals,
            block,
        } = self;
        option.relabel(to);
        refusals.relabel(to);
        block.relabel(to);
    }
}

impl Relabel for Refusal {
    fn relabel(&mut self, to: FileId) {
        let Refusal { cond, message, span } = self;
        cond.relabel(to);
        message.relabel(to);
        span.relabel(to);
    }
}

impl Relabel for Part {
    fn relabel(&mut self, to: FileId) {
        match self {
            Part::Text(text) => text.relabel(to),
            Part::Name(e) => e.relabel(to),
        }
    }
}

impl Relabel for CountAt {
    fn relabel(&mut self, to: FileId) {
        match self {
            CountAt::Place(e, order) => {
                e.relabel(to);
                order.relabel(to);
            }
            CountAt::TurnStart(e) | CountAt::TurnEnd(e) => e.relabel(to),
            CountAt::LevelStart(level) | CountAt::LevelEnd(level) => level.relabel(to),
        }
    }
}

impl Relabel for Lasting {
    fn relabel(&mut self, to: FileId) {
        match self {
            Lasting::For(e) => e.relabel(to),
            Lasting::Until { next, span } => {
                next.relabel(to);
                span.relabel(to);
            }
        }
    }
}

impl Relabel for Per {
    fn relabel(&mut self, to: FileId) {
        match self {
            Per::Level(level) => level.relabel(to),
            Per::AnyTurn(span) => span.relabel(to),
        }
    }
}

impl Relabel for PlaceTo {
    fn relabel(&mut self, to: FileId) {
        match self {
            PlaceTo::First | PlaceTo::Last => {}
            PlaceTo::Before(e) | PlaceTo::After(e) | PlaceTo::Swap(e) => e.relabel(to),
        }
    }
}

impl Relabel for Collection {
    fn relabel(&mut self, to: FileId) {
        match self {
            Collection::Characters => {}
            Collection::Ranked(order) => order.relabel(to),
            Collection::Pile(deck, discard) => {
                deck.relabel(to);
                discard.relabel(to);
            }
        }
    }
}

impl Relabel for ActionDecl {
    fn relabel(&mut self, to: FileId) {
        let ActionDecl {
            name,
            actor,
            kinds,
            costs,
            when,
            body,
        } = self;
        name.relabel(to);
        actor.relabel(to);
        kinds.relabel(to);
        costs.relabel(to);
        when.relabel(to);
        body.relabel(to);
    }
}

impl Relabel for Cost {
    fn relabel(&mut self, to: FileId) {
        let Cost { amount, resource } = self;
        amount.relabel(to);
        resource.relabel(to);
    }
}

impl Relabel for OrderDecl {
    fn relabel(&mut self, to: FileId) {
        let OrderDecl { name, var, ty, keys } = self;
        name.relabel(to);
        var.relabel(to);
        ty.relabel(to);
        keys.relabel(to);
    }
}

impl Relabel for OrderKey {
    fn relabel(&mut self, to: FileId) {
        let OrderKey {
            value,
            roll,
            descending,
            until_settled,
            at_most,
            when,
            chosen,
            span,
        } = self;
        value.relabel(to);
        roll.relabel(to);
        descending.relabel(to);
        until_settled.relabel(to);
        at_most.relabel(to);
        when.relabel(to);
        chosen.relabel(to);
        span.relabel(to);
    }
}

impl Relabel for CharacterDecl {
    fn relabel(&mut self, to: FileId) {
        let CharacterDecl {
            name,
            group,
            sides,
            tags,
            fields,
            absent,
        } = self;
        name.relabel(to);
        group.relabel(to);
        sides.relabel(to);
        tags.relabel(to);
        fields.relabel(to);
        absent.relabel(to);
    }
}

impl Relabel for Block {
    fn relabel(&mut self, to: FileId) {
        let Block { stmts, span } = self;
        stmts.relabel(to);
        span.relabel(to);
    }
}

impl Relabel for Counting {
    fn relabel(&mut self, to: FileId) {
        let Counting {
            from,
            down,
            to: last,
            within,
        } = self;
        from.relabel(to);
        down.relabel(to);
        last.relabel(to);
        within.relabel(to);
    }
}

impl Relabel for Loop {
    fn relabel(&mut self, to: FileId) {
        match self {
            Loop::Once | Loop::Forever => {}
            Loop::While(cond) | Loop::Until(cond) => cond.relabel(to),
        }
    }
}

impl Relabel for ForEach {
    fn relabel(&mut self, to: FileId) {
        let ForEach {
            together,
            anew,
            ties,
            again,
            var,
            coll,
            presence,
            backwards,
            from,
            filter,
            order,
            body,
            span,
        } = self;
        together.relabel(to);
        anew.relabel(to);
        ties.relabel(to);
        again.relabel(to);
        var.relabel(to);
        coll.relabel(to);
        presence.relabel(to);
        backwards.relabel(to);
        from.relabel(to);
        filter.relabel(to);
        order.relabel(to);
        body.relabel(to);
        span.relabel(to);
    }
}

impl Relabel for ChooseFrom {
    fn relabel(&mut self, to: FileId) {
        let ChooseFrom {
            secret,
            held,
            bind,
            name,
            chooser,
            var,
            coll,
            presence,
            filter,
            order,
            body,
            decline,
            refusals,
            span,
        } = self;
        secret.relabel(to);
        held.relabel(to);
        bind.relabel(to);
        name.relabel(to);
        chooser.relabel(to);
        var.relabel(to);
        coll.relabel(to);
        presence.relabel(to);
        filter.relabel(to);
        order.relabel(to);
        body.relabel(to);
        decline.relabel(to);
        refusals.relabel(to);
        span.relabel(to);
    }
}

impl Relabel for Transfer {
    fn relabel(&mut self, to: FileId) {
        let Transfer {
            amount,
            from,
            to: into,
            span,
        } = self;
        amount.relabel(to);
        from.relabel(to);
        into.relabel(to);
        span.relabel(to);
    }
}

impl Relabel for Deferred {
    fn relabel(&mut self, to: FileId) {
        let Deferred { stmt, level, at, span } = self;
        stmt.relabel(to);
        level.relabel(to);
        at.relabel(to);
        span.relabel(to);
    }
}

impl Relabel for OptionDecl {
    fn relabel(&mut self, to: FileId) {
        let OptionDecl {
            name,
            kinds,
            using,
            when,
            refusals,
            body,
            span,
        } = self;
        name.relabel(to);
        kinds.relabel(to);
        using.relabel(to);
        when.relabel(to);
        refusals.relabel(to);
        body.relabel(to);
        span.relabel(to);
    }
}

impl Relabel for Target {
    fn relabel(&mut self, to: FileId) {
        let Target { var, base, field, span } = self;
        var.relabel(to);
        base.relabel(to);
        field.relabel(to);
        span.relabel(to);
    }
}

impl Relabel for CountLoop {
    fn relabel(&mut self, to: FileId) {
        let CountLoop {
            var,
            from,
            to: last,
            down,
            body,
            span,
        } = self;
        var.relabel(to);
        from.relabel(to);
        last.relabel(to);
        down.relabel(to);
        body.relabel(to);
        span.relabel(to);
    }
}

impl Relabel for DeckCast {
    fn relabel(&mut self, to: FileId) {
        match self {
            DeckCast::DeckPer { owner, cards } => {
                owner.relabel(to);
                cards.relabel(to);
            }
            DeckCast::OnePer { owner, fields } => {
                owner.relabel(to);
                fields.relabel(to);
            }
            DeckCast::Dealt { owner } => owner.relabel(to),
        }
    }
}

impl Relabel for DeckRef {
    fn relabel(&mut self, to: FileId) {
        let DeckRef { owner, name } = self;
        owner.relabel(to);
        name.relabel(to);
    }
}

impl Relabel for CardOp {
    fn relabel(&mut self, to: FileId) {
        match self {
            CardOp::Shuffle(deck) => deck.relabel(to),
            CardOp::Draw { deck, by, bind } => {
                deck.relabel(to);
                by.relabel(to);
                bind.relabel(to);
            }
            CardOp::Discard(card) => card.relabel(to),
            CardOp::Return(card, deck) | CardOp::Take(card, deck) | CardOp::ShuffleIn(card, deck) => {
                card.relabel(to);
                deck.relabel(to);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::syntax::parse;
    use crate::syntax::parser::corpus;

    /// Every text the parser's tests read (the project's files, and each cut short, with a byte
    /// and a word taken out) that parses: its parse as file 0, moved to file 1, is its parse as
    /// file 1, and no span of it names file 0. A span the visitor missed still names file 0.
    #[test]
    fn a_parse_moved_to_another_file_is_the_parse_as_that_file() {
        let mut texts = corpus::broken(corpus::files(&["rulesets", "tests"], true), 499);
        texts.extend(corpus::broken(corpus::files(&["rulesets"], false), 307));
        texts.sort_unstable();
        texts.dedup();
        let mut parsed = 0;
        for text in &texts {
            let Ok(first) = parse(text, 0) else {
                continue;
            };
            let second = parse(text, 1).expect("it parsed as file 0");
            let moved = format!("{:?}", super::relabelled(first, 1));
            assert!(!moved.contains("file: 0"), "a span left in file 0, for:\n{text}");
            assert_eq!(moved, format!("{second:?}"), "for:\n{text}");
            parsed += 1;
        }
        assert!(parsed > 1000, "{parsed} of {} texts parsed", texts.len());
    }
}
