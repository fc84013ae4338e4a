//! The symbol table ([`Decls`]): every declared name of a run by kind, and the queries on it.

use std::collections::HashMap;

use super::Ty;
use crate::diag::Diag;
use crate::syntax::ast::*;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FieldKind {
    Stat,
    Resource,
    Flag,
    /// A number of the table (`global`), not of a character.
    Global,
    /// An effect: true on a character while an instance is active.
    Effect,
}

impl FieldKind {
    /// The noun with its article: "a stat", "an effect".
    pub fn a(self) -> String {
        match self {
            FieldKind::Effect => "an effect".into(),
            k => format!("a {}", k.noun()),
        }
    }

    pub fn noun(self) -> &'static str {
        match self {
            FieldKind::Stat => "stat",
            FieldKind::Resource => "resource",
            FieldKind::Flag => "flag",
            FieldKind::Global => "global",
            FieldKind::Effect => "effect",
        }
    }
}

/// What a declared name is, with its index among its kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Sym {
    Param(u16),
    Field(u16, FieldKind),
    Side(u16),
    Tag(u16),
    Action(u16),
    Order(u16),
    Role(u16),
    Trigger(u16),
    Unit(u16),
    Routine(u16),
    /// A type of entity: `character` (0) or a declared `thing`.
    Thing(u16),
    /// The collection of every entity of a type in play (`characters`, a thing's plural).
    Plural(u16),
    /// A `measure`: recorded for the simulator, never read by the rules.
    Measure(u16),
}

/// The type of characters; declared things follow it.
pub const CHARACTER: u16 = 0;

/// The owner of sides' fields (`side NAME, ... { FIELDS }`), and what a `: side` field holds.
pub const SIDE: u16 = u16::MAX - 1;
/// What a `: role` field holds.
pub const ROLE: u16 = u16::MAX - 2;

