//! pest → spanned AST. The only module that sees pest's `Pair`s.

use pest::Parser as _;
use pest::iterators::{Pair, Pairs};
use pest::pratt_parser::{Assoc, Op, PrattParser};
use pest_derive::Parser;

use super::ast::*;
use crate::diag::Diag;
use crate::limits::{MAX_EXPR_OPERATORS, MAX_NESTING, MAX_PREFIX_CHAIN, MAX_SOURCE_BYTES};

#[derive(Parser)]
#[grammar = "../grammar/turnscript.pest"]
struct Grammar;

type R<T> = Result<T, Diag>;

/// Parses one source file into its AST, or returns the syntax error.
pub fn parse(src: &str, file: FileId) -> Result<File, Vec<Diag>> {
    if src.len() > MAX_SOURCE_BYTES {
        return Err(vec![
            Diag::new(
                "syntax::too_large",
                format!("this file is {} bytes; the limit is {MAX_SOURCE_BYTES}", src.len()),
            )
            .label(Span::new(file, 0, 0), "file starts here")
            .help("split the file, or check that it is the file you meant"),
        ]);
    }
    check_nesting(src, file).map_err(|d| vec![d])?;
    let mut pairs = Grammar::parse(Rule::file, src).map_err(|e| vec![pest_error(e, src, file)])?;
    let Some(top) = pairs.next() else {
        return Ok(File::default());
    };
    let b = Builder {
        file,
        pratt: pratt(),
        offset: 0,
    };
    let mut items = Vec::new();
    for pair in top.into_inner() {
        if pair.as_rule() == Rule::EOI {
            continue;
        }
        items.push(b.item(pair).map_err(|d| vec![d])?);
    }
    Ok(File { items })
}

/// pest's call limit does not bound stack depth: refuse deep nesting before parsing.
fn check_nesting(src: &str, file: FileId) -> Result<(), Diag> {
    let bytes = src.as_bytes();
    let mut depth = 0usize;
    let mut i = 0;
    let mut in_string = false;
    while i < bytes.len() {
        let c = bytes[i];
        if in_string {
            if c == b'"' || c == b'\n' {
                in_string = false;
            }
        } else {
            match c {
                b'#' => {
                    while i < bytes.len() && bytes[i] != b'\n' {
                        i += 1;
                    }
                    continue;
                }
                b'"' => in_string = true,
                b'(' | b'{' => {
                    depth += 1;
                    if depth > MAX_NESTING {
                        return Err(Diag::new(
                            "syntax::too_deep",
                            format!("blocks and parentheses nest more than {MAX_NESTING} deep here"),
                        )
                        .label(Span::new(file, i, i + 1), "this one is too deep")
                        .help("flatten the nesting: split the rule into levels, or name a sub-expression as a param"));
                    }
                }
                b')' | b'}' => depth = depth.saturating_sub(1),
                _ => {}
            }
        }
        i += 1;
    }
    Ok(())
}

fn pratt() -> PrattParser<Rule> {
    PrattParser::new()
        .op(Op::infix(Rule::op_or, Assoc::Left))
        .op(Op::infix(Rule::op_and, Assoc::Left))
        .op(Op::prefix(Rule::op_not))
        .op(Op::infix(Rule::op_eq, Assoc::Left)
            | Op::infix(Rule::op_ne, Assoc::Left)
            | Op::infix(Rule::op_lt, Assoc::Left)
            | Op::infix(Rule::op_le, Assoc::Left)
            | Op::infix(Rule::op_gt, Assoc::Left)
            | Op::infix(Rule::op_ge, Assoc::Left))
        .op(Op::infix(Rule::op_add, Assoc::Left) | Op::infix(Rule::op_sub, Assoc::Left))
        .op(Op::infix(Rule::op_mul, Assoc::Left) | Op::infix(Rule::op_div, Assoc::Left))
        .op(Op::prefix(Rule::op_neg))
        .op(Op::postfix(Rule::op_is))
        .op(Op::postfix(Rule::op_field))
}

struct Builder {
    file: FileId,
    pratt: PrattParser<Rule>,
    /// Where the text being built starts in its file (non-zero for `{...}` inside a string).
    offset: usize,
}

impl Builder {
    /// The pair's span, without the whitespace and comments pest lets a rule end with.
    fn span(&self, pair: &Pair<Rule>) -> Span {
        let s = pair.as_span();
        let start = self.offset + s.start();
        Span::new(self.file, start, start + trimmed_len(pair.as_str()))
    }

    fn ident(&self, pair: Pair<Rule>) -> Ident {
        Spanned::new(pair.as_str().to_string(), self.span(&pair))
    }

    fn string(&self, pair: Pair<Rule>) -> Spanned<String> {
        let span = self.span(&pair);
        let text = pair
            .into_inner()
            .next()
            .map(|p| p.as_str().to_string())
            .unwrap_or_default();
        Spanned::new(text, span)
    }

    fn ident_list(&self, pair: Pair<Rule>) -> Vec<Ident> {
        pair.into_inner().map(|p| self.ident(p)).collect()
    }

    /// A `name` pair: an identifier or a quoted string.
    fn name(&self, pair: Pair<Rule>) -> Ident {
        match pair.clone().into_inner().next() {
            Some(p) if p.as_rule() == Rule::string => self.string(p),
            Some(p) => self.ident(p),
            None => self.ident(pair),
        }
    }

    /// `NAME [: TYPE]` (a `typed` or `param_arg` pair).
    fn typed(&self, pair: Pair<Rule>) -> R<Typed> {
        let span = self.span(&pair);
        let mut it = pair.into_inner().peekable();
        let name = self.ident(next(&mut it, span)?);
        Ok(Typed {
            name,
            ty: self.of_type(&mut it),
        })
    }

    fn typed_list(&self, pair: Pair<Rule>) -> R<Vec<Typed>> {
        pair.into_inner().map(|p| self.typed(p)).collect()
    }

