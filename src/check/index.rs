//! An index of the names a file declares, with their spans: what an editor needs for go to
//! definition, hover, the outline and completion. Built from the AST alone, so it is there for a
//! file that parses even when it does not check.

use crate::syntax::ast::*;

/// What a declared name is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SymbolKind {
    Ruleset,
    Encounter,
    Param,
    Stat,
    Resource,
    Flag,
    Global,
    Effect,
    Side,
    Tag,
    Action,
    Kind,
    Order,
    Policy,
    Routine,
    Trigger,
    Unit,
    Role,
    Thing,
    /// A thing's collection (`thing die, dice`: `dice`).
    Collection,
    Character,
    /// An entity of a declared thing type (`player Ann { ... }`).
    Entity,
    Measure,
    Level,
    Phase,
    Round,
    Decision,
    /// `attempt NAME ...`: an attempt that can be carried out.
    Attempt,
}

impl SymbolKind {
    /// The word a reader knows it by.
    pub fn word(self) -> &'static str {
        match self {
            SymbolKind::Ruleset => "ruleset",
            SymbolKind::Encounter => "encounter",
            SymbolKind::Param => "param",
            SymbolKind::Stat => "stat",
            SymbolKind::Resource => "resource",
            SymbolKind::Flag => "flag",
            SymbolKind::Global => "global",
            SymbolKind::Effect => "effect",
            SymbolKind::Side => "side",
            SymbolKind::Tag => "tag",
            SymbolKind::Action => "action",
            SymbolKind::Kind => "kind of action",
            SymbolKind::Order => "order",
            SymbolKind::Policy => "policy",
            SymbolKind::Routine => "routine",
            SymbolKind::Trigger => "trigger",
            SymbolKind::Unit => "unit",
            SymbolKind::Role => "role",
            SymbolKind::Thing => "thing",
            SymbolKind::Collection => "collection",
            SymbolKind::Character => "character",
            SymbolKind::Entity => "entity",
            SymbolKind::Measure => "measure",
            SymbolKind::Level => "level",
            SymbolKind::Phase => "phase",
            SymbolKind::Round => "round",
            SymbolKind::Decision => "decision",
            SymbolKind::Attempt => "attempt",
        }
    }

    /// Whether it is read after a dot (`c.ap`): a field of an entity.
    pub fn is_field(self) -> bool {
        matches!(
            self,
            SymbolKind::Stat | SymbolKind::Resource | SymbolKind::Flag | SymbolKind::Effect
        )
    }
}

/// One declared name.
#[derive(Clone, Debug, PartialEq)]
pub struct Symbol {
    pub name: String,
    pub kind: SymbolKind,
    /// The span of the name where it is declared.
    pub span: Span,
    /// What more a reader wants to know: `of player`, `: faction`, `(c: character)`.
    pub detail: String,
    /// The declarations inside it (a thing's fields, a level's inner levels).
    pub children: Vec<Symbol>,
    /// For a field of a thing, and for a thing's collection: the thing (`None`: a character's).
    pub owner: Option<String>,
}

impl Symbol {
    fn new(name: &Ident, kind: SymbolKind, detail: impl Into<String>) -> Self {
        Symbol {
            name: name.node.clone(),
            kind,
            span: name.span,
            detail: detail.into(),
            children: Vec::new(),
            owner: None,
        }
    }

    fn owned_by(mut self, owner: Option<&str>) -> Self {
        self.owner = owner.map(str::to_string);
        self
    }

    /// This symbol and every symbol inside it, depth first.
    pub fn flatten(&self) -> Vec<&Symbol> {
        let mut out = vec![self];
        for c in &self.children {
            out.extend(c.flatten());
        }
        out
    }
}

fn typed_list(params: &[Typed]) -> String {
    let parts: Vec<String> = params
        .iter()
        .map(|p| match &p.ty {
            Some(t) => format!("{}: {}", p.name.node, t.node),
            None => p.name.node.clone(),
        })
        .collect();
    format!("({})", parts.join(", "))
}

/// The names a file declares, in the order written, each with those declared inside it.
pub fn symbols(file: &File) -> Vec<Symbol> {
    let mut out = Vec::new();
    for item in &file.items {
        item_symbols(item, None, &mut out);
    }
    out
}

