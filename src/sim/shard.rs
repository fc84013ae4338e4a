//! `--shard I/K`: one part of a simulation's encounters, and the exact tallies its JSON report
//! carries so that `sim merge` ([`super::merge`]) adds the parts up to the whole.
//!
//! Shard `I` of `K` runs the encounters `⌊(I−1)·N/K⌋ .. ⌊I·N/K⌋` of the `N`, each with the seed
//! it has in the whole simulation ([`super::encounter_seed`]), so the shards together run exactly
//! the encounters of the one-machine run. Its JSON report has a `shard` object: the shard, the
//! options, the program's files and their hash, and the [`Stats`] as integers (numbers past 64
//! bits as decimal strings), from which the merge rebuilds the whole run's report byte for byte.

use std::borrow::Cow;
use std::fmt;
use std::ops::Range;

use serde_json::{Value, json};

use super::tally::{Held, Holder, Spread, Values};
use super::{Hist, SimOptions, Stats};
use crate::compile::Program;
use crate::trace::EndReason;

/// The version of the `shard` object: a merge refuses another.
/// 2: the tallies carry their checksum (`tallies_checksum`).
pub const SHARD_FORMAT: u64 = 2;

/// Which part of the encounters a process runs: the `index`-th (from 1) of `count`, always
/// `1 ≤ index ≤ count` ([`Shard::new`], [`Shard::parse`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    index: u64,
    count: u64,
}

impl Shard {
    /// The `index`-th of `count` shards; `None` unless `1 ≤ index ≤ count`.
    pub fn new(index: u64, count: u64) -> Option<Shard> {
        (1..=count).contains(&index).then_some(Shard { index, count })
    }

    /// Which shard it is, from 1.
    pub fn index(&self) -> u64 {
        self.index
    }

    /// How many shards there are.
    pub fn count(&self) -> u64 {
        self.count
    }

    /// `I/K`, with `1 ≤ I ≤ K`.
    pub fn parse(text: &str) -> Result<Shard, String> {
        let help = "help: give the shard as I/K, the I-th of K parts, counting from 1: --shard 1/4 ... --shard 4/4";
        let Some((i, k)) = text.split_once('/') else {
            return Err(format!("`{text}` is not I/K\n  {help}"));
        };
        let number = |what: &str, t: &str| match t.trim().parse::<u64>() {
            Ok(n) => Ok(n),
            Err(e) if *e.kind() == std::num::IntErrorKind::PosOverflow => Err(format!(
                "`{text}`: {what} is too large (at most {})\n  {help}",
                u64::MAX
            )),
            Err(_) => Err(format!("`{text}`: I and K are whole numbers\n  {help}")),
        };
        let (index, count) = (number("I", i)?, number("K", k)?);
        if count == 0 {
            return Err(format!("`{text}`: K, the number of shards, is at least 1\n  {help}"));
        }
        if index == 0 || index > count {
            return Err(format!(
                "`{text}`: there is no shard {index} of {count}; shards count from 1 to {count}\n  {help}"
            ));
        }
        Ok(Shard { index, count })
    }

    /// Its encounters among `n`: `⌊(I−1)·n/K⌋ .. ⌊I·n/K⌋` (empty when `K > n` leaves it none).
    pub fn range(&self, n: u64) -> Range<u64> {
        let at = |w: u64| ((n as u128 * w as u128) / self.count as u128) as u64;
        at(self.index - 1)..at(self.index)
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

/// The identity of a program's text: FNV-1a (64 bits) over each file's text and its length, in
/// order, written `fnv1a64:` and 16 hex digits. The file names are not part of it (a shard may
/// read the same files under another path).
pub fn program_hash<'a>(texts: impl IntoIterator<Item = &'a str>) -> String {
    let mut h = Fnv::new();
    for t in texts {
        h.eat(&(t.len() as u64).to_le_bytes());
        h.eat(t.as_bytes());
    }
    h.hex()
}

/// The checksum of a shard's tallies: FNV-1a (64 bits) over the tallies object written as
/// compact JSON (no spaces, its keys in the order the file has them), written `fnv1a64:` and 16
/// hex digits. A merge refuses tallies that do not match it: they were changed after the shard
/// wrote them (re-indenting the file changes nothing).
pub fn tallies_checksum(tallies: &Value) -> String {
    let mut h = Fnv::new();
    h.eat(serde_json::to_string(tallies).unwrap_or_default().as_bytes());
    h.hex()
}

/// FNV-1a, 64 bits.
struct Fnv(u64);

impl Fnv {
    fn new() -> Fnv {
        Fnv(0xcbf2_9ce4_8422_2325)
    }

