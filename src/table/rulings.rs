//! The GM's rulings at the table: `set`, `begin`, `stop`, `place` and `rank`, parsed into the
//! changes they make, with diagnostics that point into the line.

use super::Table;
use super::commands::*;
use super::session::{Frame, Op, State};
use crate::check::FieldKind;
use crate::compile::ir::*;
use crate::diag::Diag;

fn effect(st: &State, w: Word) -> Result<String, Diag> {
    let p = &st.program;
    let effects: Vec<&str> = p
        .fields
        .iter()
        .filter(|f| f.kind == FieldKind::Effect)
        .map(|f| f.name.as_str())
        .collect();
    if effects.contains(&w.2) {
        return Ok(w.2.to_string());
    }
    let d = bad(
        "repl::unknown_effect",
        format!("no effect is called `{}`", w.2),
        (w.0, w.1),
        "not an effect",
    );
    if effects.is_empty() {
        return Err(d.help("this ruleset declares no effects (`effect NAME` in a ruleset declares one)"));
    }
    let list = effects.join(", ");
    Err(match closest(w.2, effects.iter().copied()) {
        Some(c) => d.help(format!("did you mean `{c}`? the effects are: {list}")),
        None => d.help(format!("the effects are: {list}")),
    })
}

fn order_named(st: &State, w: Word) -> Result<OrderId, Diag> {
    let p = &st.program;
    let names: Vec<&str> = p.orders.iter().map(|o| o.name.as_str()).collect();
    match names.iter().position(|n| *n == w.2) {
        Some(i) => Ok(i as OrderId),
        None => {
            let d = bad(
                "repl::unknown_order",
                format!("no order is called `{}`", w.2),
                (w.0, w.1),
                "not an order",
            );
            Err(match closest(w.2, names.iter().copied()) {
                Some(c) => d.help(format!("did you mean `{c}`? the orders are: {}", names.join(", "))),
                None => d.help(format!(
                    "the orders are: {}",
                    list(&p.orders.iter().map(|o| o.name.clone()).collect::<Vec<_>>())
                )),
            })
        }
    }
}

/// `begin EFFECT on NAME for N [counted at WHERE]`.
pub(super) fn parse_begin(repl: &Table, line: &str, ws: &[Word], head: (usize, usize)) -> Result<Cmd, Diag> {
    let st = state(repl, head)?;
    let pd = pending(st, head)?;
    let fx = effect(st, word(ws, 1, "begin", "an effect", head)?)?;
    keyword(ws, 2, "on", "begin", head)?;
    let on = word(ws, 3, "begin", "a character", head)?;
    character(st, on)?;
    if ws.get(4).is_some_and(|w| w.2 == "until") {
        return begin_until(st, line, ws, (fx, on.2.to_string()), head);
    }
    keyword(ws, 4, "for", "begin", head)?;
    let count: i64 = number(word(ws, 5, "begin", "a count", head)?, "a count (a whole number)")?;
    let at = match ws.get(6).copied() {
        None => None,
        Some(_) => {
            keyword(ws, 6, "counted", "begin", head)?;
            keyword(ws, 7, "at", "begin", head)?;
            let w = word(ws, 8, "begin", "where it is counted", head)?;
            let text = line[w.0..].trim().to_string();
            let spec = super::session::count_at(&st.program, &text).map_err(|e| {
                bad("repl::bad_count_at", e, (w.0, line.trim_end().len()), "counted where?")
                    .help("e.g. place of Mira in initiative, start of turn(Mira), end of round")
            })?;
            if let super::session::CountAt::Place(x, o) = spec
                && !pd.snapshot.ranked.get(o as usize).is_some_and(|r| r.contains(&x))
            {
                return Err(bad(
                    "repl::not_ranked",
                    format!(
                        "{} has no place in the order `{}`",
                        st.program.character_name(x),
                        st.program.orders[o as usize].name
                    ),
                    (w.0, line.trim_end().len()),
                    "no such place",
                )
                .help("`rank` the order or `place` them in it first"));
            }
            Some(text)
        }
    };
    Ok(change(vec![Op::Begin {
        effect: fx,
        on: on.2.to_string(),
        count,
        at,
    }]))
}

