//! Quantile plots: for each configuration, one measure of its correct results sorted ascending
//! (x: the n-th result, y: the measure), drawn as a hand-written SVG. The measure is the CPU
//! time, the refinement iterations, or the share of perfect sequences (the last two from the
//! verifier's statistics).

use crate::results::{Record, Status};
use std::fmt::Write as _;

/// What a quantile plot draws for each correct result.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum Metric {
    /// CPU time in seconds (log scale).
    #[default]
    Time,
    /// Refinement iterations, from the statistics (log scale).
    Iterations,
    /// Perfect sequences among the sequences computed, in percent, from the statistics
    /// (results without sequences are left out).
    Perfect,
}

impl Metric {
    /// The measure of one correct result, if it has one.
    pub fn of(self, r: &Record) -> Option<f64> {
        match self {
            Metric::Time => Some(if r.cpu.is_finite() { r.cpu } else { 0.0 }),
            Metric::Iterations => r.stat("iterations"),
            Metric::Perfect => {
                let sequences = r.stat("sequences")?;
                (sequences > 0.0).then(|| 100.0 * r.stat("perfect_sequences").unwrap_or(0.0) / sequences)
            }
        }
    }

    fn axis_label(self) -> &'static str {
        match self {
            Metric::Time => "CPU time (s), log scale",
            Metric::Iterations => "refinement iterations, log scale",
            Metric::Perfect => "perfect sequences (%)",
        }
    }

    /// What the legend counts.
    fn counted(self) -> &'static str {
        match self {
            Metric::Time | Metric::Iterations => "correct",
            Metric::Perfect => "with sequences",
        }
    }

    fn x_label(self) -> &'static str {
        match self {
            Metric::Time => "n-th fastest correct result",
            Metric::Iterations => "n-th correct result, by iterations",
            Metric::Perfect => "n-th correct result with sequences, by % perfect",
        }
    }
}

/// One line of the plot.
#[derive(Clone, Debug, PartialEq)]
pub struct Series {
    pub label: String,
    /// The measure of each correct result that has one, ascending.
    pub values: Vec<f64>,
}

impl Series {
    pub fn from_records(label: &str, records: &[Record], metric: Metric) -> Series {
        let mut values: Vec<f64> = records.iter().filter(|r| r.status == Status::Correct).filter_map(|r| metric.of(r)).collect();
        values.sort_by(f64::total_cmp);
        Series { label: label.to_string(), values }
    }
}

/// Escapes text for XML content and attribute values.
pub fn xml_escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            // Characters XML 1.0 does not allow.
            c if (c as u32) < 0x20 && !matches!(c, '\t' | '\n' | '\r') => out.push('?'),
            c => out.push(c),
        }
    }
    out
}

const COLORS: [&str; 12] =
    ["#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#17becf", "#7f7f7f", "#bcbd22", "#000000", "#aec7e8"];

fn tick_label(exp: i32) -> String {
    if exp >= 0 {
        format!("{}", 10f64.powi(exp) as u64)
    } else {
        format!("{:.*}", (-exp) as usize, 10f64.powi(exp))
    }
}

/// The most points of a line that get a marker each.
const MAX_MARKERS: usize = 100;

/// The y axis.
enum Scale {
    /// Powers of ten from `10^lo` to `10^hi`; values below `floor` sit on the floor.
    Log { lo: i32, hi: i32, floor: f64 },
    /// 0 to 100.
    Percent,
}

impl Scale {
    fn of(metric: Metric, values: impl Iterator<Item = f64>) -> Scale {
        let floor = match metric {
            Metric::Perfect => return Scale::Percent,
            // The smallest CPU time drawn (s).
            Metric::Time => 0.01,
            Metric::Iterations => 1.0,
        };
        let (min, max) = values.map(|v| v.max(floor)).fold((f64::INFINITY, 0.0_f64), |(lo, hi), v| (lo.min(v), hi.max(v)));
        if !min.is_finite() {
            return Scale::Log { lo: floor.log10().floor() as i32, hi: floor.log10().floor() as i32 + 2, floor };
        }
        let lo = min.log10().floor() as i32;
        let hi = (max.log10().ceil() as i32).max(lo + 1);
        Scale::Log { lo, hi, floor }
    }