    fn eat(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 ^= u64::from(b);
            self.0 = self.0.wrapping_mul(0x0000_0100_0000_01b3);
        }
    }

    fn hex(&self) -> String {
        format!("fnv1a64:{:016x}", self.0)
    }
}

/// The `shard` object of a shard's JSON report: the shard, the options, the program's files
/// (name, text) and their hash, and the exact tallies.
pub fn document(files: &[(String, String)], opts: &SimOptions, stats: &Stats) -> Value {
    let shard = opts.shard.unwrap_or(Shard { index: 1, count: 1 });
    let range = opts.encounters();
    let tallies = tallies(stats);
    json!({
        "format": SHARD_FORMAT,
        "turnscript": env!("CARGO_PKG_VERSION"),
        "index": shard.index,
        "of": shard.count,
        "first": range.start,
        "end": range.end,
        "n": opts.n,
        "seed": opts.seed,
        "policy": opts.policy,
        "until": opts.until,
        "max_steps": opts.max_steps,
        "program": program_hash(files.iter().map(|f| f.1.as_str())),
        "files": files.iter().map(|(n, t)| json!({"name": n, "text": t})).collect::<Vec<_>>(),
        "tallies_checksum": tallies_checksum(&tallies),
        "tallies": tallies,
    })
}

fn big<T: std::fmt::Display>(v: T) -> Value {
    Value::String(v.to_string())
}

fn bigs<T: std::fmt::Display>(v: &[T]) -> Value {
    Value::Array(v.iter().map(big).collect())
}

fn spread(s: &Spread) -> Value {
    json!([s.n, big(s.sum), s.min, s.max])
}

fn reason(r: &EndReason) -> Value {
    match r {
        EndReason::Complete => json!(["complete"]),
        EndReason::Ended(i) => json!(["ended", i]),
        EndReason::Until { level, n, default } => json!(["until", level, n, default]),
    }
}

fn end_key(r: &EndReason) -> (u8, u64, u64, bool) {
    match r {
        EndReason::Complete => (0, 0, 0, false),
        EndReason::Ended(i) => (1, i.map_or(0, |i| i as u64 + 1), 0, false),
        EndReason::Until { level, n, default } => (2, *level as u64, *n, *default),
    }
}

fn values(v: &Values) -> Value {
    let bins: Vec<Value> = v.hist.raw().map(|(b, n)| json!([b, n])).collect();
    json!({
        "spread": spread(&v.spread),
        "sq": v.sq.map(big),
        "shift": v.hist.width().trailing_zeros(),
        "bins": bins,
    })
}

