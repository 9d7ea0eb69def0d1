//! `--resume` of Parquet results: a run stopped by SIGTERM after some row
//! groups, resumed, gives the rows of a run never stopped (`solve_us`
//! aside), kept columns with their types; a resume killed outright leaves
//! the old file whole, and the next one finishes it; a file without its
//! footer, or of another run, is refused and left as it was.

use std::fs::File;
use std::io::Write;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use crate::common::*;
use arrow_array::RecordBatch;
use arrow_schema::DataType;
use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;
use serde_json::Value;

/// Records of the whole input: the shipped Kaggle puzzles ten times over,
/// three row groups of results and some.
const RECORDS: usize = 100_000;

/// The columns kept, and their types.
const KEEP: [&str; 4] = ["--keep", "id,source", "--keep-types", "id=int64"];

/// The input, `RECORDS` rows of `id,source,quizzes,solutions`: its header
/// and rows apart, so that a run can be fed part of it.
fn input() -> (String, Vec<String>) {
    let kaggle = std::fs::read_to_string(repo("data/kaggle1m_10000.csv")).expect("shipped");
    let puzzles: Vec<&str> = kaggle.lines().skip(1).collect();
    let rows = (0..RECORDS)
        .map(|i| {
            let source = ["kaggle", "copy"][usize::from(i >= puzzles.len())];
            format!("{},{source},{}\n", i + 1, puzzles[i % puzzles.len()])
        })
        .collect();
    ("id,source,quizzes,solutions\n".to_string(), rows)
}