/// Every declared name of a run, by kind, in declaration order.
#[derive(Debug, Default)]
pub struct Decls<'f> {
    pub ruleset_name: Option<String>,
    pub encounter_name: Option<String>,
    globals: HashMap<String, (Sym, Span)>,
    pub params: Vec<String>,
    /// Every policy's preferences, in declaration order (its index is its id): conditions are
    /// checked, and compiled, at each `choose` of the decision they are for (borrowed from the
    /// files checked, never copied).
    pub policy_prefs: Vec<&'f [(Ident, Vec<Pref>)]>,
    /// Entities declared with an unknown type (reported once): whatever they are used as is
    /// not reported again.
    pub untyped: std::collections::HashSet<String>,
    /// Names declared twice: errors that a name is unknown are its echoes, and are not reported.
    pub duplicates: std::collections::HashSet<String>,
    /// The `measure`s, in declaration order.
    pub measures: Vec<String>,
    /// The expression in force for each param: the last file that sets it wins (borrowed from
    /// the files checked, never copied).
    pub param_exprs: Vec<&'f Expr>,
    /// The arguments of each param (empty for a plain param): name, and its entity type
    /// (`None`: a number).
    pub param_args: Vec<Vec<(String, Option<u16>)>>,
    /// The type of each param's arguments (`n: number`, `t: truth`, `s: side`, ...; untyped: a
    /// number), parallel to `param_args`.
    pub param_arg_tys: Vec<Vec<Ty>>,
    /// Whether each param may roll dice (through its body or the params it uses).
    pub param_rolls: Vec<bool>,
    pub fields: Vec<(String, FieldKind)>,
    /// For each field: the type of entity it belongs to ([`CHARACTER`] for globals and effects too).
    pub field_owner: Vec<u16>,
    /// For each field: the type of entity it holds (`stat NAME: TYPE`), if any.
    pub field_refers: Vec<Option<u16>>,
    /// How many decimals each field keeps (`decimals N`; 0: whole numbers).
    pub field_scale: Vec<u8>,
    /// Whether each field holds a truth value (`global NAME: truth`): a global, never one
    /// holding an entity (`field_refers` is `None`).
    pub field_truth: Vec<bool>,
    /// The types of entity: name and plural, `character` first.
    pub things: Vec<(String, String)>,
    /// The things that are decks of cards (`deck NAME, PLURAL { ... }`).
    pub decks: Vec<u16>,
    /// Each deck's name, refill and cards (parallel to `decks`).
    pub deck_defs: Vec<super::DeckDef>,
    /// The makes with `decks per TYPE`: the make's type and the owners' type.
    pub deck_owners: Vec<(u16, u16)>,
    /// The fields of each declared thing by name, a separate namespace per thing: sides' fields
    /// first, then each thing's by its type (see [`Decls::thing_fields`]).
    thing_fields: Vec<HashMap<String, u16>>,
    /// Each order's type of entity.
    pub order_types: Vec<u16>,
    /// Orders with a key that rolls dice, with the key's span.
    pub order_rolls: HashMap<String, Span>,
    /// The orders whose first key is a roll-off or `chosen by` (where it is written): no value
    /// key ties their members for `ties together`.
    pub order_tiebreak_first: HashMap<String, Span>,
    /// Each order's own variable (`order NAME(c)`), by order id.
    pub order_vars: Vec<String>,
    /// Each declared entity's type, in declaration order (parallel to `character_names`).
    pub entity_types: Vec<u16>,
    pub sides: Vec<String>,
    pub tags: Vec<String>,
    pub actions: Vec<String>,
    /// Each action's kinds (parallel to `actions`).
    pub action_kinds: Vec<Vec<u16>>,
    pub orders: Vec<String>,
    pub policies: HashMap<String, Span>,
    /// Level names in the order they first appear in `setup` and `play`, with their kind.
    pub levels: Vec<(String, LevelKind)>,
    pub level_names: HashMap<String, u16>,
    pub decisions: Vec<String>,
    pub decision_names: HashMap<String, u16>,
    pub options: Vec<String>,
    pub option_names: HashMap<String, u16>,
    /// The attempts an `attempt` declares, with where.
    pub attempts: HashMap<String, Span>,
    /// Stats that every character must give, with the span of their declaration.
    pub stats_without_default: Vec<(String, Span)>,
    pub roles: Vec<String>,
    /// Each trigger's name and the types of its arguments.
    pub triggers: Vec<(String, Vec<Ty>)>,
    /// Units of the game clock: name and size in the base unit.
    pub units: Vec<(String, i64)>,
    /// Kinds of action (`kind K`), in the order they first appear.
    pub kinds: Vec<String>,
    /// Each routine's name and the types of its parameters.
    pub routines: Vec<(String, Vec<Ty>)>,
    /// What each routine gives (`gives TYPE`), if it gives a value.
    pub routine_gives: Vec<Option<Ty>>,
    /// The declared entities' names (characters and things), in declaration order (their ids).
    pub character_names: Vec<String>,
    /// Each declared entity's id by name (the first, if a name is declared twice).
    entity_index: HashMap<String, u32>,
    /// Where each declared entity's name is written (parallel to `character_names`).
    pub entity_spans: Vec<Span>,
    /// The `global NAME default E` lines of a later file (an encounter) that give a ruleset's
    /// global its start, by the span of the name: the global each gives, and whether it gives
    /// only the start (else it was refused).
    pub global_starts: HashMap<Span, (u16, bool)>,
}

