//! `sudoku-batch solve` on the shipped data and on small fixtures: options,
//! stdin, gzip in and out, several inputs, the summary, exit codes.

use std::io::Read;
use std::process::Stdio;

use crate::common::*;
use serde_json::Value;

#[test]
fn every_shipped_data_file_is_solved_and_checked() {
    for (name, puzzles) in [
        ("data/kaggle1m_10000.csv", 10_000),
        ("data/17_clue_10000.txt", 10_000),
        ("data/magictour_top1465.txt", 1_465),
        ("data/forum_hardest_2000.txt", 2_000),
        ("data/top95.txt", 95),
    ] {
        let rows = solve_rows(&[&repo(name)], 0);
        assert_eq!(rows.len(), puzzles, "{name}");
        assert!(rows.iter().all(|r| r.status == "solved"), "{name}");
        assert!(rows.windows(2).all(|w| w[0].line < w[1].line), "{name}");
    }
    let kaggle = solve_rows(&[&repo("data/kaggle1m_10000.csv"), "--limit", "50"], 0);
    assert_eq!(kaggle[0].line, 2, "the header is line 1");
    assert!(kaggle.iter().all(|r| r.check == "ok"));
}

#[test]
fn every_simd_level_the_environment_chooses_gives_the_same_rows() {
    // Statuses, solutions and guess counts, in both modes; the solver's
    // paths themselves are compared puzzle by puzzle in sudoku-core
    // (`every_path_agrees_on_the_shipped_corpora`).
    let levels = sudoku_core::solver::Simd::available();
    let mut guessed = 0;
    for (name, limit) in [
        ("data/17_clue_10000.txt", "2000"),
        ("data/magictour_top1465.txt", "1465"),
        ("data/forum_hardest_2000.txt", "300"),
        ("data/kaggle1m_10000.csv", "2000"),
        ("data/top95.txt", "95"),
    ] {
        for mode in [None, Some("--first")] {
            let run = |level: &str| {
                let output = bin()
                    .env("SUDOKU_BATCH_SIMD", level)
                    .args(["solve", &repo(name), "--limit", limit])
                    .args(mode)
                    .arg("--quiet")
                    .output()
                    .expect("the binary runs");
                assert_eq!(code(&output), 0, "{level} {name}: {}", stderr(&output));
                without_timing(&stdout(&output))
            };
            let scalar = run("scalar");
            guessed += rows(&scalar).iter().filter(|r| r.guesses != "0").count();
            for level in &levels[1..] {
                assert_eq!(run(level.name()), scalar, "{level} {mode:?} {name}");
            }
        }
    }
    assert!(guessed > 1000, "{guessed} searches guessed");
    // An unknown name is refused before any output; so is a level this CPU
    // lacks, when there is one.
    for (value, says) in [
        (
            "avx-512",
            "unknown level; the levels are scalar, avx2 and avx512",
        ),
        ("Scalar", "unknown level"),
    ] {
        let output = bin()
            .env("SUDOKU_BATCH_SIMD", value)
            .args(["solve", &repo("data/top95.txt")])
            .output()
            .expect("the binary runs");
        assert_eq!(code(&output), 2);
        assert!(output.stdout.is_empty());
        assert!(
            stderr(&output).starts_with(&format!(
                "sudoku-batch: error: SUDOKU_BATCH_SIMD={value}: {says}"
            )),
            "{}",
            stderr(&output)
        );
    }
    if let Some(lacking) = sudoku_core::solver::Simd::ALL
        .into_iter()
        .find(|s| !s.is_available())
    {
        let output = bin()
            .env("SUDOKU_BATCH_SIMD", lacking.name())
            .args(["solve", &repo("data/top95.txt")])
            .output()
            .expect("the binary runs");
        assert_eq!(code(&output), 2);
        assert!(stderr(&output).contains("this CPU lacks that level"));
    }
}