/// The tallies as JSON: every number exact; the lists whose order depends on which worker ran
/// what (ends, stops, errors) sorted, so a shard's file depends on its encounters alone.
pub fn tallies(s: &Stats) -> Value {
    let c = &s.sum;
    let mut ends = s.ends.clone();
    ends.sort_by_key(|(r, _)| end_key(r));
    let mut stopped = s.stopped.clone();
    stopped.sort_by_key(|(l, r, _)| (*l, end_key(r)));
    let mut errors = s.errors.clone();
    errors.sort();
    let holder = |h: &Holder| match h {
        Holder::Table => json!(["table"]),
        Holder::Side(i) => json!(["side", i]),
        Holder::Entity(e) => json!(["entity", e]),
    };
    let held = |h: &Held| match h {
        Held::Id(v) => json!(["id", v]),
        Held::Made => json!(["made"]),
        Held::None => json!(["none"]),
    };
    json!({
        "runs": s.runs,
        "finished": s.finished,
        "steps": big(s.steps),
        "steps_min": s.steps_min,
        "steps_max": s.steps_max,
        "sum": {
            "iters": c.iters, "turns": c.turns, "actions": c.actions,
            "spent": bigs(&c.spent), "gained": bigs(&c.gained), "forfeited": bigs(&c.forfeited),
            "forfeits": c.forfeits, "left": bigs(&c.left), "left_known": c.left_known,
            "complete": c.complete, "outer": c.outer, "ended": c.ended,
            "measures": c.measures.iter().map(values).collect::<Vec<_>>(),
            "about": c.about.iter().map(|(n, sum)| json!([n, big(sum)])).collect::<Vec<_>>(),
            "armed": c.armed, "fired": c.fired, "expired": c.expired, "disarmed": c.disarmed,
            "cancelled": c.cancelled, "lapsed": c.lapsed,
        },
        "hist": s.hist,
        "made": s.made,
        "place": s.place,
        "ends": ends.iter().map(|(r, n)| json!([reason(r), n])).collect::<Vec<_>>(),
        "stopped": stopped.iter().map(|(l, r, n)| json!([l, reason(r), n])).collect::<Vec<_>>(),
        "errors": errors.iter().map(|(code, n)| json!([code, n])).collect::<Vec<_>>(),
        "first_error": s.first_error.as_ref().map(|(i, seed, d)| json!([i, seed, d.code])),
        "finals": s.finals.iter().map(spread).collect::<Vec<_>>(),
        "final_globals": s.final_globals.iter().map(spread).collect::<Vec<_>>(),
        "final_sides": s.final_sides.iter().map(spread).collect::<Vec<_>>(),
        "held": s.held.iter().map(|((w, f, h), n)| json!([holder(w), f, held(h), n])).collect::<Vec<_>>(),
    })
}

/// A failure a shard recorded: the lowest-numbered encounter that failed in it, its seed and the
/// code of its diagnostic (the merge runs it again for the diagnostic itself).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Failure {
    pub index: u64,
    pub seed: u64,
    pub code: String,
}

/// A place in a JSON document, to read it and to say where it is wrong.
struct At<'a> {
    v: &'a Value,
    path: String,
}

type Read<T> = Result<T, String>;