    /// An optional `: TYPE` next in `it`.
    fn of_type<'i>(&self, it: &mut std::iter::Peekable<impl Iterator<Item = Pair<'i, Rule>>>) -> Option<Ident> {
        let p = it.next_if(|p| p.as_rule() == Rule::of_type)?;
        let t = p.into_inner().next()?;
        Some(self.ident(t))
    }

    /// `field = value` (a `char_field` pair).
    fn field_value(&self, pair: Pair<Rule>) -> R<(Ident, Expr)> {
        let span = self.span(&pair);
        let mut pi = pair.into_inner();
        let f = self.ident(next(&mut pi, span)?);
        Ok((f, self.expr(next(&mut pi, span)?)?))
    }

    fn item(&self, pair: Pair<Rule>) -> R<Item> {
        let span = self.span(&pair);
        let rule = pair.as_rule();
        let mut it = pair.into_inner().filter(|p| !is_keyword(p.as_rule())).peekable();
        Ok(match rule {
            Rule::ruleset_decl => Item::Ruleset(self.string(next(&mut it, span)?)),
            Rule::encounter_decl => Item::Encounter(self.string(next(&mut it, span)?)),
            Rule::param_decl => {
                let name = self.ident(next(&mut it, span)?);
                let mut args = Vec::new();
                while it.peek().is_some_and(|p| p.as_rule() == Rule::param_arg) {
                    let t = self.typed(next(&mut it, span)?)?;
                    args.push((t.name, t.ty));
                }
                Item::Param {
                    name,
                    args,
                    value: self.expr(next(&mut it, span)?)?,
                }
            }
            Rule::stat_decl => {
                let name = self.ident(next(&mut it, span)?);
                let ty = self.of_type(&mut it);
                let default = it.next().map(|p| self.expr(p)).transpose()?;
                Item::Stat { name, ty, default }
            }
            Rule::thing_decl => {
                let name = self.ident(next(&mut it, span)?);
                let plural = self.ident(next(&mut it, span)?);
                let fields = it.map(|p| self.item(p)).collect::<R<Vec<_>>>()?;
                Item::Thing { name, plural, fields }
            }
            Rule::instance_decl => {
                let ty = self.ident(next(&mut it, span)?);
                let name = self.name(next(&mut it, span)?);
                let fields = it.map(|p| self.field_value(p)).collect::<R<Vec<_>>>()?;
                Item::Instance { ty, name, fields }
            }
            Rule::resource_decl => {
                let name = self.ident(next(&mut it, span)?);
                let (mut min, mut max) = (None, None);
                for p in it {
                    let r = p.as_rule();
                    let e = self.expr(last_inner(p, span)?)?;
                    if r == Rule::res_min {
                        min = Some(e)
                    } else {
                        max = Some(e)
                    }
                }
                Item::Resource { name, min, max }
            }
            Rule::flag_decl => {
                let name = self.ident(next(&mut it, span)?);
                Item::Flag {
                    name,
                    per: it.next().map(|p| self.ident(p)),
                }
            }
            Rule::side_decl => Item::Side(self.ident_list(next(&mut it, span)?)),
            Rule::tag_decl => Item::Tag(self.ident_list(next(&mut it, span)?)),
            Rule::action_decl => {
                let name = self.ident(next(&mut it, span)?);
                let actor = self.ident(next(&mut it, span)?);
                let mut decl = ActionDecl {
                    name,
                    actor,
                    kinds: Vec::new(),
                    costs: Vec::new(),
                    when: None,
                    body: Block { stmts: vec![], span },
                };
                for p in it {
                    match p.as_rule() {
                        Rule::costs => {
                            for c in p.into_inner().filter(|p| p.as_rule() == Rule::cost) {
                                let cspan = self.span(&c);
                                let mut ci = c.into_inner();
                                let amount = self.expr(next(&mut ci, cspan)?)?;
                                let resource = self.ident(next(&mut ci, cspan)?);
                                decl.costs.push(Cost { amount, resource });
                            }
                        }
                        Rule::kinds => {
                            let pspan = self.span(&p);
                            let list = last_inner(p, pspan)?;
                            decl.kinds = self.ident_list(list);
                        }
                        Rule::block => decl.body = self.block(p)?,
                        _ => decl.when = Some(self.expr(p)?),
                    }
                }
                Item::Action(decl)
            }
            Rule::order_decl => {
                let name = self.ident(next(&mut it, span)?);
                let Typed { name: var, ty } = self.typed(next(&mut it, span)?)?;
                let mut keys = Vec::new();
                for k in it {
                    let kspan = self.span(&k);
                    let Some(inner) = k.into_inner().next() else { continue };
                    let roll = inner.as_rule() == Rule::roll_key;
                    let mut ki = inner.into_inner().filter(|p| !is_keyword(p.as_rule()));
                    let value = self.expr(next(&mut ki, kspan)?)?;
                    let dir = next(&mut ki, kspan)?;
                    let descending = dir.as_str().trim() == "desc";
                    let until_settled = ki.next().is_some();
                    keys.push(OrderKey {
                        value,
                        roll,
                        descending,
                        until_settled,
                        span: kspan,
                    });
                }
                Item::Order(OrderDecl { name, var, ty, keys })
            }
            Rule::policy_decl => {
                let name = self.ident(next(&mut it, span)?);
                let mut prefs = Vec::new();
                for p in it {
                    let pspan = self.span(&p);
                    let mut pi = p.into_inner();
                    let decision = self.ident(next(&mut pi, pspan)?);
                    let options = self.ident_list(next(&mut pi, pspan)?);
                    prefs.push((decision, options));
                }
                Item::Policy { name, prefs }
            }
            Rule::default_policy => Item::DefaultPolicy(self.ident(next(&mut it, span)?)),
            Rule::setup_decl => Item::Setup(self.block(next(&mut it, span)?)?),
            Rule::play_decl => Item::Play(self.block(next(&mut it, span)?)?),
            Rule::character_decl => {
                let name = self.name(next(&mut it, span)?);
                let mut decl = CharacterDecl {
                    name,
                    side: None,
                    tags: Vec::new(),
                    fields: Vec::new(),
                };
                for p in it {
                    let pspan = self.span(&p);
                    let r = p.as_rule();
                    let mut pi = p.into_inner().filter(|p| !is_keyword(p.as_rule()));
                    match r {
                        Rule::char_side => decl.side = Some(self.ident(next(&mut pi, pspan)?)),
                        Rule::char_tag => decl.tags.extend(pi.map(|p| self.ident(p))),
                        _ => {
                            let f = self.ident(next(&mut pi, pspan)?);
                            let e = self.expr(next(&mut pi, pspan)?)?;
                            decl.fields.push((f, e));
                        }
                    }
                }
                Item::Character(decl)
            }
            Rule::unit_decl => {
                let name = self.ident(next(&mut it, span)?);
                let of = match it.next() {
                    None => None,
                    Some(n) => {
                        let nspan = self.span(&n);
                        let factor = n.as_str().parse::<i64>().map_err(|_| too_large(nspan))?;
                        Some((factor, self.ident(next(&mut it, span)?)))
                    }
                };
                Item::Unit { name, of }
            }
            Rule::role_decl => Item::Role(self.ident_list(next(&mut it, span)?)),
            Rule::effect_decl => Item::Effect(self.ident_list(next(&mut it, span)?)),
            Rule::routine_decl => {
                let name = self.ident(next(&mut it, span)?);
                let params = self.typed_list(next(&mut it, span)?)?;
                Item::Routine {
                    name,
                    params,
                    body: self.block(next(&mut it, span)?)?,
                }
            }
            Rule::global_decl => {
                let name = self.ident(next(&mut it, span)?);
                let ty = self.of_type(&mut it);
                let (mut default, mut min, mut max) = (None, None, None);
                for p in it {
                    let r = p.as_rule();
                    let e = Some(self.expr(last_inner(p, span)?)?);
                    match r {
                        Rule::res_default => default = e,
                        Rule::res_min => min = e,
                        _ => max = e,
                    }
                }
                Item::Global {
                    name,
                    ty,
                    default,
                    min,
                    max,
                }
            }
            Rule::trigger_decl => {
                let name = self.ident(next(&mut it, span)?);
                Item::Trigger {
                    name,
                    params: self.typed_list(next(&mut it, span)?)?,
                }
            }
            Rule::hook_decl => {
                let what = next(&mut it, span)?;
                let wspan = self.span(&what);
                let mut turn_ty = None;
                let (on, vars) = if what.as_rule() == Rule::hook_edge {
                    let mut wi = what.into_inner().filter(|p| !is_keyword(p.as_rule()));
                    let start = next(&mut wi, wspan)?.as_rule() == Rule::hook_start;
                    let target = next(&mut wi, wspan)?;
                    if target.as_rule() == Rule::hook_turn {
                        let tspan = self.span(&target);
                        let t = self.typed(last_inner(target, tspan)?)?;
                        turn_ty = t.ty;
                        let var = t.name;
                        let on = if start { HookOn::TurnStart } else { HookOn::TurnEnd };
                        (on, vec![var])
                    } else {
                        let level = self.ident(target);
                        let on = if start {
                            HookOn::LevelStart(level)
                        } else {
                            HookOn::LevelEnd(level)
                        };
                        (on, Vec::new())
                    }
                } else {
                    let mut wi = what.into_inner();
                    let trigger = self.ident(next(&mut wi, wspan)?);
                    let vars = self.ident_list(next(&mut wi, wspan)?);
                    (HookOn::Trigger(trigger), vars)
                };
                let mut filter = None;
                let mut body = Block::default();
                for p in it {
                    match p.as_rule() {
                        Rule::block => body = self.block(p)?,
                        _ => filter = Some(self.expr(p)?),
                    }
                }
                Item::Hook(HookDecl {
                    on,
                    vars,
                    turn_ty,
                    filter,
                    body,
                    span,
                })
            }
            _ => return Err(internal(span, rule)),
        })
    }

    fn refusal(&self, pair: Pair<Rule>) -> R<Refusal> {
        let span = self.span(&pair);
        let mut it = pair.into_inner().filter(|p| !is_keyword(p.as_rule()));
        let cond = self.expr(next(&mut it, span)?)?;
        let text = next(&mut it, span)?;
        let inner = text.into_inner().next().ok_or_else(|| internal(span, Rule::string))?;
        let base = self.offset + inner.as_span().start();
        Ok(Refusal {
            cond,
            message: self.message(inner.as_str(), base)?,
            span,
        })
    }

    /// Splits `text {expr} text` into parts, parsing each `{...}` as an expression in place.
    fn message(&self, text: &str, base: usize) -> R<Vec<Part>> {
        let mut parts = Vec::new();
        let mut rest = text;
        let mut at = base;
        while let Some(open) = rest.find('{') {
            if open > 0 {
                parts.push(Part::Text(rest[..open].to_string()));
            }
            let after = &rest[open + 1..];
            let Some(close) = after.find('}') else {
                return Err(Diag::new("syntax::message", "a `{` in this message is never closed")
                    .label(Span::new(self.file, at + open, at + rest.len()), "opened here")
                    .help("write `{c}` to fill in a character's name, with a closing `}`"));
            };
            let inner = &after[..close];
            let start = at + open + 1;
            let sub = Builder {
                file: self.file,
                pratt: pratt(),
                offset: start,
            };
            let mut pairs = Grammar::parse(Rule::expr, inner).map_err(|_| {
                Diag::new("syntax::message", format!("`{inner}` is not an expression"))
                    .label(Span::new(self.file, start, start + inner.len()), "inside `{...}`")
                    .help("put a character expression between the braces, such as `{c}`")
            })?;
            let pair = pairs
                .next()
                .ok_or_else(|| internal(Span::new(self.file, start, start), Rule::expr))?;
            if pair.as_str().len() != inner.len() {
                return Err(Diag::new("syntax::message", format!("`{inner}` is not an expression"))
                    .label(Span::new(self.file, start, start + inner.len()), "inside `{...}`")
                    .help("put a character expression between the braces, such as `{c}`"));
            }
            parts.push(Part::Name(sub.expr(pair)?));
            rest = &after[close + 1..];
            at = start + close + 1;
        }
        if !rest.is_empty() {
            parts.push(Part::Text(rest.to_string()));
        }
        Ok(parts)
    }

    fn collection(&self, pair: Pair<Rule>) -> Collection {
        match pair.into_inner().find(|p| p.as_rule() == Rule::ident) {
            Some(p) => Collection::Ranked(self.ident(p)),
            None => Collection::Characters,
        }
    }

    fn block(&self, pair: Pair<Rule>) -> R<Block> {
        let span = self.span(&pair);
        let stmts = pair.into_inner().map(|p| self.stmt(p)).collect::<R<Vec<_>>>()?;
        Ok(Block { stmts, span })
    }

    fn repeat(&self, pair: Pair<Rule>) -> R<Loop> {
        let span = self.span(&pair);
        match pair.into_inner().find(|p| !is_keyword(p.as_rule())) {
            None => Ok(Loop::Forever),
            Some(p) => {
                let r = p.as_rule();
                let e = self.expr(last_inner(p, span)?)?;
                Ok(if r == Rule::repeat_while {
                    Loop::While(e)
                } else {
                    Loop::Until(e)
                })
            }
        }
    }

    fn target(&self, pair: Pair<Rule>) -> R<Target> {
        let span = self.span(&pair);
        let mut it = pair.into_inner();
        let first = self.ident(next(&mut it, span)?);
        Ok(match it.next() {
            Some(f) => Target {
                var: Some(first),
                field: self.ident(f),
                span,
            },
            None => Target {
                var: None,
                field: first,
                span,
            },
        })
    }

    fn stmt(&self, pair: Pair<Rule>) -> R<Stmt> {
        let span = self.span(&pair);
        let rule = pair.as_rule();
        let mut it = pair.into_inner().filter(|p| !is_keyword(p.as_rule())).peekable();
        Ok(match rule {
            Rule::level_stmt | Rule::phase_stmt | Rule::round_stmt => {
                let kind = match rule {
                    Rule::level_stmt => LevelKind::Level,
                    Rule::phase_stmt => LevelKind::Phase,
                    _ => LevelKind::Round,
                };
                let name = match it.peek() {
                    Some(p) if p.as_rule() == Rule::level_name => self.ident(next(&mut it, span)?),
                    _ => Spanned::new(
                        "round".to_string(),
                        Span::new(self.file, span.start as usize, span.start as usize + 5),
                    ),
                };
                let mut repeat = Loop::Once;
                let mut body = Block::default();
                for p in it {
                    match p.as_rule() {
                        Rule::repeat => repeat = self.repeat(p)?,
                        _ => body = self.block(p)?,
                    }
                }
                Stmt::Level {
                    kind,
                    name,
                    repeat,
                    body,
                    span,
                }
            }
            Rule::create_stmt => {
                let thing = self.ident(next(&mut it, span)?);
                let mut fields = Vec::new();
                let mut bind = None;
                for p in it {
                    if p.as_rule() == Rule::ident {
                        bind = Some(self.ident(p));
                    } else {
                        fields.push(self.field_value(p)?);
                    }
                }
                Stmt::Create {
                    thing,
                    fields,
                    bind,
                    span,
                }
            }
            Rule::destroy_stmt => Stmt::Destroy {
                what: self.expr(next(&mut it, span)?)?,
                span,
            },
            Rule::let_stmt => {
                let name = self.ident(next(&mut it, span)?);
                Stmt::Let {
                    name,
                    value: self.expr(next(&mut it, span)?)?,
                    span,
                }
            }
            Rule::turn_stmt => {
                let actor = self.expr(next(&mut it, span)?)?;
                Stmt::Turn {
                    actor,
                    body: self.block(next(&mut it, span)?)?,
                    span,
                }
            }
            Rule::for_stmt => {
                let var = self.ident(next(&mut it, span)?);
                let coll = self.collection(next(&mut it, span)?);
                let (mut filter, mut order, mut body, mut backwards) = (None, None, Block::default(), false);
                let mut from = None;
                for p in it {
                    match p.as_rule() {
                        Rule::expr => filter = Some(self.expr(p)?),
                        Rule::ident => order = Some(self.ident(p)),
                        Rule::backwards => backwards = true,
                        Rule::walk_from => {
                            let wspan = self.span(&p);
                            from = Some(self.expr(last_inner(p, wspan)?)?);
                        }
                        _ => body = self.block(p)?,
                    }
                }
                Stmt::ForEach {
                    var,
                    coll,
                    backwards,
                    from,
                    filter,
                    order,
                    body,
                    span,
                }
            }
            Rule::if_stmt => {
                let cond = self.expr(next(&mut it, span)?)?;
                let then = self.block(next(&mut it, span)?)?;
                let otherwise = match it.next() {
                    None => None,
                    Some(p) if p.as_rule() == Rule::block => Some(self.block(p)?),
                    Some(p) => {
                        let s = self.span(&p);
                        Some(Block {
                            stmts: vec![self.stmt(p)?],
                            span: s,
                        })
                    }
                };
                Stmt::If {
                    cond,
                    then,
                    otherwise,
                    span,
                }
            }
            Rule::choose_stmt => {
                let name = self.ident(next(&mut it, span)?);
                let chooser = self.expr(next(&mut it, span)?)?;
                if it.peek().is_some_and(|p| p.as_rule() == Rule::choose_from) {
                    let from = next(&mut it, span)?;
                    let fspan = self.span(&from);
                    let mut fi = from.into_inner().filter(|p| !is_keyword(p.as_rule()));
                    let var = self.ident(next(&mut fi, fspan)?);
                    let coll = self.collection(next(&mut fi, fspan)?);
                    let (mut filter, mut order, mut body, mut decline) = (None, None, Block::default(), None);
                    let mut refusals = Vec::new();
                    for p in fi {
                        match p.as_rule() {
                            Rule::expr => filter = Some(self.expr(p)?),
                            Rule::refusal => refusals.push(self.refusal(p)?),
                            Rule::ident => order = Some(self.ident(p)),
                            Rule::decline => {
                                let dspan = self.span(&p);
                                let mut di = p.into_inner().filter(|p| !is_keyword(p.as_rule()));
                                let option = self.ident(next(&mut di, dspan)?);
                                let block = match di.next() {
                                    Some(b) => self.block(b)?,
                                    None => Block {
                                        stmts: Vec::new(),
                                        span: dspan,
                                    },
                                };
                                decline = Some(Box::new((option, block)));
                            }
                            _ => body = self.block(p)?,
                        }
                    }
                    return Ok(Stmt::ChooseFrom {
                        name,
                        chooser,
                        var,
                        coll,
                        filter,
                        order,
                        body,
                        decline,
                        refusals,
                        span,
                    });
                }
                let mut options = Vec::new();
                for o in it {
                    let ospan = self.span(&o);
                    let mut opt = OptionDecl {
                        name: None,
                        kinds: Vec::new(),
                        using: None,
                        when: None,
                        refusals: Vec::new(),
                        body: Block {
                            stmts: vec![],
                            span: ospan,
                        },
                        span: ospan,
                    };
                    for p in o.into_inner().filter(|p| !is_keyword(p.as_rule())) {
                        match p.as_rule() {
                            Rule::ident => opt.name = Some(self.ident(p)),
                            Rule::action_option => {
                                for q in p.into_inner().filter(|p| !is_keyword(p.as_rule())) {
                                    let qspan = self.span(&q);
                                    let r = q.as_rule();
                                    let last = last_inner(q, qspan)?;
                                    if r == Rule::of_kind {
                                        opt.kinds = self.ident_list(last);
                                    } else {
                                        opt.using = Some(self.ident(last));
                                    }
                                }
                            }
                            Rule::expr => opt.when = Some(self.expr(p)?),
                            Rule::refusal => opt.refusals.push(self.refusal(p)?),
                            _ => opt.body = self.block(p)?,
                        }
                    }
                    options.push(opt);
                }
                Stmt::Choose {
                    name,
                    chooser,
                    options,
                    span,
                }
            }
            Rule::end_stmt => {
                let mut level = None;
                let mut reason = None;
                for p in it {
                    match p.as_rule() {
                        Rule::level_name => level = Some(self.ident(p)),
                        Rule::string => reason = Some(self.string(p)),
                        Rule::end_repeat => return Ok(Stmt::EndRepeat { span }),
                        _ => {}
                    }
                }
                Stmt::End { level, reason, span }
            }
            Rule::spend_stmt => {
                let a = next(&mut it, span)?;
                let amount = if a.as_rule() == Rule::spend_all {
                    None
                } else {
                    Some(self.expr(a)?)
                };
                Stmt::Spend {
                    amount,
                    target: self.target(next(&mut it, span)?)?,
                    span,
                }
            }
            Rule::gain_stmt => {
                let amount = self.expr(next(&mut it, span)?)?;
                Stmt::Gain {
                    amount,
                    target: self.target(next(&mut it, span)?)?,
                    span,
                }
            }
            Rule::reset_stmt => {
                let target = self.target(next(&mut it, span)?)?;
                Stmt::Reset {
                    target,
                    value: self.expr(next(&mut it, span)?)?,
                    span,
                }
            }
            Rule::forfeit_stmt => Stmt::Forfeit {
                target: self.target(next(&mut it, span)?)?,
                span,
            },
            Rule::set_stmt => {
                let target = self.target(next(&mut it, span)?)?;
                Stmt::Set {
                    target,
                    value: self.expr(next(&mut it, span)?)?,
                    span,
                }
            }
            Rule::mark_stmt => Stmt::Mark {
                target: self.target(next(&mut it, span)?)?,
                on: true,
                span,
            },
            Rule::clear_stmt => Stmt::Mark {
                target: self.target(next(&mut it, span)?)?,
                on: false,
                span,
            },
            Rule::repeat_stmt => {
                let repeat = self.repeat(next(&mut it, span)?)?;
                Stmt::Repeat {
                    repeat,
                    body: self.block(next(&mut it, span)?)?,
                    span,
                }
            }
            Rule::rank_stmt => Stmt::Rank {
                order: self.ident(next(&mut it, span)?),
                span,
            },
            Rule::transfer_stmt => {
                let a = next(&mut it, span)?;
                let amount = if a.as_rule() == Rule::spend_all {
                    None
                } else {
                    Some(self.expr(a)?)
                };
                let from = self.target(next(&mut it, span)?)?;
                Stmt::Transfer {
                    amount,
                    from,
                    to: self.target(next(&mut it, span)?)?,
                    span,
                }
            }
            Rule::raise_stmt => {
                let trigger = self.ident(next(&mut it, span)?);
                Stmt::Raise {
                    trigger,
                    args: it.map(|p| self.expr(p)).collect::<R<Vec<_>>>()?,
                    span,
                }
            }
            Rule::begin_stmt => {
                let effect = self.ident(next(&mut it, span)?);
                let target = self.expr(next(&mut it, span)?)?;
                let count = self.expr(next(&mut it, span)?)?;
                let at_pair = next(&mut it, span)?;
                let aspan = self.span(&at_pair);
                let rule = at_pair.as_rule();
                let mut ai = at_pair.into_inner().filter(|p| !is_keyword(p.as_rule()));
                let at = if rule == Rule::count_place {
                    let who = self.expr(next(&mut ai, aspan)?)?;
                    CountAt::Place(who, self.ident(next(&mut ai, aspan)?))
                } else {
                    let start = next(&mut ai, aspan)?.as_rule() == Rule::hook_start;
                    let what = next(&mut ai, aspan)?;
                    if what.as_rule() == Rule::count_turn {
                        let wspan = self.span(&what);
                        let who = self.expr(last_inner(what, wspan)?)?;
                        if start {
                            CountAt::TurnStart(who)
                        } else {
                            CountAt::TurnEnd(who)
                        }
                    } else {
                        let level = self.ident(what);
                        if start {
                            CountAt::LevelStart(level)
                        } else {
                            CountAt::LevelEnd(level)
                        }
                    }
                };
                Stmt::Begin {
                    effect,
                    target,
                    count,
                    at,
                    span,
                }
            }
            Rule::stop_stmt => {
                let effect = self.ident(next(&mut it, span)?);
                Stmt::Stop {
                    effect,
                    target: self.expr(next(&mut it, span)?)?,
                    span,
                }
            }
            Rule::place_stmt => {
                let who = self.expr(next(&mut it, span)?)?;
                let how = next(&mut it, span)?;
                let to = match how.as_rule() {
                    Rule::place_first => PlaceTo::First,
                    Rule::place_last => PlaceTo::Last,
                    Rule::place_before => PlaceTo::Before(self.expr(next(&mut it, span)?)?),
                    _ => PlaceTo::After(self.expr(next(&mut it, span)?)?),
                };
                Stmt::Place {
                    who,
                    to,
                    order: self.ident(next(&mut it, span)?),
                    span,
                }
            }
            Rule::do_stmt => {
                let routine = self.ident(next(&mut it, span)?);
                Stmt::Do {
                    routine,
                    args: it.map(|p| self.expr(p)).collect::<R<Vec<_>>>()?,
                    span,
                }
            }
            Rule::react_stmt => {
                let actor = self.expr(next(&mut it, span)?)?;
                Stmt::React {
                    actor,
                    body: self.block(next(&mut it, span)?)?,
                    span,
                }
            }
            Rule::elapse_stmt => {
                let amount = self.expr(next(&mut it, span)?)?;
                Stmt::Elapse {
                    amount,
                    unit: self.ident(next(&mut it, span)?),
                    span,
                }
            }
            _ => return Err(internal(span, rule)),
        })
    }

    fn expr(&self, pair: Pair<Rule>) -> R<Expr> {
        let span = self.span(&pair);
        if pair.as_rule() != Rule::expr {
            return Err(internal(span, pair.as_rule()));
        }
        let inner = pair.into_inner();
        // Bound the shapes that would recurse deeply: long operator chains and prefix runs.
        let mut infix = 0usize;
        let mut prefix_run = 0usize;
        for p in inner.clone() {
            match p.as_rule() {
                Rule::op_neg | Rule::op_not => {
                    prefix_run += 1;
                    if prefix_run > MAX_PREFIX_CHAIN {
                        return Err(Diag::new(
                            "syntax::too_deep",
                            format!("more than {MAX_PREFIX_CHAIN} `-` or `not` in a row"),
                        )
                        .label(self.span(&p), "one too many")
                        .help("remove the repeated operators: two of them cancel out"));
                    }
                }
                Rule::op_is | Rule::op_field => {}
                r if is_infix(r) => {
                    infix += 1;
                    prefix_run = 0;
                    if infix > MAX_EXPR_OPERATORS {
                        return Err(Diag::new(
                            "syntax::too_long",
                            format!("this expression has more than {MAX_EXPR_OPERATORS} operators"),
                        )
                        .label(self.span(&p), "one operator too many")
                        .help("split it: give parts of it a name with `param`"));
                    }
                }
                _ => prefix_run = 0,
            }
        }
        self.pratt_expr(inner)
    }

    fn pratt_expr(&self, pairs: Pairs<Rule>) -> R<Expr> {
        self.pratt
            .map_primary(|p| self.primary(p))
            .map_prefix(|op, rhs| {
                let rhs = rhs?;
                let s = self.span(&op);
                let span = Span::new(self.file, s.start as usize, rhs.span.end as usize);
                let u = if op.as_rule() == Rule::op_neg {
                    UnOp::Neg
                } else {
                    UnOp::Not
                };
                Ok(Spanned::new(ExprKind::Unary(u, Box::new(rhs)), span))
            })
            .map_postfix(|lhs, op| {
                let lhs = lhs?;
                let s = self.span(&op);
                let span = Span::new(self.file, lhs.span.start as usize, s.end as usize);
                if op.as_rule() == Rule::op_field {
                    let name = op.into_inner().next().map(|p| self.ident(p));
                    let name = name.ok_or_else(|| internal(s, Rule::op_field))?;
                    return Ok(Spanned::new(ExprKind::Field(Box::new(lhs), name), span));
                }
                let name = op
                    .into_inner()
                    .find(|p| p.as_rule() == Rule::ident)
                    .map(|p| self.ident(p));
                let name = name.ok_or_else(|| internal(s, Rule::op_is))?;
                Ok(Spanned::new(ExprKind::Is(Box::new(lhs), name), span))
            })
            .map_infix(|lhs, op, rhs| {
                let (lhs, rhs) = (lhs?, rhs?);
                let b = match op.as_rule() {
                    Rule::op_or => BinOp::Or,
                    Rule::op_and => BinOp::And,
                    Rule::op_eq => BinOp::Eq,
                    Rule::op_ne => BinOp::Ne,
                    Rule::op_lt => BinOp::Lt,
                    Rule::op_le => BinOp::Le,
                    Rule::op_gt => BinOp::Gt,
                    Rule::op_ge => BinOp::Ge,
                    Rule::op_add => BinOp::Add,
                    Rule::op_sub => BinOp::Sub,
                    Rule::op_mul => BinOp::Mul,
                    _ => BinOp::Div,
                };
                let span = Span::new(self.file, lhs.span.start as usize, rhs.span.end as usize);
                Ok(Spanned::new(ExprKind::Binary(b, Box::new(lhs), Box::new(rhs)), span))
            })
            .parse(pairs)
    }

    fn primary(&self, pair: Pair<Rule>) -> R<Expr> {
        let span = self.span(&pair);
        let kind = match pair.as_rule() {
            Rule::expr => return self.expr(pair),
            Rule::number => ExprKind::Int(pair.as_str().parse::<i64>().map_err(|_| too_large(span))?),
            Rule::if_expr => {
                let mut it = pair.into_inner().filter(|p| !is_keyword(p.as_rule()));
                let c = self.expr(next(&mut it, span)?)?;
                let a = self.expr(next(&mut it, span)?)?;
                let b = self.expr(next(&mut it, span)?)?;
                ExprKind::If(Box::new(c), Box::new(a), Box::new(b))
            }
            Rule::dice => ExprKind::Dice(parse_dice(pair.as_str()).ok_or_else(|| {
                Diag::new(
                    "syntax::dice",
                    format!("`{}` is not a dice expression turnscript can roll", pair.as_str()),
                )
                .label(span, "here")
                .help("write NdS with 1 to 1000 dice of 2 to 1000000 sides, optionally khK or klK keeping K of them")
            })?),
            Rule::boolean => ExprKind::Bool(pair.as_str() == "true"),
            Rule::none_lit => ExprKind::None,
            Rule::path => {
                let mut it = pair.into_inner();
                let base = self.ident(next(&mut it, span)?);
                match it.next() {
                    None => ExprKind::Name(base.node),
                    Some(f) => {
                        let bspan = base.span;
                        ExprKind::Field(Box::new(Spanned::new(ExprKind::Name(base.node), bspan)), self.ident(f))
                    }
                }
            }
            Rule::call => {
                let mut it = pair.into_inner();
                let name = self.ident(next(&mut it, span)?);
                let args = it.map(|p| self.expr(p)).collect::<R<Vec<_>>>()?;
                ExprKind::Call(name, args)
            }
            Rule::quantifier => {
                let mut it = pair.into_inner().filter(|p| !is_keyword(p.as_rule()));
                let q = next(&mut it, span)?;
                let quant = match q.as_str() {
                    "any" => Quant::Any,
                    "all" => Quant::All,
                    "count" => Quant::Count,
                    "sum" => Quant::Sum,
                    "max" => Quant::Max,
                    "first" => Quant::First,
                    "last" => Quant::Last,
                    _ => Quant::Min,
                };
                let var = self.ident(next(&mut it, span)?);
                let coll = self.collection(next(&mut it, span)?);
                let (mut filter, mut body, mut by) = (None, None, None);
                for p in it {
                    let r = p.as_rule();
                    if r == Rule::quant_by {
                        by = Some(self.ident(last_inner(p, span)?));
                        continue;
                    }
                    let e = Box::new(self.expr(last_inner(p, span)?)?);
                    if r == Rule::quant_where {
                        filter = Some(e)
                    } else {
                        body = Some(e)
                    }
                }
                ExprKind::Quant {
                    quant,
                    var,
                    coll,
                    filter,
                    by,
                    body,
                }
            }
            r => return Err(internal(span, r)),
        };
        Ok(Spanned::new(kind, span))
    }
}

