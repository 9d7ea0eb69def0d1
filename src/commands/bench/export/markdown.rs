//! `--export-markdown`: a Markdown table of the rows, rounded for reading
//! as in the aligned table, with the CPU line under it.

use std::io;

use super::{display_cells, flag_line, machine_line, Exporter, DISPLAY_FIELDS, TEXT_COLUMNS};
use crate::commands::bench::row::BenchRow;

/// Writes rows as a Markdown table.
#[derive(Clone, Copy, Debug, Default)]
pub struct MarkdownExporter;

impl Exporter for MarkdownExporter {
    fn serialize(&self, rows: &[BenchRow]) -> io::Result<Vec<u8>> {
        let mut out = String::new();
        out.push_str(&format!("| {} |\n", DISPLAY_FIELDS.join(" | ")));
        let rules: Vec<&str> = (0..DISPLAY_FIELDS.len())
            .map(|i| if i < TEXT_COLUMNS { ":---" } else { "---:" })
            .collect();
        out.push_str(&format!("|{}|\n", rules.join("|")));
        for row in rows {
            let cells = display_cells(row).map(|cell| cell.replace('|', "\\|"));
            out.push_str(&format!("| {} |\n", cells.join(" | ")));
        }
        let machine = machine_line(rows);
        if !machine.is_empty() {
            out.push_str(&format!("\n{machine}\n"));
        }
        let flag = flag_line(rows);
        if !flag.is_empty() {
            out.push_str(&format!("\n{flag}\n"));
        }
        Ok(out.into_bytes())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::commands::bench::export::tests::rows;

    #[test]
    fn a_markdown_table_with_numbers_right_aligned() {
        let text = String::from_utf8(MarkdownExporter.serialize(&rows()).unwrap()).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert!(lines[0].starts_with("| dataset | size | solver | mode | threads | puzzles |"));
        assert!(lines[1].starts_with("|:---|:---|:---|:---|---:|"));
        assert_eq!(
            lines[2],
            "| data/top95.txt | 9x9 | fast | unique | 1 | 95 | 123,457 | ±2.0% | 8.10 | 12.5 | 9.12 | 1.00 | 100.0 | - | - |"
        );
        assert_eq!(
            lines.last().unwrap(),
            &"cpu: Test CPU, 2 cores, SIMD avx2; sudoku-batch 0.1.0"
        );
    }
}
