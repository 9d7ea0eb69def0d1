//! `--export-csv`: a header of the field names, then one record per row;
//! numbers at full precision, an absent speedup empty, and the `dataset`
//! name as `solve` writes its `file` column (a `'` before a name that
//! starts like a spreadsheet formula, see [`file_field`]).

use std::io;

use super::Exporter;
use crate::commands::bench::row::BenchRow;
use crate::output::file_field;

/// Writes rows as CSV.
#[derive(Clone, Copy, Debug, Default)]
pub struct CsvExporter;

impl Exporter for CsvExporter {
    fn serialize(&self, rows: &[BenchRow]) -> io::Result<Vec<u8>> {
        let mut writer = csv::Writer::from_writer(Vec::new());
        if rows.is_empty() {
            writer.write_record(crate::commands::bench::row::FIELDS)?;
        }
        for row in rows {
            match file_field(&row.dataset) {
                std::borrow::Cow::Borrowed(_) => writer.serialize(row)?,
                std::borrow::Cow::Owned(dataset) => writer.serialize(BenchRow {
                    dataset,
                    ..row.clone()
                })?,
            }
        }
        writer.into_inner().map_err(|e| e.into_error())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::commands::bench::export::tests::rows;
    use crate::commands::bench::row::FIELDS;

    #[test]
    fn the_header_is_the_field_list_and_numbers_round_trip() {
        let text = String::from_utf8(CsvExporter.serialize(&rows()).unwrap()).unwrap();
        let mut reader = csv::Reader::from_reader(text.as_bytes());
        assert_eq!(reader.headers().unwrap(), FIELDS.as_slice());
        let records: Vec<csv::StringRecord> = reader.records().map(Result::unwrap).collect();
        assert_eq!(records.len(), 2);
        assert_eq!(&records[0][6], "123456.7");
        assert_eq!(&records[1][10], "", "no speedup: empty");
        let empty = String::from_utf8(CsvExporter.serialize(&[]).unwrap()).unwrap();
        assert_eq!(empty.trim_end(), FIELDS.join(","));
    }

    #[test]
    fn a_dataset_named_like_a_formula_gets_a_quote() {
        let mut rows = rows();
        rows[0].dataset = "=cmd.txt".into();
        let text = String::from_utf8(CsvExporter.serialize(&rows).unwrap()).unwrap();
        let mut reader = csv::Reader::from_reader(text.as_bytes());
        let datasets: Vec<String> = reader
            .records()
            .map(|r| r.unwrap()[0].to_string())
            .collect();
        assert_eq!(datasets, ["'=cmd.txt", "data/top95.txt"]);
    }
}