/// The length of `text` without trailing whitespace and trailing `#` comments.
fn trimmed_len(text: &str) -> usize {
    let mut t = text.trim_end();
    loop {
        let line_start = t.rfind('\n').map_or(0, |i| i + 1);
        let line = &t[line_start..];
        let mut in_string = false;
        let comment = line.char_indices().find_map(|(i, c)| match c {
            '"' => {
                in_string = !in_string;
                None
            }
            '#' if !in_string => Some(i),
            _ => None,
        });
        match comment {
            Some(i) => t = t[..line_start + i].trim_end(),
            None => return t.len(),
        }
    }
}

fn too_large(span: Span) -> Diag {
    Diag::new("syntax::number", "this number is too large")
        .label(span, "does not fit in 64 bits")
        .help(format!("numbers go up to {}", i64::MAX))
}

fn parse_dice(text: &str) -> Option<Dice> {
    let (count, rest) = text.split_once('d')?;
    let count: u32 = if count.is_empty() { 1 } else { count.parse().ok()? };
    let (sides, keep) = if let Some((s, k)) = rest.split_once("kh") {
        (s, Some((Keep::Highest, k.parse().ok()?)))
    } else if let Some((s, k)) = rest.split_once("kl") {
        (s, Some((Keep::Lowest, k.parse().ok()?)))
    } else {
        (rest, None)
    };
    let sides: u32 = sides.parse().ok()?;
    if !(1..=crate::limits::MAX_DICE).contains(&count) || !(2..=crate::limits::MAX_SIDES).contains(&sides) {
        return None;
    }
    if let Some((_, k)) = keep
        && (k == 0 || k > count)
    {
        return None;
    }
    Some(Dice { count, sides, keep })
}