/// Every symbol of `files`, flattened.
pub fn all_symbols(files: &[Vec<Symbol>]) -> Vec<&Symbol> {
    files.iter().flatten().flat_map(Symbol::flatten).collect()
}

fn field_detail(owner: Option<&str>, ty: Option<&Ident>) -> String {
    let mut d = match ty {
        Some(t) => format!(": {}", t.node),
        None => String::new(),
    };
    if let Some(o) = owner {
        d.push_str(&format!(" (of {o})"));
    }
    d.trim_start().to_string()
}

fn item_symbols(item: &Item, owner: Option<&str>, out: &mut Vec<Symbol>) {
    let many = |names: &[Ident], kind: SymbolKind, out: &mut Vec<Symbol>| {
        out.extend(names.iter().map(|n| Symbol::new(n, kind, "")));
    };
    match item {
        Item::Ruleset(n) => out.push(Symbol::new(n, SymbolKind::Ruleset, "")),
        Item::Encounter { name, uses } => {
            let detail = uses
                .as_ref()
                .map(|u| format!("uses \"{}\"", u.node))
                .unwrap_or_default();
            out.push(Symbol::new(name, SymbolKind::Encounter, detail));
        }
        Item::Param { name, args, .. } => {
            let detail = if args.is_empty() {
                String::new()
            } else {
                let parts: Vec<String> = args
                    .iter()
                    .map(|(a, t)| match t {
                        Some(t) => format!("{}: {}", a.node, t.node),
                        None => a.node.clone(),
                    })
                    .collect();
                format!("({})", parts.join(", "))
            };
            out.push(Symbol::new(name, SymbolKind::Param, detail));
        }
        Item::Stat { name, ty, .. } => {
            out.push(Symbol::new(name, SymbolKind::Stat, field_detail(owner, ty.as_ref())).owned_by(owner));
        }
        Item::Resource { name, .. } => {
            out.push(Symbol::new(name, SymbolKind::Resource, field_detail(owner, None)).owned_by(owner));
        }
        Item::Flag { name, per, .. } => {
            let mut d = field_detail(owner, None);
            if !per.is_empty() {
                let names: Vec<&str> = per
                    .iter()
                    .map(|p| match p {
                        Per::Level(l) => l.node.as_str(),
                        Per::AnyTurn(_) => "any turn",
                    })
                    .collect();
                d = format!("per {} {d}", names.join(", ")).trim_end().to_string();
            }
            out.push(Symbol::new(name, SymbolKind::Flag, d).owned_by(owner));
        }
        Item::Global { name, ty, .. } => {
            out.push(Symbol::new(name, SymbolKind::Global, field_detail(None, ty.as_ref())))
        }
        Item::Effect(names) => many(names, SymbolKind::Effect, out),
        Item::Side(names, fields) => {
            many(names, SymbolKind::Side, out);
            for f in fields {
                item_symbols(f, Some("side"), out);
            }
        }
        Item::Tag(names) => many(names, SymbolKind::Tag, out),
        Item::Kind(names) => many(names, SymbolKind::Kind, out),
        Item::Role(names) => many(names, SymbolKind::Role, out),
        Item::Action(a) => {
            let kinds: Vec<&str> = a.kinds.iter().map(|k| k.node.as_str()).collect();
            let mut d = format!("({})", a.actor.node);
            if !kinds.is_empty() {
                d.push_str(&format!(" kind {}", kinds.join(", ")));
            }
            let mut s = Symbol::new(&a.name, SymbolKind::Action, d);
            block_symbols(&a.body, &mut s.children);
            out.push(s);
        }
        Item::Order(o) => {
            let d = match &o.ty {
                Some(t) => format!("({}: {})", o.var.node, t.node),
                None => format!("({})", o.var.node),
            };
            out.push(Symbol::new(&o.name, SymbolKind::Order, d));
        }
        Item::Policy { name, .. } => out.push(Symbol::new(name, SymbolKind::Policy, "")),
        Item::Routine {
            name,
            params,
            gives,
            body,
        } => {
            let mut d = typed_list(params);
            if let Some(t) = gives {
                d.push_str(&format!(" gives {}", t.node));
            }
            let mut s = Symbol::new(name, SymbolKind::Routine, d);
            block_symbols(body, &mut s.children);
            out.push(s);
        }
        Item::Trigger { name, params } => out.push(Symbol::new(name, SymbolKind::Trigger, typed_list(params))),
        Item::Unit { name, of } => {
            let d = of
                .as_ref()
                .map(|(n, u)| format!("= {n} {}", u.node))
                .unwrap_or_default();
            out.push(Symbol::new(name, SymbolKind::Unit, d));
        }
        Item::Thing {
            name, plural, fields, ..
        } => {
            let mut s = Symbol::new(name, SymbolKind::Thing, format!(", {}", plural.node));
            let every = Symbol::new(plural, SymbolKind::Collection, format!("every {}", name.node));
            s.children.push(every.owned_by(Some(&name.node)));
            for f in fields {
                item_symbols(f, Some(&name.node), &mut s.children);
            }
            out.push(s);
        }
        Item::Instance { ty, name, .. } => out.push(Symbol::new(name, SymbolKind::Entity, ty.node.clone())),
        Item::Character(c) => {
            let side = c.sides.first().map(|s| format!("side {}", s.node));
            let group = c
                .group
                .as_ref()
                .map(|n| format!("a group of {}: {} 1 to {} {}", n.node, c.name.node, c.name.node, n.node));
            let d = [group, side].into_iter().flatten().collect::<Vec<_>>().join(", ");
            out.push(Symbol::new(&c.name, SymbolKind::Character, d));
        }
        Item::Measure(m) => out.push(Symbol::new(&m.name, SymbolKind::Measure, "")),
        Item::Setup(b) | Item::Play(b) => block_symbols(b, out),
        Item::Hook(h) => block_symbols(&h.body, out),
        Item::Attempt(a) => {
            let who = a.who.as_ref().map(|w| format!("({})", w.node)).unwrap_or_default();
            let mut s = Symbol::new(&a.name, SymbolKind::Attempt, who);
            block_symbols(&a.body, &mut s.children);
            out.push(s);
        }
        // A deck is written out by the parser as its thing and its cards; the rest declare no
        // name (`default policy`, `forbid`).
        _ => {}
    }
}