/// `begin EFFECT on NAME until start|end of [next] turn(X)|LEVEL`, as the language says it: the
/// count is worked out here, where the ruling is made (2 for `end of next` with a turn of X, or
/// an iteration of LEVEL, under way; else 1), and it is counted at that edge.
fn begin_until(
    st: &State,
    line: &str,
    ws: &[Word],
    (fx, on): (String, String),
    head: (usize, usize),
) -> Result<Cmd, Diag> {
    let w = word(ws, 5, "begin", "`start of` or `end of`", head)?;
    let text = line[w.0..].trim();
    let (next, edge) = match text.split_once(" of next ") {
        Some((edge, rest)) => (true, format!("{edge} of {rest}")),
        None => (false, text.to_string()),
    };
    let spec = super::session::count_at(&st.program, &edge).map_err(|e| {
        bad("repl::bad_count_at", e, (w.0, line.trim_end().len()), "until when?")
            .help("e.g. until end of next turn(Mira), until start of turn(Mira), until end of round")
    })?;
    let under_way = match spec {
        super::session::CountAt::TurnEnd(x) => st.rec.open.iter().any(|f| matches!(f, Frame::Turn(a) if *a == x)),
        super::session::CountAt::LevelEnd(l) => st
            .rec
            .open
            .iter()
            .any(|f| matches!(f, Frame::Level { level, .. } if *level == l)),
        _ => false,
    };
    if matches!(spec, super::session::CountAt::Place(..)) {
        return Err(bad(
            "repl::bad_count_at",
            format!("`until {edge}` is not an edge"),
            (w.0, line.trim_end().len()),
            "until when?",
        )
        .help("until start of turn(NAME), end of [next] turn(NAME), start of LEVEL or end of [next] LEVEL"));
    }
    Ok(change(vec![Op::Begin {
        effect: fx,
        on,
        count: 1 + i64::from(next && under_way),
        at: Some(edge),
    }]))
}

/// `stop EFFECT on NAME` (or `end`).
pub(super) fn parse_stop(repl: &Table, ws: &[Word], head: (usize, usize)) -> Result<Cmd, Diag> {
    let st = state(repl, head)?;
    pending(st, head)?;
    let fx = effect(st, word(ws, 1, "stop", "an effect", head)?)?;
    keyword(ws, 2, "on", "stop", head)?;
    let on = word(ws, 3, "stop", "a character", head)?;
    character(st, on)?;
    too_many(ws, 4, usage("stop"))?;
    Ok(change(vec![Op::Stop {
        effect: fx,
        on: on.2.to_string(),
    }]))
}

/// `place NAME first|last|before X|after X in ORDER`.
pub(super) fn parse_place(repl: &Table, ws: &[Word], head: (usize, usize)) -> Result<Cmd, Diag> {
    let st = state(repl, head)?;
    let pd = pending(st, head)?;
    let who = word(ws, 1, "place", "a character", head)?;
    let e = character(st, who)?;
    let rel = word(ws, 2, "place", "first, last, before NAME or after NAME", head)?;
    let (to, next) = match rel.2 {
        "first" | "last" => (rel.2.to_string(), 3),
        "before" | "after" => {
            let x = word(ws, 3, "place", "a character", head)?;
            character(st, x)?;
            (format!("{} {}", rel.2, x.2), 4)
        }
        _ => {
            return Err(bad(
                "repl::expected_word",
                format!("expected first, last, before or after, found `{}`", rel.2),
                (rel.0, rel.1),
                "where to?",
            )
            .help(format!("usage: {}", usage("place"))));
        }
    };
    keyword(ws, next, "in", "place", head)?;
    let ow = word(ws, next + 1, "place", "a kept order", head)?;
    let o = order_named(st, ow)?;
    too_many(ws, next + 2, usage("place"))?;
    if pd.snapshot.is_absent(e) {
        return Err(bad(
            "repl::absent",
            format!("{} is out of play", who.2),
            (who.0, who.1),
            "out of play",
        ));
    }
    if let Some(x) = to.split_once(' ').map(|(_, x)| x)
        && !pd
            .snapshot
            .ranked
            .get(o as usize)
            .is_some_and(|r| r.iter().any(|id| st.program.character_name(*id) == x))
    {
        return Err(bad(
            "repl::not_ranked",
            format!("{x} is not in the order `{}`", ow.2),
            (ws[3].0, ws[3].1),
            "not in that order",
        )
        .help("place next to someone who is in the order, or first or last"));
    }
    Ok(change(vec![Op::Place {
        who: who.2.to_string(),
        to,
        order: ow.2.to_string(),
    }]))
}

