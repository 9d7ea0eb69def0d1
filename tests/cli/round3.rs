//! "Nothing lost", round 3: the real binary on the kinds of fault of the
//! round 3 cases (`tests/cases/CASES.md`) but kept columns (`tests/cli/kept.rs`):
//! options never silently ignored, binary data refused whatever `--format`
//! says, every reader taking gzip and zstd and naming what it does not
//! read, `merge` safe, bounded sizes, figures that were not measured.

use std::fs;
use std::path::Path;
use std::process::Output;

use crate::common::*;

/// A puzzle with one solution, [`S`].
const P: &str = "016400000200009000400000062070230100100000003003087040960000005000800007000006820";
/// The solution of [`P`].
const S: &str = "316452978285679314497318562879234156142965783653187249968721435521843697734596821";

/// Runs `sudoku-batch ARGS` (no `--quiet` added).
fn run(args: &[&str]) -> Output {
    bin().args(args).output().expect("the binary runs")
}

/// Asserts exit 2 with `needle` in stderr.
fn refused(output: &Output, needle: &str) {
    assert_eq!(code(output), 2, "stderr: {}", stderr(output));
    assert!(
        stderr(output).contains(needle),
        "wanted {needle:?} in: {}",
        stderr(output)
    );
}

fn zstd_file(s: &Scratch, name: &str, bytes: &[u8]) -> String {
    s.file(name, &zstd::encode_all(bytes, 1).unwrap())
}

// ---- 2: an option is never silently ignored --------------------------------

#[test]
fn r3_08_keep_on_grids_is_refused_before_any_output() {
    let s = Scratch::new();
    let grid = case("r3-08-grid.txt");
    let out = s.path("r.csv");
    for keep in [&["--keep", "no_such_column,field7"][..], &["--keep-all"]] {
        let mut args = vec!["solve", "--format", "grid", &grid, "-o", &out];
        args.extend(keep);
        refused(&run(&args), "grids (--format grid) have none");
        assert!(!Path::new(&out).exists(), "{keep:?} wrote {out}");
    }
    let output = run(&[
        "solve", "--format", "grid", &grid, "--column", "2", "-o", &out,
    ]);
    refused(&output, "--column");
    // Without them the grid solves.
    let output = run(&["solve", "--format", "grid", &grid, "-o", &out, "--quiet"]);
    assert_eq!(code(&output), 0, "{}", stderr(&output));
}

#[test]
fn an_option_for_no_input_is_refused_and_one_for_some_is_used_there() {
    let s = Scratch::new();
    let text = s.file("p.txt", format!("{P}\n").as_bytes());
    let json = s.file("p.jsonl", format!("{{\"puzzle\":\"{P}\"}}\n").as_bytes());
    let out = s.path("r.csv");
    // --delimiter when no input is CSV.
    let output = run(&["solve", &text, &json, "--delimiter", ";", "-o", &out]);
    refused(&output, "--delimiter");
    assert!(!Path::new(&out).exists());
    // With a CSV input among them it is used for that one.
    let semi = s.file("p.csv", format!("id;puzzle\n7;{P}\n").as_bytes());
    let output = run(&[
        "solve",
        &json,
        &semi,
        "--delimiter",
        ";",
        "--keep",
        "puzzle",
        "-o",
        &out,
        "--quiet",
    ]);
    assert_eq!(code(&output), 0, "{}", stderr(&output));
    assert_eq!(read_output(&out).lines().count(), 3);
    // --column N past a CSV header's or a JSON object's fields.
    let csv = s.file("h.csv", format!("id,puzzle\n1,{P}\n").as_bytes());
    refused(&run(&["solve", &csv, "--column", "5", "-o", &out]), "'5'");
    refused(&run(&["solve", &json, "--column", "3", "-o", &out]), "'3'");
    // merge: --format, --column and --delimiter are for --inputs.
    let results = s.path("one.csv");
    assert_eq!(code(&run(&["solve", &text, "-o", &results, "--quiet"])), 0);
    for flag in [
        &["--format", "csv"][..],
        &["--column", "2"],
        &["--delimiter", ";"],
    ] {
        let mut args = vec!["merge", &results, "-o", &out];
        args.extend(flag);
        refused(&run(&args), flag[0]);
    }
    // bench: --cmd-blank and --cmd-timeout-s are for --cmd solvers.
    for flag in [&["--cmd-blank", "0"][..], &["--cmd-timeout-s", "5"]] {
        let mut args = vec!["bench", &text, "--time-s", "0.01", "--warmup-s", "0.01"];
        args.extend(flag);
        refused(&run(&args), "--cmd");
    }
}

