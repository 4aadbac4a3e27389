//! The quantile plot: for each configuration, the CPU times of its correct results sorted
//! ascending (x: the n-th fastest correct result, y: CPU time on a log scale), drawn as a
//! hand-written SVG.

use crate::results::{Record, Status};
use std::fmt::Write as _;

/// One line of the plot.
#[derive(Clone, Debug, PartialEq)]
pub struct Series {
    pub label: String,
    /// CPU times (s) of the correct results, ascending.
    pub values: Vec<f64>,
}

impl Series {
    pub fn from_records(label: &str, records: &[Record]) -> Series {
        let mut values: Vec<f64> = records
            .iter()
            .filter(|r| r.status == Status::Correct)
            .map(|r| if r.cpu.is_finite() { r.cpu } else { 0.0 })
            .collect();
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

const COLORS: [&str; 8] = ["#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#17becf"];
/// The smallest CPU time drawn (s): smaller values sit on this line of the log scale.
const MIN_TIME: f64 = 0.01;

fn tick_label(exp: i32) -> String {
    if exp >= 0 {
        format!("{}", 10f64.powi(exp) as u64)
    } else {
        format!("{:.*}", (-exp) as usize, 10f64.powi(exp))
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
pub fn quantile_svg(series: &[Series], title: &str) -> String {
    let (width, height) = (820.0_f64, 520.0_f64);
    let (left, right, top, bottom) = (80.0, 30.0, 50.0, 60.0);
    let (pw, ph) = (width - left - right, height - top - bottom);

    let max_n = series.iter().map(|s| s.values.len()).max().unwrap_or(0).max(1) as f64;
    let all: Vec<f64> = series.iter().flat_map(|s| s.values.iter().copied()).map(|v| v.max(MIN_TIME)).collect();
    let (lo, hi) = if all.is_empty() {
        (-1, 1)
    } else {
        let min = all.iter().copied().fold(f64::INFINITY, f64::min);
        let max = all.iter().copied().fold(0.0, f64::max);
        let lo = min.log10().floor() as i32;
        let mut hi = max.log10().ceil() as i32;
        if hi <= lo {
            hi = lo + 1;
        }
        (lo, hi)
    };
    let x_of = |i: f64| left + pw * i / max_n;
    let y_of = |v: f64| {
        let l = v.max(MIN_TIME).log10();
        top + ph * (1.0 - (l - lo as f64) / (hi - lo) as f64)
    };

    let mut s = String::new();
    let _ = writeln!(s, r##"<?xml version="1.0" encoding="UTF-8"?>"##);
    let _ = writeln!(
        s,
        r##"<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}" font-family="sans-serif" font-size="12">"##
    );
    let _ = writeln!(s, r##"<rect x="0" y="0" width="{width}" height="{height}" fill="white"/>"##);
    let _ = writeln!(
        s,
        r##"<text x="{}" y="28" text-anchor="middle" font-size="16">{}</text>"##,
        width / 2.0,
        xml_escape(title)
    );

    // Grid and y ticks (powers of ten).
    let _ = writeln!(s, r##"<g stroke="#dddddd" stroke-width="1">"##);
    for e in lo..=hi {
        let y = y_of(10f64.powi(e));
        let _ = writeln!(s, r##"<line x1="{left:.1}" y1="{y:.1}" x2="{:.1}" y2="{y:.1}"/>"##, left + pw);
    }
    let _ = writeln!(s, "</g>");
    // Minor grid lines at 2× and 5× each power of ten.
    let _ = writeln!(s, r##"<g stroke="#eeeeee" stroke-width="1" stroke-dasharray="3,3">"##);
    for e in lo..hi {
        for m in [2.0, 5.0] {
            let y = y_of(m * 10f64.powi(e));
            let _ = writeln!(s, r##"<line x1="{left:.1}" y1="{y:.1}" x2="{:.1}" y2="{y:.1}"/>"##, left + pw);
        }
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
    for e in lo..=hi {
        let y = y_of(10f64.powi(e));
        let _ = writeln!(s, r##"<text x="{:.1}" y="{:.1}">{}</text>"##, left - 6.0, y + 4.0, tick_label(e));
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
    let _ = writeln!(
        s,
        r##"<rect x="{left:.1}" y="{top:.1}" width="{pw:.1}" height="{ph:.1}" fill="none" stroke="black" stroke-width="1"/>"##
    );
    let _ = writeln!(
        s,
        r##"<text x="{:.1}" y="{:.1}" text-anchor="middle">n-th fastest correct result</text>"##,
        left + pw / 2.0,
        height - 15.0
    );
    let _ = writeln!(
        s,
        r##"<text x="20" y="{:.1}" text-anchor="middle" transform="rotate(-90 20 {:.1})">CPU time (s), log scale</text>"##,
        top + ph / 2.0,
        top + ph / 2.0
    );

    // The lines.
    for (k, ser) in series.iter().enumerate() {
        let color = COLORS[k % COLORS.len()];
        if ser.values.is_empty() {
            continue;
        }
        let points: Vec<String> = ser
            .values
            .iter()
            .enumerate()
            .map(|(i, v)| format!("{:.1},{:.1}", x_of((i + 1) as f64), y_of(*v)))
            .collect();
        let _ = writeln!(
            s,
            r##"<polyline fill="none" stroke="{color}" stroke-width="2" points="{}"><title>{}</title></polyline>"##,
            points.join(" "),
            xml_escape(&ser.label)
        );
        for p in points.iter().take(2000) {
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
            r##"<text x="{:.1}" y="{:.1}">{} ({} correct)</text>"##,
            left + 46.0,
            y + 4.0,
            xml_escape(&ser.label),
            ser.values.len()
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
