//! `sudoku-batch bench`, run as a binary on the shipped data: every field
//! in every export, positive numbers, and `us_per_puzzle` x
//! `puzzles_per_s` = 1e6.

use assert_cmd::Command;
use predicates::str::contains;
use serde_json::Value;

/// The row fields, in order: JSON keys and CSV columns.
const FIELDS: [&str; 23] = [
    "dataset",
    "size",
    "solver",
    "mode",
    "threads",
    "puzzles",
    "puzzles_per_s",
    "us_per_puzzle",
    "no_guess_pct",
    "guesses_per_puzzle",
    "speedup",
    "finished_pct",
    "cpu",
    "cores",
    "simd",
    "version",
    "runs",
    "puzzles_per_s_min",
    "puzzles_per_s_max",
    "puzzles_per_s_stddev",
    "wrong",
    "missing",
    "startup_s",
];

/// Short timings: tests run unoptimised on a shared machine.
const QUICK: [&str; 4] = ["--time-s", "0.05", "--warmup-s", "0.05"];

/// `bench` with short timings, and one run unless `args` ask for more.
fn bench(args: &[&str]) -> Command {
    let mut cmd = Command::cargo_bin("sudoku-batch").unwrap();
    cmd.env_remove("SUDOKU_BATCH_SIMD")
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .arg("bench")
        .args(QUICK)
        .args(args);
    if !args.contains(&"--runs") {
        cmd.args(["--runs", "1"]);
    }
    cmd
}

/// Runs `bench` with `--export-json -` and returns the rows.
fn json_rows(args: &[&str]) -> Vec<Value> {
    let out = bench(args)
        .args(["--export-json", "-", "--quiet"])
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let json: Value = serde_json::from_slice(&out).expect("stdout is the JSON export");
    json["results"].as_array().expect("a results array").clone()
}

/// `us_per_puzzle` x `puzzles_per_s` = 1e6, to floating-point rounding.
fn assert_reciprocal(us_per_puzzle: f64, puzzles_per_s: f64) {
    let product = us_per_puzzle * puzzles_per_s;
    assert!(
        (product - 1e6).abs() < 1e-6,
        "{us_per_puzzle} x {puzzles_per_s} = {product}"
    );
}

#[test]
fn every_field_of_every_row_is_present_and_positive() {
    // The naive solver gets an easy set (Kaggle puzzles fall to singles);
    // both solvers at 1 and 2 threads, in both modes.
    let rows = json_rows(&[
        "data/kaggle1m_10000.csv",
        "--limit",
        "200",
        "--solver",
        "fast,naive",
        "--mode",
        "unique,first",
        "--threads",
        "1,2",
    ]);
    assert_eq!(rows.len(), 2 * 2 * 2);
    let mut combos = vec![];
    for row in &rows {
        let object = row.as_object().unwrap();
        let mut keys: Vec<&str> = object.keys().map(String::as_str).collect();
        let mut fields = FIELDS.to_vec();
        keys.sort_unstable();
        fields.sort_unstable();
        assert_eq!(keys, fields, "{row}");
        for key in [
            "threads",
            "puzzles",
            "puzzles_per_s",
            "us_per_puzzle",
            "speedup",
            "finished_pct",
            "cores",
        ] {
            let x = row[key]
                .as_f64()
                .unwrap_or_else(|| panic!("{key} in {row}"));
            assert!(x > 0.0 && x.is_finite(), "{key} = {x} in {row}");
        }
        for key in ["no_guess_pct", "guesses_per_puzzle"] {
            let x = row[key].as_f64().unwrap();
            assert!(x >= 0.0 && x.is_finite(), "{key} = {x} in {row}");
        }
        for key in ["dataset", "cpu", "simd", "version"] {
            assert!(!row[key].as_str().unwrap().is_empty(), "{key} in {row}");
        }
        assert_eq!(row["dataset"], "data/kaggle1m_10000.csv");
        assert_eq!(row["size"], "9x9");
        assert_eq!(row["puzzles"], 200);
        assert_eq!(row["finished_pct"], 100.0, "easy puzzles all finish: {row}");
        if row["solver"] == "fast" {
            // Every Kaggle puzzle falls to singles: no guess at all.
            assert_eq!(row["no_guess_pct"], 100.0, "{row}");
        }
        assert_reciprocal(
            row["us_per_puzzle"].as_f64().unwrap(),
            row["puzzles_per_s"].as_f64().unwrap(),
        );
        if row["threads"] == 1 {
            assert_eq!(row["speedup"], 1.0);
        }
        combos.push(format!(
            "{} {} {}",
            row["solver"], row["mode"], row["threads"]
        ));
    }
    assert_eq!(
        combos,
        [
            r#""fast" "unique" 1"#,
            r#""fast" "unique" 2"#,
            r#""fast" "first" 1"#,
            r#""fast" "first" 2"#,
            r#""naive" "unique" 1"#,
            r#""naive" "unique" 2"#,
            r#""naive" "first" 1"#,
            r#""naive" "first" 2"#,
        ]
    );
}

