//! The report rendered: aligned text tables and histograms, JSON, and one CSV table.

use std::fmt::Write;

use super::*;

impl Report {
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
        if let Some((shard, range, n)) = &self.shard {
            // Numbered from 0, as docs/sim.md and the first failure number them; both ends in.
            let which = if range.is_empty() {
                format!("none of the {n} encounters")
            } else {
                format!(
                    "encounters {} to {} of the {n} (numbered from 0)",
                    range.start,
                    range.end - 1
                )
            };
            let _ = writeln!(
                o,
                "shard {shard}: {which} (`turnscript sim merge` adds up the shards' JSON reports)"
            );
        }
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
                let _ = writeln!(o, "\n{}: iterations per encounter", l.name);
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
            let rows: Vec<(String, Vec<f64>)> = self
                .characters
                .iter()
                .map(|(c, t, a)| (c.clone(), vec![*t, *a]))
                .collect();
            sparse_table(&mut o, &["character", "turns", "actions"], &rows);
        }
        if !self.responses.is_empty() {
            let _ = writeln!(
                o,
                "\nreadied responses and cancelled turns or actions, mean per encounter"
            );
            let rows: Vec<(String, Vec<f64>)> = self
                .responses
                .iter()
                .map(|r| {
                    (
                        r.character.clone(),
                        vec![r.armed, r.fired, r.expired, r.disarmed, r.cancelled],
                    )
                })
                .collect();
            sparse_table(
                &mut o,
                &["character", "armed", "fired", "expired", "disarmed", "cancelled"],
                &rows,
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
            let rows: Vec<(String, Vec<f64>)> = self
                .resources
                .iter()
                .map(|r| (r.name.clone(), vec![r.spent, r.gained, r.forfeited, r.forfeits, r.left]))
                .collect();
            sparse_table(
                &mut o,
                &["resource", "spent", "gained", "forfeited", "forfeits", "left at end"],
                &rows,
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
                let _ = writeln!(o, "\nfirst failure: encounter {i} ({}):", self.replay_command(*seed));
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
                // A measure that never fired has no total, mean, spread, least or most.
                let none = m.recorded == 0;
                let or_dash = |s: String| if none { "-".to_string() } else { s };
                vec![
                    m.name.clone(),
                    format!("{:.2}", m.samples),
                    or_dash(format!("{:.2}", m.total)),
                    or_dash(format!("{:.2}", m.mean)),
                    m.sd.filter(|_| !none).map_or("-".into(), |sd| format!("{sd:.2}")),
                    or_dash(num(m.min, m.decimals)),
                    or_dash(num(m.max, m.decimals)),
                ]
            })
            .collect();
        table(o, &["measure", "values", "total", "mean", "sd", "min", "max"], &rows, 1);
        for m in &self.measures {
            if m.recorded > 0 && m.min != m.max {
                let _ = writeln!(o, "\n{}: values", m.name);
                if m.bin > 1 {
                    let _ = writeln!(
                        o,
                        "  (more than {} distinct values: counted in bins of {})",
                        crate::limits::MAX_SIM_BINS,
                        num(bin_width(m), m.decimals)
                    );
                }
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
    /// are counted, not listed); then what the fields that hold an entity, a side or a role held.
    fn finals_text(&self, o: &mut String) {
        if self.finals.is_empty() && self.held.is_empty() {
            return;
        }
        let varying: Vec<&FinalRow> = self.finals.iter().filter(|r| r.min != r.max).collect();
        let held: Vec<&HeldRow> = self.held.iter().filter(|r| r.values.len() > 1).collect();
        let same = self.finals.len() - varying.len() + self.held.len() - held.len();
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
        if !held.is_empty() {
            if !varying.is_empty() {
                let _ = writeln!(o);
            }
            let mut rows = Vec::new();
            for r in &held {
                let all: u64 = r.values.iter().map(|v| v.1).sum();
                for (i, (what, n)) in r.values.iter().enumerate() {
                    let (e, f) = if i == 0 {
                        (r.entity.clone(), r.field.clone())
                    } else {
                        (String::new(), String::new())
                    };
                    rows.push(vec![e, f, what.clone(), n.to_string(), pct(*n, all)]);
                }
            }
            table(o, &["entity", "field", "held", "count", "share"], &rows, 3);
        }
        if same > 0 {
            let _ = writeln!(
                o,
                "  ({same} field{} ended with the same value in every encounter; see --format json)",
                if same == 1 { "" } else { "s" }
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
            "measures": self.measures.iter().map(|m| {
                // A measure that never fired: no mean, spread, least or most.
                let some = m.recorded > 0;
                json!({
                "measure": m.name, "values": m.samples, "total": m.total,
                "mean": some.then_some(m.mean), "sd": m.sd.filter(|_| some),
                "min": some.then(|| jnum(m.min, m.decimals)), "max": some.then(|| jnum(m.max, m.decimals)),
                "histogram": m.hist.iter().map(|(a, b, n)| json!({"from": jnum(*a, m.decimals), "to": jnum(*b, m.decimals), "count": n})).collect::<Vec<_>>(),
                "bin": jnum(bin_width(m), m.decimals),
                "by": m.about.iter().map(|(c, n, mean)| json!({"character": c, "values": n, "mean": mean})).collect::<Vec<_>>(),
            })}).collect::<Vec<_>>(),
            "final": self.finals.iter().map(|r| json!({
                "entity": r.entity, "field": r.field, "mean": r.mean, "min": jnum(r.min, r.decimals), "max": jnum(r.max, r.decimals),
            })).collect::<Vec<_>>(),
            "held": self.held.iter().map(|r| json!({
                "entity": r.entity, "field": r.field,
                "values": r.values.iter().map(|(v, n)| json!({"value": if v == "none" { None } else { Some(v) }, "count": n})).collect::<Vec<_>>(),
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
        if let Some(shard) = &self.shard_json
            && let Some(m) = doc.as_object_mut()
        {
            m.insert("shard".to_string(), shard.clone());
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
        if let Some((shard, range, n)) = &self.shard {
            row("run", "", "", "shard", shard.to_string());
            row(
                "run",
                "",
                "",
                "shard_encounters",
                format!("{}..{} of {n}", range.start, range.end),
            );
        }
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
            // A measure that never fired: empty mean, spread, least and most.
            let some = |v: String| if m.recorded > 0 { v } else { String::new() };
            row("measure", &m.name, "", "values", m.samples.to_string());
            row("measure", &m.name, "", "total", m.total.to_string());
            row("measure", &m.name, "", "mean", some(m.mean.to_string()));
            row(
                "measure",
                &m.name,
                "",
                "sd",
                m.sd.map_or(String::new(), |sd| some(sd.to_string())),
            );
            row("measure", &m.name, "", "min", some(num(m.min, m.decimals)));
            row("measure", &m.name, "", "max", some(num(m.max, m.decimals)));
            if m.bin > 1 {
                row("measure", &m.name, "", "bin", num(bin_width(m), m.decimals));
            }
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
        for r in &self.held {
            for (what, n) in &r.values {
                row("final_held", &r.entity, &r.field, what, n.to_string());
            }
        }
        for (c, n) in &self.errors {
            row("error", "", c, "count", n.to_string());
        }
        o
    }
}