impl<'a> At<'a> {
    fn key(&self, k: &str) -> Read<At<'a>> {
        match self.v.get(k) {
            Some(v) => Ok(At {
                v,
                path: format!("{}.{k}", self.path),
            }),
            None => Err(format!("{} has no `{k}`", self.path)),
        }
    }

    fn items(&self) -> Read<Vec<At<'a>>> {
        let a = self
            .v
            .as_array()
            .ok_or_else(|| format!("{} is not a list", self.path))?;
        Ok(a.iter()
            .enumerate()
            .map(|(i, v)| At {
                v,
                path: format!("{}[{i}]", self.path),
            })
            .collect())
    }

    fn items_n(&self, n: usize) -> Read<Vec<At<'a>>> {
        let items = self.items()?;
        if items.len() != n {
            return Err(format!(
                "{} holds {} items where the program has {n}",
                self.path,
                items.len()
            ));
        }
        Ok(items)
    }

    fn u64(&self) -> Read<u64> {
        self.v
            .as_u64()
            .ok_or_else(|| format!("{} is not a whole number of at most 64 bits", self.path))
    }

    fn i64(&self) -> Read<i64> {
        self.v
            .as_i64()
            .ok_or_else(|| format!("{} is not a 64-bit integer", self.path))
    }

    fn str(&self) -> Read<&'a str> {
        self.v.as_str().ok_or_else(|| format!("{} is not a string", self.path))
    }

    fn parsed<T: std::str::FromStr>(&self) -> Read<T> {
        self.str()?
            .parse()
            .map_err(|_| format!("{} is not an integer written as a string", self.path))
    }

    fn u64s(&self, n: usize) -> Read<Vec<u64>> {
        self.items_n(n)?.iter().map(At::u64).collect()
    }

    fn i128s(&self, n: usize) -> Read<Vec<i128>> {
        self.items_n(n)?.iter().map(At::parsed).collect()
    }

    fn spread(&self) -> Read<Spread> {
        let a = self.items_n(4)?;
        Ok(Spread {
            n: a[0].u64()?,
            sum: a[1].parsed()?,
            min: a[2].i64()?,
            max: a[3].i64()?,
        })
    }

    fn spreads(&self, n: usize) -> Read<Vec<Spread>> {
        self.items_n(n)?.iter().map(At::spread).collect()
    }

    fn reason(&self, p: &Program) -> Read<EndReason> {
        let a = self.items()?;
        let bad = || format!("{} is not an end of an encounter of this program", self.path);
        let level = |x: &At| x.u64().ok().filter(|&l| l < p.levels.len() as u64).ok_or_else(bad);
        match (a.first().map(|k| k.v.as_str()), a.len()) {
            (Some(Some("complete")), 1) => Ok(EndReason::Complete),
            (Some(Some("ended")), 2) if a[1].v.is_null() => Ok(EndReason::Ended(None)),
            (Some(Some("ended")), 2) => {
                let i = a[1]
                    .u64()
                    .ok()
                    .filter(|&i| i < p.reasons.len() as u64)
                    .ok_or_else(bad)?;
                Ok(EndReason::Ended(Some(i as u16)))
            }
            (Some(Some("until")), 4) => Ok(EndReason::Until {
                level: level(&a[1])? as _,
                n: a[2].u64()?,
                default: a[3].v.as_bool().ok_or_else(bad)?,
            }),
            _ => Err(bad()),
        }
    }

    fn values(&self) -> Read<Values> {
        let shift = self.key("shift")?.u64()?;
        let mut bins = Vec::new();
        for b in self.key("bins")?.items()? {
            let b = b.items_n(2)?;
            bins.push((b[0].i64()?, b[1].u64()?));
        }
        let sq = self.key("sq")?;
        Ok(Values {
            spread: self.key("spread")?.spread()?,
            sq: if sq.v.is_null() { None } else { Some(sq.parsed()?) },
            hist: u32::try_from(shift)
                .ok()
                .and_then(|s| Hist::from_raw(s, bins))
                .ok_or_else(|| format!("{} is not a histogram sim makes", self.path))?,
        })
    }
}

