//! `sim --plot`: the report's distributions drawn as one SVG, a panel per histogram.
//!
//! Drawn with `plotters` (its SVG backend only: text is left to the viewer's fonts). Like the rest
//! of the report, the picture is a function of the totals: the same for a seed whatever the
//! number of threads. The heading says what was simulated (ruleset, encounter, encounters, seed,
//! policy, `--until`), so two runs' pictures are told apart; a footer names what has no panel.

use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::report::Report;

/// Width and height of one panel, in pixels.
const PANEL: (u32, u32) = (520, 320);
/// The least width of the picture: the heading fits.
const MIN_WIDTH: u32 = 900;
/// The heading's height, and a footer line's.
const HEAD: u32 = 64;
const FOOT_LINE: u32 = 22;
/// Buckets up to this many get their count written over the bar.
const COUNTS_UP_TO: usize = 16;
/// The bars, the grid and the secondary text.
const BAR: RGBColor = RGBColor(70, 110, 170);
const GRID: RGBColor = RGBColor(228, 228, 228);
const GREY: RGBColor = RGBColor(90, 90, 90);

/// One histogram to draw: its title, what the axes count, and its buckets `(from, to, count)`.
struct Panel {
    title: String,
    x: String,
    y: &'static str,
    hist: Vec<(i64, i64, u64)>,
    /// The decimals the values keep (a measure's): they hold them times 10^N.
    decimals: u8,
}

/// The buckets to draw: as they are, but a single value gets its neighbours (with 0) on either
/// side, so that it draws as one bar among others rather than one bar as wide as the panel.
fn padded(hist: &[(i64, i64, u64)]) -> Vec<(i64, i64, u64)> {
    match hist {
        [(a, b, n)] if a == b => {
            let before = a.checked_sub(1).map(|v| (v, v, 0));
            let after = b.checked_add(1).map(|v| (v, v, 0));
            before.into_iter().chain([(*a, *b, *n)]).chain(after).collect()
        }
        _ => hist.to_vec(),
    }
}

/// The panels of a report: iterations per encounter of each level whose count varies, then the
/// values of each measure that recorded any (one value is a panel too: how often it came).
fn panels(r: &Report) -> Vec<Panel> {
    let levels = r.levels.iter().filter(|l| l.min != l.max).map(|l| Panel {
        title: format!("{}: iterations per encounter", l.name),
        x: format!("iterations of {} in one encounter", l.name),
        y: "encounters",
        hist: padded(&l.hist),
        decimals: 0,
    });
    let measures = r.measures.iter().filter(|m| m.recorded > 0).map(|m| Panel {
        title: match m.bin {
            1 => format!("measure {}: its values", m.name),
            _ => format!("measure {}: its values, in bins of {}", m.name, m.bin_text()),
        },
        x: format!("value of {}", m.name),
        y: "values recorded",
        hist: padded(&m.hist),
        decimals: m.decimals,
    });
    levels.chain(measures).collect()
}

/// The heading's two lines: the ruleset and encounter; the encounters, seed, policy and stop.
fn heading(r: &Report) -> (String, String) {
    let until = r.until.as_ref().map(|u| format!(" · until {u}")).unwrap_or_default();
    let failed = if r.failed() > 0 {
        format!(" · {} failed", r.failed())
    } else {
        String::new()
    };
    (
        format!("{} · {}", r.ruleset, r.encounter),
        format!(
            "{} encounters · seed {} · policy {}{until}{failed}",
            r.runs, r.seed, r.policy
        ),
    )
}

/// What has no panel, a line each: levels with the same count in every encounter, measures
/// that never recorded a value.
fn footer(r: &Report) -> Vec<String> {
    let mut lines = Vec::new();
    let same: Vec<String> = r
        .levels
        .iter()
        .filter(|l| l.min == l.max && r.finished > 0)
        .map(|l| format!("{} {}", l.name, l.min))
        .collect();
    if !same.is_empty() {
        lines.push(format!("iterations the same in every encounter: {}", same.join(" · ")));
    }
    let never: Vec<&str> = r
        .measures
        .iter()
        .filter(|m| m.recorded == 0)
        .map(|m| m.name.as_str())
        .collect();
    if !never.is_empty() {
        lines.push(format!("measures never recorded: {}", never.join(", ")));
    }
    lines
}