impl Decls<'_> {
    /// Room for the names `items` items declare (about one each) and `entities` entities, so the
    /// tables are not grown, each growth hashing every name again.
    pub(super) fn reserve(&mut self, items: usize, entities: usize) {
        self.globals.reserve(items);
        self.entity_index.reserve(entities);
    }

    /// The id of the entity (character or thing) declared with this name.
    pub fn entity(&self, name: &str) -> Option<usize> {
        self.entity_index.get(name).map(|&i| i as usize)
    }

    /// Declares an entity: its name and type, in declaration order (its id).
    pub(super) fn declare_entity(&mut self, name: &Ident, ty: u16) {
        let id = self.character_names.len() as u32;
        self.entity_index.entry(name.node.clone()).or_insert(id);
        self.character_names.push(name.node.clone());
        self.entity_types.push(ty);
        self.entity_spans.push(name.span);
    }

    /// Where a name of the shared namespace is declared.
    pub fn declared_at(&self, name: &str) -> Option<Span> {
        self.globals.get(name).map(|(_, s)| *s)
    }

    pub fn lookup(&self, name: &str) -> Option<Sym> {
        self.globals.get(name).map(|(s, _)| *s)
    }

    pub fn field(&self, name: &str) -> Option<(u16, FieldKind)> {
        match self.lookup(name) {
            Some(Sym::Field(i, k)) => Some((i, k)),
            _ => None,
        }
    }

    /// A field of an entity of type `ty`: a character's (the shared namespace) or a thing's.
    pub fn field_of(&self, ty: u16, name: &str) -> Option<(u16, FieldKind)> {
        if ty == CHARACTER {
            return self.field(name).filter(|(_, k)| *k != FieldKind::Global);
        }
        let i = *self.thing_fields.get(fields_slot(ty))?.get(name)?;
        Some((i, self.fields[i as usize].1))
    }

    /// The fields of type `owner` (a thing, or [`SIDE`]) by name, made when first asked for.
    fn thing_fields(&mut self, owner: u16) -> &mut HashMap<String, u16> {
        let slot = fields_slot(owner);
        if self.thing_fields.len() <= slot {
            self.thing_fields.resize_with(slot + 1, HashMap::new);
        }
        &mut self.thing_fields[slot]
    }

    /// The names of the fields of type `ty`, for suggestions.
    pub fn fields_of(&self, ty: u16) -> Vec<&String> {
        (0..self.fields.len())
            .filter(|i| self.field_owner[*i] == ty && self.fields[*i].1 != FieldKind::Global)
            .map(|i| &self.fields[i].0)
            .collect()
    }

    /// A type by name: `character` or a declared thing.
    pub fn thing(&self, name: &str) -> Option<u16> {
        match self.lookup(name) {
            Some(Sym::Thing(t)) => Some(t),
            _ if name == "character" => Some(CHARACTER),
            _ => None,
        }
    }

    /// Where the fields of type `t` are declared, for help texts: "`thing player`", or a
    /// `side` block for sides' fields.
    pub fn declared_in(&self, t: u16) -> String {
        match self.things.get(t as usize) {
            Some(t) => format!("`thing {}`", t.0),
            None => "a side's block (`side NAME, ... { FIELDS }`)".into(),
        }
    }

    /// "a character", "a player": a type's name with its article.
    pub fn a_thing(&self, t: u16) -> String {
        let name = self.things.get(t as usize).map_or("thing", |t| t.0.as_str());
        let vowel = name.starts_with(['a', 'e', 'i', 'o', 'u']);
        format!("{} {name}", if vowel { "an" } else { "a" })
    }

    /// Resolves a written type (none: a character), reporting an unknown one.
    pub(super) fn resolve_type(&self, t: Option<&Ident>, diags: &mut Vec<Diag>) -> u16 {
        let Some(t) = t else { return CHARACTER };
        self.thing(&t.node).unwrap_or_else(|| {
            let names: Vec<&String> = self.things.iter().map(|t| &t.0).collect();
            let d = crate::check::unknown("type", &t.node, t.span, names.into_iter());
            diags.push(d.help("a type is `character` or a thing declared with `thing NAME, PLURAL { ... }`"));
            CHARACTER
        })
    }

    /// The type a stat or global holds (`: TYPE`): an entity's, or `side` or `role`.
    pub(super) fn value_type(&self, t: &Ident, diags: &mut Vec<Diag>) -> u16 {
        match t.node.as_str() {
            "side" => SIDE,
            "role" => ROLE,
            _ => self.resolve_type(Some(t), diags),
        }
    }

    /// The type of an argument written `NAME: TYPE` (`default` when untyped): a declared thing
    /// (or `character`) first, so a thing named `number` keeps its meaning; then `number`,
    /// `truth`, `side` and `role`.
    pub(super) fn arg_type(&self, t: Option<&Ident>, default: Ty, diags: &mut Vec<Diag>) -> Ty {
        let Some(t) = t else { return default };
        if let Some(i) = self.thing(&t.node) {
            return Ty::Entity(i);
        }
        match t.node.as_str() {
            "number" => Ty::Int,
            "truth" => Ty::Bool,
            "side" => Ty::Side,
            "role" => Ty::Role,
            _ => {
                let mut names: Vec<&String> = self.things.iter().map(|t| &t.0).collect();
                let words = ["number", "truth", "side", "role"].map(String::from);
                names.extend(words.iter());
                let d = crate::check::unknown("type", &t.node, t.span, names.into_iter());
                diags.push(d.help(
                    "an argument is a `number`, a `truth` value, a `side`, a `role`, a `character` or a thing declared with `thing NAME, PLURAL { ... }`",
                ));
                Ty::Error
            }
        }
    }

    /// The type of field `i`'s values: an entity, a side, a role, a number with decimals, or a
    /// whole number.
    pub(super) fn field_ty(&self, i: u16) -> Ty {
        if self.truth(i) {
            return Ty::Bool;
        }
        match self.field_refers.get(i as usize).copied().flatten() {
            Some(SIDE) => Ty::Side,
            Some(ROLE) => Ty::Role,
            Some(t) => Ty::Entity(t),
            None => match self.field_scale.get(i as usize).copied().unwrap_or(0) {
                0 => Ty::Int,
                s => Ty::Dec(s),
            },
        }
    }

    /// Whether field `i` holds a truth value (`global NAME: truth`).
    pub fn truth(&self, i: u16) -> bool {
        self.field_truth.get(i as usize).copied().unwrap_or(false)
    }

    /// Whether a written `: TYPE` is `truth` (a thing named `truth` keeps its meaning).
    pub(super) fn is_truth(&self, t: Option<&Ident>) -> bool {
        t.is_some_and(|t| t.node == "truth" && self.thing("truth").is_none())
    }

    pub(super) fn push_field(&mut self, name: &str, kind: FieldKind, owner: u16, refers: Option<u16>) -> u16 {
        self.fields.push((name.to_string(), kind));
        self.field_owner.push(owner);
        self.field_refers.push(refers);
        self.field_scale.push(0);
        self.field_truth.push(false);
        (self.fields.len() - 1) as u16
    }

    /// Declares a field of a thing (or, with `owner` [`CHARACTER`], a character's or global).
    pub(super) fn declare_field(&mut self, item: &Item, owner: u16, diags: &mut Vec<Diag>) {
        let mut truth = false;
        let (name, kind, refers, scale) = match item {
            Item::Stat { name, ty, decimals, .. } if self.is_truth(ty.as_ref()) => {
                diags.push(super::truth::truth_stat(name, ty.as_ref()));
                (name, FieldKind::Stat, None, *decimals)
            }
            Item::Stat { name, ty, decimals, .. } => {
                let refers = ty.as_ref().map(|t| self.value_type(t, diags));
                (name, FieldKind::Stat, refers, *decimals)
            }
            Item::Global { name, ty, .. } if self.is_truth(ty.as_ref()) => {
                truth = true;
                super::truth::truth_clauses(item, diags);
                (name, FieldKind::Global, None, 0)
            }
            Item::Global { name, ty, decimals, .. } => {
                let refers = ty.as_ref().map(|t| self.value_type(t, diags));
                (name, FieldKind::Global, refers, *decimals)
            }
            Item::Resource { name, decimals, .. } => (name, FieldKind::Resource, None, *decimals),
            Item::Flag { name, .. } => (name, FieldKind::Flag, None, 0),
            _ => return,
        };
        if scale > 0 && refers.is_some() {
            diags.push(
                Diag::new(
                    "check::type",
                    format!("`{}` holds {}, which has no decimals", name.node, held(refers)),
                )
                .label(name.span, "declared with `decimals`")
                .help("`decimals N` is for numbers; leave it out of a stat that holds an entity"),
            );
        }
        let id = self.fields.len() as u16;
        if owner == CHARACTER {
            if self.declare(name, Sym::Field(id, kind), diags) {
                self.push_field(&name.node, kind, owner, refers);
                if let Some(last) = self.field_scale.last_mut() {
                    *last = scale;
                }
                if let Some(last) = self.field_truth.last_mut() {
                    *last = truth;
                }
                if let Item::Stat {
                    default: None,
                    ty: None,
                    ..
                } = item
                {
                    self.stats_without_default.push((name.node.clone(), name.span));
                }
            }
            return;
        }
        if self.thing_fields(owner).contains_key(&name.node) {
            diags.push(
                Diag::new(
                    "check::duplicate",
                    format!(
                        "`{}` is declared twice in `{}`",
                        name.node,
                        self.things.get(owner as usize).map_or("side", |t| t.0.as_str())
                    ),
                )
                .label(name.span, "declared again here")
                .help("each field of a thing needs its own name"),
            );
            return;
        }
        self.thing_fields(owner).insert(name.node.clone(), id);
        self.push_field(&name.node, kind, owner, refers);
        if let Some(last) = self.field_scale.last_mut() {
            *last = scale;
        }
    }

    /// A unit by its name or its plural (`minute`, `minutes`).
    pub fn unit(&self, name: &str) -> Option<u16> {
        let find = |n: &str| match self.lookup(n) {
            Some(Sym::Unit(i)) => Some(i),
            _ => None,
        };
        find(name).or_else(|| name.strip_suffix('s').and_then(find))
    }

    pub fn kind(&self, name: &str) -> Option<u16> {
        self.kinds.iter().position(|k| k == name).map(|i| i as u16)
    }

    pub fn field_names(&self) -> impl Iterator<Item = &String> {
        self.fields.iter().map(|f| &f.0)
    }

    /// The span of the first dice expression `e` may roll, following params.
    pub fn rolls(&self, e: &Expr) -> Option<Span> {
        let mut found = None;
        walk_expr(e, &mut |x| {
            if found.is_some() {
                return;
            }
            let param = match &x.node {
                ExprKind::Dice(_) | ExprKind::DynDice(_) | ExprKind::FaceDice(_) => {
                    found = Some(x.span);
                    return;
                }
                ExprKind::Name(n) => self.lookup(n),
                ExprKind::Call(f, _) => self.lookup(&f.node),
                _ => None,
            };
            if let Some(Sym::Param(i)) = param
                && self.param_rolls.get(i as usize).copied().unwrap_or(false)
            {
                found = Some(x.span);
            }
        });
        found
    }

    pub(super) fn declare(&mut self, name: &Ident, sym: Sym, diags: &mut Vec<Diag>) -> bool {
        if let Some((_, first)) = self.globals.get(&name.node) {
            self.duplicates.insert(name.node.clone());
            diags.push(
                Diag::new("check::duplicate", format!("`{}` is declared twice", name.node))
                    .label(name.span, "declared again here")
                    .label(*first, "first declared here")
                    .help("every param, stat, resource, flag, side, tag, action, order, role, trigger, unit, global, routine, thing and measure needs its own name"),
            );
            return false;
        }
        self.globals.insert(name.node.clone(), (sym, name.span));
        true
    }
}