// ---- 7: binary data refused, every reader reads gzip and zstd -------------

#[test]
fn a_parquet_file_is_refused_whatever_format_says() {
    let s = Scratch::new();
    let parquet = case("r3-05-keep-typed-columns.parquet");
    for format in ["csv", "lines", "jsonl", "grid"] {
        let out = s.path(&format!("{format}.csv"));
        let output = run(&["solve", &parquet, "--format", format, "-o", &out]);
        refused(&output, "Parquet");
        assert!(!Path::new(&out).exists(), "--format {format}");
    }
    // canon and augment read inputs the same way.
    let output = run(&["canon", &parquet, "--format", "csv", "-o", &s.path("c.csv")]);
    refused(&output, "Parquet");
}

#[test]
fn every_reader_reads_gzip_and_zstd_and_names_the_formats_it_does_not_read() {
    let s = Scratch::new();
    let input = s.file("in.txt", format!("{P}\n{P}\n").as_bytes());
    let solutions = format!("{S}\n{S}\n");
    // --solutions, zstd-compressed by name and by content.
    for name in ["sol.txt.zst", "sol.bin"] {
        let path = zstd_file(&s, name, solutions.as_bytes());
        let output = run(&[
            "solve",
            &input,
            "--solutions",
            &path,
            "-o",
            &s.path("r.csv"),
            "--quiet",
        ]);
        assert_eq!(code(&output), 0, "{name}: {}", stderr(&output));
        assert_eq!(read_output(s.path("r.csv")).matches(",ok,").count(), 2);
    }
    // check --baseline: a zstd results CSV and a gzip summary.
    let base = s.path("base.csv");
    let summary = s.path("base.json");
    let output = run(&[
        "solve",
        &input,
        "-o",
        &base,
        "--summary-json",
        &summary,
        "--quiet",
    ]);
    assert_eq!(code(&output), 0);
    let zst = zstd_file(&s, "base.csv.zst", &fs::read(&base).unwrap());
    let gz = s.gzip("base.json.gz", &fs::read(&summary).unwrap());
    for baseline in [&zst, &gz] {
        let output = run(&[
            "check",
            &input,
            "--baseline",
            baseline,
            "-o",
            "/dev/null",
            "--quiet",
        ]);
        assert_eq!(code(&output), 0, "{baseline}: {}", stderr(&output));
    }
    // merge: zstd parts.
    let merged = s.path("m.csv");
    let output = run(&["merge", &zst, "-o", &merged, "--quiet"]);
    assert_eq!(code(&output), 0, "{}", stderr(&output));
    assert_eq!(read_output(&merged), read_output(&base));
    // canon --against: zstd.
    let output = run(&[
        "canon",
        &input,
        "--against",
        &zst,
        "-o",
        &s.path("c.csv"),
        "--quiet",
    ]);
    assert_eq!(code(&output), 1, "both records leak: {}", stderr(&output));

    // Parquet and JSON Lines results (by name or content) are read by
    // `check --baseline` and `merge`, and refused by name as --solutions.
    let (pq, jl) = (s.path("base.parquet"), s.path("base.jsonl"));
    for out in [&pq, &jl] {
        assert_eq!(code(&run(&["solve", &input, "-o", out, "--quiet"])), 0);
    }
    let copy = s.path("base-jsonl.txt");
    fs::copy(&jl, &copy).unwrap();
    for (file, what) in [(&pq, "Parquet"), (&jl, "JSON Lines"), (&copy, "JSON Lines")] {
        let check = run(&["check", &input, "--baseline", file, "-o", "/dev/null"]);
        let merge = run(&["merge", file, "-o", &merged, "--quiet"]);
        assert_eq!(code(&check), 0, "{file}: {}", stderr(&check));
        assert_eq!(code(&merge), 0, "{file}: {}", stderr(&merge));
        assert_eq!(
            without_timing(&read_output(&merged)),
            without_timing(&read_output(&base))
        );
        let solve = run(&["solve", &input, "--solutions", file, "-o", &s.path("x.csv")]);
        refused(&solve, what);
    }
}

