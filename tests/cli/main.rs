//! The integration tests: the real binary on the shipped corpora and small
//! fixtures, one module per subject. One test binary rather than one per
//! file: each binary links the library with Arrow and Parquet, so `cargo
//! test` makes one link here instead of fourteen. Add new integration tests
//! as a module here, not as a new `tests/*.rs` file.
//! Run one module with `cargo test --test cli MODULE::`.

mod common;

mod bench;
mod cases;
mod check;
mod ci_edges;
mod column_choice;
mod comment_lines;
mod dataset;
mod dataset_columns;
mod direct_read;
mod doc_examples;
mod expected_status;
mod formats_in;
mod formats_out;
mod full_by_bytes;
mod help;
mod identity;
mod keep_types;
mod kept;
mod kept_bytes;
mod killed_run;
mod later_refusals;
mod line_fields;
mod long_kept;
mod long_puzzle_column;
mod long_record;
mod merge_as_solve;
mod merge_jsonl;
mod merge_parquet;
mod mismatch;
mod nine_from_zero;
mod notations;
mod one_reading;
#[cfg(unix)]
mod output_permissions;
mod pandas_csv;
mod parquet_compression;
mod parquet_first_look;
mod pipeline;
mod puzzle_column;
mod r_numpy_headers;
mod rate;
mod reader;
mod repeated_kept;
mod resume_jsonl;
mod resume_parquet;
mod robust;
mod round2;
mod round3;
mod round4_options;
mod round4_rate;
mod round4_read;
mod round4_refused;
mod round4_zero_lists;
mod same_output;
mod shard;
mod sizes;
mod solutions_quote;
mod solve;
mod spreadsheet_solutions;
mod stray_quote;
mod tab_separated;
mod two_outputs;
mod wording;
mod workers_memory;
mod write_failures;