fn next<'a>(it: &mut impl Iterator<Item = Pair<'a, Rule>>, span: Span) -> R<Pair<'a, Rule>> {
    it.next()
        .ok_or_else(|| Diag::new("internal", "the parser met a shape it does not know").label(span, "here"))
}

fn last_inner(pair: Pair<Rule>, span: Span) -> R<Pair<Rule>> {
    pair.into_inner()
        .filter(|p| !is_keyword(p.as_rule()))
        .last()
        .ok_or_else(|| internal(span, Rule::expr))
}

fn internal(span: Span, rule: Rule) -> Diag {
    Diag::new(
        "internal",
        format!("the parser met a shape it does not know ({rule:?})"),
    )
    .label(span, "here")
    .help("this is a bug in turnscript; please report it with this file")
}

fn is_infix(r: Rule) -> bool {
    matches!(
        r,
        Rule::op_or
            | Rule::op_and
            | Rule::op_eq
            | Rule::op_ne
            | Rule::op_lt
            | Rule::op_le
            | Rule::op_gt
            | Rule::op_ge
            | Rule::op_add
            | Rule::op_sub
            | Rule::op_mul
            | Rule::op_div
    )
}

fn is_keyword(r: Rule) -> bool {
    keyword_text(r).is_some()
}

fn keyword_text(r: Rule) -> Option<&'static str> {
    Some(match r {
        Rule::kw_ruleset => "ruleset",
        Rule::kw_encounter => "encounter",
        Rule::kw_param => "param",
        Rule::kw_stat => "stat",
        Rule::kw_resource => "resource",
        Rule::kw_flag => "flag",
        Rule::kw_side => "side",
        Rule::kw_tag => "tag",
        Rule::kw_action => "action",
        Rule::kw_order => "order",
        Rule::kw_policy => "policy",
        Rule::kw_default => "default",
        Rule::kw_setup => "setup",
        Rule::kw_play => "play",
        Rule::kw_character => "character",
        Rule::kw_characters => "characters",
        Rule::kw_level => "level",
        Rule::kw_phase => "phase",
        Rule::kw_round => "round",
        Rule::kw_turn => "turn",
        Rule::kw_repeat => "repeat",
        Rule::kw_while => "while",
        Rule::kw_until => "until",
        Rule::kw_settled => "settled",
        Rule::kw_for => "for",
        Rule::kw_each => "each",
        Rule::kw_in => "in",
        Rule::kw_where => "where",
        Rule::kw_by => "by",
        Rule::kw_if => "if",
        Rule::kw_else => "else",
        Rule::kw_choose => "choose",
        Rule::kw_option => "option",
        Rule::kw_end => "end",
        Rule::kw_because => "because",
        Rule::kw_spend => "spend",
        Rule::kw_gain => "gain",
        Rule::kw_reset => "reset",
        Rule::kw_to => "to",
        Rule::kw_forfeit => "forfeit",
        Rule::kw_set => "set",
        Rule::kw_mark => "mark",
        Rule::kw_clear => "clear",
        Rule::kw_costs => "costs",
        Rule::kw_when => "when",
        Rule::kw_per => "per",
        Rule::kw_min => "min",
        Rule::kw_max => "max",
        Rule::kw_roll => "roll",
        Rule::kw_desc => "desc",
        Rule::kw_asc => "asc",
        Rule::kw_not => "not",
        Rule::kw_and => "and",
        Rule::kw_or => "or",
        Rule::kw_is => "is",
        Rule::kw_true => "true",
        Rule::kw_false => "false",
        Rule::kw_any => "any",
        Rule::kw_all => "all",
        Rule::kw_count => "count",
        Rule::kw_sum => "sum",
        Rule::kw_then => "then",
        Rule::kw_unit => "unit",
        Rule::kw_role => "role",
        Rule::kw_trigger => "trigger",
        Rule::kw_on => "on",
        Rule::kw_start => "start",
        Rule::kw_of => "of",
        Rule::kw_kind => "kind",
        Rule::kw_using => "using",
        Rule::kw_from => "from",
        Rule::kw_rank => "rank",
        Rule::kw_transfer => "transfer",
        Rule::kw_raise => "raise",
        Rule::kw_react => "react",
        Rule::kw_elapse => "elapse",
        Rule::kw_global => "global",
        Rule::kw_routine => "routine",
        Rule::kw_do => "do",
        Rule::kw_backwards => "backwards",
        Rule::kw_effect => "effect",
        Rule::kw_begin => "begin",
        Rule::kw_counted => "counted",
        Rule::kw_at => "at",
        Rule::kw_stop => "stop",
        Rule::kw_unless => "unless",
        Rule::kw_place => "place",
        Rule::kw_first => "first",
        Rule::kw_last => "last",
        Rule::kw_before => "before",
        Rule::kw_after => "after",
        Rule::kw_thing => "thing",
        Rule::kw_create => "create",
        Rule::kw_destroy => "destroy",
        Rule::kw_as => "as",
        Rule::kw_let => "let",
        _ => return None,
    })
}