// ---- 3: merge safe, parts of one run, resume under the same options ---------

/// No `.partial` file (a merge's temporary) is left in `dir`.
fn no_partial(dir: &Scratch) {
    let left: Vec<String> = fs::read_dir(dir.path(""))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".partial"))
        .collect();
    assert!(left.is_empty(), "left behind: {left:?}");
}

/// Three shards of top95 (`r1.csv`..`r3.csv`, `s1.json`..`s3.json`), run
/// with `extra` options.
fn shards(s: &Scratch, input: &str, extra: &[&str]) {
    for k in 1..=3 {
        let (r, j) = (s.path(&format!("r{k}.csv")), s.path(&format!("s{k}.json")));
        let shard = format!("{k}/3");
        let mut args = vec![
            "solve",
            input,
            "--shard",
            &shard,
            "-o",
            &r,
            "--summary-json",
            &j,
        ];
        args.extend(extra);
        args.push("--quiet");
        let output = run(&args);
        assert!(code(&output) <= 1, "{}", stderr(&output));
    }
}

#[test]
fn merge_refuses_parts_of_other_runs_and_leaves_no_partial_file() {
    let s = Scratch::new();
    let input = repo("data/top95.txt");
    shards(&s, &input, &[]);
    let parts: Vec<String> = (1..=3).map(|k| s.path(&format!("r{k}.csv"))).collect();
    let json = |k: usize| s.path(&format!("s{k}.json"));
    let merged = s.path("m.csv");
    let merge = |summaries: &[String]| {
        let mut args: Vec<&str> = vec!["merge"];
        args.extend(parts.iter().map(String::as_str));
        args.extend(["-o", &merged, "--summary-json", "ms.json", "--summaries"]);
        args.extend(summaries.iter().map(String::as_str));
        let output = bin().args(&args).current_dir(s.path("")).output().unwrap();
        no_partial(&s);
        assert!(!Path::new(&merged).exists(), "{args:?}");
        output
    };
    // A shard's summary missing, given twice, of another run's options,
    // of another split, of other inputs.
    refused(&merge(&[json(1), json(2)]), "missing 3/3");
    refused(&merge(&[json(1), json(2), json(2)]), "given twice");
    let other = Scratch::new();
    shards(&other, &input, &["--max-guesses", "3"]);
    refused(
        &merge(&[json(1), json(2), other.path("s3.json")]),
        "different options",
    );
    let half = s.path("half.json");
    let output = run(&[
        "solve",
        &input,
        "--shard",
        "2/2",
        "-o",
        &s.path("h.csv"),
        "--summary-json",
        &half,
        "--quiet",
    ]);
    assert_eq!(code(&output), 0);
    refused(&merge(&[json(1), json(2), half]), "3 ways and 2 ways");
    let elsewhere = s.file("top95-copy.txt", &fs::read(&input).unwrap());
    let another = s.path("another.json");
    let output = run(&[
        "solve",
        &elsewhere,
        "--shard",
        "3/3",
        "-o",
        &s.path("a.csv"),
        "--summary-json",
        &another,
        "--quiet",
    ]);
    assert_eq!(code(&output), 0);
    refused(&merge(&[json(1), json(2), another]), "different inputs");
    // All three: merged, with the options they share.
    let output = merge(&[]);
    assert_eq!(code(&output), 2, "--summaries needs a file");
    let mut args: Vec<&str> = vec!["merge"];
    args.extend(parts.iter().map(String::as_str));
    let (j1, j2, j3) = (json(1), json(2), json(3));
    args.extend([
        "-o",
        &merged,
        "--summary-json",
        "ms.json",
        "--summaries",
        &j1,
        &j2,
        &j3,
        "--quiet",
    ]);
    let output = bin().args(&args).current_dir(s.path("")).output().unwrap();
    assert_eq!(code(&output), 0, "{}", stderr(&output));
    let summary: serde_json::Value = serde_json::from_str(&read_output(s.path("ms.json"))).unwrap();
    assert_eq!(summary["options"]["blank"], ".");
    assert!(summary["options"]["shard"].is_null() && summary["error"].is_null());
}