/// The report's distributions as an SVG document: a heading, two panels a row, a footer. A
/// report with nothing to draw gets one line saying so.
pub fn svg(r: &Report) -> Result<String, String> {
    let panels = panels(r);
    let foot = footer(r);
    let cols = panels.len().clamp(1, 2);
    let rows = panels.len().div_ceil(2).max(1);
    let width = (PANEL.0 * cols as u32).max(MIN_WIDTH);
    let body = if panels.is_empty() { 60 } else { PANEL.1 * rows as u32 };
    let size = (width, HEAD + body + FOOT_LINE * foot.len() as u32 + 8);
    let mut out = String::new();
    {
        let root = SVGBackend::with_string(&mut out, size).into_drawing_area();
        let err = |e: DrawingAreaErrorKind<_>| format!("cannot draw the plot: {e}");
        root.fill(&WHITE).map_err(err)?;
        let (title, subtitle) = heading(r);
        let centre = Pos::new(HPos::Center, VPos::Top);
        let x = width as i32 / 2;
        root.draw(&Text::new(
            title,
            (x, 10),
            ("sans-serif", 20).into_font().color(&BLACK).pos(centre),
        ))
        .map_err(err)?;
        root.draw(&Text::new(
            subtitle,
            (x, 38),
            ("sans-serif", 14).into_font().color(&GREY).pos(centre),
        ))
        .map_err(err)?;
        let (_, rest) = root.split_vertically(HEAD);
        let (area, notes) = rest.split_vertically(body);
        if panels.is_empty() {
            area.draw(&Text::new(
                "nothing varies between encounters: no distribution to draw",
                (20, 20),
                ("sans-serif", 15),
            ))
            .map_err(err)?;
        }
        for (panel, a) in panels.iter().zip(area.split_evenly((rows, cols))) {
            draw(&a, panel).map_err(|e| format!("cannot draw the plot: {e}"))?;
        }
        for (i, line) in foot.iter().enumerate() {
            let y = 4 + FOOT_LINE as i32 * i as i32;
            notes
                .draw(&Text::new(
                    line.as_str(),
                    (16, y),
                    ("sans-serif", 13).into_font().color(&GREY),
                ))
                .map_err(err)?;
        }
        root.present().map_err(err)?;
    }
    Ok(out)
}

/// One histogram: a bar per bucket, over a segment per bucket labelled with the values it holds
/// (so any range of values draws, however wide); light horizontal gridlines only; the counts
/// over the bars when there are few.
fn draw<DB: DrawingBackend>(area: &DrawingArea<DB, plotters::coord::Shift>, p: &Panel) -> Result<(), String> {
    let err = |e: DrawingAreaErrorKind<DB::ErrorType>| e.to_string();
    let n = p.hist.len().max(1) as i64;
    let most = p.hist.iter().map(|h| h.2).max().unwrap_or(0).max(1);
    let value = |v: i64| crate::trace::Decimal(v, p.decimals).to_string();
    let label = |i: i64| match p.hist.get(i as usize) {
        Some((a, b, _)) if a == b => value(*a),
        Some((a, b, _)) => format!("{}–{}", value(*a), value(*b)),
        None => String::new(),
    };
    let mut chart = ChartBuilder::on(area)
        .caption(&p.title, ("sans-serif", 16))
        .margin(14)
        .x_label_area_size(40)
        .y_label_area_size(56)
        .build_cartesian_2d((0..n - 1).into_segmented(), 0u64..most + most / 8 + 1)
        .map_err(err)?;
    chart
        .configure_mesh()
        .disable_x_mesh()
        .bold_line_style(GRID.stroke_width(1))
        .light_line_style(TRANSPARENT)
        .axis_style(GREY.stroke_width(1))
        .x_desc(p.x.as_str())
        .y_desc(p.y)
        .x_labels(12)
        .y_labels(6)
        .label_style(("sans-serif", 12))
        .axis_desc_style(("sans-serif", 13))
        .x_label_formatter(&|v| match v {
            SegmentValue::CenterOf(i) | SegmentValue::Exact(i) => label(*i),
            SegmentValue::Last => String::new(),
        })
        .draw()
        .map_err(err)?;
    chart
        .draw_series(p.hist.iter().enumerate().map(|(i, &(_, _, count))| {
            let i = i as i64;
            let mut bar = Rectangle::new(
                [(SegmentValue::Exact(i), 0), (SegmentValue::Exact(i + 1), count)],
                BAR.filled(),
            );
            bar.set_margin(0, 0, 2, 2);
            bar
        }))
        .map_err(err)?;
    if p.hist.len() <= COUNTS_UP_TO {
        let over = Pos::new(HPos::Center, VPos::Bottom);
        chart
            .draw_series(p.hist.iter().enumerate().map(|(i, &(_, _, count))| {
                Text::new(
                    count.to_string(),
                    (SegmentValue::CenterOf(i as i64), count),
                    ("sans-serif", 11).into_font().color(&GREY).pos(over),
                )
            }))
            .map_err(err)?;
    }
    Ok(())
}
