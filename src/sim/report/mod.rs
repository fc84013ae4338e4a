//! The simulator's report: the totals with names and means, as text, JSON or CSV.
//!
//! Everything here is a function of the totals, so it is identical for a seed whatever the number
//! of threads; the wall time and throughput are not part of it.

use std::fmt::Write;

mod render;

use super::SimOptions;
use super::tally::Stats;
use crate::check::FieldKind;
use crate::compile::Program;
use crate::compile::ir::PolicyRef;
use crate::diag::Diag;
use crate::trace::{EndReason, reason_text};

/// The report's format.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    Text,
    Json,
    Csv,
}

/// The iterations of one level per encounter.
#[derive(Clone, Debug, PartialEq)]
pub struct LevelRow {
    pub name: String,
    pub mean: f64,
    pub sd: f64,
    pub min: u64,
    pub max: u64,
    /// (from, to, encounters): encounters with from..=to iterations.
    pub hist: Vec<(i64, i64, u64)>,
    /// How its iterations ended: (how, count).
    pub ends: Vec<(String, u64)>,
}

/// One order: in how many encounters it was made, and per character the share of those in
/// which its first order put the character at each place.
#[derive(Clone, Debug, PartialEq)]
pub struct OrderRow {
    pub name: String,
    pub made: u64,
    pub places: Vec<(String, Vec<f64>)>,
}

/// A resource's means per finished encounter, summed over the characters.
#[derive(Clone, Debug, PartialEq)]
pub struct ResourceRow {
    pub name: String,
    pub spent: f64,
    pub gained: f64,
    pub forfeited: f64,
    pub forfeits: f64,
    /// The last value seen of it, summed over the characters that had one.
    pub left: f64,
}

/// The values of one `measure` over every finished encounter.
#[derive(Clone, Debug, PartialEq)]
pub struct MeasureRow {
    pub name: String,
    /// Values recorded in all; with none, the statistics below mean nothing and are shown as `-`
    /// (JSON `null`).
    pub recorded: u64,
    /// Values recorded per finished encounter, and their sum per finished encounter.
    pub samples: f64,
    pub total: f64,
    /// Over all values recorded: mean, spread (`None` when the squares overflow), least, most.
    pub mean: f64,
    pub sd: Option<f64>,
    pub min: i64,
    pub max: i64,
    /// (from, to, values): how many values fell in from..=to.
    pub hist: Vec<(i64, i64, u64)>,
    /// The width of the bins the values were counted in: 1 (each value counted), or, when more
    /// than `limits::MAX_SIM_BINS` distinct values came up, a power of two; each row of `hist`
    /// then holds whole bins (in the measure's units times 10^decimals).
    pub bin: u64,
    /// (entity, values per encounter, mean value) for the entities the values were about.
    pub about: Vec<(String, f64, f64)>,
    /// The decimals its values keep: `min`, `max` and the histogram hold them times 10^N (the
    /// means, totals and spread are already divided).
    pub decimals: u8,
}

impl MeasureRow {
    /// The width of the bins its values were counted in, as its values are written.
    pub fn bin_text(&self) -> String {
        num(bin_width(self), self.decimals)
    }
}

/// One field's value at the end of the finished encounters: the entity (`table` for a global),
/// the field, and its mean, least and most over the encounters where the entity was in play.
#[derive(Clone, Debug, PartialEq)]
pub struct FinalRow {
    pub entity: String,
    pub field: String,
    pub mean: f64,
    pub min: i64,
    pub max: i64,
    /// The decimals the field keeps: `min` and `max` hold them times 10^N (`mean` is divided).
    pub decimals: u8,
}

/// A field that holds an entity, a side or a role (`global up: character`, `stat rival:
/// character`): in how many finished encounters it ended holding each value, in declaration
/// order of the values (`none` last). Its holder is as in [`FinalRow`].
#[derive(Clone, Debug, PartialEq)]
pub struct HeldRow {
    pub entity: String,
    pub field: String,
    /// (what it held, encounters): a name, `none`, or [`MADE_IN_PLAY`].
    pub values: Vec<(String, u64)>,
}

