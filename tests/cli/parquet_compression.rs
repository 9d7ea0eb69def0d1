//! `--parquet-compression` of `solve` and `merge`, run as the binary: each
//! choice compresses the columns it says (`fast`: the columns of every run
//! uncompressed, the others zstd; `none`, `snappy`, `zstd`: every column)
//! and reads back to the same schema and values; `merge -o m.parquet`
//! writes each column as `solve` does (codec, encodings, dictionary,
//! statistics), whatever the choice; the option is refused for other
//! formats.

use std::fs::File;

use arrow_array::RecordBatch;
use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;
use parquet::basic::{Compression, Encoding};
use parquet::file::reader::{FileReader, SerializedFileReader};

use crate::common::{code, stderr, Scratch};
use crate::merge_jsonl::{merged, shards};
use crate::shard::{run, solve_to};

/// The choices, as the option takes them.
const CHOICES: [&str; 4] = ["fast", "none", "snappy", "zstd"];

/// The columns `fast` leaves uncompressed: those of every run.
const RUN_COLUMNS: [&str; 8] = [
    "line", "puzzle", "status", "solution", "guesses", "solve_us", "check", "message",
];

/// How one column chunk is written: its name, codec, encodings, whether
/// it has a dictionary page and statistics.
type Layout = (String, Compression, Vec<Encoding>, bool, bool);

/// Each column chunk's layout, row group by row group, of the Parquet
/// file at `path`.
fn layout(path: &str) -> Vec<Vec<Layout>> {
    let reader = SerializedFileReader::new(File::open(path).unwrap()).unwrap();
    reader
        .metadata()
        .row_groups()
        .iter()
        .map(|group| {
            group
                .columns()
                .iter()
                .map(|c| {
                    let mut encodings = c.encodings().collect::<Vec<_>>();
                    encodings.sort_by_key(|e| *e as i32);
                    (
                        c.column_path().string(),
                        c.compression(),
                        encodings,
                        c.dictionary_page_offset().is_some(),
                        c.statistics().is_some(),
                    )
                })
                .collect()
        })
        .collect()
}

/// Every row of a Parquet file, as one batch, without `solve_us` (times
/// differ from run to run).
fn table(path: &str) -> RecordBatch {
    let reader = ParquetRecordBatchReaderBuilder::try_new(File::open(path).unwrap()).unwrap();
    let schema = reader.schema().clone();
    let batches: Vec<RecordBatch> = reader.build().unwrap().map(Result::unwrap).collect();
    let mut all = arrow_select::concat::concat_batches(&schema, &batches).unwrap();
    all.remove_column(schema.index_of("solve_us").unwrap());
    all
}

/// The codec `choice` gives a column of every run (`run`) or another.
fn codec(choice: &str, run: bool) -> Compression {
    let zstd = Compression::ZSTD(Default::default());
    match (choice, run) {
        ("fast", true) | ("none", _) => Compression::UNCOMPRESSED,
        ("fast", false) | ("zstd", _) => zstd,
        ("snappy", _) => Compression::SNAPPY,
        _ => panic!("no choice {choice}"),
    }
}

#[test]
fn each_choice_compresses_the_columns_it_says_and_reads_back_the_same() {
    let s = Scratch::new();
    let default = s.path("default.parquet");
    solve_to(&default, &[]);
    let base = table(&default);
    for choice in CHOICES {
        let out = s.path(&format!("{choice}.parquet"));
        solve_to(&out, &["--parquet-compression", choice]);
        assert_eq!(table(&out), base, "{choice}: the schema and values");
        for group in layout(&out) {
            // The corpus's several inputs give a `file` column: not one
            // of every run's.
            assert_eq!(group[0].0, "file");
            for (name, compression, ..) in group {
                let run = RUN_COLUMNS.contains(&name.as_str());
                assert_eq!(compression, codec(choice, run), "{choice}: {name}");
            }
        }
        if choice == "fast" {
            // The default is `fast`, byte for byte but the times.
            assert_eq!(layout(&out), layout(&default));
        }
    }
}

#[test]
fn merge_writes_parquet_as_solve_does_with_each_choice() {
    let s = Scratch::new();
    let (parts, _) = shards(&s, "parquet");
    for choice in ["", "fast", "none", "snappy", "zstd"] {
        let extra: &[&str] = match choice {
            "" => &[],
            _ => &["--parquet-compression", choice],
        };
        let whole = s.path(&format!("whole-{choice}.parquet"));
        solve_to(&whole, extra);
        let out = s.path(&format!("m-{choice}.parquet"));
        let mut args: Vec<&str> = parts.iter().map(String::as_str).collect();
        args.extend(["-o", &out]);
        args.extend(extra);
        merged(&args);
        assert_eq!(layout(&out), layout(&whole), "choice {choice:?}");
        assert_eq!(table(&out), table(&whole), "choice {choice:?}");
    }
}

#[test]
fn the_option_is_refused_for_results_that_are_not_parquet() {
    let s = Scratch::new();
    let out = s.path("r.csv");
    let refused = run(
        "solve",
        &[
            "data/top95.txt",
            "-o",
            &out,
            "--parquet-compression",
            "zstd",
        ],
    );
    assert_eq!(code(&refused), 2, "{}", stderr(&refused));
    assert!(
        stderr(&refused).contains(&format!(
            "--parquet-compression is for Parquet results; {out} names CSV results"
        )),
        "{}",
        stderr(&refused)
    );
    assert!(!std::path::Path::new(&out).exists());

    let (parts, _) = shards(&s, "parquet");
    let merged_csv = s.path("m.csv");
    let mut args: Vec<&str> = parts.iter().map(String::as_str).collect();
    args.extend(["-o", &merged_csv, "--parquet-compression", "snappy"]);
    let refused = run("merge", &args);
    assert_eq!(code(&refused), 2, "{}", stderr(&refused));
    assert!(
        stderr(&refused).contains(&format!(
            "--parquet-compression is for Parquet output; {merged_csv} names CSV"
        )),
        "{}",
        stderr(&refused)
    );
    assert!(!std::path::Path::new(&merged_csv).exists());
}