#[test]
fn output_is_byte_identical_for_one_and_eight_threads_across_chunks() {
    let args = |j| {
        vec![
            repo("data/kaggle1m_10000.csv"),
            case("10-wrong-length.txt"),
            "--limit".into(),
            "5000".into(),
            "-j".into(),
            j,
        ]
    };
    let run = |j: &str| {
        let args = args(j.to_string());
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        without_timing(&stdout(&solve(&args)))
    };
    let one = run("1");
    assert_eq!(rows(&one).len(), 5000);
    assert_eq!(run("8"), one);
}

#[test]
fn stdin_is_read_when_no_input_or_dash_is_given() {
    let text = std::fs::read(case("13-whitespace.txt")).unwrap();
    let from_file = without_timing(&stdout(&solve(&[&case("13-whitespace.txt")])));
    for args in [&[][..], &["-"]] {
        let output = solve_stdin(args, &text);
        assert_eq!(code(&output), 0, "{}", stderr(&output));
        assert_eq!(without_timing(&stdout(&output)), from_file);
    }
}

#[test]
fn gzip_in_and_out() {
    let scratch = Scratch::new();
    let plain = std::fs::read(case("11-kaggle-1m.csv")).unwrap();
    let input = scratch.gzip("kaggle.csv.gz", &plain);
    let out = scratch.path("results.csv.gz");
    let output = solve(&[&input, "-o", &out]);
    assert_eq!(code(&output), 0, "{}", stderr(&output));
    assert!(output.stdout.is_empty(), "only the file gets the results");
    let rows = rows(&read_output(&out));
    check_rows(&rows);
    assert_eq!(
        statuses(&rows),
        [(2, "solved"), (3, "solved"), (4, "solved")]
    );
    assert!(
        rows.iter().all(|r| r.check == "ok"),
        "read as CSV by its name"
    );
}

#[test]
fn several_inputs_get_a_file_column() {
    let (a, b) = (case("07-last-cell.txt"), case("01-anti-backtracking.txt"));
    let rows = solve_rows(&[&a, &b], 1);
    let got: Vec<(&str, u64)> = rows
        .iter()
        .map(|r| (r.file.as_deref().unwrap(), r.line))
        .collect();
    assert_eq!(got, [(&*a, 1), (&*a, 2), (&*b, 1), (&*b, 2)]);
    assert!(solve_rows(&[&a], 1).iter().all(|r| r.file.is_none()));
}

#[test]
fn exit_code_0_when_all_solved_1_otherwise() {
    assert_eq!(code(&solve(&[&case("08-crlf.txt")])), 0);
    assert_eq!(code(&solve(&[&case("05-multiple-solutions.txt")])), 1);
    let scratch = Scratch::new();
    let solved =
        "316452978285679314497318562879234156142965783653187249968721435521843697734596821";
    let wrong = solved.replace("316", "361");
    let puzzle =
        ".164.....2....9...4......62.7.23.1..1.......3..3.87.4.96......5...8....7.....682.";
    let mismatch = scratch.file(
        "m.csv",
        format!("puzzle,solution\n{puzzle},{wrong}\n").as_bytes(),
    );
    let rows = solve_rows(&[&mismatch], 1);
    assert_eq!(
        (rows[0].status.as_str(), rows[0].check.as_str()),
        ("solved", "mismatch")
    );
}

#[test]
fn exit_code_2_for_usage_and_io_errors_and_nothing_written() {
    let scratch = Scratch::new();
    let out = scratch.path("never.csv");
    let missing = scratch.path("missing.txt");
    let output = solve(&[&case("08-crlf.txt"), &missing, "-o", &out]);
    assert_eq!(code(&output), 2);
    assert!(
        stderr(&output).contains("missing.txt"),
        "{}",
        stderr(&output)
    );
    assert!(
        !std::path::Path::new(&out).exists(),
        "inputs are opened first"
    );

    let input = scratch.file("in.txt", &std::fs::read(case("08-crlf.txt")).unwrap());
    for out in ["-o", "--summary-json"] {
        let output = solve(&[&input, out, &input]);
        assert_eq!(code(&output), 2, "{out}");
        assert!(
            stderr(&output).contains("is the same file as input"),
            "{}",
            stderr(&output)
        );
    }
    assert_eq!(
        std::fs::read(&input).unwrap(),
        std::fs::read(case("08-crlf.txt")).unwrap()
    );

    for args in [
        &["--summary-json", "-"][..],
        &["-j", "0"],
        &["--format", "xml"],
        &["--solver", "slow"],
    ] {
        let output = solve_stdin(args, b"");
        assert_eq!(code(&output), 2, "{args:?}");
        assert!(output.stdout.is_empty(), "{args:?}");
    }
}

