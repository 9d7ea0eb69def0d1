//! `--resume` of JSON Lines results (`.jsonl`, `.ndjson`, `.jsonl.gz`):
//! interrupted by `--limit`, cut at any byte, gzip members, kept columns,
//! grids of other sizes, `rate`; a resumed file equals the file of a run
//! never interrupted (`solve_us` aside), and a file of another run is
//! refused and left as it was.

use crate::common::*;
use serde_json::Value;

/// A puzzle with one solution.
const P: &str = "016400000200009000400000062070230100100000003003087040960000005000800007000006820";
/// A 17-clue puzzle with one solution.
const Q: &str = "000007004000006003860200000509082000640000080000000700000000042010030000703000009";

/// `n` records, every fifth malformed, every fifth another puzzle.
fn records(n: usize) -> String {
    (0..n)
        .map(|i| match i % 5 {
            3 => format!("{}\n", &P[..70]),
            4 => format!("{Q}\n"),
            _ => format!("{P}\n"),
        })
        .collect()
}

/// Runs `solve ARGS`, asserting its exit code.
fn solved(args: &[&str], expected: i32) {
    let output = solve(args);
    assert_eq!(code(&output), expected, "{args:?}: {}", stderr(&output));
}

/// The summary `--summary-json` wrote at `path`.
fn summary(path: &str) -> Value {
    serde_json::from_str(&read_output(path)).expect("a JSON summary")
}

#[test]
fn json_lines_stopped_by_limit_resume_to_the_uninterrupted_file() {
    let scratch = Scratch::new();
    let input = scratch.file("in.txt", records(40).as_bytes());
    for name in ["r.jsonl", "r.ndjson"] {
        let full = scratch.path(&format!("full-{name}"));
        solved(&[&input, "-o", &full], 1);
        let out = scratch.path(name);
        solved(&[&input, "-o", &out, "--limit", "13"], 1);
        assert_eq!(read_output(&out).lines().count(), 13);
        let json = scratch.path("s.json");
        solved(
            &[&input, "-o", &out, "--resume", "--summary-json", &json],
            1,
        );
        let whole = read_output(&full);
        assert_eq!(
            without_json_timing(&read_output(&out)),
            without_json_timing(&whole)
        );
        let json = summary(&json);
        assert_eq!(json["puzzles"], 40, "the summary covers the whole file");
        assert_eq!(json["malformed"], 8);
        assert_eq!(json["interrupted"], false);

        // A finished file: nothing to add, and nothing added.
        let before = read_output(&out);
        solved(&[&input, "-o", &out, "--resume"], 1);
        assert_eq!(read_output(&out), before);
    }
}

#[test]
fn json_lines_cut_at_random_bytes_resume_to_the_uninterrupted_file() {
    // Two inputs: a `file` key, one name like a formula (which CSV writes
    // with a `'` in front, and JSON Lines as it is).
    // Named as given, relative to the scratch directory.
    let scratch = Scratch::new();
    scratch.file("a.txt", records(23).as_bytes());
    scratch.file("=b.txt", records(17).as_bytes());
    let solve_here = |args: &[&str]| {
        bin()
            .current_dir(scratch.path("."))
            .args(["solve", "a.txt", "=b.txt", "--quiet"])
            .args(args)
            .output()
            .unwrap()
    };
    let full = scratch.path("full.jsonl");
    assert_eq!(code(&solve_here(&["-o", &full])), 1);
    let whole = std::fs::read(&full).unwrap();
    assert!(String::from_utf8_lossy(&whole).contains("\"file\":\"="));
    // xorshift64, fixed seed: the same cuts every run.
    let mut state: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut cuts: Vec<usize> = (0..10)
        .map(|_| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state % whole.len() as u64) as usize
        })
        .collect();
    // The edges: nothing, a first row cut short, a last row one byte short.
    cuts.extend([0, 20, whole.len() - 1]);
    for cut in cuts {
        let out = scratch.file("r.jsonl", &whole[..cut]);
        let output = solve_here(&["-o", &out, "--resume"]);
        assert_eq!(code(&output), 1, "cut at {cut}: {}", stderr(&output));
        assert_eq!(
            without_json_timing(&read_output(&out)),
            without_json_timing(&String::from_utf8_lossy(&whole)),
            "cut at {cut}"
        );
    }
}