/// Reads a shard's tallies back against the program they were counted for: every list must
/// have the program's length and every id be one of its ids. Returns them with the shard's
/// first failure (its [`Stats::first_error`] is left empty: the merge runs it again).
pub fn read_tallies(v: &Value, p: &Program) -> Result<(Stats, Option<Failure>), String> {
    let t = At {
        v,
        path: "shard.tallies".into(),
    };
    let mut s = Stats::new(p);
    let (l, c, f, sides) = (p.levels.len(), p.characters.len(), p.fields.len(), p.sides.len());
    s.runs = t.key("runs")?.u64()?;
    s.finished = t.key("finished")?.u64()?;
    s.steps = t.key("steps")?.parsed()?;
    s.steps_min = t.key("steps_min")?.u64()?;
    s.steps_max = t.key("steps_max")?.u64()?;
    let sum = t.key("sum")?;
    let n = &mut s.sum;
    n.iters = sum.key("iters")?.u64s(l)?;
    n.turns = sum.key("turns")?.u64s(c)?;
    n.actions = sum.key("actions")?.u64s(c)?;
    n.spent = sum.key("spent")?.i128s(f)?;
    n.gained = sum.key("gained")?.i128s(f)?;
    n.forfeited = sum.key("forfeited")?.i128s(f)?;
    n.forfeits = sum.key("forfeits")?.u64s(f)?;
    n.left = sum.key("left")?.i128s(f)?;
    n.left_known = sum.key("left_known")?.u64s(f)?;
    n.complete = sum.key("complete")?.u64s(l)?;
    n.outer = sum.key("outer")?.u64s(l)?;
    n.ended = sum.key("ended")?.u64s(l * (p.reasons.len() + 1))?;
    n.measures = sum
        .key("measures")?
        .items_n(p.measures.len())?
        .iter()
        .map(At::values)
        .collect::<Read<_>>()?;
    n.about = sum
        .key("about")?
        .items_n(p.measures.len() * (c + sides))?
        .iter()
        .map(|x| {
            let a = x.items_n(2)?;
            Ok((a[0].u64()?, a[1].parsed()?))
        })
        .collect::<Read<_>>()?;
    n.armed = sum.key("armed")?.u64s(c)?;
    n.fired = sum.key("fired")?.u64s(c)?;
    n.expired = sum.key("expired")?.u64s(c)?;
    n.disarmed = sum.key("disarmed")?.u64s(c)?;
    n.cancelled = sum.key("cancelled")?.u64s(c)?;
    n.lapsed = sum.key("lapsed")?.u64()?;
    s.hist = t
        .key("hist")?
        .items_n(l)?
        .iter()
        .map(|h| h.items().and_then(|x| x.iter().map(At::u64).collect()))
        .collect::<Read<_>>()?;
    s.made = t.key("made")?.u64s(p.orders.len())?;
    s.place = t.key("place")?.u64s(p.orders.len() * c * c)?;
    for e in t.key("ends")?.items()? {
        let a = e.items_n(2)?;
        s.ends.push((a[0].reason(p)?, a[1].u64()?));
    }
    for e in t.key("stopped")?.items()? {
        let a = e.items_n(3)?;
        let level = a[0].u64()?;
        if level >= l as u64 {
            return Err(format!("{} is not a level of this program", a[0].path));
        }
        s.stopped.push((level as _, a[1].reason(p)?, a[2].u64()?));
    }
    for e in t.key("errors")?.items()? {
        let a = e.items_n(2)?;
        s.errors.push((Cow::Owned(a[0].str()?.to_string()), a[1].u64()?));
    }
    let first = t.key("first_error")?;
    let failure = if first.v.is_null() {
        None
    } else {
        let a = first.items_n(3)?;
        Some(Failure {
            index: a[0].u64()?,
            seed: a[1].u64()?,
            code: a[2].str()?.to_string(),
        })
    };
    s.finals = t.key("finals")?.spreads(c * f)?;
    s.final_globals = t.key("final_globals")?.spreads(f)?;
    s.final_sides = t.key("final_sides")?.spreads(sides * f)?;
    for e in t.key("held")?.items()? {
        let a = e.items_n(4)?;
        let bad = || format!("{} is not a field's holder and value in this program", e.path);
        let who = a[0].items()?;
        let id = |i: usize| who.get(i).and_then(|x| x.v.as_u64());
        let holder = match (who.first().and_then(|k| k.v.as_str()), who.len()) {
            (Some("table"), 1) => Holder::Table,
            (Some("side"), 2) => Holder::Side(id(1).filter(|&s| s < sides as u64).ok_or_else(bad)? as u32),
            (Some("entity"), 2) => Holder::Entity(id(1).filter(|&e| e < c as u64).ok_or_else(bad)? as _),
            _ => return Err(bad()),
        };
        let field = a[1].u64().ok().filter(|&x| x < f as u64).ok_or_else(bad)?;
        let what = a[2].items()?;
        let held = match (what.first().and_then(|k| k.v.as_str()), what.len()) {
            (Some("id"), 2) => Held::Id(what[1].i64()?),
            (Some("made"), 1) => Held::Made,
            (Some("none"), 1) => Held::None,
            _ => return Err(bad()),
        };
        s.held.insert((holder, field as _, held), a[3].u64()?);
    }
    Ok((s, failure))
}