#[test]
fn csv_export_has_the_fields_as_columns_at_full_precision() {
    let dir = tempfile::tempdir().unwrap();
    let csv_path = dir.path().join("bench.csv");
    let md_path = dir.path().join("bench.md");
    let assert = bench(&["data/top95.txt", "--solver", "fast", "-j", "1,2"])
        .arg("--export-csv")
        .arg(&csv_path)
        .arg("--export-markdown")
        .arg(&md_path)
        .assert()
        .success();
    // The default table still goes to stdout.
    let table = String::from_utf8(assert.get_output().stdout.clone()).unwrap();
    assert!(table.starts_with("dataset "), "{table}");
    assert!(table.contains("data/top95.txt"), "{table}");

    let mut reader = csv::Reader::from_path(&csv_path).unwrap();
    assert_eq!(reader.headers().unwrap(), FIELDS.as_slice());
    let records: Vec<csv::StringRecord> = reader.records().map(Result::unwrap).collect();
    assert_eq!(records.len(), 2);
    for record in &records {
        let number = |i: usize| record[i].parse::<f64>().unwrap();
        assert_eq!((&record[1], &record[2]), ("9x9", "fast"));
        assert_eq!(number(5), 95.0);
        assert!(number(6) > 0.0);
        assert_reciprocal(number(7), number(6));
        assert_eq!(number(11), 100.0);
    }
    assert_eq!((&records[0][4], &records[1][4]), ("1", "2"));

    let markdown = std::fs::read_to_string(&md_path).unwrap();
    let lines: Vec<&str> = markdown.lines().collect();
    assert!(lines[0].starts_with("| dataset | size | solver | mode | threads |"));
    assert!(lines[1].starts_with("|:---|"));
    assert_eq!(
        lines
            .iter()
            .filter(|l| l.contains("data/top95.txt"))
            .count(),
        2
    );
    assert!(markdown.contains(" cores, SIMD "));
}

#[test]
fn the_table_is_aligned_and_parse_time_is_reported_apart() {
    let assert = bench(&["data/top95.txt", "--solver", "fast", "-j", "1"])
        .assert()
        .success()
        .stderr(contains("bench: loaded 95 puzzles from data/top95.txt in "));
    let table = String::from_utf8(assert.get_output().stdout.clone()).unwrap();
    let lines: Vec<&str> = table.lines().collect();
    assert_eq!(lines.len(), 3, "{table}");
    let header = lines[0];
    for field in &FIELDS[..11] {
        assert!(header.contains(field), "{field} in {header}");
    }
    // Numbers are right-aligned under their header.
    let end = header.find("puzzles_per_s").unwrap() + "puzzles_per_s".len();
    assert!(lines[1].as_bytes()[end - 1].is_ascii_digit(), "{table}");
    assert_eq!(lines[1].as_bytes().get(end), Some(&b' '));
    assert!(lines[2].starts_with("cpu: "));
}

#[test]
fn a_slow_solver_is_sampled_and_cannot_stall_the_run() {
    // The naive solver on the hardest puzzles: a full pass would take far
    // longer than the timed run, so it samples puzzles in random order and
    // stops on time (some hit the placement limit).
    let start = std::time::Instant::now();
    let rows = json_rows(&[
        "data/forum_hardest_2000.txt",
        "--solver",
        "naive",
        "-j",
        "1",
        "--seed",
        "1",
    ]);
    assert!(start.elapsed().as_secs() < 60);
    assert_eq!(rows.len(), 1);
    let row = &rows[0];
    assert_eq!(row["puzzles"], 2000);
    assert!(row["finished_pct"].as_f64().unwrap() <= 100.0);
    assert_reciprocal(
        row["us_per_puzzle"].as_f64().unwrap(),
        row["puzzles_per_s"].as_f64().unwrap(),
    );
}

