//! The aligned table `bench` prints by default: text columns left-aligned,
//! numbers right-aligned and rounded for reading, the CPU line under it.

use std::io;

use super::{display_cells, flag_line, machine_line, Exporter, DISPLAY_FIELDS, TEXT_COLUMNS};
use crate::commands::bench::row::BenchRow;

/// Writes rows as an aligned plain-text table.
#[derive(Clone, Copy, Debug, Default)]
pub struct TableExporter;

impl Exporter for TableExporter {
    fn serialize(&self, rows: &[BenchRow]) -> io::Result<Vec<u8>> {
        let header = DISPLAY_FIELDS.map(str::to_string);
        let body: Vec<[String; DISPLAY_FIELDS.len()]> = rows.iter().map(display_cells).collect();
        let mut widths = header.clone().map(|h| h.chars().count());
        for cells in &body {
            for (width, cell) in widths.iter_mut().zip(cells) {
                *width = (*width).max(cell.chars().count());
            }
        }
        let mut out = String::new();
        for cells in std::iter::once(&header).chain(&body) {
            let mut line = String::new();
            for (i, (cell, &width)) in cells.iter().zip(&widths).enumerate() {
                if i > 0 {
                    line.push_str("  ");
                }
                if i < TEXT_COLUMNS {
                    line.push_str(&format!("{cell:<width$}"));
                } else {
                    line.push_str(&format!("{cell:>width$}"));
                }
            }
            out.push_str(line.trim_end());
            out.push('\n');
        }
        for line in [machine_line(rows), flag_line(rows)] {
            if !line.is_empty() {
                out.push_str(&line);
                out.push('\n');
            }
        }
        Ok(out.into_bytes())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::commands::bench::export::tests::rows;

    #[test]
    fn columns_line_up() {
        let text = String::from_utf8(TableExporter.serialize(&rows()).unwrap()).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 4);
        // Every numeric column ends at the same place on every line.
        let end_of = |line: &str, field: &str| line.find(field).map(|i| i + field.len());
        let header_end = end_of(lines[0], "puzzles_per_s").unwrap();
        assert_eq!(end_of(lines[1], "123,457"), Some(header_end));
        assert_eq!(end_of(lines[2], "40.0"), Some(header_end));
        assert!(lines[1].starts_with("data/top95.txt  9x9   fast "));
        assert_eq!(
            lines[3],
            "cpu: Test CPU, 2 cores, SIMD avx2; sudoku-batch 0.1.0"
        );
    }
}