#[test]
fn no_puzzles_is_exit_0_with_a_warning_and_a_header() {
    let output = solve_stdin(&[], b"# only a comment\n\n");
    assert_eq!(code(&output), 0);
    assert!(stderr(&output).contains("warning: no puzzles"));
    assert!(rows(&stdout(&output)).is_empty());
}

#[test]
fn no_puzzles_read_says_when_the_limit_or_the_shard_stopped_the_reading() {
    let top95 = repo("data/top95.txt");
    for (args, why) in [
        (
            vec![top95.as_str(), "--limit", "0"],
            "(--limit 0 reads none)",
        ),
        (
            vec![top95.as_str(), "--shard", "99/100"],
            "for shard 99/100",
        ),
        (
            vec![top95.as_str(), "--shard", "1/100", "--limit", "0"],
            "(--limit 0",
        ),
        (
            vec![top95.as_str(), "--shard", "2/100", "--limit", "1"],
            "for shard 2/100 among the first 1 record (--limit)",
        ),
    ] {
        let output = solve(&args);
        assert_eq!(code(&output), 0, "{args:?}");
        let message = stderr(&output);
        assert!(
            message.contains("warning: no puzzles found in"),
            "{message}"
        );
        assert!(message.contains(why), "{args:?}: {message}");
    }
}

#[test]
fn summary_json_has_every_key_and_agrees_with_the_rows() {
    let scratch = Scratch::new();
    let (out, summary) = (scratch.path("r.csv"), scratch.path("s.json"));
    let output = solve(&[
        &case("10-wrong-length.txt"),
        &case("02-duplicate-givens.txt"),
        "-o",
        &out,
        "--summary-json",
        &summary,
        "-j",
        "2",
    ]);
    assert_eq!(code(&output), 1);
    let rows = rows(&read_output(&out));
    let json: Value = serde_json::from_str(&read_output(&summary)).unwrap();
    for key in [
        "version",
        "inputs",
        "puzzles",
        "solved",
        "multiple",
        "unsolvable",
        "invalid",
        "malformed",
        "timeout",
        "mismatches",
        "wall_s",
        "puzzles_per_s",
        "solve_cpu_s",
        "solve_us",
        "guesses",
        "threads",
        "solver",
        "mode",
        "interrupted",
    ] {
        assert!(json.get(key).is_some(), "{key}");
    }
    for key in ["mean", "p50", "p90", "p99", "max"] {
        assert!(json["solve_us"][key].as_f64().unwrap() >= 0.0, "{key}");
    }
    for key in ["total", "mean", "no_guess_pct"] {
        assert!(json["guesses"][key].is_number(), "{key}");
    }
    assert_eq!(json["puzzles"], rows.len());
    let count = |s: &str| rows.iter().filter(|r| r.status == s).count();
    for status in ["solved", "invalid", "malformed"] {
        assert_eq!(json[status], count(status), "{status}");
    }
    assert_eq!(json["inputs"].as_array().unwrap().len(), 2);
    assert_eq!(
        (json["threads"].as_u64(), json["interrupted"].as_bool()),
        (Some(2), Some(false))
    );
    assert_eq!(
        (json["solver"].as_str(), json["mode"].as_str()),
        (Some("fast"), Some("unique"))
    );
    let searched = rows.len() - count("malformed");
    let cpu = json["solve_cpu_s"].as_f64().unwrap();
    let mean = json["solve_us"]["mean"].as_f64().unwrap();
    assert!((mean - cpu * 1e6 / searched as f64).abs() < 1e-6);
    let sum_us: f64 = rows
        .iter()
        .filter(|r| !r.solve_us.is_empty())
        .map(|r| r.solve_us.parse::<f64>().unwrap())
        .sum();
    assert!((sum_us - cpu * 1e6).abs() <= 0.05 * searched as f64 + 1e-6);
    let guesses: u64 = rows
        .iter()
        .filter_map(|r| r.guesses.parse::<u64>().ok())
        .sum();
    assert_eq!(json["guesses"]["total"], guesses);
}

