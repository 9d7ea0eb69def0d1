//! `--export-csv`: a header of the field names, then one record per row;
//! numbers at full precision, an absent speedup empty.

use std::io;

use super::Exporter;
use crate::bench::row::BenchRow;

/// Writes rows as CSV.
#[derive(Clone, Copy, Debug, Default)]
pub struct CsvExporter;

impl Exporter for CsvExporter {
    fn serialize(&self, rows: &[BenchRow]) -> io::Result<Vec<u8>> {
        let mut writer = csv::Writer::from_writer(Vec::new());
        if rows.is_empty() {
            writer.write_record(crate::bench::row::FIELDS)?;
        }
        for row in rows {
            writer.serialize(row)?;
        }
        writer.into_inner().map_err(|e| e.into_error())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bench::export::tests::rows;
    use crate::bench::row::FIELDS;

    #[test]
    fn the_header_is_the_field_list_and_numbers_round_trip() {
        let text = String::from_utf8(CsvExporter.serialize(&rows()).unwrap()).unwrap();
        let mut reader = csv::Reader::from_reader(text.as_bytes());
        assert_eq!(reader.headers().unwrap(), FIELDS.as_slice());
        let records: Vec<csv::StringRecord> = reader.records().map(Result::unwrap).collect();
        assert_eq!(records.len(), 2);
        assert_eq!(&records[0][5], "123456.7");
        assert_eq!(&records[1][9], "", "no speedup: empty");
        let empty = String::from_utf8(CsvExporter.serialize(&[]).unwrap()).unwrap();
        assert_eq!(empty.trim_end(), FIELDS.join(","));
    }
}