#[test]
fn usage_and_input_errors_exit_2() {
    bench(&["data/no-such-file.txt"])
        .assert()
        .code(2)
        .stderr(contains("no-such-file.txt"));
    bench(&["data/top95.txt", "-j", "0"]).assert().code(2);
    bench(&["data/top95.txt", "--export-csv", "-", "--export-json", "-"])
        .assert()
        .code(2);
    bench(&["data/top95.txt", "--time-s", "soon"])
        .assert()
        .code(2);
}

#[test]
fn the_progress_line_rounds_puzzles_per_s_as_the_table_does() {
    for solver in ["fast", "naive"] {
        let assert = bench(&["data/top95.txt", "--solver", solver, "-j", "1"])
            .assert()
            .success();
        let table = String::from_utf8(assert.get_output().stdout.clone()).unwrap();
        let stderr = String::from_utf8(assert.get_output().stderr.clone()).unwrap();
        let lines: Vec<&str> = table.lines().collect();
        let header = lines[0];
        let end = header.find("puzzles_per_s").unwrap() + "puzzles_per_s".len();
        let cell = lines[1][..end].split_whitespace().last().unwrap();
        let progress = format!(": {cell} puzzles/s over ");
        assert!(
            stderr.lines().any(|l| l.contains(&progress)),
            "`{progress}` in {stderr}\n{table}"
        );
    }
}

#[test]
fn runs_give_the_median_and_the_spread() {
    for runs in [1, 3] {
        let rows = json_rows(&[
            "data/top95.txt",
            "--solver",
            "fast",
            "-j",
            "1",
            "--runs",
            &runs.to_string(),
        ]);
        assert_eq!(rows.len(), 1);
        let row = &rows[0];
        let number = |key: &str| {
            row[key]
                .as_f64()
                .unwrap_or_else(|| panic!("{key} in {row}"))
        };
        assert_eq!(row["runs"], runs, "{row}");
        let (min, median, max) = (
            number("puzzles_per_s_min"),
            number("puzzles_per_s"),
            number("puzzles_per_s_max"),
        );
        assert!(0.0 < min && min <= median && median <= max, "{row}");
        let stddev = number("puzzles_per_s_stddev");
        if runs == 1 {
            assert_eq!((min, max, stddev), (median, median, 0.0), "{row}");
        } else {
            assert!(stddev >= 0.0 && stddev <= max - min, "{row}");
        }
    }
}

#[test]
fn more_threads_than_cores_is_warned_about() {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let many = (cores + 1).to_string();
    bench(&[
        "data/top95.txt",
        "--solver",
        "fast",
        "-j",
        &many,
        "--runs",
        "1",
    ])
    .assert()
    .success()
    .stderr(contains(format!(
        "warning: -j {many} is more threads than the {cores} cores"
    )));
    bench(&[
        "data/top95.txt",
        "--solver",
        "fast",
        "-j",
        "1",
        "--runs",
        "0",
    ])
    .assert()
    .code(2)
    .stderr(contains("--runs"));
}