#[test]
fn summary_json_on_stdout_when_results_go_to_a_file() {
    let scratch = Scratch::new();
    let out = scratch.path("r.csv");
    let output = solve(&[&case("08-crlf.txt"), "-o", &out, "--summary-json", "-"]);
    assert_eq!(code(&output), 0);
    let json: Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(json["solved"], 4);
    assert_eq!(rows(&read_output(&out)).len(), 4);
}

#[test]
fn human_summary_and_progress_go_to_stderr() {
    let output = bin()
        .args(["solve", &case("08-crlf.txt"), "--progress", "always"])
        .output()
        .unwrap();
    assert_eq!(code(&output), 0);
    let err = stderr(&output);
    assert!(err.contains("4 puzzles in"), "{err}");
    assert!(err.contains("solved 4"), "{err}");
    assert_eq!(rows(&stdout(&output)).len(), 4, "stdout holds only data");

    let quiet = solve(&[&case("08-crlf.txt")]);
    assert!(quiet.stderr.is_empty(), "{}", stderr(&quiet));
}

#[test]
fn first_mode_limit_max_guesses_and_the_naive_solver() {
    let multiple = case("05-multiple-solutions.txt");
    let first = solve_rows(&[&multiple, "--first"], 0);
    assert!(first.iter().all(|r| r.status == "solved"));

    let limited = solve_rows(&[&case("15-parallel-order.txt"), "--limit", "3"], 1);
    assert_eq!(
        statuses(&limited),
        [(1, "solved"), (2, "solved"), (3, "invalid")]
    );

    let timeout = solve_rows(&[&multiple, "--max-guesses", "1"], 1);
    assert_eq!(timeout[3].status, "timeout");
    assert!(
        timeout[3].message.contains("limit"),
        "{}",
        timeout[3].message
    );

    let fast = solve_rows(&[&case("02-duplicate-givens.txt")], 1);
    let naive = solve_rows(&[&case("02-duplicate-givens.txt"), "--solver", "naive"], 1);
    assert_eq!(statuses(&naive), statuses(&fast));
}

#[test]
fn column_and_format_options() {
    let by_name = solve_rows(&[&case("11-radcliffe-3m.csv"), "--column", "puzzle"], 0);
    assert_eq!(by_name.len(), 3);
    let scratch = Scratch::new();
    let text = std::fs::read(case("11-kaggle-1m.csv")).unwrap();
    let unnamed = scratch.file("kaggle.data", &text);
    let as_csv = solve_rows(&[&unnamed, "--format", "csv", "--column", "1"], 0);
    assert!(as_csv.iter().all(|r| r.check == "ok"));
}

#[test]
fn a_closed_stdout_pipe_ends_quietly_with_exit_0() {
    let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin("sudoku-batch"))
        .args([
            "solve",
            "--quiet",
            "-j",
            "1",
            &repo("data/kaggle1m_10000.csv"),
        ])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut first = [0u8; 64];
    child.stdout.take().unwrap().read_exact(&mut first).unwrap();
    // The read end is dropped here: the next write gets a broken pipe.
    let output = child.wait_with_output().unwrap();
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert!(output.stderr.is_empty(), "{}", stderr(&output));
    assert!(first.starts_with(b"line,puzzle"));
}

#[cfg(target_os = "linux")]
#[test]
fn a_full_disk_is_a_clear_error_with_exit_2() {
    let output = solve(&[&repo("data/top95.txt"), "-o", "/dev/full"]);
    assert_eq!(code(&output), 2);
    let err = stderr(&output);
    assert!(
        err.contains("/dev/full") && err.contains("No space left"),
        "{err}"
    );
}