/// `rank ORDER`.
pub(super) fn parse_rank(repl: &Table, ws: &[Word], head: (usize, usize)) -> Result<Cmd, Diag> {
    let st = state(repl, head)?;
    pending(st, head)?;
    let ow = word(ws, 1, "rank", "a kept order", head)?;
    order_named(st, ow)?;
    too_many(ws, 2, usage("rank"))?;
    Ok(change(vec![Op::Rank(ow.2.to_string())]))
}

/// `set NAME.FIELD = VALUE` or `set GLOBAL = VALUE`, from byte `from` of the line. The value is
/// written as the language writes it: a number, `true`/`false` for a flag, a character's name or
/// `none` for a field that holds one.
pub(super) fn set(st: &State, line: &str, from: usize) -> Result<Op, Diag> {
    let rest = &line[from..];
    let Some(eq) = rest.find('=') else {
        return Err(bad(
            "repl::bad_set",
            "`set` needs `= VALUE`",
            (from, line.len()),
            "no `=` here",
        )
        .help(format!("usage: {}", usage("set"))));
    };
    let target = rest[..eq].trim();
    let t0 = from + rest[..eq].find(target).unwrap_or(0);
    let value_text = rest[eq + 1..].trim();
    let v0 = from + eq + 1 + rest[eq + 1..].find(value_text).unwrap_or(0);
    let vspan = (v0, v0 + value_text.len().max(1));
    if target.is_empty() {
        return Err(bad(
            "repl::bad_set",
            "`set` needs a target",
            (from, from + eq),
            "what to set?",
        )
        .help(format!("usage: {}", usage("set"))));
    }
    let p = &st.program;
    let field_err = |name: &str, at: (usize, usize), global: bool| {
        let names: Vec<&str> = p
            .fields
            .iter()
            .filter(|f| (f.kind == FieldKind::Global) == global)
            .map(|f| f.name.as_str())
            .collect();
        let what = if global { "global" } else { "field of a character" };
        let d = bad(
            "repl::unknown_field",
            format!("no {what} is called `{name}`"),
            at,
            format!("not a {what}").as_str(),
        );
        let list = if names.is_empty() {
            "none".to_string()
        } else {
            names.join(", ")
        };
        match closest(name, names.iter().copied()) {
            Some(c) => d.help(format!("did you mean `{c}`? they are: {list}")),
            None => d.help(format!("they are: {list}")),
        }
    };
    let (who, field, f) = match target.rsplit_once('.') {
        Some((quoted, field)) => {
            // `"Big Bob".hp`: the name as rulesets quote it.
            let who = quoted
                .strip_prefix('"')
                .and_then(|x| x.strip_suffix('"'))
                .unwrap_or(quoted);
            let who0 = t0 + usize::from(who.len() != quoted.len());
            // An entity, else a side (`set heroes.init = 4`): the field is its type's.
            let ty = match super::sides::owner_named(p, who) {
                Some((_, ty)) => ty,
                None => {
                    character(st, (who0, who0 + who.len(), who))?;
                    crate::check::CHARACTER
                }
            };
            let who = &target[who0 - t0..who0 - t0 + who.len()];
            let f0 = t0 + quoted.len() + 1;
            match super::sides::field_owned(p, field, Some(ty)) {
                Some(f) => (Some(who.to_string()), field, f),
                None => return Err(field_err(field, (f0, f0 + field.len()), false)),
            }
        }
        None => match super::sides::field_owned(p, target, None) {
            Some(f) => (None, target, f),
            None => {
                return Err(field_err(target, (t0, t0 + target.len()), true)
                    .help("a character's field is set as NAME.FIELD, e.g. set Mira.hp = 3"));
            }
        },
    };
    let def = &p.fields[f as usize];
    let field = field.to_string();
    let on = who.clone().unwrap_or_default();
    if def.kind == FieldKind::Effect {
        return Err(bad(
            "repl::set_effect",
            format!("`{field}` is an effect: it runs for a count, not set"),
            (t0, t0 + target.len()),
            "an effect",
        )
        .help(format!(
            "begin it with `begin {field} on {on} for N`, end it with `stop {field} on {on}`"
        )));
    }
    if let Some(ty @ (crate::check::SIDE | crate::check::ROLE)) = def.refers {
        // A side or a role, by its name (or `none`).
        let kind = if ty == crate::check::SIDE { "side" } else { "role" };
        if value_text != "none" && super::sides::side_or_role(p, ty, value_text).is_none() {
            let names = if ty == crate::check::SIDE { &p.sides } else { &p.roles };
            return Err(bad(
                "repl::wrong_type",
                format!("`{field}` holds a {kind}; {value_text} is not one"),
                vspan,
                format!("not a {kind}").as_str(),
            )
            .help(format!("name a {kind} ({}), or write none", names.join(", "))));
        }
        return Ok(Op::SetEntity {
            who,
            field,
            entity: (value_text != "none").then(|| value_text.to_string()),
        });
    }
    if let Some(ty) = def.refers {
        let entity = match value_text {
            "none" => None,
            name => Some(character(st, (vspan.0, vspan.1, name))?),
        };
        if let Some(e) = entity
            && p.characters[e as usize].ty != ty
        {
            let kind = p.things.get(ty as usize).map_or("entity", |t| t.0.as_str());
            return Err(bad(
                "repl::wrong_type",
                format!("`{field}` holds a {kind}; {value_text} is not one"),
                vspan,
                format!("not a {kind}").as_str(),
            )
            .help(format!("name a {kind}, or write none")));
        }
        return Ok(Op::SetEntity {
            who,
            field,
            entity: entity.map(|e| p.character_name(e).to_string()),
        });
    }
    // A truth global (`global NAME: truth`) takes true or false, as a flag does.
    let kind = if def.truth { FieldKind::Flag } else { def.kind };
    let value = match (value_text, kind) {
        ("true", FieldKind::Flag) => 1,
        ("false", FieldKind::Flag) => 0,
        ("true" | "false", _) => {
            return Err(bad(
                "repl::not_a_number",
                format!("`{value_text}` is a truth value; `{field}` holds a number"),
                vspan,
                "expected a number",
            )
            .help("true and false are for flags; write a whole number here, e.g. 3"));
        }
        (_, FieldKind::Flag) => match value_text.parse::<i64>() {
            Ok(v @ (0 | 1)) => v,
            _ => {
                return Err(bad(
                    "repl::not_a_truth",
                    format!("`{value_text}` is not a truth value"),
                    vspan,
                    "expected true or false",
                )
                .help(format!(
                    "`{field}` {}: set it to true or false",
                    if def.truth { "holds a truth value" } else { "is a flag" }
                )));
            }
        },
        _ if def.decimals > 0 => decimal((vspan.0, vspan.1, value_text), def.decimals)?,
        _ => number((vspan.0, vspan.1, value_text), "a whole number")?,
    };
    Ok(Op::Set {
        who,
        field,
        value,
        decimals: def.decimals,
    })
}
/// A number with at most `d` decimals (`5.75`, `-1.5`, `6`), kept times 10^d as its field keeps it.
fn decimal(w: (usize, usize, &str), d: u8) -> Result<i64, Diag> {
    let (whole, frac) = w.2.split_once('.').unwrap_or((w.2, ""));
    let digits_ok = !frac.is_empty() || !w.2.contains('.');
    let parsed = (digits_ok && frac.len() <= d as usize && frac.bytes().all(|b| b.is_ascii_digit()))
        .then(|| {
            let negative = whole.starts_with('-');
            let whole: i64 = whole.parse().ok()?;
            let frac: i64 = format!("{frac:0<w$}", w = d as usize).parse().ok()?;
            let v = whole.checked_mul(10i64.pow(u32::from(d)))?;
            if negative {
                v.checked_sub(frac)
            } else {
                v.checked_add(frac)
            }
        })
        .flatten();
    parsed.ok_or_else(|| {
        bad(
            "repl::not_a_number",
            format!(
                "`{}` is not a number with at most {d} decimal{}",
                w.2,
                if d == 1 { "" } else { "s" }
            ),
            (w.0, w.1),
            "expected here",
        )
        .help(format!(
            "this field keeps {d} decimals: write e.g. {}",
            crate::trace::Decimal(575 * 10i64.pow(u32::from(d)) / 100, d)
        ))
    })
}