#[test]
fn merge_stopped_by_sigint_or_sigterm_exits_130_or_143_and_leaves_nothing() {
    let s = Scratch::new();
    let input = repo("data/top95.txt");
    let results = s.path("r.csv");
    assert_eq!(code(&run(&["solve", &input, "-o", &results, "--quiet"])), 0);
    let rows = read_output(&results);
    for (signal, exit) in [("INT", 130), ("TERM", 143)] {
        // A part on a pipe that sends a few rows and then nothing: the merge
        // waits for it when the signal comes.
        let fifo = s.path(&format!("part-{signal}.csv"));
        let made = std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap();
        assert!(made.success());
        let head: String = rows.lines().take(4).map(|l| format!("{l}\n")).collect();
        let feeder = std::process::Command::new("sh")
            .arg("-c")
            .arg(format!(
                "printf '%s' \"$HEAD\" > '{fifo}'; sleep 30 > '{fifo}'"
            ))
            .env("HEAD", &head)
            .spawn()
            .unwrap();
        let merged = s.path("m.csv");
        let mut merge = std::process::Command::new(assert_cmd::cargo::cargo_bin("sudoku-batch"))
            .args(["merge", &fifo, "-o", &merged])
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        // Its temporary file shows that it has read the part's first rows
        // (its signal handlers are installed before): then it waits.
        let started = std::time::Instant::now();
        let partial = |dir: &Scratch| {
            fs::read_dir(dir.path("")).unwrap().any(|e| {
                e.unwrap()
                    .file_name()
                    .to_string_lossy()
                    .ends_with(".partial")
            })
        };
        while !partial(&s) && started.elapsed() < std::time::Duration::from_secs(20) {
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
        assert!(partial(&s), "SIG{signal}: the merge made no temporary file");
        let sent = std::process::Command::new("kill")
            .args([format!("-{signal}"), merge.id().to_string()])
            .status()
            .unwrap();
        assert!(sent.success());
        let status = merge.wait().unwrap();
        let mut feeder = feeder;
        let _ = feeder.kill();
        let _ = feeder.wait();
        assert_eq!(status.code(), Some(exit), "SIG{signal}");
        no_partial(&s);
        assert!(!Path::new(&merged).exists());
    }
}

#[test]
fn resume_refuses_a_file_written_under_other_options() {
    let s = Scratch::new();
    let input = repo("data/magictour_top1465.txt");
    let full = s.path("full.csv");
    let summary = s.path("full.json");
    let output = run(&[
        "solve",
        &input,
        "-o",
        &full,
        "--summary-json",
        &summary,
        "--max-guesses",
        "50",
        "--quiet",
    ]);
    assert_eq!(code(&output), 1, "{}", stderr(&output));
    let text = read_output(&full);
    let cut: String = text.lines().take(200).map(|l| format!("{l}\n")).collect();
    let resume = |extra: &[&str]| {
        let part = s.file("part.csv", cut.as_bytes());
        let mut args = vec!["solve", &input, "-o", &part, "--resume", "--quiet"];
        args.extend(extra);
        let output = run(&args);
        (output, read_output(&part))
    };
    for (extra, why) in [
        (&["--blank", "0", "--max-guesses", "50"][..], "--blank"),
        (&[][..], "guess limit of 50"),
        (&["--max-guesses", "60"][..], "guess limit of 50"),
    ] {
        let (output, after) = resume(extra);
        refused(&output, why);
        assert_eq!(after, cut, "{extra:?}: nothing appended");
    }
    // The previous run's summary tells what the rows alone may not.
    let summary_copy = s.file("s.json", &fs::read(&summary).unwrap());
    let (output, _) = resume(&[
        "--max-guesses",
        "50",
        "--timeout-ms",
        "100000",
        "--summary-json",
        &summary_copy,
    ]);
    refused(&output, "--timeout-ms");
    // The same options: resumed to the full run's rows.
    let (output, after) = resume(&["--max-guesses", "50"]);
    assert_eq!(code(&output), 1, "{}", stderr(&output));
    assert_eq!(without_timing(&after), without_timing(&text));
    // `multiple` rows are never written by --first.
    let multiple = s.file(
        "m.txt",
        fs::read(case("05-multiple-solutions.txt"))
            .unwrap()
            .as_slice(),
    );
    let out = s.path("m.csv");
    assert_eq!(code(&run(&["solve", &multiple, "-o", &out, "--quiet"])), 1);
    let two: String = read_output(&out)
        .lines()
        .take(2)
        .map(|l| format!("{l}\n"))
        .collect();
    fs::write(&out, &two).unwrap();
    refused(
        &run(&["solve", &multiple, "-o", &out, "--resume", "--first"]),
        "--first",
    );
}

#[test]
fn check_of_a_shard_against_its_own_results_passes() {
    let s = Scratch::new();
    let input = repo("data/top95.txt");
    shards(&s, &input, &[]);
    for k in 1..=3 {
        let shard = format!("{k}/3");
        let own = s.path(&format!("r{k}.csv"));
        let output = run(&[
            "check",
            &input,
            "--shard",
            &shard,
            "--baseline",
            &own,
            "-o",
            "/dev/null",
            "--quiet",
        ]);
        assert_eq!(code(&output), 0, "shard {shard}: {}", stderr(&output));
    }
    // A changed row of its own results still fails it.
    let own = read_output(s.path("r2.csv"));
    let mut lines: Vec<String> = own.lines().map(str::to_string).collect();
    let fields: Vec<&str> = lines[1].split(',').collect();
    let mut changed: Vec<String> = fields.iter().map(|f| f.to_string()).collect();
    changed[4] = "999".into();
    lines[1] = changed.join(",");
    let altered = s.file("altered.csv", (lines.join("\n") + "\n").as_bytes());
    let output = run(&[
        "check",
        &input,
        "--shard",
        "2/3",
        "--baseline",
        &altered,
        "-o",
        "/dev/null",
        "--quiet",
    ]);
    assert_eq!(code(&output), 1, "{}", stderr(&output));
    assert!(stderr(&output).contains("999"), "{}", stderr(&output));
}

// ---- 5: a failed run's summary says so -------------------------------------

#[test]
fn a_failed_run_leaves_a_summary_saying_so_and_a_refused_one_the_previous_one() {
    let s = Scratch::new();
    let input = repo("data/top95.txt");
    let summary = s.path("s.json");
    assert_eq!(
        code(&run(&[
            "solve",
            &input,
            "-o",
            &s.path("r.csv"),
            "--summary-json",
            &summary,
            "--quiet"
        ])),
        0
    );
    let before: serde_json::Value = serde_json::from_str(&read_output(&summary)).unwrap();
    assert!(before["error"].is_null());
    assert_eq!(before["puzzles"], 95);
    // A full disk (the results to /dev/full): the run wrote results, and
    // its summary says how it failed.
    let args = [
        "solve",
        &input,
        "-o",
        "/dev/full",
        "--summary-json",
        &summary,
    ];
    let output = run(&args);
    assert_eq!(code(&output), 2, "{args:?}");
    let after: serde_json::Value = serde_json::from_str(&read_output(&summary)).unwrap();
    let error = after["error"].as_str().unwrap_or_default();
    assert!(!error.is_empty(), "{args:?}: {after}");
    assert_ne!(after["puzzles"], 95, "{args:?}: the previous run's figures");
    // A missing input is refused before any work: the results and the
    // summary are left as they were (round 4: nothing is overwritten by a
    // refused run), so they still describe each other.
    let before = read_output(&summary);
    let args = [
        "solve",
        "no-such-input.txt",
        "-o",
        "/dev/null",
        "--summary-json",
        &summary,
    ];
    assert_eq!(code(&run(&args)), 2, "{args:?}");
    assert_eq!(read_output(&summary), before, "{args:?}");
}

/// `bench` on a few puzzles with an external solver that answers nothing
/// (it exits at once), at 1 and 2 copies, every export written.
#[test]
fn a_solver_that_answered_nothing_has_no_figures_and_is_flagged() {
    let s = Scratch::new();
    let (csv, json, md, html) = (
        s.path("b.csv"),
        s.path("b.json"),
        s.path("b.md"),
        s.path("b.html"),
    );
    let output = run(&[
        "bench",
        &repo("data/top95.txt"),
        "--limit",
        "10",
        "--solver",
        "fast",
        "--cmd",
        "silent=exit 3",
        "--threads",
        "1,2",
        "--warmup-s",
        "0.05",
        "--time-s",
        "0.1",
        "--runs",
        "1",
        "--export-csv",
        &csv,
        "--export-json",
        &json,
        "--export-markdown",
        &md,
        "--export-html",
        &html,
    ]);
    assert_eq!(code(&output), 0, "{}", stderr(&output));
    let table = stdout(&output);
    let json: serde_json::Value = serde_json::from_str(&read_output(&json)).unwrap();
    let rows = json["results"].as_array().unwrap();
    let silent: Vec<&serde_json::Value> = rows.iter().filter(|r| r["solver"] == "silent").collect();
    assert_eq!(silent.len(), 2, "{json}");
    for row in &silent {
        assert!(row["us_per_puzzle"].is_null(), "{row}");
        assert!(row["speedup"].is_null(), "{row}");
        assert!(row["missing"].as_u64().unwrap() > 0, "{row}");
    }
    // The built-in solver's figures are still there.
    let fast = rows.iter().find(|r| r["solver"] == "fast").unwrap();
    assert!(fast["us_per_puzzle"].as_f64().unwrap() > 0.0, "{fast}");
    // CSV: empty fields; table, Markdown and HTML: no 0.00, NaN or inf, and
    // the row flagged.
    let text = read_output(&csv);
    let mut reader = csv::Reader::from_reader(text.as_bytes());
    let header = reader.headers().unwrap().clone();
    let at = |name: &str| header.iter().position(|h| h == name).unwrap();
    for record in reader.records().map(Result::unwrap) {
        if &record[at("solver")] == "silent" {
            assert_eq!(&record[at("us_per_puzzle")], "", "{text}");
            assert_eq!(&record[at("speedup")], "", "{text}");
        }
    }
    assert!(!read_output(&html).contains("NaN"));
    for (name, text) in [("table", table), ("markdown", read_output(&md))] {
        assert!(!text.contains("NaN"), "{name}: {text}");
        let lines: Vec<&str> = text.lines().filter(|l| l.contains("silent")).collect();
        assert_eq!(lines.len(), 2, "{name}: {text}");
        for line in lines {
            assert!(line.contains("silent (!)"), "{name}: flagged: {line}");
            assert!(
                !line.contains("0.00") && !line.contains("inf"),
                "{name}: {line}"
            );
        }
    }
}

// ---- 5: a guard that had nothing to compare with says so ------------------

#[test]
fn a_leak_guard_against_an_empty_corpus_warns_and_fails() {
    let s = Scratch::new();
    let empty = s.file("empty.txt", b"");
    let input = repo("data/top95.txt");
    let output = run(&[
        "canon",
        &input,
        "--against",
        &empty,
        "-o",
        "/dev/null",
        "--quiet",
    ]);
    assert_eq!(code(&output), 1, "{}", stderr(&output));
    assert!(
        stderr(&output).contains("warning:") && stderr(&output).contains("nothing was compared"),
        "{}",
        stderr(&output)
    );
    // A corpus with puzzles is a guard: no leak, exit 0.
    let other = repo("data/magictour_top1465.txt");
    let output = run(&[
        "canon",
        &input,
        "--against",
        &other,
        "-o",
        "/dev/null",
        "--quiet",
    ]);
    assert!(
        !stderr(&output).contains("nothing was compared"),
        "{}",
        stderr(&output)
    );
}

// ---- 4: every size runs in bounded memory or is refused -------------------

/// The peak resident memory of a running process, in KiB (`VmHWM`).
fn peak_kib(pid: u32) -> u64 {
    let status = fs::read_to_string(format!("/proc/{pid}/status")).unwrap();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .unwrap()
}

#[test]
fn r3_23_augment_streams_its_copies_in_bounded_memory() {
    let s = Scratch::new();
    let out = s.path("aug.csv.gz");
    // 4e9 copies of one puzzle: 960 GB as one list of copies. Streamed,
    // rows come at once and memory stays flat; SIGTERM ends the run with
    // a valid gzip file of whole rows.
    let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin("sudoku-batch"))
        .args(["augment", &case("r3-23-one-puzzle.csv"), "-n", "4000000000"])
        .args(["-o", &out, "-j", "1", "--quiet"])
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let started = std::time::Instant::now();
    let mut peak = 0;
    while started.elapsed() < std::time::Duration::from_secs(120) {
        if let Some(status) = child.try_wait().unwrap() {
            let mut err = String::new();
            std::io::Read::read_to_string(child.stderr.as_mut().unwrap(), &mut err).unwrap();
            panic!("augment ended by itself ({status}): {err}");
        }
        peak = peak_kib(child.id());
        if fs::metadata(&out).map_or(0, |m| m.len()) > 1 << 20 {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    assert!(fs::metadata(&out).unwrap().len() > 1 << 20, "rows streamed");
    let sent = std::process::Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(sent.success());
    assert_eq!(child.wait().unwrap().code(), Some(143));
    assert!(peak < 100 * 1024, "peak RSS {peak} KiB");
    let text = read_output(&out);
    let mut lines = text.lines();
    assert_eq!(
        lines.next(),
        Some("line,copy,puzzle,solution,transform,status,message")
    );
    let mut copies = 0;
    for (k, line) in lines.enumerate() {
        let fields: Vec<&str> = line.split(',').collect();
        assert_eq!(fields.len(), 7, "{line}");
        assert_eq!((fields[0], fields[1]), ("2", (k + 1).to_string().as_str()));
        assert_eq!(fields[5], "solved", "{line}");
        copies += 1;
    }
    assert!(copies > 1000, "{copies} rows");
    // Past u32: a usage error up front, no output.
    let big = s.path("big.csv.gz");
    let output = run(&[
        "augment",
        &case("r3-23-one-puzzle.csv"),
        "-n",
        "5000000000",
        "-o",
        &big,
    ]);
    assert_eq!(code(&output), 2, "{}", stderr(&output));
    assert!(!Path::new(&big).exists());
}

#[test]
fn generate_counts_the_candidates_it_tries_and_warns_of_an_unreachable_target() {
    let s = Scratch::new();
    let out = s.path("g.csv");
    let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin("sudoku-batch"))
        .args(["generate", "-n", "1", "--min-guesses", "100000", "-j", "2"])
        .args(["-o", &out, "--progress", "always"])
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(std::time::Duration::from_millis(2500));
    let sent = std::process::Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(sent.success());
    let status = child.wait().unwrap();
    let mut err = String::new();
    std::io::Read::read_to_string(child.stderr.as_mut().unwrap(), &mut err).unwrap();
    assert_eq!(status.code(), Some(130), "{err}");
    assert!(
        err.contains("warning: --min-guesses 100000") && err.contains("may never be met"),
        "{err}"
    );
    let tried = |line: &str| -> Option<u64> {
        let (before, _) = line.split_once(" candidates tried")?;
        before
            .rsplit(['(', ' '])
            .next()?
            .replace(',', "")
            .parse()
            .ok()
    };
    let summary = err
        .lines()
        .find(|l| l.starts_with("generate:"))
        .unwrap_or_else(|| panic!("no summary: {err}"));
    assert!(tried(summary).unwrap_or(0) > 0, "{summary}");
    // The progress log counts them while the search goes on.
    assert!(
        err.lines().any(|l| l.contains(" tried")
            && !l.contains(" 0 tried")
            && !l.starts_with("generate:")),
        "{err}"
    );
    // An ordinary target has no warning.
    let output = run(&[
        "generate",
        "-n",
        "2",
        "--min-guesses",
        "3",
        "-o",
        &out,
        "--quiet",
    ]);
    assert_eq!(code(&output), 0, "{}", stderr(&output));
    assert!(!stderr(&output).contains("warning"), "{}", stderr(&output));
}
