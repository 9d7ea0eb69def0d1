//! `--export-json`: `{"results": [row, ...]}`, as hyperfine writes, each row
//! an object whose keys are the field names; an absent speedup is `null`.

use std::io;

use serde::Serialize;

use super::Exporter;
use crate::commands::bench::row::BenchRow;

/// Writes rows as JSON.
#[derive(Clone, Copy, Debug, Default)]
pub struct JsonExporter;

#[derive(Serialize)]
struct Document<'a> {
    results: &'a [BenchRow],
}

impl Exporter for JsonExporter {
    fn serialize(&self, rows: &[BenchRow]) -> io::Result<Vec<u8>> {
        let mut bytes = serde_json::to_vec_pretty(&Document { results: rows })?;
        bytes.push(b'\n');
        Ok(bytes)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::commands::bench::export::tests::rows;

    #[test]
    fn rows_are_objects_under_results() {
        let bytes = JsonExporter.serialize(&rows()).unwrap();
        let json: serde_json::Value = serde_json::from_slice(&bytes).unwrap();
        let results = json["results"].as_array().unwrap();
        assert_eq!(results.len(), 2);
        assert_eq!(results[0]["puzzles_per_s"], 123_456.7);
        assert_eq!(results[0]["solver"], "fast");
        assert!(results[1]["speedup"].is_null());
    }
}