    /// Where `v` sits, from 0 (bottom) to 1 (top).
    fn fraction(&self, v: f64) -> f64 {
        match *self {
            Scale::Log { lo, hi, floor } => (v.max(floor).log10() - lo as f64) / (hi - lo) as f64,
            Scale::Percent => v.clamp(0.0, 100.0) / 100.0,
        }
    }

    /// The labelled grid lines.
    fn ticks(&self) -> Vec<(f64, String)> {
        match *self {
            Scale::Log { lo, hi, .. } => (lo..=hi).map(|e| (10f64.powi(e), tick_label(e))).collect(),
            Scale::Percent => (0..=5).map(|k| (20.0 * k as f64, format!("{}", 20 * k))).collect(),
        }
    }

    /// The unlabelled grid lines: 2× and 5× each power of ten, the odd tens of percent.
    fn minor(&self) -> Vec<f64> {
        match *self {
            Scale::Log { lo, hi, .. } => (lo..hi).flat_map(|e| [2.0, 5.0].map(|m| m * 10f64.powi(e))).collect(),
            Scale::Percent => (0..5).map(|k| 10.0 + 20.0 * k as f64).collect(),
        }
    }
}

/// A "nice" step for about `target` ticks over `0..=max`.
fn nice_step(max: f64, target: f64) -> f64 {
    let raw = (max / target).max(1.0);
    let mag = 10f64.powf(raw.log10().floor());
    let f = raw / mag;
    let nice = if f <= 1.0 {
        1.0
    } else if f <= 2.0 {
        2.0
    } else if f <= 5.0 {
        5.0
    } else {
        10.0
    };
    nice * mag
}