/// `solve ARGS KEEP --quiet`, spawned with its stdin piped.
fn spawn(args: &[&str]) -> Child {
    Command::new(assert_cmd::cargo::cargo_bin("sudoku-batch"))
        .arg("solve")
        .args(args)
        .args(KEEP)
        .args(["--quiet", "-j", "2"])
        .stdin(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary starts")
}

/// Runs `solve ARGS KEEP`, asserting its exit code; its stderr.
fn solved(args: &[&str], expected: i32) -> String {
    let output = solve(&[args, &KEEP[..]].concat());
    assert_eq!(code(&output), expected, "{args:?}: {}", stderr(&output));
    stderr(&output)
}

/// Waits until `path` holds at least `bytes` bytes.
fn wait_for(path: &str, bytes: u64) {
    let deadline = Instant::now() + Duration::from_secs(120);
    while std::fs::metadata(path).map_or(0, |m| m.len()) < bytes {
        assert!(
            Instant::now() < deadline,
            "{path} never reached {bytes} bytes"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Sends `signal` to `child` and waits for it; its exit code.
fn signal(child: &mut Child, signal: &str) -> Option<i32> {
    let sent = Command::new("kill")
        .args(["-s", signal, &child.id().to_string()])
        .status()
        .expect("kill runs");
    assert!(sent.success());
    let status = child.wait().expect("the child ends");
    use std::os::unix::process::ExitStatusExt;
    status.code().or(status.signal().map(|s| 128 + s))
}

/// A Parquet file's rows in one batch, `solve_us` left out (it differs
/// from run to run), and its row groups.
fn table(path: &str) -> (RecordBatch, usize) {
    let builder = ParquetRecordBatchReaderBuilder::try_new(File::open(path).expect("exists"))
        .expect("a readable Parquet file");
    let groups = builder.metadata().num_row_groups();
    let schema = builder.schema().clone();
    let batches: Vec<RecordBatch> = builder
        .build()
        .expect("a reader")
        .map(|b| b.expect("a row group"))
        .collect();
    let all = arrow_select::concat::concat_batches(&schema, &batches).expect("one schema");
    let at = schema.index_of("solve_us").expect("a solve_us column");
    let mut all = all;
    all.remove_column(at);
    (all, groups)
}

/// The temporary files of resumes of `out` beside it
/// (`.NAME.resume-PID.partial`), by name.
pub(crate) fn partials(out: &str) -> Vec<String> {
    let out = Path::new(out);
    let start = format!(".{}.resume-", out.file_name().unwrap().to_string_lossy());
    let mut names: Vec<String> = std::fs::read_dir(out.parent().unwrap())
        .unwrap()
        .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|name| name.starts_with(&start) && name.ends_with(".partial"))
        .collect();
    names.sort();
    names
}

/// True when the temporary file of a resume of `out` is there.
fn partial(out: &str) -> bool {
    !partials(out).is_empty()
}

#[test]
fn parquet_stopped_by_sigterm_resumes_to_the_file_of_a_run_never_stopped() {
    let scratch = Scratch::new();
    let (header, rows) = input();
    let whole_input = scratch.file("in.csv", (header.clone() + &rows.concat()).as_bytes());
    let whole = scratch.path("whole.parquet");
    solved(&[&whole_input, "-o", &whole], 0);

    // The first run reads its records from a pipe, which sends 70,000 and
    // then nothing: once two row groups are in the file, SIGTERM.
    let (out, summary) = (scratch.path("r.parquet"), scratch.path("s.json"));
    let mut child = spawn(&["-", "--format", "csv", "-o", &out]);
    let mut stdin = child.stdin.take().expect("piped");
    stdin.write_all(header.as_bytes()).unwrap();
    stdin.write_all(rows[..70_000].concat().as_bytes()).unwrap();
    wait_for(&out, 2 * 32_768 * 150);
    std::thread::sleep(Duration::from_millis(300));
    assert_eq!(signal(&mut child, "TERM"), Some(143));
    drop(stdin);
    let (first, groups) = table(&out);
    assert!(groups >= 2, "{groups} row groups");
    assert!(
        (65_536..=70_000).contains(&first.num_rows()),
        "{} rows",
        first.num_rows()
    );

    solved(
        &[
            &whole_input,
            "-o",
            &out,
            "--resume",
            "--summary-json",
            &summary,
        ],
        0,
    );
    let (resumed, groups) = table(&out);
    let (expected, _) = table(&whole);
    assert!(
        groups >= 4,
        "the first run's groups, then this run's: {groups}"
    );
    assert_eq!(resumed.schema(), expected.schema());
    assert_eq!(resumed.num_rows(), RECORDS);
    for (i, field) in expected.schema().fields().iter().enumerate() {
        assert_eq!(resumed.column(i), expected.column(i), "{}", field.name());
    }
    // The kept columns come through with their types.
    let schema = resumed.schema();
    assert_eq!(
        schema.field_with_name("id").unwrap().data_type(),
        &DataType::Int64
    );
    assert_eq!(
        schema.field_with_name("source").unwrap().data_type(),
        &DataType::Utf8
    );
    let json: Value = serde_json::from_str(&read_output(&summary)).unwrap();
    assert_eq!(
        json["puzzles"], RECORDS,
        "the summary covers the whole file"
    );
    assert_eq!(json["interrupted"], false);
    assert!(!partial(&out), "the temporary file is gone");

    // A finished file: resumed again, it keeps its rows.
    solved(&[&whole_input, "-o", &out, "--resume"], 0);
    assert_eq!(table(&out).0, resumed);
}

#[test]
fn a_resume_killed_outright_leaves_the_old_file_whole_and_the_next_one_finishes_it() {
    let scratch = Scratch::new();
    let (header, rows) = input();
    let whole_input = scratch.file("in.csv", (header.clone() + &rows.concat()).as_bytes());
    let whole = scratch.path("whole.parquet");
    solved(&[&whole_input, "-o", &whole], 0);
    let part = scratch.file(
        "part.csv",
        (header.clone() + &rows[..40_000].concat()).as_bytes(),
    );
    let out = scratch.path("r.parquet");
    solved(&[&part, "-o", &out], 0);
    let before = std::fs::read(&out).unwrap();

    // The resume reads from a pipe that sends 90,000 records and stops:
    // once its temporary file is longer than the old one, SIGKILL.
    // Its temporary file carries its process id.
    let mut child = spawn(&["-", "--format", "csv", "-o", &out, "--resume"]);
    let mut stdin = child.stdin.take().expect("piped");
    stdin.write_all(header.as_bytes()).unwrap();
    stdin.write_all(rows[..90_000].concat().as_bytes()).unwrap();
    let killed = format!(".r.parquet.resume-{}.partial", child.id());
    let temporary = scratch.path(&killed);
    wait_for(&temporary, before.len() as u64 + (2 << 20));
    assert_eq!(signal(&mut child, "KILL"), Some(137));
    drop(stdin);
    assert_eq!(
        std::fs::read(&out).unwrap(),
        before,
        "the old file is whole"
    );
    assert_eq!(
        partials(&out),
        [killed.as_str()],
        "the killed run's file is left"
    );

    // The next resume removes it (its process is gone, and so is its
    // lock), says so, and renames its own file at its end.
    let said = solved(&[&whole_input, "-o", &out, "--resume"], 0);
    assert!(
        said.contains(&format!(
            "sudoku-batch: warning: removed {temporary}, what a resume of {out} killed \
             outright left (process {} is gone)",
            child.id()
        )),
        "{said}"
    );
    assert!(!partial(&out));
    let (resumed, _) = table(&out);
    assert_eq!(resumed, table(&whole).0);
}

#[test]
fn a_parquet_file_without_its_footer_is_refused_and_left_as_it_was() {
    let scratch = Scratch::new();
    let (header, rows) = input();
    let small = scratch.file("in.csv", (header + &rows[..3_000].concat()).as_bytes());
    let whole = scratch.path("whole.parquet");
    solved(&[&small, "-o", &whole], 0);
    // What a run killed outright leaves: its first bytes, no footer.
    let bytes = std::fs::read(&whole).unwrap();
    let out = scratch.file("r.parquet", &bytes[..bytes.len() / 2]);
    let before = std::fs::read(&out).unwrap();
    let summary = scratch.file("s.json", b"{\"kept\": true}");
    let message = solved(
        &[&small, "-o", &out, "--resume", "--summary-json", &summary],
        2,
    );
    assert!(message.contains(&out), "{message}");
    assert!(message.contains("no Parquet footer"), "{message}");
    assert_eq!(std::fs::read(&out).unwrap(), before);
    assert_eq!(read_output(&summary), "{\"kept\": true}");
    assert!(!partial(&out));

    // Not Parquet at all.
    let text = scratch.file("t.parquet", b"line,puzzle\n1,2\n");
    let message = solved(&[&small, "-o", &text, "--resume"], 2);
    assert!(message.contains("not a Parquet file"), "{message}");
    assert_eq!(read_output(&text), "line,puzzle\n1,2\n");
}

#[test]
fn a_parquet_file_of_another_run_is_refused_and_left_as_it_was() {
    let scratch = Scratch::new();
    let (header, rows) = input();
    let small = scratch.file(
        "in.csv",
        (header.clone() + &rows[..3_000].concat()).as_bytes(),
    );
    let out = scratch.path("r.parquet");
    solved(&[&small, "-o", &out, "--limit", "1000"], 0);
    let before = std::fs::read(&out).unwrap();
    let refused = |args: &[&str], why: &str| {
        let output = solve(&[&[small.as_str(), "-o", &out, "--resume"][..], args].concat());
        assert_eq!(code(&output), 2, "{args:?}: {}", stderr(&output));
        assert!(
            stderr(&output).contains(why),
            "{args:?}: {}",
            stderr(&output)
        );
        assert_eq!(std::fs::read(&out).unwrap(), before, "{args:?}");
        assert!(!partial(&out), "{args:?}");
    };
    // Another type for a kept column, other kept columns, none.
    refused(
        &["--keep", "id,source"],
        "its column `id` is of type Int64, and this run writes it as Utf8",
    );
    refused(
        &["--keep", "id", "--keep-types", "id=int64"],
        "its columns are",
    );
    refused(&[], "its columns are");
    // Other inputs: the rows are matched as CSV's are, row by row.
    let other = scratch.file("other.csv", (header + &rows[5..3_000].concat()).as_bytes());
    let output = solve(&[&[other.as_str(), "-o", &out, "--resume"][..], &KEEP[..]].concat());
    assert_eq!(code(&output), 2);
    assert!(
        stderr(&output).contains("r.parquet: row 1 does not match"),
        "{}",
        stderr(&output)
    );
    assert_eq!(std::fs::read(&out).unwrap(), before);
    assert!(!partial(&out));
}

#[test]
fn parquet_stopped_by_limit_resumes_with_ratings_and_several_inputs() {
    // `solve --rate` over two inputs: a `file` column, the rating columns.
    let scratch = Scratch::new();
    let (_, rows) = input();
    let first: String = rows[..12]
        .iter()
        .map(|row| format!("{}\n", row.split(',').nth(2).unwrap()))
        .collect();
    let a = scratch.file("=a.txt", first.as_bytes());
    let b = scratch.file("b.txt", first.as_bytes());
    let run = |out: &str, more: &[&str]| {
        let output = bin()
            .args(["solve", &a, &b, "--rate", "--quiet", "-o", out])
            .args(more)
            .output()
            .unwrap();
        assert_eq!(code(&output), 0, "{more:?}: {}", stderr(&output));
    };
    let (whole, out) = (scratch.path("whole.parquet"), scratch.path("r.parquet"));
    run(&whole, &[]);
    run(&out, &["--limit", "17"]);
    assert_eq!(table(&out).0.num_rows(), 17);
    run(&out, &["--resume"]);
    assert_eq!(table(&out).0, table(&whole).0);
}