/// What [`HeldRow`] says of an entity that `create` made in play (made entities are not told
/// apart).
pub const MADE_IN_PLAY: &str = "(made in play)";

/// A value kept with `d` decimals, as the report writes it.
fn num(v: i64, d: u8) -> String {
    crate::trace::Decimal(v, d).to_string()
}

/// A value kept with `d` decimals, as JSON: a whole number, or a number with its decimals.
/// A measure's bin width as its values are written (with their decimals).
fn bin_width(m: &MeasureRow) -> i64 {
    i64::try_from(m.bin).unwrap_or(i64::MAX)
}

fn jnum(v: i64, d: u8) -> serde_json::Value {
    if d == 0 {
        serde_json::json!(v)
    } else {
        serde_json::json!(v as f64 / 10f64.powi(i32::from(d)))
    }
}

/// 10^d, to divide means by.
fn unit(d: u8) -> f64 {
    10f64.powi(i32::from(d))
}

/// A character's readied responses (`ready`) and cancelled turns and actions: means per
/// finished encounter.
#[derive(Clone, Debug, PartialEq)]
pub struct ResponseRow {
    pub character: String,
    pub armed: f64,
    pub fired: f64,
    pub expired: f64,
    /// Disarmed otherwise: the owner left play, a new one replaced it, or it was out of play.
    pub disarmed: f64,
    pub cancelled: f64,
}

/// What a simulation found, with names.
#[derive(Clone, Debug, PartialEq)]
pub struct Report {
    pub ruleset: String,
    pub encounter: String,
    pub seed: u64,
    pub policy: String,
    pub until: Option<String>,
    pub runs: u64,
    pub finished: u64,
    pub steps: u128,
    pub steps_min: u64,
    pub steps_max: u64,
    /// Changes deferred to the end of a moment that lapsed, in all (shown only when some did).
    pub lapsed: u64,
    pub ends: Vec<(String, u64)>,
    pub levels: Vec<LevelRow>,
    /// (character, turns, actions): means per finished encounter.
    pub characters: Vec<(String, f64, f64)>,
    /// Readied responses and cancellations per character (those with any), means per
    /// finished encounter.
    pub responses: Vec<ResponseRow>,
    pub orders: Vec<OrderRow>,
    pub resources: Vec<ResourceRow>,
    pub measures: Vec<MeasureRow>,
    /// Every field of every declared entity, and every global, at the end.
    pub finals: Vec<FinalRow>,
    /// The fields that hold an entity, a side or a role: what they held at the end.
    pub held: Vec<HeldRow>,
    pub errors: Vec<(String, u64)>,
    /// The failure of the lowest-numbered encounter: (index, seed, rendered diagnostic).
    pub first_error: Option<(u64, u64, String)>,
    /// The files the program was read from, as the command named them (the ruleset, then the
    /// encounter), for the command that replays the first failure; set by the front end.
    pub files: Vec<String>,
    /// The options of `turnscript run` that play an encounter as the simulation did: `--policy`,
    /// `--until` when given, `--max-steps` when not the default.
    pub run_options: String,
    /// `--shard I/K`: the shard, its encounters and the `-n` of the whole run; the report is of
    /// its encounters alone.
    pub shard: Option<(super::Shard, std::ops::Range<u64>, u64)>,
    /// A shard's `shard` object for `sim merge` ([`super::shard::document`]), put in the JSON
    /// report when set.
    pub shard_json: Option<serde_json::Value>,
}