/// The plot as an SVG document.
pub fn quantile_svg(series: &[Series], title: &str, metric: Metric) -> String {
    let (width, height) = (820.0_f64, 520.0_f64);
    let (left, right, top, bottom) = (80.0, 30.0, 50.0, 60.0);
    let (pw, ph) = (width - left - right, height - top - bottom);

    let max_n = series.iter().map(|s| s.values.len()).max().unwrap_or(0).max(1) as f64;
    let scale = Scale::of(metric, series.iter().flat_map(|s| s.values.iter().copied()));
    let x_of = |i: f64| left + pw * i / max_n;
    let y_of = |v: f64| top + ph * (1.0 - scale.fraction(v));

    let mut s = String::new();
    let _ = writeln!(s, r##"<?xml version="1.0" encoding="UTF-8"?>"##);
    let _ = writeln!(
        s,
        r##"<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}" font-family="sans-serif" font-size="12">"##
    );
    let _ = writeln!(s, r##"<rect x="0" y="0" width="{width}" height="{height}" fill="white"/>"##);
    let _ = writeln!(s, r##"<text x="{}" y="28" text-anchor="middle" font-size="16">{}</text>"##, width / 2.0, xml_escape(title));

    // Grid and y ticks.
    let _ = writeln!(s, r##"<g stroke="#dddddd" stroke-width="1">"##);
    for (v, _) in scale.ticks() {
        let y = y_of(v);
        let _ = writeln!(s, r##"<line x1="{left:.1}" y1="{y:.1}" x2="{:.1}" y2="{y:.1}"/>"##, left + pw);
    }
    let _ = writeln!(s, "</g>");
    let _ = writeln!(s, r##"<g stroke="#eeeeee" stroke-width="1" stroke-dasharray="3,3">"##);
    for v in scale.minor() {
        let y = y_of(v);
        let _ = writeln!(s, r##"<line x1="{left:.1}" y1="{y:.1}" x2="{:.1}" y2="{y:.1}"/>"##, left + pw);
    }
    let _ = writeln!(s, "</g>");
    let _ = writeln!(s, r##"<g stroke="#dddddd" stroke-width="1">"##);
    let step = nice_step(max_n, 8.0);
    let mut xt = 0.0;
    while xt <= max_n + 1e-9 {
        let x = x_of(xt);
        let _ = writeln!(s, r##"<line x1="{x:.1}" y1="{top:.1}" x2="{x:.1}" y2="{:.1}"/>"##, top + ph);
        xt += step;
    }
    let _ = writeln!(s, "</g>");
    let _ = writeln!(s, r##"<g text-anchor="end">"##);
    for (v, label) in scale.ticks() {
        let _ = writeln!(s, r##"<text x="{:.1}" y="{:.1}">{label}</text>"##, left - 6.0, y_of(v) + 4.0);
    }
    let _ = writeln!(s, "</g>");
    let _ = writeln!(s, r##"<g text-anchor="middle">"##);
    let mut xt = 0.0;
    while xt <= max_n + 1e-9 {
        let _ = writeln!(s, r##"<text x="{:.1}" y="{:.1}">{}</text>"##, x_of(xt), top + ph + 18.0, xt as u64);
        xt += step;
    }
    let _ = writeln!(s, "</g>");
    // Axes and their labels.
    let _ =
        writeln!(s, r##"<rect x="{left:.1}" y="{top:.1}" width="{pw:.1}" height="{ph:.1}" fill="none" stroke="black" stroke-width="1"/>"##);
    let _ = writeln!(s, r##"<text x="{:.1}" y="{:.1}" text-anchor="middle">{}</text>"##, left + pw / 2.0, height - 15.0, metric.x_label());
    let _ = writeln!(
        s,
        r##"<text x="20" y="{:.1}" text-anchor="middle" transform="rotate(-90 20 {:.1})">{}</text>"##,
        top + ph / 2.0,
        top + ph / 2.0,
        metric.axis_label()
    );

    // The lines.
    for (k, ser) in series.iter().enumerate() {
        let color = COLORS[k % COLORS.len()];
        if ser.values.is_empty() {
            continue;
        }
        let points: Vec<String> =
            ser.values.iter().enumerate().map(|(i, v)| format!("{:.1},{:.1}", x_of((i + 1) as f64), y_of(*v))).collect();
        let _ = writeln!(
            s,
            r##"<polyline fill="none" stroke="{color}" stroke-width="2" points="{}"><title>{}</title></polyline>"##,
            points.join(" "),
            xml_escape(&ser.label)
        );
        // Markers only where they can be told apart; a long line is drawn as a line.
        for p in points.iter().filter(|_| points.len() <= MAX_MARKERS) {
            let (x, y) = p.split_once(',').unwrap_or(("0", "0"));
            let _ = writeln!(s, r##"<circle cx="{x}" cy="{y}" r="2.5" fill="{color}"/>"##);
        }
    }

    // Legend (top left, inside the plot area).
    let lh = 18.0;
    let legend_h = lh * series.len() as f64 + 8.0;
    let longest = series.iter().map(|s| s.label.chars().count() + 16).max().unwrap_or(10) as f64;
    let _ = writeln!(
        s,
        r##"<rect x="{:.1}" y="{:.1}" width="{:.1}" height="{legend_h:.1}" fill="white" fill-opacity="0.85" stroke="#999999"/>"##,
        left + 10.0,
        top + 10.0,
        (longest * 7.0 + 40.0).min(pw - 20.0)
    );
    for (k, ser) in series.iter().enumerate() {
        let color = COLORS[k % COLORS.len()];
        let y = top + 10.0 + 4.0 + lh * (k as f64 + 0.5);
        let _ = writeln!(
            s,
            r##"<line x1="{:.1}" y1="{y:.1}" x2="{:.1}" y2="{y:.1}" stroke="{color}" stroke-width="2"/>"##,
            left + 18.0,
            left + 40.0
        );
        let _ = writeln!(
            s,
            r##"<text x="{:.1}" y="{:.1}">{} ({} {})</text>"##,
            left + 46.0,
            y + 4.0,
            xml_escape(&ser.label),
            ser.values.len(),
            metric.counted()
        );
    }
    if series.iter().all(|s| s.values.is_empty()) {
        let _ = writeln!(
            s,
            r##"<text x="{:.1}" y="{:.1}" text-anchor="middle" fill="#777777">no correct results</text>"##,
            left + pw / 2.0,
            top + ph / 2.0
        );
    }
    let _ = writeln!(s, "</svg>");
    s
}