/// The human name of every grammar rule, for parse errors.
fn rule_name(r: Rule) -> String {
    if let Some(k) = keyword_text(r) {
        return format!("`{k}`");
    }
    match r {
        Rule::EOI => "end of file",
        Rule::file => "a file",
        Rule::ruleset_decl => "`ruleset \"name\"`",
        Rule::encounter_decl => "`encounter \"name\"`",
        Rule::param_decl => "a `param` declaration",
        Rule::stat_decl => "a `stat` declaration",
        Rule::resource_decl => "a `resource` declaration",
        Rule::res_min => "`min`",
        Rule::res_max => "`max`",
        Rule::flag_decl => "a `flag` declaration",
        Rule::side_decl => "a `side` declaration",
        Rule::tag_decl => "a `tag` declaration",
        Rule::ident_list => "a list of names",
        Rule::action_decl => "an `action` declaration",
        Rule::costs => "`costs`",
        Rule::cost => "a cost such as `2 RESOURCE`",
        Rule::order_decl => "an `order` declaration",
        Rule::order_key => "an ordering key such as `c.STAT desc`",
        Rule::roll_key => "a roll key such as `roll d6 desc until settled`",
        Rule::settled => "`until settled`",
        Rule::value_key => "an ordering key such as `c.STAT desc`",
        Rule::direction => "`desc` or `asc`",
        Rule::policy_decl => "a `policy` declaration",
        Rule::preference => "a preference such as `DECISION: OPTION, OPTION`",
        Rule::default_policy => "`default policy NAME`",
        Rule::setup_decl => "a `setup` block",
        Rule::play_decl => "a `play` block",
        Rule::character_decl => "a `character` declaration",
        Rule::char_side => "`side NAME`",
        Rule::char_tag => "`tag NAME`",
        Rule::char_field => "a field such as `STAT = 3`",
        Rule::name => "a name",
        Rule::level_name => "a level name",
        Rule::block => "a block `{ ... }`",
        Rule::level_stmt => "a `level`",
        Rule::phase_stmt => "a `phase`",
        Rule::round_stmt => "a `round`",
        Rule::repeat => "`repeat`",
        Rule::repeat_while => "`while CONDITION`",
        Rule::repeat_until => "`until CONDITION`",
        Rule::turn_stmt => "a `turn`",
        Rule::for_stmt => "a `for each` loop",
        Rule::collection => "`characters`, a thing's plural or a ranked order",
        Rule::if_stmt => "an `if`",
        Rule::choose_stmt => "a `choose` decision",
        Rule::option => "an `option`",
        Rule::action_option => "`action`",
        Rule::end_stmt => "an `end`",
        Rule::end_encounter => "`encounter`",
        Rule::spend_stmt => "a `spend`",
        Rule::spend_all => "`all`",
        Rule::gain_stmt => "a `gain`",
        Rule::reset_stmt => "a `reset`",
        Rule::forfeit_stmt => "a `forfeit`",
        Rule::set_stmt => "a `set`",
        Rule::mark_stmt => "a `mark`",
        Rule::clear_stmt => "a `clear`",
        Rule::target => "a field such as `c.FIELD`, or a global",
        Rule::expr => "an expression",
        Rule::op_neg => "`-`",
        Rule::op_not => "`not`",
        Rule::op_is => "`is NAME`",
        Rule::op_field => "`.FIELD`",
        Rule::op_or
        | Rule::op_and
        | Rule::op_eq
        | Rule::op_ne
        | Rule::op_le
        | Rule::op_ge
        | Rule::op_lt
        | Rule::op_gt => "a comparison or `and`/`or`",
        Rule::op_add | Rule::op_sub | Rule::op_mul | Rule::op_div => "an arithmetic operator",
        Rule::dice => "dice such as `2d6`",
        Rule::number => "a number",
        Rule::boolean => "`true` or `false`",
        Rule::quantifier => "a quantifier such as `any c in characters: c.FIELD > 0`",
        Rule::quant => "`any`, `all`, `count`, `sum`, `max`, `min`, `first` or `last`",
        Rule::quant_where => "`where CONDITION`",
        Rule::quant_body => "`: EXPRESSION`",
        Rule::call => "a function call",
        Rule::path => "a name",
        Rule::string => "a string in double quotes",
        Rule::string_in => "string text",
        Rule::ident => "a name",
        Rule::keyword => "a keyword",
        Rule::kinds => "`kind NAME`",
        Rule::global_decl => "a `global` declaration",
        Rule::routine_decl => "a `routine` declaration",
        Rule::do_stmt => "a `do`",
        Rule::backwards => "`backwards`",
        Rule::effect_decl => "an `effect` declaration",
        Rule::begin_stmt => "a `begin`",
        Rule::count_place => "`place of c in ORDER`",
        Rule::count_edge => "`start of ...` or `end of ...`",
        Rule::count_turn => "`turn(c)`",
        Rule::stop_stmt => "a `stop`",
        Rule::param_arg => "an argument such as `x` or `c: character`",
        Rule::refusal => "`unless CONDITION because \"TEXT\"`",
        Rule::place_stmt => "a `place`",
        Rule::place_first => "`first`",
        Rule::place_last => "`last`",
        Rule::place_before => "`before`",
        Rule::place_after => "`after`",
        Rule::res_default => "`default`",
        Rule::of_type => "`: TYPE`",
        Rule::type_name => "a type: `character` or a declared thing",
        Rule::typed => "a name such as `c` or `p: player`",
        Rule::typed_list => "a list of names such as `c, p: player`",
        Rule::thing_decl => "a `thing NAME, PLURAL { ... }` declaration",
        Rule::instance_decl => "an entity such as `player Ann { seat = 1 }`",
        Rule::walk_from => "`from X`",
        Rule::create_stmt => "a `create`",
        Rule::destroy_stmt => "a `destroy`",
        Rule::let_stmt => "a `let`",
        Rule::none_lit => "`none`",
        Rule::quant_by => "`by ORDER`",
        Rule::unit_decl => "a `unit` declaration",
        Rule::role_decl => "a `role` declaration",
        Rule::trigger_decl => "a `trigger` declaration",
        Rule::hook_decl => "a hook `on ...`",
        Rule::hook_edge => "`start of` or `end of`",
        Rule::hook_start => "`start`",
        Rule::hook_end => "`end`",
        Rule::hook_turn => "`turn(c)`",
        Rule::hook_trigger => "a trigger such as `NAME(c)`",
        Rule::choose_from => "`from c in characters`",
        Rule::decline => "`or NAME`",
        Rule::of_kind => "`of kind NAME`",
        Rule::using => "`using RESOURCE`",
        Rule::end_repeat => "`repeat`",
        Rule::repeat_stmt => "a `repeat` loop",
        Rule::rank_stmt => "a `rank`",
        Rule::transfer_stmt => "a `transfer`",
        Rule::raise_stmt => "a `raise`",
        Rule::react_stmt => "a `react`",
        Rule::elapse_stmt => "an `elapse`",
        Rule::if_expr => "`if C then A else B`",
        Rule::path_level => "a level name",
        Rule::field_name => "a field name",
        _ => "something else",
    }
    .to_string()
}