/// The levels and decisions declared in a block, levels holding what is inside them.
fn block_symbols(b: &Block, out: &mut Vec<Symbol>) {
    for s in &b.stmts {
        match s {
            Stmt::Level { kind, name, body, .. } => {
                let k = match kind {
                    LevelKind::Level => SymbolKind::Level,
                    LevelKind::Phase => SymbolKind::Phase,
                    LevelKind::Round => SymbolKind::Round,
                };
                let mut sym = Symbol::new(name, k, "");
                block_symbols(body, &mut sym.children);
                out.push(sym);
            }
            Stmt::Turn { body, .. } | Stmt::Repeat { body, .. } | Stmt::React { body, .. } => block_symbols(body, out),
            Stmt::Moment { body, .. } => block_symbols(body, out),
            Stmt::ForEach(f) => block_symbols(&f.body, out),
            Stmt::Count(c) => block_symbols(&c.body, out),
            Stmt::ChooseFrom(c) => {
                let ChooseFrom {
                    name, body, decline, ..
                } = &**c;
                out.push(Symbol::new(name, SymbolKind::Decision, "(a choice of one)"));
                block_symbols(body, out);
                if let Some(d) = decline.as_deref() {
                    block_symbols(&d.block, out);
                }
            }
            Stmt::If { then, otherwise, .. } => {
                block_symbols(then, out);
                if let Some(o) = otherwise {
                    block_symbols(o, out);
                }
            }
            Stmt::Choose { name, options, .. } => {
                let names: Vec<&str> = options
                    .iter()
                    .map(|o| o.name.as_ref().map_or("action", |n| n.node.as_str()))
                    .collect();
                out.push(Symbol::new(
                    name,
                    SymbolKind::Decision,
                    format!("{{ {} }}", names.join(" | ")),
                ));
                for o in options {
                    block_symbols(&o.body, out);
                }
            }
            _ => {}
        }
    }
}
