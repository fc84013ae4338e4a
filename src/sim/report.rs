//! The simulator's report: the totals with names and means, as text, JSON or CSV.
//!
//! Everything here is a function of the totals, so it is identical for a seed whatever the number
//! of threads; the wall time and throughput are not part of it.

use std::fmt::Write;

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
    /// (entity, values per encounter, mean value) for the entities the values were about.
    pub about: Vec<(String, f64, f64)>,
    /// The decimals its values keep: `min`, `max` and the histogram hold them times 10^N (the
    /// means, totals and spread are already divided).
    pub decimals: u8,
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

/// A value kept with `d` decimals, as the report writes it.
fn num(v: i64, d: u8) -> String {
    crate::trace::Decimal(v, d).to_string()
}

/// A value kept with `d` decimals, as JSON: a whole number, or a number with its decimals.
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
    pub errors: Vec<(String, u64)>,
    /// The failure of the lowest-numbered encounter: (index, seed, rendered diagnostic).
    pub first_error: Option<(u64, u64, String)>,
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
                let (mut sum, mut sq) = (0u128, 0u128);
                for (v, &c) in h.iter().enumerate() {
                    sum += v as u128 * c as u128;
                    sq += (v as u128) * (v as u128) * c as u128;
                }
                let mean = ratio(sum as f64, fin);
                let var = if fin == 0 {
                    0.0
                } else {
                    // n·Σx² − (Σx)², exact in integers, over n².
                    let num = fin as u128 * sq - sum * sum;
                    num as f64 / (fin as f64 * fin as f64)
                };
                let min = h.iter().position(|&c| c > 0).unwrap_or(0) as u64;
                let max = h.iter().rposition(|&c| c > 0).unwrap_or(0) as u64;
                let counts: Vec<(i64, u64)> = h.iter().enumerate().map(|(v, &c)| (v as i64, c)).collect();
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
                    hist: buckets(&counts),
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
                def.kind == FieldKind::Resource
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
            runs: stats.runs.max(opts.n),
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
            errors,
            first_error: stats.first_error.as_ref().map(|(i, s, d)| (*i, *s, render(d))),
        }
    }

    pub fn failed(&self) -> u64 {
        self.runs - self.finished
    }

    pub fn render(&self, format: Format) -> String {
        match format {
            Format::Text => self.text(),
            Format::Json => self.json(),
            Format::Csv => self.csv(),
        }
    }

    /// Aligned tables and text histograms.
    pub fn text(&self) -> String {
        let mut o = String::new();
        let _ = writeln!(o, "{} · {}", self.ruleset, self.encounter);
        let until = self.until.as_ref().map(|u| format!(", until {u}")).unwrap_or_default();
        let _ = writeln!(
            o,
            "{} encounters, seed {}, policy {}{until}: {} finished, {} failed",
            self.runs,
            self.seed,
            self.policy,
            self.finished,
            self.failed()
        );
        let _ = writeln!(
            o,
            "steps: {} in all, {:.1} per encounter (min {}, max {})",
            self.steps,
            ratio(self.steps as f64, self.finished),
            self.steps_min,
            self.steps_max
        );
        if self.lapsed > 0 {
            let _ = writeln!(
                o,
                "lapsed: {} deferred changes not made (their entity destroyed first), {:.2} per encounter",
                self.lapsed,
                ratio(self.lapsed as f64, self.finished)
            );
        }
        if !self.ends.is_empty() {
            let _ = writeln!(o, "\nencounter ends");
            let rows: Vec<Vec<String>> = self
                .ends
                .iter()
                .map(|(r, n)| vec![r.clone(), n.to_string(), pct(*n, self.finished)])
                .collect();
            table(&mut o, &["reason", "count", "share"], &rows, 1);
        }
        if !self.levels.is_empty() {
            let _ = writeln!(o, "\niterations per encounter");
            let rows: Vec<Vec<String>> = self
                .levels
                .iter()
                .map(|l| {
                    vec![
                        l.name.clone(),
                        format!("{:.2}", l.mean),
                        format!("{:.2}", l.sd),
                        l.min.to_string(),
                        l.max.to_string(),
                    ]
                })
                .collect();
            table(&mut o, &["level", "mean", "sd", "min", "max"], &rows, 1);
            // A level with the same count in every encounter has no histogram worth drawing.
            for l in self.levels.iter().filter(|l| l.min != l.max) {
                let _ = writeln!(o, "\n{} per encounter", l.name);
                histogram(&mut o, &l.hist, 0);
            }
            let _ = writeln!(o, "\nhow level iterations end");
            let mut rows = Vec::new();
            for l in &self.levels {
                let all: u64 = l.ends.iter().map(|e| e.1).sum();
                for (i, (how, n)) in l.ends.iter().enumerate() {
                    let name = if i == 0 { l.name.clone() } else { String::new() };
                    rows.push(vec![name, how.clone(), n.to_string(), pct(*n, all)]);
                }
            }
            table(&mut o, &["level", "how", "count", "share"], &rows, 2);
        }
        if !self.characters.is_empty() {
            let _ = writeln!(o, "\nper character, mean per encounter");
            let rows: Vec<Vec<String>> = self
                .characters
                .iter()
                .map(|(c, t, a)| vec![c.clone(), format!("{t:.2}"), format!("{a:.2}")])
                .collect();
            table(&mut o, &["character", "turns", "actions"], &rows, 1);
        }
        if !self.responses.is_empty() {
            let _ = writeln!(
                o,
                "\nreadied responses and cancelled turns or actions, mean per encounter"
            );
            let rows: Vec<Vec<String>> = self
                .responses
                .iter()
                .map(|r| {
                    let n = [r.armed, r.fired, r.expired, r.disarmed, r.cancelled];
                    std::iter::once(r.character.clone())
                        .chain(n.iter().map(|x| format!("{x:.2}")))
                        .collect()
                })
                .collect();
            table(
                &mut o,
                &["character", "armed", "fired", "expired", "disarmed", "cancelled"],
                &rows,
                1,
            );
        }
        for ord in &self.orders {
            let _ = writeln!(
                o,
                "\norder {}: place in its first order of an encounter (made in {} encounters)",
                ord.name, ord.made
            );
            let width = ord.places.iter().map(|p| p.1.len()).max().unwrap_or(0);
            let mut head = vec!["character".to_string()];
            head.extend((1..=width).map(ordinal));
            let rows: Vec<Vec<String>> = ord
                .places
                .iter()
                .map(|(c, ps)| {
                    let mut r = vec![c.clone()];
                    r.extend((0..width).map(|k| format!("{:.1}%", ps.get(k).copied().unwrap_or(0.0) * 100.0)));
                    r
                })
                .collect();
            let head: Vec<&str> = head.iter().map(String::as_str).collect();
            table(&mut o, &head, &rows, 1);
        }
        if !self.resources.is_empty() {
            let _ = writeln!(o, "\nresources, mean per encounter (all characters)");
            let rows: Vec<Vec<String>> = self
                .resources
                .iter()
                .map(|r| {
                    vec![
                        r.name.clone(),
                        format!("{:.2}", r.spent),
                        format!("{:.2}", r.gained),
                        format!("{:.2}", r.forfeited),
                        format!("{:.2}", r.forfeits),
                        format!("{:.2}", r.left),
                    ]
                })
                .collect();
            table(
                &mut o,
                &["resource", "spent", "gained", "forfeited", "forfeits", "left at end"],
                &rows,
                1,
            );
        }
        self.measures_text(&mut o);
        self.finals_text(&mut o);
        if !self.errors.is_empty() {
            let _ = writeln!(o, "\nfailed runs");
            let rows: Vec<Vec<String>> = self
                .errors
                .iter()
                .map(|(c, n)| vec![c.clone(), n.to_string()])
                .collect();
            table(&mut o, &["error", "count"], &rows, 1);
            if let Some((i, seed, text)) = &self.first_error {
                let _ = writeln!(o, "\nfirst failure: encounter {i} (turnscript run --seed {seed}):");
                o.push_str(text);
            }
        }
        o
    }

    /// The measures: one table of their statistics, then each one's histogram (when its values
    /// differ) and its mean by entity (when its values are about entities).
    fn measures_text(&self, o: &mut String) {
        if self.measures.is_empty() {
            return;
        }
        let _ = writeln!(
            o,
            "\nmeasures: values per encounter, their total per encounter, and over all values"
        );
        let rows: Vec<Vec<String>> = self
            .measures
            .iter()
            .map(|m| {
                vec![
                    m.name.clone(),
                    format!("{:.2}", m.samples),
                    format!("{:.2}", m.total),
                    format!("{:.2}", m.mean),
                    m.sd.map_or("-".into(), |sd| format!("{sd:.2}")),
                    num(m.min, m.decimals),
                    num(m.max, m.decimals),
                ]
            })
            .collect();
        table(o, &["measure", "values", "total", "mean", "sd", "min", "max"], &rows, 1);
        for m in &self.measures {
            if m.min != m.max {
                let _ = writeln!(o, "\n{}: values", m.name);
                histogram(o, &m.hist, m.decimals);
            }
            if !m.about.is_empty() {
                let _ = writeln!(o, "\n{} by character", m.name);
                let rows: Vec<Vec<String>> = m
                    .about
                    .iter()
                    .map(|(c, n, mean)| vec![c.clone(), format!("{n:.2}"), format!("{mean:.2}")])
                    .collect();
                table(o, &["character", "values", "mean"], &rows, 1);
            }
        }
    }

    /// The final state: the fields whose value at the end differs between encounters (the others
    /// are counted, not listed).
    fn finals_text(&self, o: &mut String) {
        if self.finals.is_empty() {
            return;
        }
        let varying: Vec<&FinalRow> = self.finals.iter().filter(|r| r.min != r.max).collect();
        let same = self.finals.len() - varying.len();
        let _ = writeln!(o, "\nfinal state, over the finished encounters");
        if !varying.is_empty() {
            let rows: Vec<Vec<String>> = varying
                .iter()
                .map(|r| {
                    vec![
                        r.entity.clone(),
                        r.field.clone(),
                        format!("{:.2}", r.mean),
                        num(r.min, r.decimals),
                        num(r.max, r.decimals),
                    ]
                })
                .collect();
            table(o, &["entity", "field", "mean", "min", "max"], &rows, 2);
        }
        if same > 0 {
            let _ = writeln!(
                o,
                "  ({same} fields ended with the same value in every encounter; see --format json)"
            );
        }
    }

    /// One JSON document.
    pub fn json(&self) -> String {
        use serde_json::json;
        let levels: Vec<_> = self
            .levels
            .iter()
            .map(|l| {
                json!({
                    "level": l.name, "mean": l.mean, "sd": l.sd, "min": l.min, "max": l.max,
                    "histogram": l.hist.iter().map(|(a, b, n)| json!({"from": a, "to": b, "count": n})).collect::<Vec<_>>(),
                    "ends": l.ends.iter().map(|(h, n)| json!({"how": h, "count": n})).collect::<Vec<_>>(),
                })
            })
            .collect();
        let mut doc = json!({
            "ruleset": self.ruleset,
            "encounter": self.encounter,
            "encounters": self.runs,
            "seed": self.seed,
            "policy": self.policy,
            "until": self.until,
            "finished": self.finished,
            "failed": self.failed(),
            "steps": {"total": u64::try_from(self.steps).unwrap_or(u64::MAX), "mean": ratio(self.steps as f64, self.finished), "min": self.steps_min, "max": self.steps_max},
            "ends": self.ends.iter().map(|(r, n)| json!({"reason": r, "count": n})).collect::<Vec<_>>(),
            "levels": levels,
            "characters": self.characters.iter().map(|(c, t, a)| json!({"character": c, "turns": t, "actions": a})).collect::<Vec<_>>(),
            "orders": self.orders.iter().map(|o| json!({
                "order": o.name, "made": o.made,
                "places": o.places.iter().map(|(c, ps)| json!({"character": c, "share": ps})).collect::<Vec<_>>(),
            })).collect::<Vec<_>>(),
            "resources": self.resources.iter().map(|r| json!({
                "resource": r.name, "spent": r.spent, "gained": r.gained, "forfeited": r.forfeited,
                "forfeits": r.forfeits, "left": r.left,
            })).collect::<Vec<_>>(),
            "measures": self.measures.iter().map(|m| json!({
                "measure": m.name, "values": m.samples, "total": m.total, "mean": m.mean, "sd": m.sd,
                "min": jnum(m.min, m.decimals), "max": jnum(m.max, m.decimals),
                "histogram": m.hist.iter().map(|(a, b, n)| json!({"from": jnum(*a, m.decimals), "to": jnum(*b, m.decimals), "count": n})).collect::<Vec<_>>(),
                "by": m.about.iter().map(|(c, n, mean)| json!({"character": c, "values": n, "mean": mean})).collect::<Vec<_>>(),
            })).collect::<Vec<_>>(),
            "final": self.finals.iter().map(|r| json!({
                "entity": r.entity, "field": r.field, "mean": r.mean, "min": jnum(r.min, r.decimals), "max": jnum(r.max, r.decimals),
            })).collect::<Vec<_>>(),
            "errors": self.errors.iter().map(|(c, n)| json!({"code": c, "count": n})).collect::<Vec<_>>(),
            "first_error": self.first_error.as_ref().map(|(i, s, t)| json!({"encounter": i, "seed": s, "diagnostic": t})),
        });
        // Only a ruleset that readies responses or cancels turns has this part.
        if !self.responses.is_empty()
            && let Some(m) = doc.as_object_mut()
        {
            let rows = self.responses.iter().map(|r| {
                json!({
                    "character": r.character, "armed": r.armed, "fired": r.fired, "expired": r.expired,
                    "disarmed": r.disarmed, "cancelled": r.cancelled,
                })
            });
            m.insert("responses".into(), serde_json::Value::Array(rows.collect()));
        }
        if self.lapsed > 0
            && let Some(m) = doc.as_object_mut()
        {
            m.insert(
                "lapsed".to_string(),
                json!({"total": self.lapsed, "mean": ratio(self.lapsed as f64, self.finished)}),
            );
        }
        let mut s = serde_json::to_string_pretty(&doc).unwrap_or_default();
        s.push('\n');
        s
    }

    /// One table: `section,name,item,stat,value`.
    pub fn csv(&self) -> String {
        let mut o = String::from("section,name,item,stat,value\n");
        let mut row = |a: &str, b: &str, c: &str, d: &str, v: String| {
            let _ = writeln!(o, "{},{},{},{},{}", q(a), q(b), q(c), q(d), q(&v));
        };
        row("run", "", "", "encounters", self.runs.to_string());
        row("run", "", "", "seed", self.seed.to_string());
        row("run", "", "", "policy", self.policy.clone());
        row("run", "", "", "until", self.until.clone().unwrap_or_default());
        row("run", "", "", "finished", self.finished.to_string());
        row("run", "", "", "failed", self.failed().to_string());
        row("run", "", "", "steps", self.steps.to_string());
        row("run", "", "", "steps_min", self.steps_min.to_string());
        row("run", "", "", "steps_max", self.steps_max.to_string());
        if self.lapsed > 0 {
            row("run", "", "", "lapsed", self.lapsed.to_string());
        }
        for (r, n) in &self.ends {
            row("end", "", r, "count", n.to_string());
        }
        for l in &self.levels {
            row("level", &l.name, "", "mean", l.mean.to_string());
            row("level", &l.name, "", "sd", l.sd.to_string());
            row("level", &l.name, "", "min", l.min.to_string());
            row("level", &l.name, "", "max", l.max.to_string());
            for (a, b, n) in &l.hist {
                let item = if a == b { a.to_string() } else { format!("{a}-{b}") };
                row("histogram", &l.name, &item, "count", n.to_string());
            }
            for (h, n) in &l.ends {
                row("level_end", &l.name, h, "count", n.to_string());
            }
        }
        for (c, t, a) in &self.characters {
            row("character", c, "", "turns", t.to_string());
            row("character", c, "", "actions", a.to_string());
        }
        for r in &self.responses {
            row("responses", &r.character, "", "armed", r.armed.to_string());
            row("responses", &r.character, "", "fired", r.fired.to_string());
            row("responses", &r.character, "", "expired", r.expired.to_string());
            row("responses", &r.character, "", "disarmed", r.disarmed.to_string());
            row("responses", &r.character, "", "cancelled", r.cancelled.to_string());
        }
        for ord in &self.orders {
            row("order", &ord.name, "", "made", ord.made.to_string());
            for (c, ps) in &ord.places {
                for (k, s) in ps.iter().enumerate() {
                    row("place", &ord.name, c, &(k + 1).to_string(), s.to_string());
                }
            }
        }
        for r in &self.resources {
            for (stat, v) in [
                ("spent", r.spent),
                ("gained", r.gained),
                ("forfeited", r.forfeited),
                ("forfeits", r.forfeits),
                ("left", r.left),
            ] {
                row("resource", &r.name, "", stat, v.to_string());
            }
        }
        for m in &self.measures {
            row("measure", &m.name, "", "values", m.samples.to_string());
            row("measure", &m.name, "", "total", m.total.to_string());
            row("measure", &m.name, "", "mean", m.mean.to_string());
            row(
                "measure",
                &m.name,
                "",
                "sd",
                m.sd.map_or(String::new(), |sd| sd.to_string()),
            );
            row("measure", &m.name, "", "min", num(m.min, m.decimals));
            row("measure", &m.name, "", "max", num(m.max, m.decimals));
            for (a, b, n) in &m.hist {
                let (a, b) = (num(*a, m.decimals), num(*b, m.decimals));
                let item = if a == b { a } else { format!("{a}-{b}") };
                row("measure_histogram", &m.name, &item, "count", n.to_string());
            }
            for (c, n, mean) in &m.about {
                row("measure_by", &m.name, c, "values", n.to_string());
                row("measure_by", &m.name, c, "mean", mean.to_string());
            }
        }
        for r in &self.finals {
            row("final", &r.entity, &r.field, "mean", r.mean.to_string());
            row("final", &r.entity, &r.field, "min", num(r.min, r.decimals));
            row("final", &r.entity, &r.field, "max", num(r.max, r.decimals));
        }
        for (c, n) in &self.errors {
            row("error", "", c, "count", n.to_string());
        }
        o
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

/// At most 20 buckets of equal width over the values that came up: `(value, count)` pairs in
/// ascending order of value.
fn buckets(counts: &[(i64, u64)]) -> Vec<(i64, i64, u64)> {
    let seen = || counts.iter().filter(|c| c.1 > 0);
    let (Some(min), Some(max)) = (seen().next().map(|c| c.0), seen().next_back().map(|c| c.0)) else {
        return Vec::new();
    };
    let width = (max as i128 - min as i128) / 20 + 1;
    let mut out: Vec<(i64, i64, u64)> = Vec::new();
    let mut lo = min as i128;
    while lo <= max as i128 {
        let hi = (lo + width - 1).min(max as i128);
        let n = seen().filter(|c| (lo..=hi).contains(&(c.0 as i128))).map(|c| c.1).sum();
        out.push((lo as i64, hi as i64, n));
        lo = hi + 1;
    }
    out
}

/// The final-state rows: the globals, then each declared entity's fields, in declaration order.
fn final_rows(p: &Program, stats: &Stats) -> Vec<FinalRow> {
    let nf = p.fields.len();
    let row = |entity: &str, f: usize, v: &super::tally::Spread| {
        (v.n > 0).then(|| FinalRow {
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
    let entities =
        p.characters.iter().enumerate().flat_map(|(e, c)| {
            (0..nf).filter_map(move |f| stats.finals.get(e * nf + f).and_then(|v| row(&c.name, f, v)))
        });
    globals.chain(entities).collect()
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
    let counts: Vec<(i64, u64)> = v.hist.iter().map(|(a, b)| (*a, *b)).collect();
    let c = p.characters.len();
    let about = (0..c)
        .filter_map(|e| {
            let (n, sum) = stats.sum.about[m * c + e];
            (n > 0).then(|| {
                let mean = ratio(sum as f64, n) / unit(decimals);
                (p.characters[e].name.clone(), ratio(n as f64, fin), mean)
            })
        })
        .collect();
    MeasureRow {
        name: name.to_string(),
        samples: ratio(v.spread.n as f64, fin),
        total: ratio(v.spread.sum as f64, fin) / unit(decimals),
        mean,
        sd,
        min: v.spread.min,
        max: v.spread.max,
        hist: buckets(&counts),
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