/// The cheap checks that a shard's tallies add up to the encounters `ran` it ran: every
/// encounter counted once, as finished or failed; the ends, each level's histogram and each
/// order's places no more than the encounters that finished; the least steps no more than the
/// most, and the total between. On a mismatch, the key of the tallies that is off and what.
pub fn check_tallies(s: &Stats, failure: Option<&Failure>, ran: Range<u64>) -> Result<(), (&'static str, String)> {
    let total = |v: &mut dyn Iterator<Item = u64>| v.map(u128::from).sum::<u128>();
    let n = ran.end - ran.start;
    let which = if n == 0 {
        "none".to_string()
    } else {
        // Numbered from 0, as the report's first failure and docs/sim.md number them.
        format!("encounters {} to {}", ran.start, ran.end - 1)
    };
    if s.runs != n {
        return Err((
            "runs",
            format!("`runs` counts {} encounters where the shard ran {n} ({which})", s.runs),
        ));
    }
    if s.finished > s.runs {
        return Err((
            "finished",
            format!("`finished` counts {} encounters of the {n} it ran", s.finished),
        ));
    }
    let failed = total(&mut s.errors.iter().map(|e| e.1));
    if failed != u128::from(s.runs - s.finished) {
        return Err((
            "errors",
            format!(
                "`errors` counts {failed} failed runs where {} of {} did not finish",
                s.runs - s.finished,
                s.runs
            ),
        ));
    }
    if failure.is_some() != (failed > 0) || failure.is_some_and(|f| !ran.contains(&f.index)) {
        return Err((
            "first_error",
            format!("`first_error` is not a failed encounter of {which}"),
        ));
    }
    let fin = u128::from(s.finished);
    let ended = total(&mut s.ends.iter().map(|e| e.1));
    if ended != fin {
        return Err((
            "ends",
            format!("`ends` counts {ended} ends where {fin} encounters finished"),
        ));
    }
    if let Some(l) = s.hist.iter().position(|h| total(&mut h.iter().copied()) != fin) {
        return Err((
            "hist",
            format!("`hist[{l}]` does not count the {fin} encounters that finished"),
        ));
    }
    if s.finished == 0 {
        if s.steps != 0 {
            return Err((
                "steps",
                format!("`steps` counts {} steps where no encounter finished", s.steps),
            ));
        }
    } else if s.steps_min > s.steps_max {
        return Err((
            "steps_max",
            format!("`steps_max` ({}) is below `steps_min` ({})", s.steps_max, s.steps_min),
        ));
    } else if s.steps < fin * u128::from(s.steps_min) || s.steps > fin * u128::from(s.steps_max) {
        return Err((
            "steps",
            format!(
                "`steps` ({}) is not between {fin} encounters of {} steps (`steps_min`) and of {} (`steps_max`)",
                s.steps, s.steps_min, s.steps_max
            ),
        ));
    }
    let c = s.place.len().checked_div(s.made.len()).map_or(0, |cc| cc.isqrt());
    for (o, &made) in s.made.iter().enumerate() {
        if made > s.finished {
            return Err((
                "made",
                format!("`made[{o}]` counts {made} encounters where {fin} finished"),
            ));
        }
        let at = |e: usize, k: usize| s.place.get((o * c + e) * c + k).copied().unwrap_or(0);
        for e in 0..c {
            let by_character = total(&mut (0..c).map(|k| at(e, k)));
            let by_place = total(&mut (0..c).map(|k| at(k, e)));
            if by_character > u128::from(made) || by_place > u128::from(made) {
                return Err((
                    "place",
                    format!(
                        "`place` of order {o} puts a character in more places, or more characters in a place, than the {made} encounters in which the order was made"
                    ),
                ));
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shards_split_the_encounters_into_consecutive_parts_that_cover_them_once() {
        for (n, k) in [(10, 3), (1000, 16), (2, 5), (0, 1), (u64::MAX, 7)] {
            let mut next = 0;
            for i in 1..=k {
                let r = Shard::new(i, k).expect("a shard").range(n);
                assert_eq!(r.start, next, "{i}/{k} of {n}");
                next = r.end;
            }
            assert_eq!(next, n);
        }
        assert_eq!(Shard::parse("2/3"), Ok(Shard { index: 2, count: 3 }));
        assert_eq!(Shard::new(0, 3), None);
        assert_eq!(Shard::new(4, 3), None);
        for bad in ["0/3", "4/3", "1/0", "3", "a/b", "-1/2"] {
            assert!(Shard::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn the_program_hash_is_fnv1a_over_the_lengths_and_texts() {
        assert_eq!(program_hash(["a"]), program_hash(["a"]));
        assert_ne!(program_hash(["ab", "c"]), program_hash(["a", "bc"]));
        assert!(program_hash([] as [&str; 0]).starts_with("fnv1a64:"));
    }
}
