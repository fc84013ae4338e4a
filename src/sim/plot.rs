//! `sim --plot`: the report's distributions drawn as one SVG, a panel per histogram.
//!
//! Drawn with `plotters` (its SVG backend only: text is left to the viewer's fonts). Like the rest
//! of the report, the picture is a function of the totals: the same for a seed whatever the
//! number of threads.

use plotters::prelude::*;

use super::report::Report;

/// Width and height of one panel, in pixels.
const PANEL: (u32, u32) = (520, 320);

/// One histogram to draw: its title, what the x axis counts, and its buckets `(from, to, count)`.
struct Panel<'a> {
    title: String,
    x: &'a str,
    hist: &'a [(i64, i64, u64)],
}

/// The panels of a report: iterations per encounter of each level whose count varies, then the
/// values of each measure that took more than one value.
fn panels(r: &Report) -> Vec<Panel<'_>> {
    let levels = r.levels.iter().filter(|l| l.min != l.max).map(|l| Panel {
        title: format!("{} per encounter", l.name),
        x: "iterations",
        hist: &l.hist,
    });
    let measures = r.measures.iter().filter(|m| m.min != m.max).map(|m| Panel {
        title: format!("measure {}", m.name),
        x: "value",
        hist: &m.hist,
    });
    levels.chain(measures).collect()
}

/// The report's distributions as an SVG document: two panels a row. A report with nothing that
/// varies gets one panel saying so.
pub fn svg(r: &Report) -> Result<String, String> {
    let panels = panels(r);
    let cols = panels.len().clamp(1, 2);
    let rows = panels.len().div_ceil(2).max(1);
    // Wide enough for the title even with one panel.
    let size = ((PANEL.0 * cols as u32).max(800), PANEL.1 * rows as u32 + 40);
    let mut out = String::new();
    {
        let root = SVGBackend::with_string(&mut out, size).into_drawing_area();
        let err = |e: DrawingAreaErrorKind<_>| format!("cannot draw the plot: {e}");
        root.fill(&WHITE).map_err(err)?;
        let title = format!(
            "{} · {} · {} encounters, seed {}",
            r.ruleset, r.encounter, r.runs, r.seed
        );
        let root = root.titled(&title, ("sans-serif", 18)).map_err(err)?;
        if panels.is_empty() {
            root.draw(&Text::new(
                "nothing varies between encounters: no distribution to draw",
                (20, 20),
                ("sans-serif", 15),
            ))
            .map_err(err)?;
        }
        for (panel, area) in panels.iter().zip(root.split_evenly((rows, cols))) {
            draw(&area, panel).map_err(|e| format!("cannot draw the plot: {e}"))?;
        }
        root.present().map_err(err)?;
    }
    Ok(out)
}

/// One histogram: a bar per bucket, over a segment per bucket labelled with the values it holds
/// (so any range of values draws, however wide).
fn draw<DB: DrawingBackend>(area: &DrawingArea<DB, plotters::coord::Shift>, p: &Panel<'_>) -> Result<(), String> {
    let err = |e: DrawingAreaErrorKind<DB::ErrorType>| e.to_string();
    let n = p.hist.len().max(1) as i64;
    let most = p.hist.iter().map(|h| h.2).max().unwrap_or(0).max(1);
    let label = |i: i64| match p.hist.get(i as usize) {
        Some((a, b, _)) if a == b => a.to_string(),
        Some((a, b, _)) => format!("{a}–{b}"),
        None => String::new(),
    };
    let mut chart = ChartBuilder::on(area)
        .caption(&p.title, ("sans-serif", 15))
        .margin(12)
        .x_label_area_size(36)
        .y_label_area_size(52)
        .build_cartesian_2d((0..n - 1).into_segmented(), 0u64..most + most / 10 + 1)
        .map_err(err)?;
    chart
        .configure_mesh()
        .disable_x_mesh()
        .x_desc(p.x)
        .y_desc("count")
        .x_labels(12)
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
                RGBColor(70, 110, 170).filled(),
            );
            bar.set_margin(0, 0, 2, 2);
            bar
        }))
        .map_err(err)?;
    Ok(())
}