fn pest_error(e: pest::error::Error<Rule>, src: &str, file: FileId) -> Diag {
    use pest::error::{ErrorVariant, InputLocation};
    let pos = match e.location {
        InputLocation::Pos(p) => p,
        InputLocation::Span((s, _)) => s,
    };
    let found_end = src[pos..]
        .char_indices()
        .find(|(_, c)| c.is_whitespace())
        .map(|(i, _)| pos + i)
        .unwrap_or(src.len())
        .max(pos + src[pos..].chars().next().map(|c| c.len_utf8()).unwrap_or(0));
    let found = &src[pos..found_end];
    let label = if found.is_empty() {
        "the file ends here".to_string()
    } else {
        format!("found `{found}`")
    };
    let (message, help) = match e.variant {
        ErrorVariant::ParsingError { positives, negatives } => {
            let mut names: Vec<String> = positives.into_iter().map(rule_name).collect();
            names.sort();
            names.dedup();
            let expected = match names.len() {
                0 => String::new(),
                1 => names[0].clone(),
                n => format!("{} or {}", names[..n - 1].join(", "), names[n - 1]),
            };
            let message = if !expected.is_empty() {
                format!("expected {expected}")
            } else if !negatives.is_empty() {
                let names: Vec<String> = negatives.into_iter().map(rule_name).collect();
                format!("unexpected {}", names.join(", "))
            } else {
                "this text cannot be parsed".to_string()
            };
            let help = if found.is_empty() {
                "the file ended early: is a closing `}` missing?".to_string()
            } else if names.iter().any(|n| n == "a name") && is_reserved(found) {
                let word: String = found
                    .chars()
                    .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                    .collect();
                format!("`{word}` is a keyword and cannot be used as a name; pick another name")
            } else {
                "see docs/language.md for the form of each declaration and statement".to_string()
            };
            (message, help)
        }
        ErrorVariant::CustomError { message } => (message, "see docs/language.md".to_string()),
    };
    Diag::new("syntax::parse", message)
        .label(Span::new(file, pos, found_end), label)
        .help(help)
}

fn is_reserved(word: &str) -> bool {
    let w: String = word
        .chars()
        .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
        .collect();
    Grammar::parse(Rule::keyword, &w)
        .map(|p| p.as_str().len() == w.len())
        .unwrap_or(false)
        && !w.is_empty()
}