/// A small external solver in Python (backtracking over bitmasks, the
/// cell with fewest candidates first). Its first argument picks a
/// behaviour: `right`; `wrong` (every puzzle whose first cell is blank
/// gets its solution with two cells swapped, every puzzle whose last cell
/// is blank gets "no solution"); `crash` (exits with status 1 after 2
/// answers); `hang` (stops answering after 2); `zeros` (answers "dots!"
/// to a puzzle with `.` blanks).
const SOLVER_PY: &str = r#"
import sys, time
def solve(p):
    g = [0 if c in '.0' else int(c) for c in p]
    rows, cols, boxes = [0] * 9, [0] * 9, [0] * 9
    for i, v in enumerate(g):
        if v:
            b, r, c = 1 << v, i // 9, i % 9
            x = r // 3 * 3 + c // 3
            if (rows[r] | cols[c] | boxes[x]) & b:
                return None
            rows[r] |= b; cols[c] |= b; boxes[x] |= b
    empty = [i for i in range(81) if not g[i]]
    def rec():
        best, bm, bn = None, 0, 10
        for i in empty:
            if g[i]:
                continue
            r, c = i // 9, i % 9
            m = ~(rows[r] | cols[c] | boxes[r // 3 * 3 + c // 3]) & 0x3FE
            n = bin(m).count('1')
            if n < bn:
                best, bm, bn = i, m, n
                if n <= 1:
                    break
        if best is None:
            return True
        r, c = best // 9, best % 9
        x = r // 3 * 3 + c // 3
        for v in range(1, 10):
            b = 1 << v
            if bm & b:
                g[best] = v; rows[r] |= b; cols[c] |= b; boxes[x] |= b
                if rec():
                    return True
                g[best] = 0; rows[r] ^= b; cols[c] ^= b; boxes[x] ^= b
        return False
    return ''.join(map(str, g)) if rec() else None
mode = sys.argv[1]
for n, line in enumerate(sys.stdin):
    p = line.strip()
    if mode == 'crash' and n == 2:
        sys.exit('crashed on purpose')
    if mode == 'hang' and n == 2:
        time.sleep(60)
    if mode == 'chatty' and n == 2:
        print('debug: working', flush=True)
    s = solve(p)
    if mode == 'zeros' and '.' in p:
        s = 'dots!'
    elif mode == 'wrong' and s and p[0] in '.0':
        s = s[1] + s[0] + s[2:]
    elif mode == 'wrong' and p[80] in '.0':
        s = None
    print(s or 'no solution', flush=True)
"#;

/// Writes the Python solver into `dir` and returns the `--cmd` value
/// running it as `name` with `mode`.
fn python_solver(dir: &std::path::Path, name: &str, mode: &str) -> String {
    let script = dir.join("solver.py");
    std::fs::write(&script, SOLVER_PY).unwrap();
    format!("{name}=python3 {} {mode}", script.display())
}

/// The rows of `bench` on 30 easy Kaggle puzzles with the built-in fast
/// solver and the given `--cmd` values, plus the stderr.
fn external_rows(cmds: &[String], extra: &[&str]) -> (Vec<Value>, String) {
    let mut args = vec![
        "data/kaggle1m_10000.csv",
        "--limit",
        "30",
        "--solver",
        "fast",
    ];
    for c in cmds {
        args.extend(["--cmd", c]);
    }
    args.extend(extra);
    args.extend(["--export-json", "-"]);
    let out = bench(&args).assert().success().get_output().clone();
    let json: Value = serde_json::from_slice(&out.stdout).expect("stdout is the JSON export");
    let rows = json["results"].as_array().expect("a results array").clone();
    (rows, String::from_utf8(out.stderr).unwrap())
}

#[test]
fn external_solvers_are_measured_and_verified_beside_the_built_in_one() {
    let dir = tempfile::tempdir().unwrap();
    let right = python_solver(dir.path(), "py", "right");
    let wrong = python_solver(dir.path(), "pywrong", "wrong");
    let (rows, stderr) = external_rows(&[right, wrong], &["-j", "1,2"]);
    assert_eq!(
        rows.len(),
        3 * 2,
        "fast, py and pywrong at 1 and 2: {rows:?}"
    );
    for row in &rows {
        let mut keys: Vec<&str> = row
            .as_object()
            .unwrap()
            .keys()
            .map(String::as_str)
            .collect();
        let mut fields = FIELDS.to_vec();
        keys.sort_unstable();
        fields.sort_unstable();
        assert_eq!(keys, fields, "{row}");
        assert_eq!(row["puzzles"], 30);
        assert!(row["puzzles_per_s"].as_f64().unwrap() > 0.0, "{row}");
        assert_reciprocal(
            row["us_per_puzzle"].as_f64().unwrap(),
            row["puzzles_per_s"].as_f64().unwrap(),
        );
    }
    let fast: Vec<&Value> = rows.iter().filter(|r| r["solver"] == "fast").collect();
    for row in &fast {
        assert_eq!(row["mode"], "unique");
        assert!(row["wrong"].is_null() && row["missing"].is_null() && row["startup_s"].is_null());
    }
    for name in ["py", "pywrong"] {
        let ext: Vec<&Value> = rows.iter().filter(|r| r["solver"] == name).collect();
        assert_eq!(ext.len(), 2, "{name}");
        assert_eq!(
            (&ext[0]["threads"], &ext[1]["threads"]),
            (&1.into(), &2.into())
        );
        assert!(ext[1]["speedup"].as_f64().unwrap() > 0.0);
        for row in ext {
            assert_eq!(row["mode"], "", "{row}");
            assert!(row["no_guess_pct"].is_null() && row["guesses_per_puzzle"].is_null());
            assert_eq!(row["missing"], 0, "{row}");
            assert_eq!(row["finished_pct"], 100.0, "{row}");
            assert!(row["startup_s"].as_f64().unwrap() > 0.0, "{row}");
            let wrong = row["wrong"].as_u64().unwrap();
            if name == "py" {
                assert_eq!(wrong, 0, "{row}");
            } else {
                assert!(wrong > 0, "{row}");
            }
        }
    }
    assert!(
        stderr.contains("warning: data/kaggle1m_10000.csv pywrong 1 copy: "),
        "{stderr}"
    );
    assert!(!stderr.contains(" py 1 copy: 0 wrong"), "{stderr}");
}

#[test]
fn wrong_answers_are_flagged_in_the_table() {
    let dir = tempfile::tempdir().unwrap();
    let wrong = python_solver(dir.path(), "pywrong", "wrong");
    let assert = bench(&[
        "data/kaggle1m_10000.csv",
        "--limit",
        "30",
        "--solver",
        "fast",
        "-j",
        "1",
        "--runs",
        "1",
        "--cmd",
        &wrong,
    ])
    .assert()
    .success();
    let table = String::from_utf8(assert.get_output().stdout.clone()).unwrap();
    let lines: Vec<&str> = table.lines().collect();
    let header = lines[0];
    assert!(
        header.contains(" wrong ") && header.ends_with(" missing"),
        "{table}"
    );
    let flagged = lines
        .iter()
        .find(|l| l.contains("pywrong"))
        .expect("a pywrong row");
    assert!(flagged.contains("pywrong (!)"), "{table}");
    assert!(table.contains("(!) wrong answers"), "{table}");
    let fast = lines.iter().find(|l| l.contains(" fast ")).unwrap();
    let cells: Vec<&str> = fast.split_whitespace().collect();
    assert_eq!(
        cells[cells.len() - 2..],
        ["-", "-"],
        "no verification: {fast}"
    );
}

#[test]
fn crashes_and_hangs_count_as_missing_and_the_run_goes_on() {
    let dir = tempfile::tempdir().unwrap();
    let crash = python_solver(dir.path(), "crasher", "crash");
    let hang = python_solver(dir.path(), "hanger", "hang");
    let start = std::time::Instant::now();
    // A timeout of 4 s, not 1: on a loaded 2-core CI machine Python's
    // start-up alone can take a second, and a copy cut short before its
    // second answer is named otherwise than this test expects.
    let (rows, stderr) = external_rows(
        &[crash, hang],
        &["-j", "1", "--runs", "1", "--cmd-timeout-s", "4"],
    );
    assert!(start.elapsed().as_secs() < 60, "the hang is cut short");
    let row = |name: &str| rows.iter().find(|r| r["solver"] == name).unwrap().clone();
    let crasher = row("crasher");
    assert!(crasher["missing"].as_u64().unwrap() > 0, "{crasher}");
    assert!(
        crasher["finished_pct"].as_f64().unwrap() < 100.0,
        "{crasher}"
    );
    assert!(
        stderr.contains("exited with status 1 after answering 2 of")
            && stderr.contains("crashed on purpose"),
        "{stderr}"
    );
    // Each one's progress line says that its rate counts unanswered puzzles.
    let flagged = |name: &str, row: &Value| {
        let says = format!("not a fair figure: {} answers missing", row["missing"]);
        let line = stderr
            .lines()
            .find(|l| l.contains(&format!(" {name} ")) && l.contains("puzzles/s"))
            .unwrap_or_else(|| panic!("a progress line for {name}: {stderr}"));
        assert!(line.ends_with(&format!("{says} and 0 wrong")), "{line}");
    };
    flagged("crasher", &crasher);
    let hanger = row("hanger");
    assert!(hanger["missing"].as_u64().unwrap() > 0, "{hanger}");
    flagged("hanger", &hanger);
    assert!(
        stderr.contains("no answer line within --cmd-timeout-s 4 after 2 answers; killed"),
        "{stderr}"
    );
}

#[test]
fn a_line_that_is_no_answer_is_named_with_what_it_does() {
    // A debug line on stdout: every answer after it lands on the next
    // puzzle; the note said only "ignored".
    let dir = tempfile::tempdir().unwrap();
    let chatty = python_solver(dir.path(), "chatty", "chatty");
    let (rows, stderr) = external_rows(&[chatty], &["-j", "1", "--runs", "1"]);
    let row = rows.iter().find(|r| r["solver"] == "chatty").unwrap();
    assert!(row["wrong"].as_u64().unwrap() > 0, "{row}");
    assert!(
        stderr.contains("more than puzzles sent, ignored: a line on stdout that is no answer")
            && stderr.contains("anything else to stderr"),
        "{stderr}"
    );
}

#[test]
fn cmd_blank_0_sends_zeros() {
    let dir = tempfile::tempdir().unwrap();
    let zeros = python_solver(dir.path(), "z", "zeros");
    let args = ["-j", "1", "--runs", "1"];
    let (dots, _) = external_rows(std::slice::from_ref(&zeros), &args);
    let (zeroed, _) = external_rows(&[zeros], &[&args[..], &["--cmd-blank", "0"]].concat());
    let wrong = |rows: &[Value]| rows.iter().find(|r| r["solver"] == "z").unwrap()["wrong"].clone();
    assert!(wrong(&dots).as_u64().unwrap() > 0, "{dots:?}");
    assert_eq!(wrong(&zeroed), 0, "{zeroed:?}");
}

#[test]
fn cmd_usage_errors_exit_2() {
    for args in [
        &["--cmd", "no-equals-sign"][..],
        &["--cmd", "fast=cat"],
        &["--cmd", "a=cat", "--cmd", "a=cat"],
        &["--cmd", "a=cat", "--cmd-timeout-s", "0"],
        &["--cmd", "a=cat", "--cmd-blank", "x"],
    ] {
        bench(&[&["data/top95.txt"], args].concat())
            .assert()
            .code(2);
    }
}

#[test]
fn the_html_export_is_one_file_of_svg_with_the_names() {
    let dir = tempfile::tempdir().unwrap();
    let py = python_solver(dir.path(), "pysolver", "right");
    let html_path = dir.path().join("bench.html");
    // A second easy data set, so that the Python solver stays quick.
    let kaggle = std::fs::read_to_string("data/kaggle1m_10000.csv").unwrap();
    let easy: String = kaggle
        .lines()
        .skip(100)
        .take(20)
        .map(|l| format!("{}\n", &l[..81]))
        .collect();
    let easy_path = dir.path().join("easy.txt");
    std::fs::write(&easy_path, easy).unwrap();
    let easy_name = easy_path.to_str().unwrap();
    bench(&[
        "data/kaggle1m_10000.csv",
        easy_name,
        "--limit",
        "20",
        "--solver",
        "fast",
        "-j",
        "1,2",
        "--runs",
        "2",
        "--cmd",
        &py,
        "--quiet",
    ])
    .arg("--export-html")
    .arg(&html_path)
    .assert()
    .success();
    let entries: Vec<_> = std::fs::read_dir(dir.path()).unwrap().collect();
    assert_eq!(
        entries.len(),
        3,
        "the script, the data and the page, nothing else"
    );
    let html = std::fs::read_to_string(&html_path).unwrap();
    assert!(html.starts_with("<!DOCTYPE html>"));
    assert_eq!(
        html.matches("<svg").count(),
        3,
        "bars, scaling, solve times"
    );
    for name in ["data/kaggle1m_10000.csv", easy_name, "fast", "pysolver"] {
        assert!(html.contains(name), "{name}");
    }
    assert!(html.contains("ideal (speedup = threads)"));
    assert!(html.contains("microseconds (log scale)"));
    for external in ["<script", "<link", "<img", "src=", "@import", "url("] {
        assert!(!html.contains(external), "{external}");
    }
    for (i, _) in html.match_indices("http") {
        assert!(
            html[i..].starts_with("http://www.w3.org/2000/svg"),
            "{}",
            &html[i..i + 40]
        );
    }
}

#[test]
fn the_simd_level_is_reported_and_chosen_by_the_environment() {
    let best = sudoku_core::solver::Simd::detect().name();
    let rows = json_rows(&["data/top95.txt", "--solver", "fast", "-j", "1"]);
    assert_eq!(rows[0]["simd"], best);
    for level in sudoku_core::solver::Simd::available() {
        let level = level.name();
        let assert = bench(&["data/top95.txt", "--solver", "fast", "-j", "1"])
            .env("SUDOKU_BATCH_SIMD", level)
            .args(["--export-json", "-"])
            .assert()
            .success()
            .stderr(contains(format!(
                "bench: fast solver at {level}, set by SUDOKU_BATCH_SIMD (this CPU's best: {best})"
            )));
        let json: Value = serde_json::from_slice(&assert.get_output().stdout).unwrap();
        assert_eq!(json["results"][0]["simd"], level);
    }
    // Refused before anything is measured, naming the levels.
    bench(&["data/top95.txt", "--solver", "fast"])
        .env("SUDOKU_BATCH_SIMD", "sse4")
        .assert()
        .code(2)
        .stdout("")
        .stderr(
            "sudoku-batch: error: SUDOKU_BATCH_SIMD=sse4: unknown level; \
             the levels are scalar, avx2 and avx512\n",
        );
}

/// Records that are no puzzle were left out of the measurement with no
/// word under `--quiet` (found by a new-user trial): now a warning names
/// how many, and the first one's line and fault.
#[test]
fn malformed_records_left_out_are_named_under_quiet() {
    let dir = tempfile::tempdir().unwrap();
    let top95 = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("data/top95.txt"),
    )
    .unwrap();
    let mut lines: Vec<&str> = top95.lines().take(4).collect();
    lines.insert(2, "12345");
    lines.push("x");
    let file = dir.path().join("some.txt");
    std::fs::write(&file, lines.join("\n") + "\n").unwrap();
    bench(&[
        file.to_str().unwrap(),
        "--solver",
        "fast",
        "-j",
        "1",
        "--quiet",
    ])
    .assert()
    .success()
    .stderr(contains(
        "some.txt: 2 malformed records not measured: no puzzle the solvers take, the first \
             on line 3: 5 cells, expected 81",
    ));
}

#[test]
fn box_one_by_nine_is_timed_as_solve_solves_it() {
    // `--box 1x9` makes 9x9 records grids of rows-as-boxes in `solve`;
    // bench timed them with 3x3 boxes (0 guesses where solve needs 33-35).
    let scratch = crate::common::Scratch::new();
    let top: String =
        std::fs::read_to_string(format!("{}/data/top95.txt", env!("CARGO_MANIFEST_DIR")))
            .unwrap()
            .lines()
            .take(3)
            .map(|l| format!("{l}\n"))
            .collect();
    let file = scratch.file("three.txt", top.as_bytes());
    let solved = Command::cargo_bin("sudoku-batch")
        .unwrap()
        .args(["solve", &file, "--box", "1x9", "--quiet"])
        .output()
        .unwrap();
    let (_, rows) = crate::common::csv_table(&String::from_utf8_lossy(&solved.stdout));
    let guesses: f64 = rows
        .iter()
        .map(|r| r["guesses"].parse::<f64>().unwrap())
        .sum::<f64>()
        / rows.len() as f64;
    assert!(guesses > 0.0, "{rows:?}");
    let rows = json_rows(&[&file, "--box", "1x9", "--solver", "fast", "-j", "1"]);
    assert_eq!(rows.len(), 1, "{rows:?}");
    assert_eq!(
        rows[0]["guesses_per_puzzle"].as_f64(),
        Some(guesses),
        "{rows:?}"
    );
}