/// "an entity", "a side", "a role": what a field holding `refers` holds.
fn held(refers: Option<u16>) -> &'static str {
    match refers {
        Some(SIDE) => "a side",
        Some(ROLE) => "a role",
        _ => "an entity",
    }
}

pub(super) fn has_dice(e: &Expr) -> bool {
    let mut found = false;
    walk_expr(e, &mut |x| {
        found |= matches!(x.node, ExprKind::Dice(_) | ExprKind::DynDice(_))
    });
    found
}

/// Calls `f` on every sub-expression of `e`, `e` first.
pub(super) fn walk_expr(e: &Expr, f: &mut dyn FnMut(&Expr)) {
    f(e);
    match &e.node {
        ExprKind::Field(b, _) | ExprKind::Is(b, _) | ExprKind::Unary(_, b) => walk_expr(b, f),
        ExprKind::Binary(_, l, r) => {
            walk_expr(l, f);
            walk_expr(r, f);
        }
        ExprKind::Call(_, args) => args.iter().for_each(|a| walk_expr(a, f)),
        ExprKind::Quant(q) => q.filter.iter().chain(q.body.iter()).for_each(|x| walk_expr(x, f)),
        ExprKind::If(c, a, b) => [c, a, b].iter().for_each(|x| walk_expr(x, f)),
        ExprKind::DynDice(d) => {
            walk_expr(&d.count, f);
            walk_expr(&d.sides, f);
            if let Some((_, k)) = &d.keep {
                walk_expr(k, f);
            }
            if let Some(Some(t)) = &d.explode {
                walk_expr(t, f);
            }
        }
        ExprKind::Faces(q) => {
            walk_expr(&q.dice, f);
            q.filter.iter().chain(q.body.iter()).for_each(|x| walk_expr(x, f));
        }
        _ => {}
    }
}

/// Where the fields of type `owner` are in `Decls::thing_fields`: sides' first, then each
/// thing's by its type.
fn fields_slot(owner: u16) -> usize {
    if owner == SIDE { 0 } else { usize::from(owner) + 1 }
}