/// `--policy P --until U --max-steps M`, each when it changes a run (with a space before each).
fn replay_options(opts: &SimOptions) -> String {
    let mut o = String::new();
    if let Some(p) = &opts.policy {
        o.push_str(&format!(" --policy {}", shell_word(p)));
    }
    if let Some(u) = &opts.until {
        o.push_str(&format!(" --until {}", shell_word(u)));
    }
    if opts.max_steps != crate::limits::DEFAULT_MAX_STEPS {
        o.push_str(&format!(" --max-steps {}", opts.max_steps));
    }
    o
}

/// A word as a POSIX shell reads it back: as it is when it holds nothing the shell would read
/// otherwise, else in single quotes.
fn shell_word(w: &str) -> String {
    let plain = |c: char| c.is_ascii_alphanumeric() || "_-./=,:+@%".contains(c);
    if !w.is_empty() && w.chars().all(plain) {
        w.to_string()
    } else {
        format!("'{}'", w.replace('\'', "'\\''"))
    }
}

/// A sort key for end reasons: complete, the `because` texts in declaration order, then stops.
fn end_key(r: &EndReason) -> (u8, u64, u64, bool) {
    match r {
        EndReason::Complete => (0, 0, 0, false),
        EndReason::Ended(i) => (1, i.map_or(0, |i| i as u64 + 1), 0, false),
        EndReason::Until { level, n, default } => (2, *level as u64, *n, *default),
    }
}

fn ratio(a: f64, b: u64) -> f64 {
    if b == 0 { 0.0 } else { a / b as f64 }
}