#[test]
fn gzip_json_lines_resume_from_their_last_complete_member() {
    // 4,500 records are three chunks, three gzip members: the first run
    // stops at 4,200 records, and its last member is then cut short.
    let scratch = Scratch::new();
    let input = scratch.file("in.txt", records(4500).as_bytes());
    let full = scratch.path("full.jsonl.gz");
    solved(&[&input, "-o", &full], 1);
    let out = scratch.path("r.jsonl.gz");
    solved(&[&input, "-o", &out, "--limit", "4200"], 1);
    let bytes = std::fs::read(&out).unwrap();
    std::fs::write(&out, &bytes[..bytes.len() - 10]).unwrap();
    let json = scratch.path("s.json");
    solved(
        &[&input, "-o", &out, "--resume", "--summary-json", &json],
        1,
    );
    assert_eq!(
        without_json_timing(&read_output(&out)),
        without_json_timing(&read_output(&full))
    );
    assert_eq!(summary(&json)["puzzles"], 4500);

    let before = std::fs::read(&out).unwrap();
    solved(&[&input, "-o", &out, "--resume"], 1);
    assert_eq!(
        std::fs::read(&out).unwrap(),
        before,
        "nothing added, not even an empty gzip member"
    );
}

#[test]
fn json_lines_with_kept_columns_resume_and_without_them_are_refused() {
    let scratch = Scratch::new();
    let text: String = std::iter::once("quizzes,rating,note\n".to_string())
        .chain(
            (0..30).map(|i| format!("{},{i},\"a, \"\"b\"\"\"\n", if i % 4 == 3 { Q } else { P })),
        )
        .collect();
    let input = scratch.file("in.csv", text.as_bytes());
    for keep in [&["--keep", "rating,note"][..], &["--keep-all"]] {
        let with = |out: &str, more: &[&str]| {
            let mut args = vec![input.as_str(), "-o", out];
            args.extend_from_slice(keep);
            args.extend_from_slice(more);
            args.into_iter().map(str::to_string).collect::<Vec<_>>()
        };
        let run = |args: Vec<String>| solve(&args.iter().map(String::as_str).collect::<Vec<_>>());
        let full = scratch.path("full.jsonl");
        assert_eq!(code(&run(with(&full, &[]))), 0);
        let whole = read_output(&full);
        assert!(whole.contains(r#""note":"a, \"b\"""#), "{whole}");
        let cut: usize = whole.lines().take(12).map(|l| l.len() + 1).sum::<usize>() - 5;
        let out = scratch.file("r.jsonl", &whole.as_bytes()[..cut]);
        let resumed = run(with(&out, &["--resume"]));
        assert_eq!(code(&resumed), 0, "{keep:?}: {}", stderr(&resumed));
        assert_eq!(
            without_json_timing(&read_output(&out)),
            without_json_timing(&whole),
            "{keep:?}"
        );

        // Without the kept columns, the file is another run's: refused,
        // and left as it was.
        let part = scratch.file("part.jsonl", &whole.as_bytes()[..cut]);
        let plain = solve(&[&input, "-o", &part, "--resume"]);
        assert_eq!(code(&plain), 2, "{keep:?}");
        let message = stderr(&plain);
        assert!(message.contains("line 1: the row's keys are"), "{message}");
        assert!(message.contains("the same --keep"), "{message}");
        assert_eq!(read_output(&part), whole[..cut]);
    }
}

#[test]
fn json_lines_of_other_grid_sizes_resume() {
    let scratch = Scratch::new();
    // Each input, its options, and whether `--blank 0` writes its puzzles
    // otherwise (numbers write a blank as 0 either way).
    for (input, args, blanks_differ) in [
        // 4x4 puzzles with their solutions (checked), CRLF lines.
        (
            repo("data/sizes/4x4_puzzle_solution_crlf.csv"),
            &[][..],
            true,
        ),
        // 16x16: several solutions, a repeated given, malformed lines.
        (repo("data/sizes/16x16_A-P_dots.txt"), &[][..], true),
        // 25x25 grids of a row per line, in mode first.
        (
            repo("data/sizes/25x25_comma_grid.txt"),
            &["--format", "grid", "--first"][..],
            false,
        ),
    ] {
        let with = |out: &str, more: &[&str]| {
            let mut all = vec![input.as_str(), "-o", out];
            all.extend_from_slice(args);
            all.extend_from_slice(more);
            solve(&all)
        };
        let full = scratch.path("full.jsonl");
        let expected = code(&with(&full, &[]));
        assert_ne!(expected, 2, "{input}");
        let whole = read_output(&full);
        let rows = whole.lines().count();
        assert!(rows > 0, "{input}");
        // The first half of the rows, then the next row cut short.
        let cut: usize = whole
            .lines()
            .take(rows / 2 + 1)
            .map(|l| l.len() + 1)
            .sum::<usize>()
            - 7;
        let out = scratch.file("r.jsonl", &whole.as_bytes()[..cut]);
        let resumed = with(&out, &["--resume"]);
        assert_eq!(code(&resumed), expected, "{input}: {}", stderr(&resumed));
        assert_eq!(
            without_json_timing(&read_output(&out)),
            without_json_timing(&whole),
            "{input}"
        );
        if !blanks_differ {
            continue;
        }
        let other = scratch.file("blank.jsonl", &whole.as_bytes()[..cut]);
        let refused = with(&other, &["--resume", "--blank", "0"]);
        assert_eq!(code(&refused), 2, "{input}");
        assert!(stderr(&refused).contains("--blank"), "{}", stderr(&refused));
        assert_eq!(read_output(&other), whole[..cut]);
    }
}

#[test]
fn a_json_lines_file_of_another_run_is_refused_and_left_as_it_was() {
    let scratch = Scratch::new();
    let input = scratch.file("in.txt", records(10).as_bytes());
    let other = scratch.file("other.txt", format!("{P}\n{Q}\n").repeat(5).as_bytes());
    let full = scratch.path("full.jsonl");
    solved(&[&input, "-o", &full], 1);
    let whole = read_output(&full);
    // Five rows, then a sixth cut short.
    let cut: usize = whole.lines().take(6).map(|l| l.len() + 1).sum::<usize>() - 9;
    let torn = &whole[..cut];
    let json = scratch.file("s.json", b"{\"the previous\": \"summary\"}\n");
    let html = scratch.file("s.html", b"<p>the previous page</p>\n");

    let csv = scratch.path("full.csv");
    solved(&[&input, "-o", &csv], 1);
    for (inputs, results, why) in [
        // Other inputs: the row at line 2 is not their record.
        (
            vec![other.as_str()],
            torn.to_string(),
            "r.jsonl: line 2 does not match the inputs",
        ),
        // Two inputs now, one then: every row lacks the `file` key.
        (
            vec![input.as_str(), other.as_str()],
            torn.to_string(),
            "r.jsonl: line 1: the row's keys are",
        ),
        // CSV results under a JSON Lines name.
        (
            vec![input.as_str()],
            read_output(&csv),
            "r.jsonl: line 1: not a results row: not a JSON object",
        ),
    ] {
        let out = scratch.file("r.jsonl", results.as_bytes());
        let mut args = inputs.clone();
        args.extend(["-o", &out, "--resume", "--summary-json", &json]);
        args.extend(["--summary-html", &html]);
        let output = solve(&args);
        assert_eq!(code(&output), 2, "{inputs:?}");
        assert!(stderr(&output).contains(why), "{}", stderr(&output));
        assert_eq!(read_output(&out), results, "the results left as they were");
        assert_eq!(read_output(&json), "{\"the previous\": \"summary\"}\n");
        assert_eq!(read_output(&html), "<p>the previous page</p>\n");
    }
}

#[test]
fn rate_resumes_json_lines_to_the_very_bytes_of_the_uninterrupted_file() {
    // Rate rows carry no timing: the resumed file is the same file.
    let scratch = Scratch::new();
    let input = scratch.file("in.txt", records(12).as_bytes());
    let rate = |args: &[&str]| {
        let output = bin()
            .arg("rate")
            .args(args)
            .arg("--quiet")
            .output()
            .unwrap();
        assert_eq!(code(&output), 1, "{args:?}: {}", stderr(&output));
    };
    let full = scratch.path("full.jsonl");
    rate(&[&input, "-o", &full]);
    let out = scratch.path("r.jsonl");
    rate(&[&input, "-o", &out, "--limit", "5"]);
    let mut torn = std::fs::read(&out).unwrap();
    torn.extend_from_slice(&std::fs::read(&full).unwrap()[torn.len()..][..40]);
    std::fs::write(&out, &torn).unwrap();
    rate(&[&input, "-o", &out, "--resume"]);
    assert_eq!(std::fs::read(&out).unwrap(), std::fs::read(&full).unwrap());
}