impl Report {
    /// Names and means of `stats`; `render` renders the first failure's diagnostic.
    pub fn new(p: &Program, opts: &SimOptions, stats: &Stats, render: impl Fn(&Diag) -> String) -> Report {
        let fin = stats.finished;
        let mut ends = stats.ends.clone();
        ends.sort_by_key(|(r, _)| end_key(r));
        let nr = p.reasons.len() + 1;
        let levels = p
            .levels
            .iter()
            .enumerate()
            .map(|(l, def)| {
                let h = &stats.hist[l];
                // Saturating: only totals read back by `sim merge` from a file changed by hand
                // could come near 2^128.
                let (mut sum, mut sq) = (0u128, 0u128);
                for (v, &c) in h.iter().enumerate() {
                    sum = sum.saturating_add((v as u128).saturating_mul(c as u128));
                    sq = sq.saturating_add((v as u128).saturating_mul(v as u128).saturating_mul(c as u128));
                }
                let mean = ratio(sum as f64, fin);
                let var = if fin == 0 {
                    0.0
                } else {
                    // n·Σx² − (Σx)², exact in integers while it fits, over n².
                    let exact = (fin as u128)
                        .checked_mul(sq)
                        .zip(sum.checked_mul(sum))
                        .and_then(|(a, b)| a.checked_sub(b));
                    let num = exact.map_or_else(
                        || (fin as f64 * sq as f64 - sum as f64 * sum as f64).max(0.0),
                        |x| x as f64,
                    );
                    num / (fin as f64 * fin as f64)
                };
                let min = h.iter().position(|&c| c > 0).unwrap_or(0) as u64;
                let max = h.iter().rposition(|&c| c > 0).unwrap_or(0) as u64;
                let counts: Vec<(i64, i64, u64)> =
                    h.iter().enumerate().map(|(v, &c)| (v as i64, v as i64, c)).collect();
                let mut ends = Vec::new();
                if stats.sum.complete[l] > 0 {
                    ends.push(("complete".to_string(), stats.sum.complete[l]));
                }
                for k in 0..nr {
                    let c = stats.sum.ended[l * nr + k];
                    if c > 0 {
                        ends.push((reason_text(p, &EndReason::Ended(k.checked_sub(1).map(|i| i as u16))), c));
                    }
                }
                if stats.sum.outer[l] > 0 {
                    ends.push(("closed by an enclosing end".to_string(), stats.sum.outer[l]));
                }
                let mut stopped: Vec<_> = stats.stopped.iter().filter(|s| s.0 as usize == l).collect();
                stopped.sort_by_key(|s| end_key(&s.1));
                for (_, r, c) in stopped {
                    ends.push((format!("run stopped: {}", reason_text(p, r)), *c));
                }
                LevelRow {
                    name: def.name.clone(),
                    mean,
                    sd: var.sqrt(),
                    min,
                    max,
                    hist: buckets(&counts, 1, min as i64, max as i64),
                    ends,
                }
            })
            .collect();
        let characters = p
            .characters
            .iter()
            .enumerate()
            .filter(|(e, _)| stats.sum.turns[*e] > 0 || stats.sum.actions[*e] > 0)
            .map(|(e, c)| {
                (
                    c.name.clone(),
                    ratio(stats.sum.turns[e] as f64, fin),
                    ratio(stats.sum.actions[e] as f64, fin),
                )
            })
            .collect();
        let sum = &stats.sum;
        let responses = p
            .characters
            .iter()
            .enumerate()
            .filter(|(e, _)| sum.armed[*e] > 0 || sum.cancelled[*e] > 0)
            .map(|(e, c)| ResponseRow {
                character: c.name.clone(),
                armed: ratio(sum.armed[e] as f64, fin),
                fired: ratio(sum.fired[e] as f64, fin),
                expired: ratio(sum.expired[e] as f64, fin),
                disarmed: ratio(sum.disarmed[e] as f64, fin),
                cancelled: ratio(sum.cancelled[e] as f64, fin),
            })
            .collect();
        let c = p.characters.len();
        let orders = p
            .orders
            .iter()
            .enumerate()
            .filter(|(o, _)| stats.made[*o] > 0)
            .map(|(o, def)| {
                let made = stats.made[o];
                let places = (0..c)
                    .filter_map(|e| {
                        let row = &stats.place[(o * c + e) * c..(o * c + e + 1) * c];
                        row.iter().any(|&x| x > 0).then(|| {
                            let last = row.iter().rposition(|&x| x > 0).unwrap_or(0);
                            (
                                p.characters[e].name.clone(),
                                row[..=last].iter().map(|&x| ratio(x as f64, made)).collect(),
                            )
                        })
                    })
                    .collect();
                OrderRow {
                    name: def.name.clone(),
                    made,
                    places,
                }
            })
            .collect();
        let s = &stats.sum;
        let resources = p
            .fields
            .iter()
            .enumerate()
            .filter(|(f, def)| {
                // A side's resources are the sides', not the characters': measures count them.
                def.kind == FieldKind::Resource
                    && def.owner != crate::check::SIDE
                    && (s.left_known[*f] > 0 || s.spent[*f] != 0 || s.gained[*f] != 0 || s.forfeits[*f] > 0)
            })
            .map(|(f, def)| ResourceRow {
                name: def.name.clone(),
                spent: ratio(s.spent[f] as f64, fin) / unit(def.decimals),
                gained: ratio(s.gained[f] as f64, fin) / unit(def.decimals),
                forfeited: ratio(s.forfeited[f] as f64, fin) / unit(def.decimals),
                forfeits: ratio(s.forfeits[f] as f64, fin),
                left: ratio(s.left[f] as f64, fin) / unit(def.decimals),
            })
            .collect();
        let measures = p
            .measures
            .iter()
            .enumerate()
            .map(|(m, name)| measure_row(p, stats, m, name))
            .collect();
        let mut errors: Vec<(String, u64)> = stats.errors.iter().map(|(c, n)| (c.to_string(), *n)).collect();
        errors.sort();
        let policy = opts.policy.clone().unwrap_or_else(|| match p.default_policy {
            Some(PolicyRef::First) => "first".into(),
            Some(PolicyRef::Declared(i)) => p.policies.get(i as usize).map_or("?".into(), |x| x.name.clone()),
            Some(PolicyRef::Random) | None => "random".into(),
        });
        Report {
            ruleset: p.ruleset_name.clone(),
            encounter: p.encounter_name.clone(),
            seed: opts.seed,
            policy,
            until: opts.until.clone(),
            runs: stats.runs.max(opts.encounters().end - opts.encounters().start),
            finished: fin,
            steps: stats.steps,
            steps_min: if fin == 0 { 0 } else { stats.steps_min },
            steps_max: stats.steps_max,
            lapsed: stats.sum.lapsed,
            ends: ends.iter().map(|(r, n)| (reason_text(p, r), *n)).collect(),
            levels,
            characters,
            responses,
            orders,
            resources,
            measures,
            finals: final_rows(p, stats),
            held: held_rows(p, stats),
            errors,
            first_error: stats.first_error.as_ref().map(|(i, s, d)| (*i, *s, render(d))),
            shard: opts.shard.map(|s| (s, opts.encounters(), opts.n)),
            shard_json: None,
            files: Vec::new(),
            run_options: replay_options(opts),
        }
    }

    /// The command that replays encounter `seed` as the simulation ran it: `turnscript run
    /// RULESET --encounter ENCOUNTER --seed S` and the options that change a run.
    pub fn replay_command(&self, seed: u64) -> String {
        let mut c = "turnscript run".to_string();
        for (k, f) in self.files.iter().enumerate() {
            c.push_str(if k == 0 { " " } else { " --encounter " });
            c.push_str(&shell_word(f));
        }
        c.push_str(&format!(" --seed {seed}{}", self.run_options));
        c
    }

    pub fn failed(&self) -> u64 {
        self.runs - self.finished
    }
}

/// A CSV field, quoted when it must be.
fn q(s: &str) -> String {
    if s.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

fn pct(n: u64, of: u64) -> String {
    format!("{:.1}%", ratio(n as f64 * 100.0, of))
}

fn ordinal(k: usize) -> String {
    let suffix = match (k % 10, k % 100) {
        (_, 11..=13) => "th",
        (1, _) => "st",
        (2, _) => "nd",
        (3, _) => "rd",
        _ => "th",
    };
    format!("{k}{suffix}")
}

/// At most 20 buckets of equal width over the values that came up, `min` to `max`, from bins
/// `(first value, last value, count)` in ascending order, each `width` values wide and aligned to
/// a multiple of it (1: a value each): each bucket holds whole bins.
fn buckets(bins: &[(i64, i64, u64)], width: u64, min: i64, max: i64) -> Vec<(i64, i64, u64)> {
    if !bins.iter().any(|b| b.2 > 0) {
        return Vec::new();
    }
    // In bins: each row holds `per` whole bins, from the least value's bin to the most's.
    let w = width.max(1) as i128;
    let of = |v: i64| (v as i128).div_euclid(w);
    let (first, last) = (of(min), of(max));
    let per = (last - first) / 20 + 1;
    let mut out: Vec<(i64, i64, u64)> = Vec::new();
    let mut lo = first;
    while lo <= last {
        let hi = (lo + per - 1).min(last);
        let n = bins
            .iter()
            .filter(|b| b.2 > 0 && (lo..=hi).contains(&of(b.0)))
            .map(|b| b.2)
            .sum();
        let from = (lo * w).max(min as i128) as i64;
        let to = ((hi + 1) * w - 1).min(max as i128) as i64;
        out.push((from, to, n));
        lo = hi + 1;
    }
    out
}

/// The final-state rows: the globals, the sides' fields, then each declared entity's fields, in
/// declaration order.
fn final_rows(p: &Program, stats: &Stats) -> Vec<FinalRow> {
    let nf = p.fields.len();
    // A field that holds an entity, a side or a role has no mean: its ids are not numbers.
    let row = |entity: &str, f: usize, v: &super::tally::Spread| {
        (v.n > 0 && p.fields[f].refers.is_none()).then(|| FinalRow {
            entity: entity.to_string(),
            field: p.fields[f].name.clone(),
            mean: ratio(v.sum as f64, v.n) / unit(p.fields[f].decimals),
            min: v.min,
            max: v.max,
            decimals: p.fields[f].decimals,
        })
    };
    let globals = stats
        .final_globals
        .iter()
        .enumerate()
        .filter_map(|(f, v)| row("table", f, v));
    let sides = p.sides.iter().enumerate().flat_map(|(s, name)| {
        (0..nf).filter_map(move |f| stats.final_sides.get(s * nf + f).and_then(|v| row(name, f, v)))
    });
    let entities =
        p.characters.iter().enumerate().flat_map(|(e, c)| {
            (0..nf).filter_map(move |f| stats.finals.get(e * nf + f).and_then(|v| row(&c.name, f, v)))
        });
    globals.chain(sides).chain(entities).collect()
}

/// The rows of the fields that hold an entity, a side or a role, in the order of the final
/// rows: globals, sides, entities; each field's values in declaration order, `none` last.
fn held_rows(p: &Program, stats: &Stats) -> Vec<HeldRow> {
    use super::tally::{Held, Holder};
    let mut rows: Vec<HeldRow> = Vec::new();
    for (&(who, f, what), &n) in &stats.held {
        let Some(def) = p.fields.get(f as usize) else { continue };
        let entity = match who {
            Holder::Table => "table".to_string(),
            Holder::Side(s) => p.sides.get(s as usize).cloned().unwrap_or_default(),
            Holder::Entity(e) => p.characters.get(e as usize).map(|c| c.name.clone()).unwrap_or_default(),
        };
        let value = match (what, def.refers) {
            (Held::None, _) => "none".to_string(),
            (Held::Made, _) => MADE_IN_PLAY.to_string(),
            (Held::Id(v), Some(t @ (crate::check::SIDE | crate::check::ROLE))) => {
                p.held(t, v).unwrap_or("?").to_string()
            }
            (Held::Id(v), _) => usize::try_from(v)
                .ok()
                .and_then(|v| p.characters.get(v))
                .map_or_else(|| "?".to_string(), |c| c.name.clone()),
        };
        match rows.last_mut() {
            Some(r) if r.entity == entity && r.field == def.name => r.values.push((value, n)),
            _ => rows.push(HeldRow {
                entity,
                field: def.name.clone(),
                values: vec![(value, n)],
            }),
        }
    }
    rows
}

/// A measure's row: its values' statistics and histogram, and the entities they were about.
fn measure_row(p: &Program, stats: &Stats, m: usize, name: &str) -> MeasureRow {
    let fin = stats.finished;
    let v = &stats.sum.measures[m];
    let decimals = p.measure_decimals.get(m).copied().unwrap_or(0);
    let mean = ratio(v.spread.sum as f64, v.spread.n) / unit(decimals);
    let sd = v.sq.filter(|_| v.spread.n > 0).map(|sq| {
        // n·Σx² − (Σx)², over n²: exact in integers while it fits, else in floating point.
        let n = v.spread.n as f64;
        let sum2 = v.spread.sum.unsigned_abs().checked_mul(v.spread.sum.unsigned_abs());
        let exact = (v.spread.n as u128)
            .checked_mul(sq)
            .zip(sum2)
            .and_then(|(a, b)| a.checked_sub(b));
        let num = exact.map_or_else(
            || n * sq as f64 - (v.spread.sum as f64) * (v.spread.sum as f64),
            |x| x as f64,
        );
        (num / (n * n)).max(0.0).sqrt() / unit(decimals)
    });
    let bins: Vec<(i64, i64, u64)> = v.hist.bins().collect();
    let c = p.characters.len();
    let stride = c + p.sides.len();
    let about = (0..stride)
        .filter_map(|e| {
            let (n, sum) = stats.sum.about.get(m * stride + e).copied()?;
            // The entities, then the sides (a measure `for each s in sides`).
            let who = p
                .characters
                .get(e)
                .map_or_else(|| p.sides.get(e - c).cloned(), |x| Some(x.name.clone()))?;
            (n > 0).then(|| {
                let mean = ratio(sum as f64, n) / unit(decimals);
                (who, ratio(n as f64, fin), mean)
            })
        })
        .collect();
    MeasureRow {
        name: name.to_string(),
        recorded: v.spread.n,
        samples: ratio(v.spread.n as f64, fin),
        total: ratio(v.spread.sum as f64, fin) / unit(decimals),
        mean,
        sd,
        min: v.spread.min,
        max: v.spread.max,
        hist: buckets(&bins, v.hist.width(), v.spread.min, v.spread.max),
        bin: v.hist.width(),
        about,
        decimals,
    }
}

fn histogram(o: &mut String, hist: &[(i64, i64, u64)], decimals: u8) {
    let most = hist.iter().map(|h| h.2).max().unwrap_or(0);
    let labels: Vec<String> = hist
        .iter()
        .map(|(a, b, _)| {
            if a == b {
                num(*a, decimals)
            } else {
                format!("{}-{}", num(*a, decimals), num(*b, decimals))
            }
        })
        .collect();
    let w = labels.iter().map(|l| l.len()).max().unwrap_or(0);
    for (l, (_, _, n)) in labels.iter().zip(hist) {
        let bar = if most == 0 {
            0
        } else {
            ((*n as u128 * 40).div_ceil(most as u128)) as usize
        };
        let _ = writeln!(o, "  {l:>w$} │{} {n}", "█".repeat(bar));
    }
}

/// A table of means with a label column: the columns that are 0 in every row are left out (a
/// ruleset without actions gets no `actions` column), and a note names them.
fn sparse_table(o: &mut String, head: &[&str], rows: &[(String, Vec<f64>)]) {
    let cols = head.len().saturating_sub(1);
    let (keep, dropped): (Vec<usize>, Vec<usize>) =
        (0..cols).partition(|&i| rows.iter().any(|r| r.1.get(i).is_some_and(|x| *x != 0.0)));
    let mut h = vec![head[0]];
    h.extend(keep.iter().map(|&i| head[i + 1]));
    let cells: Vec<Vec<String>> = rows
        .iter()
        .map(|(label, v)| {
            let mut r = vec![label.clone()];
            r.extend(keep.iter().map(|&i| format!("{:.2}", v.get(i).copied().unwrap_or(0.0))));
            r
        })
        .collect();
    table(o, &h, &cells, 1);
    if !dropped.is_empty() {
        let names: Vec<&str> = dropped.iter().map(|&i| head[i + 1]).collect();
        let _ = writeln!(o, "  (0 in every encounter, not shown: {})", names.join(", "));
    }
}

/// An aligned table: the first `left` columns left-aligned, the others right-aligned.
fn table(o: &mut String, head: &[&str], rows: &[Vec<String>], left: usize) {
    let mut widths: Vec<usize> = head.iter().map(|h| h.chars().count()).collect();
    for r in rows {
        for (w, c) in widths.iter_mut().zip(r) {
            *w = (*w).max(c.chars().count());
        }
    }
    let line = |o: &mut String, cells: &mut dyn Iterator<Item = &str>| {
        let mut s = String::from(" ");
        for (i, (c, w)) in cells.zip(&widths).enumerate() {
            let pad = w - c.chars().count();
            s.push(' ');
            if i < left {
                s.push_str(c);
                s.push_str(&" ".repeat(pad));
            } else {
                s.push(' ');
                s.push_str(&" ".repeat(pad));
                s.push_str(c);
            }
        }
        let _ = writeln!(o, "{}", s.trim_end());
    };
    line(o, &mut head.iter().copied());
    for r in rows {
        line(o, &mut r.iter().map(String::as_str));
    }
}
