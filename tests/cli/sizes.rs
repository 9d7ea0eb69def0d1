//! Grids of every size through the real binary: every file of
//! `data/sizes/` (copied whole from the shared corpora, see
//! `data/README.md`), read in its alphabet, each record with the status the
//! data calls for, and every solution checked here by a check of its own
//! (each row, column and box a permutation of the symbols, every given
//! kept), not by the library's.

use crate::common::*;

/// A results row's puzzle or solution as cell values (0 blank), read in
/// the alphabet the test names (`1-9A-Z`, `a-z`, numbers).
fn values(text: &str, alphabet: &str) -> Vec<u32> {
    if alphabet == "numbers" {
        return text
            .split(',')
            .map(|t| t.parse().expect("a number"))
            .collect();
    }
    text.chars()
        .map(|ch| match (alphabet, ch) {
            (_, '.') => 0,
            ("1-9A-Z", '1'..='9') => ch as u32 - '0' as u32,
            ("1-9A-Z", 'A'..='Z') => ch as u32 - 'A' as u32 + 10,
            ("A-Z", 'A'..='Z') => ch as u32 - 'A' as u32 + 1,
            ("a-z", 'a'..='z') => ch as u32 - 'a' as u32 + 1,
            _ => panic!("{ch:?} is no symbol of {alphabet}"),
        })
        .collect()
}

/// Asserts that `solution` is a solution grid of `puzzle` with boxes of
/// `rows` x `cols`.
fn assert_solves(puzzle: &[u32], solution: &[u32], rows: usize, cols: usize) {
    let n = rows * cols;
    assert_eq!(solution.len(), n * n);
    assert_eq!(puzzle.len(), n * n);
    for (p, s) in puzzle.iter().zip(solution) {
        assert!(*p == 0 || p == s, "a given changed");
    }
    let all: Vec<u32> = (1..=n as u32).collect();
    let sorted = |cells: Vec<u32>| {
        let mut cells = cells;
        cells.sort_unstable();
        cells
    };
    for i in 0..n {
        let row = (0..n).map(|j| solution[i * n + j]).collect();
        let col = (0..n).map(|j| solution[j * n + i]).collect();
        let (top, left) = (i / rows * rows, i % rows * cols);
        let boxed = (0..n)
            .map(|j| solution[(top + j / cols) * n + left + j % cols])
            .collect();
        assert_eq!(sorted(row), all, "row {}", i + 1);
        assert_eq!(sorted(col), all, "column {}", i + 1);
        assert_eq!(sorted(boxed), all, "box {}", i + 1);
    }
}

/// Runs `solve ARGS`, asserting the exit code, and returns the rows.
fn sized_rows(args: &[&str], expected_code: i32) -> Vec<Row> {
    let output = solve(args);
    assert_eq!(code(&output), expected_code, "stderr: {}", stderr(&output));
    rows(&stdout(&output))
}

/// Every `solved` row's solution solves its puzzle.
fn assert_solved_rows(rows: &[Row], alphabet: &str, box_rows: usize, box_cols: usize) {
    for row in rows.iter().filter(|r| r.status == "solved") {
        assert_solves(
            &values(&row.puzzle, alphabet),
            &values(&row.solution, alphabet),
            box_rows,
            box_cols,
        );
    }
}

#[test]
fn sixteen_by_sixteen_lines_in_1_9a_g_are_solved_in_their_alphabet() {
    let file = repo("data/sizes/16x16_1-9A-G_dots.txt");
    let rows = sized_rows(&[&file, "--first"], 0);
    assert_eq!(rows.len(), 10);
    assert!(rows.iter().all(|r| r.status == "solved"));
    let input = std::fs::read_to_string(&file).unwrap();
    for (row, line) in rows.iter().zip(input.lines()) {
        assert_eq!(row.puzzle, line.trim_end());
    }
    assert_solved_rows(&rows, "1-9A-Z", 4, 4);
}

#[test]
fn sixteen_by_sixteen_a_p_has_several_solutions_a_repeated_given_and_notes() {
    let file = repo("data/sizes/16x16_A-P_dots.txt");
    let rows = sized_rows(&[&file], 1);
    let expected: Vec<(u64, &str)> = (1..=6)
        .map(|l| (l, "multiple"))
        .chain([(7, "invalid")])
        .chain((9..=14).map(|l| (l, "malformed")))
        .collect();
    assert_eq!(statuses(&rows), expected);
    assert!(
        rows[6].message.contains(" twice in "),
        "{}",
        rows[6].message
    );
    assert!(rows[0].message.contains("in one solution and"));
    let first = sized_rows(&[&file, "--first"], 1);
    assert!(first[..6].iter().all(|r| r.status == "solved"));
    assert_solved_rows(&first, "A-Z", 4, 4);
}

#[test]
fn four_by_four_csv_has_124_puzzles_with_several_solutions() {
    let file = repo("data/sizes/4x4_puzzle_solution_crlf.csv");
    let rows = sized_rows(&[&file], 1);
    assert_eq!(rows.len(), 500);
    let multiple = rows.iter().filter(|r| r.status == "multiple").count();
    assert_eq!(multiple, 124);
    assert_eq!(rows.iter().filter(|r| r.status == "solved").count(), 376);
    // Each solved puzzle's solution is the file's own solution column.
    assert!(rows
        .iter()
        .filter(|r| r.status == "solved")
        .all(|r| r.check == "ok"));
    assert_solved_rows(&rows, "1-9A-Z", 2, 2);
    let first = sized_rows(&[&file, "--first"], 1);
    assert!(first.iter().all(|r| r.status == "solved"));
    assert_solved_rows(&first, "1-9A-Z", 2, 2);
}

#[test]
fn comma_grids_are_read_with_format_grid_and_written_as_numbers() {
    for (name, side, b) in [
        ("4x4_comma_grid.txt", 4, 2),
        ("16x16_comma_grid.txt", 16, 4),
        ("25x25_comma_grid.txt", 25, 5),
    ] {
        let file = repo(&format!("data/sizes/{name}"));
        let rows = sized_rows(&[&file, "--format", "grid", "--first"], 0);
        assert_eq!(statuses(&rows), [(1, "solved")], "{name}");
        assert_eq!(rows[0].puzzle.split(',').count(), side * side);
        assert_solved_rows(&rows, "numbers", b, b);
    }
}

#[test]
fn alphadoku_letter_grids_are_solved_in_lower_case() {
    for (name, b) in [
        ("alphadoku_16x16_letters.csv", 4),
        ("alphadoku_25x25_letters.csv", 5),
    ] {
        let file = repo(&format!("data/sizes/{name}"));
        let rows = sized_rows(&[&file, "--format", "grid", "--first"], 0);
        assert_eq!(statuses(&rows), [(1, "solved")], "{name}");
        assert!(rows[0].puzzle.starts_with('k') || rows[0].puzzle.starts_with('x'));
        assert_solved_rows(&rows, "a-z", b, b);
    }
}

#[test]
fn auto_still_refuses_grid_files_by_name() {
    let output = solve(&[&repo("data/sizes/16x16_comma_grid.txt")]);
    assert_eq!(code(&output), 2);
    assert!(
        stderr(&output).contains("--format grid"),
        "{}",
        stderr(&output)
    );
}

#[test]
fn ambiguous_alphabets_are_refused_with_the_symbols_hint() {
    // `0` among letters up to F with no other blank: a blank of 1-9A-G or
    // a symbol of hexadecimal 0-9A-F.
    let record = format!("1A0F{}\n", "0".repeat(252));
    let output = solve_stdin(&["-"], record.as_bytes());
    assert_eq!(code(&output), 1);
    let rows = rows(&stdout(&output));
    assert_eq!(rows[0].status, "malformed");
    assert!(
        rows[0].message.contains("give --symbols"),
        "{}",
        rows[0].message
    );
    let output = solve_stdin(&["-", "--symbols", "1-9A-Z"], record.as_bytes());
    let rows = rows_of(&output);
    assert_ne!(rows[0].status, "malformed", "{}", rows[0].message);
}

fn rows_of(output: &std::process::Output) -> Vec<Row> {
    rows(&stdout(output))
}

#[test]
fn a_six_by_six_puzzle_with_three_row_boxes_needs_box_3x2() {
    let file = case("sizes-6x6-box-3x2.txt");
    let rows = sized_rows(&[&file, "--box", "3x2"], 0);
    assert_eq!(statuses(&rows), [(1, "solved")]);
    assert_solved_rows(&rows, "1-9A-Z", 3, 2);
    let usual = sized_rows(&[&file], 1);
    assert_eq!(statuses(&usual), [(1, "invalid")]);
}

#[test]
fn generated_puzzles_read_back_without_symbols() {
    for (size, alphabet, b) in [("6", "1-9A-Z", (2, 3)), ("12", "1-9A-Z", (3, 4))] {
        let generated = bin()
            .args([
                "generate",
                "-n",
                "2",
                "--size",
                size,
                "--no-minimal",
                "--quiet",
            ])
            .output()
            .unwrap();
        assert_eq!(code(&generated), 0, "{}", stderr(&generated));
        let output = solve_stdin(&["-", "--format", "csv"], &generated.stdout);
        let rows = rows_of(&output);
        assert_eq!(code(&output), 0, "{}", stderr(&output));
        assert_eq!(rows.len(), 2);
        assert!(rows.iter().all(|r| r.status == "solved" && r.check == "ok"));
        assert_solved_rows(&rows, alphabet, b.0, b.1);
    }
}

#[test]
fn canon_and_augment_refuse_other_sizes_by_name_with_exit_2() {
    let scratch = Scratch::new();
    // 9x9 records first: their rows are made before the 16x16 stops the
    // run, and must not be left as if the table were whole.
    let mut text = std::fs::read_to_string(repo("data/top95.txt")).unwrap();
    text.truncate(82 * 3);
    text.push_str(&std::fs::read_to_string(repo("data/sizes/16x16_1-9A-G_dots.txt")).unwrap());
    let file = scratch.file("16x16_1-9A-G_dots.txt", text.as_bytes());
    // Rows a 9x9 puzzle gets: its form, or two copies.
    let runs = [
        ("canon", &[][..], 1),
        ("augment", &["--copies", "2"][..], 2),
    ];
    for (command, extra, rows) in runs {
        // A named file is looked through before the output is touched: a
        // previous table stays (it was replaced, then removed).
        let out = scratch.file(&format!("{command}.csv"), b"the previous table\n");
        let output = bin()
            .arg(command)
            .arg(&file)
            .args(extra)
            .args(["-o", &out, "--quiet"])
            .output()
            .unwrap();
        assert_eq!(code(&output), 2, "{command}: {}", stderr(&output));
        let message = stderr(&output);
        assert!(
            message.contains("16x16_1-9A-G_dots.txt:4: a 16x16 grid")
                && message.contains(&format!("{command} takes 9x9 grids only")),
            "{command}: {message}"
        );
        assert_eq!(
            std::fs::read_to_string(&out).unwrap(),
            "the previous table\n",
            "{command}: the output was touched"
        );
        // Stdin is read once: the run stops at the record, its partial
        // table (written under a temporary name) removed and the previous
        // one left as it was.
        let output = bin()
            .arg(command)
            .args(extra)
            .args(["-o", &out, "--quiet"])
            .write_stdin(text.as_bytes())
            .output()
            .unwrap();
        assert_eq!(code(&output), 2, "{command}: {}", stderr(&output));
        assert!(
            stderr(&output).contains("-:4: a 16x16 grid"),
            "{command}: {}",
            stderr(&output)
        );
        assert_eq!(
            std::fs::read_to_string(&out).unwrap(),
            "the previous table\n",
            "{command}: the output was touched"
        );
        let left: Vec<_> = std::fs::read_dir(scratch.path(""))
            .unwrap()
            .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
            .filter(|name| name.ends_with(".partial"))
            .collect();
        assert!(left.is_empty(), "{command}: temporary files left: {left:?}");
        // Stdin of 9x9 grids only: the table takes the file's place.
        let output = bin()
            .arg(command)
            .args(extra)
            .args(["-o", &out, "--quiet"])
            .write_stdin(&text.as_bytes()[..82 * 3])
            .output()
            .unwrap();
        assert_eq!(code(&output), 0, "{command}: {}", stderr(&output));
        let table = std::fs::read_to_string(&out).unwrap();
        assert_eq!(table.lines().count(), 1 + 3 * rows, "{command}: {table}");
    }
}

#[test]
fn ratings_of_other_sizes_are_empty_and_say_why() {
    let file = repo("data/sizes/4x4_comma_grid.txt");
    let output = bin()
        .args(["rate", &file, "--format", "grid", "--first", "--quiet"])
        .output()
        .unwrap();
    assert_eq!(code(&output), 0, "{}", stderr(&output));
    let text = stdout(&output);
    let mut reader = csv::Reader::from_reader(text.as_bytes());
    let header = reader.headers().unwrap().clone();
    let record = reader.records().next().unwrap().unwrap();
    let field = |name: &str| &record[header.iter().position(|h| h == name).unwrap()];
    assert_eq!(field("puzzle"), "2,1,0,0,0,3,2,0,0,0,0,4,1,0,0,0");
    assert_eq!((field("rating"), field("status")), ("", "solved"));
    assert_eq!(
        field("message"),
        "not rated: the rater is for 9x9 grids only"
    );
    // `solve --rate`: the two rating columns are there, empty.
    let output = solve(&[&file, "--format", "grid", "--first", "--rate"]);
    assert_eq!(code(&output), 0, "{}", stderr(&output));
    let text = stdout(&output);
    let mut reader = csv::Reader::from_reader(text.as_bytes());
    let header = reader.headers().unwrap().clone();
    assert_eq!(
        &header.iter().collect::<Vec<_>>()[8..],
        ["rating", "hardest"]
    );
    let record = reader.records().next().unwrap().unwrap();
    assert_eq!(record.len(), header.len());
    assert_eq!((&record[2], &record[8], &record[9]), ("solved", "", ""));
}

/// Six minimal 16x16 puzzles, one solution each (see tests/cases/CASES.md).
fn sixteen() -> String {
    case("sizes-16x16-minimal.txt")
}

/// Runs `ARGS --quiet` (any subcommand), returning its output.
fn run(args: &[&str]) -> std::process::Output {
    bin()
        .args(args)
        .arg("--quiet")
        .output()
        .expect("the binary runs")
}

/// A results file's text with the `guesses` of its `row`-th row (1 the
/// first after the header) raised by one.
fn with_one_more_guess(results: &str, row: usize) -> String {
    let mut reader = csv::ReaderBuilder::new()
        .has_headers(false)
        .from_reader(results.as_bytes());
    let mut writer = csv::Writer::from_writer(vec![]);
    for (i, record) in reader.records().enumerate() {
        let mut fields: Vec<String> = record
            .expect("a CSV record")
            .iter()
            .map(str::to_string)
            .collect();
        if i == row {
            // line,puzzle,status,solution,guesses,...
            let guesses: u64 = fields[4].parse().expect("a guess count");
            fields[4] = (guesses + 1).to_string();
        }
        writer.write_record(&fields).expect("in memory");
    }
    String::from_utf8(writer.into_inner().expect("in memory")).expect("UTF-8")
}

#[test]
fn guess_and_time_limits_give_timeout_rows_for_sixteen_by_sixteen() {
    let file = sixteen();
    let all = sized_rows(&[&file], 0);
    let guesses: Vec<u64> = all.iter().map(|r| r.guesses.parse().unwrap()).collect();
    // Some need more than 100 guesses, some fewer (12-492).
    assert!(guesses.iter().any(|&g| g > 100), "{guesses:?}");
    assert!(guesses.iter().any(|&g| g <= 100), "{guesses:?}");
    let limited = sized_rows(&[&file, "--max-guesses", "100"], 1);
    for (row, &g) in limited.iter().zip(&guesses) {
        if g > 100 {
            assert_eq!(row.status, "timeout", "line {}", row.line);
            assert!(
                row.message.contains("guess limit 100 exceeded"),
                "{}",
                row.message
            );
        } else {
            assert_eq!(row.status, "solved", "line {}", row.line);
            assert_eq!(row.guesses, g.to_string());
        }
    }
    assert!(limited.iter().any(|r| r.status == "timeout"));
    let timed = sized_rows(&[&file, "--timeout-ms", "1"], 1);
    assert!(timed.iter().any(|r| r.status == "timeout"));
    for row in timed.iter().filter(|r| r.status != "solved") {
        assert_eq!(row.status, "timeout");
        assert!(
            row.message.contains("time limit 1 ms exceeded"),
            "{}",
            row.message
        );
    }
}

#[test]
fn sixteen_by_sixteen_rows_are_the_same_at_every_thread_count() {
    let file = sixteen();
    let at = |threads: &str| {
        let output = solve(&[&file, "-j", threads]);
        assert_eq!(code(&output), 0, "{}", stderr(&output));
        without_timing(&stdout(&output))
    };
    let one = at("1");
    assert_eq!(rows(&one).len(), 6);
    assert_eq!(at("2"), one);
    assert_eq!(at("8"), one);
}

#[test]
fn check_compares_with_a_baseline_of_sixteen_and_twenty_five_by_twenty_five_results() {
    let scratch = Scratch::new();
    let grid25 = repo("data/sizes/25x25_comma_grid.txt");
    let letters25 = repo("data/sizes/alphadoku_25x25_letters.csv");
    let file16 = sixteen();
    let sets: [(&str, Vec<&str>); 3] = [
        ("16", vec![file16.as_str()]),
        (
            "25-letters",
            vec![letters25.as_str(), "--format", "grid", "--first"],
        ),
        (
            "25-numbers",
            vec![grid25.as_str(), "--format", "grid", "--first"],
        ),
    ];
    for (name, args) in sets {
        let baseline = scratch.path(&format!("{name}.csv"));
        let mut solve_args = args.clone();
        solve_args.extend(["-o", &baseline]);
        let solved = solve(&solve_args);
        assert_eq!(code(&solved), 0, "{name}: {}", stderr(&solved));
        let check = |baseline: &str| {
            let mut check_args = vec!["check"];
            check_args.extend(&args);
            check_args.extend(["--baseline", baseline, "-o", "/dev/null"]);
            run(&check_args)
        };
        let passed = check(&baseline);
        assert_eq!(code(&passed), 0, "{name}: {}", stderr(&passed));
        let results = read_output(&baseline);
        let edited = scratch.file(
            &format!("{name}-edited.csv"),
            with_one_more_guess(&results, 1).as_bytes(),
        );
        let failed = check(&edited);
        assert_eq!(code(&failed), 1, "{name}: {}", stderr(&failed));
        assert!(
            stderr(&failed).contains("guesses changed from the baseline"),
            "{name}: {}",
            stderr(&failed)
        );
    }
}

#[test]
fn a_changed_sixteen_by_sixteen_solution_names_its_cell_in_the_alphabet() {
    let scratch = Scratch::new();
    let file = sixteen();
    let output = solve(&[&file]);
    let mut table = rows(&stdout(&output));
    // Two cells of row 1 swapped: still a grid of 1-9A-G, no longer the
    // solution.
    let solution: Vec<char> = table[0].solution.chars().collect();
    let mut swapped = solution.clone();
    swapped.swap(0, 1);
    let text = stdout(&output).replacen(&table[0].solution, &swapped.iter().collect::<String>(), 1);
    table.clear();
    let baseline = scratch.file("base.csv", text.as_bytes());
    let checked = run(&["check", &file, "--baseline", &baseline, "-o", "/dev/null"]);
    assert_eq!(code(&checked), 1, "{}", stderr(&checked));
    let want = format!(
        "solution changed from the baseline: r1c1: {} -> {} (the first of 2 changed cells)",
        solution[1], solution[0]
    );
    assert!(stderr(&checked).contains(&want), "{}", stderr(&checked));
}

#[test]
fn resume_continues_a_partly_written_sixteen_by_sixteen_results_file() {
    let scratch = Scratch::new();
    let file = sixteen();
    let whole = scratch.path("whole.csv");
    assert_eq!(code(&solve(&[&file, "-o", &whole])), 0);
    let whole = read_output(&whole);
    // The header, three rows, and a fourth cut short.
    let lines: Vec<&str> = whole.lines().collect();
    let cut = format!("{}\n{}", lines[..4].join("\n"), &lines[4][..50]);
    let part = scratch.file("part.csv", cut.as_bytes());
    let resumed = solve(&[&file, "-o", &part, "--resume"]);
    assert_eq!(code(&resumed), 0, "{}", stderr(&resumed));
    assert_eq!(without_timing(&read_output(&part)), without_timing(&whole));
    let other_blank = scratch.file("blank.csv", cut.as_bytes());
    let refused = solve(&[&file, "-o", &other_blank, "--resume", "--blank", "0"]);
    assert_eq!(code(&refused), 2);
    assert!(stderr(&refused).contains("--blank"), "{}", stderr(&refused));
}

/// 9x9 puzzles numbered from 0 (`-1` blanks) are written as numbers with
/// `.` blanks (`3,.,.,...`), and their results were refused by `--resume`,
/// `merge` and `check --baseline` (exit 2, "puzzle ... is not valid") and
/// read back as `malformed` (found by a new-user trial).
#[test]
fn results_of_nine_by_nine_puzzles_numbered_from_zero_read_back() {
    let scratch = Scratch::new();
    let lines: String = std::fs::read_to_string("data/top95.txt")
        .unwrap()
        .lines()
        .take(6)
        .map(|line| {
            let cells: Vec<String> = line
                .bytes()
                .map(|c| match c {
                    b'1'..=b'9' => (c - b'1').to_string(),
                    _ => "-1".to_string(),
                })
                .collect();
            format!("{{\"puzzle\": [{}]}}\n", cells.join(","))
        })
        .collect();
    let input = scratch.file("zero.jsonl", lines.as_bytes());
    let whole = scratch.path("whole.csv");
    assert_eq!(code(&solve(&[&input, "-o", &whole])), 0);
    let written = read_output(&whole);
    assert!(written.contains(",\"3,.,.,"), "{written}");

    let rows: Vec<&str> = written.lines().collect();
    let part = scratch.file("part.csv", format!("{}\n", rows[..3].join("\n")).as_bytes());
    let resumed = solve(&[&input, "-o", &part, "--resume"]);
    assert_eq!(code(&resumed), 0, "{}", stderr(&resumed));
    assert_eq!(
        without_timing(&read_output(&part)),
        without_timing(&written)
    );

    let checked = run(&["check", &input, "--baseline", &whole, "-o", "/dev/null"]);
    assert_eq!(code(&checked), 0, "{}", stderr(&checked));

    let shards = [scratch.path("1.csv"), scratch.path("2.csv")];
    for (k, shard) in shards.iter().enumerate() {
        let of = format!("{}/2", k + 1);
        assert_eq!(code(&solve(&[&input, "--shard", &of, "-o", shard])), 0);
    }
    let merged = scratch.path("merged.csv");
    let output = run(&[
        "merge", &shards[0], &shards[1], "-o", &merged, "--inputs", &input,
    ]);
    assert_eq!(code(&output), 0, "{}", stderr(&output));
    assert_eq!(
        without_timing(&read_output(&merged)),
        without_timing(&written)
    );

    // The results read back as puzzles, each checked against its solution.
    let again = scratch.path("again.csv");
    assert_eq!(code(&solve(&[&whole, "-o", &again])), 0);
    let again = read_output(&again);
    assert_eq!(
        again.lines().filter(|l| l.contains(",solved,")).count(),
        6,
        "{again}"
    );
    assert_eq!(again.matches(",ok,").count(), 6, "{again}");
}

#[test]
fn merge_joins_the_shards_of_a_sixteen_by_sixteen_run() {
    let scratch = Scratch::new();
    let file = sixteen();
    let whole = scratch.path("whole.csv");
    assert_eq!(code(&solve(&[&file, "-o", &whole])), 0);
    let first = scratch.path("1.csv");
    let second = scratch.path("2.csv");
    assert_eq!(code(&solve(&[&file, "--shard", "1/2", "-o", &first])), 0);
    assert_eq!(code(&solve(&[&file, "--shard", "2/2", "-o", &second])), 0);
    let merged = scratch.path("merged.csv");
    let output = run(&["merge", &second, &first, "-o", &merged, "--inputs", &file]);
    assert_eq!(code(&output), 0, "{}", stderr(&output));
    assert_eq!(
        without_timing(&read_output(&merged)),
        without_timing(&read_output(&whole))
    );
}

#[test]
fn parquet_and_json_lines_results_of_other_sizes_read_back_as_puzzles() {
    let scratch = Scratch::new();
    let file = sixteen();
    let puzzles: Vec<String> = std::fs::read_to_string(&file)
        .unwrap()
        .lines()
        .map(str::to_string)
        .collect();
    for name in ["r.parquet", "r.jsonl"] {
        let results = scratch.path(name);
        assert_eq!(code(&solve(&[&file, "-o", &results])), 0);
        let back = sized_rows(&[&results], 0);
        assert_eq!(back.len(), 6, "{name}");
        for (row, puzzle) in back.iter().zip(&puzzles) {
            assert_eq!(&row.puzzle, puzzle, "{name}");
            assert_eq!((row.status.as_str(), row.check.as_str()), ("solved", "ok"));
        }
    }
    // Lists of n * n integers, or n lists of n, as numbers.
    let lists = scratch.file(
        "lists.jsonl",
        b"{\"puzzle\": [2,1,0,0, 0,3,2,0, 0,0,0,4, 1,0,0,0]}\n\
          {\"puzzle\": [[2,1,0,0], [0,3,2,0], [0,0,0,4], [1,0,0,0]]}\n",
    );
    let rows = sized_rows(&[&lists, "--first"], 0);
    assert_eq!(statuses(&rows), [(1, "solved"), (2, "solved")]);
    assert_eq!(rows[0].puzzle, "2,1,0,0,0,3,2,0,0,0,0,4,1,0,0,0");
    assert_eq!(rows[1].puzzle, rows[0].puzzle);
    assert_solved_rows(&rows, "numbers", 2, 2);
}

#[test]
fn bench_measures_other_sizes_with_a_size_column_one_row_per_size() {
    let scratch = Scratch::new();
    let sixteen = std::fs::read_to_string(repo("data/sizes/16x16_1-9A-G_dots.txt")).unwrap();
    let nine = std::fs::read_to_string(repo("data/top95.txt")).unwrap();
    let nine: String = nine.lines().take(3).map(|l| format!("{l}\n")).collect();
    let mixed = scratch.file("mixed.txt", format!("{nine}{sixteen}").as_bytes());
    let json = scratch.path("bench.json");
    let output = bin()
        .args([
            "bench", &mixed, "--solver", "fast", "-j", "1", "--mode", "first",
        ])
        .args(["--time-s", "0.05", "--warmup-s", "0.05", "--runs", "1"])
        .args(["--export-json", &json])
        .output()
        .unwrap();
    assert_eq!(code(&output), 0, "{}", stderr(&output));
    assert!(
        stderr(&output).contains("2 sizes (3 9x9, 10 16x16) measured apart, one row per size"),
        "{}",
        stderr(&output)
    );
    let table = stdout(&output);
    assert!(table.lines().next().unwrap().starts_with("dataset"));
    assert!(table.contains(" 16x16 "), "{table}");
    let report: serde_json::Value = serde_json::from_str(&read_output(&json)).unwrap();
    let found: Vec<(String, u64, f64)> = report["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|row| {
            (
                row["size"].as_str().unwrap().to_string(),
                row["puzzles"].as_u64().unwrap(),
                row["finished_pct"].as_f64().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        found,
        [("9x9".into(), 3, 100.0), ("16x16".into(), 10, 100.0)]
    );
}

/// A 4x4, a 6x6 (each with its solution), a 9x9, a 16x16 and a 25x25
/// puzzle: `(size, puzzle, solution)`.
fn one_of_each_size() -> Vec<(&'static str, String, String)> {
    let first = |path: String| {
        let text = std::fs::read_to_string(path).unwrap();
        text.lines().next().unwrap().to_string()
    };
    let letters = std::fs::read_to_string(repo("data/sizes/alphadoku_25x25_letters.csv")).unwrap();
    vec![
        ("4", "3.....1.......32".into(), "3124421323411432".into()),
        (
            "6",
            ".6..4....1....4..5...2...4...3.26...".into(),
            "163542452136214365635214541623326451".into(),
        ),
        ("9", first(repo("data/top95.txt")), String::new()),
        ("16", first(sixteen()), String::new()),
        (
            "25",
            letters.replace([',', '\n'], "").replace('+', "."),
            String::new(),
        ),
    ]
}

/// The documented `<id> <puzzle> <rating>` layout finds the puzzle after
/// the id at every size, as it does 9x9 ones (it was `malformed`: "a 4x4
/// grid: only 9x9 is supported", "36 cells, expected 81"), from stdin and
/// from a `.txt` file; and a CSV of `id,puzzle,solution,size` read from
/// stdin (as text lines) gives the rows the same file named `.csv` gives.
#[test]
fn a_puzzle_after_an_id_is_found_at_every_size() {
    let scratch = Scratch::new();
    let puzzles = one_of_each_size();
    let forum: String = puzzles
        .iter()
        .enumerate()
        .map(|(i, (_, puzzle, _))| format!("{} {puzzle} 1.5\n", i + 1))
        .collect();
    let txt = scratch.file("forum.txt", forum.as_bytes());
    for output in [solve(&[&txt]), solve_stdin(&[], forum.as_bytes())] {
        assert_eq!(code(&output), 0, "stderr: {}", stderr(&output));
        let rows = rows(&stdout(&output));
        assert_eq!(rows.len(), 5);
        for (row, (_, puzzle, _)) in rows.iter().zip(&puzzles) {
            assert_eq!((row.status.as_str(), &row.puzzle), ("solved", puzzle));
        }
    }
    let csv: String = std::iter::once("id,puzzle,solution,size\n".to_string())
        .chain(
            puzzles
                .iter()
                .enumerate()
                .map(|(i, (size, puzzle, solution))| format!("{i},{puzzle},{solution},{size}\n")),
        )
        .collect();
    let by_name = solve(&[&scratch.file("mixed.csv", csv.as_bytes()), "--keep", "id"]);
    let from_stdin = solve_stdin(&["--keep", "id"], csv.as_bytes());
    assert_eq!(code(&from_stdin), 0, "stderr: {}", stderr(&from_stdin));
    let text = stdout(&from_stdin);
    assert_eq!(without_timing(&text), without_timing(&stdout(&by_name)));
    let checks: Vec<String> = csv_table(&text)
        .1
        .iter()
        .map(|r| r["check"].clone())
        .collect();
    assert_eq!(checks, ["ok", "ok", "", "", ""]);
}

/// A 9x9 puzzle written as 81 numbers with `0` blanks reads wherever the
/// numbers of other sizes do, as the 81-character puzzle it writes: a
/// quoted CSV field, a JSON string (commas or spaces), and a line of
/// "puzzle values, a space, solution values" (all were `malformed`: "bad
/// character ',' at position 2", "1 cell, expected 81"); with its solution
/// written either way (a solution of 81 characters beside numbers was
/// refused, or in JSON left unread).
#[test]
fn nine_by_nine_number_lists_read_as_a_field_a_string_and_beside_a_solution() {
    let scratch = Scratch::new();
    let puzzle = std::fs::read_to_string(repo("data/top95.txt")).unwrap();
    let puzzle = puzzle.lines().next().unwrap();
    let solved = solve_rows(&[&scratch.file("p.txt", puzzle.as_bytes())], 0);
    let solution = &solved[0].solution;
    let numbers = |grid: &str, sep: &str| {
        let values: Vec<String> = grid
            .bytes()
            .map(|b| {
                if b == b'.' {
                    "0".into()
                } else {
                    (b as char).to_string()
                }
            })
            .collect();
        values.join(sep)
    };
    let (p, s) = (numbers(puzzle, ","), numbers(solution, ","));
    let dotted: Vec<String> = puzzle.chars().map(String::from).collect();
    let inputs = [
        ("q.csv", format!("puzzle,solution\n\"{p}\",\"{s}\"\n")),
        // `.` blanks among the numbers (malformed before).
        ("d.csv", format!("puzzle\n\"{}\"\n", dotted.join(","))),
        ("n.csv", format!("\"{p}\"\n")),
        (
            "j.jsonl",
            format!("{{\"puzzle\":\"{p}\",\"solution\":\"{s}\"}}\n"),
        ),
        (
            "sp.jsonl",
            format!("{{\"puzzle\":\"{}\"}}\n", numbers(puzzle, " ")),
        ),
        ("line.txt", format!("{p} {s}\n")),
        // Numbers beside 81 characters, either way round.
        ("m.txt", format!("7 {p} {solution}\n")),
        ("m.csv", format!("puzzle,solution\n\"{p}\",{solution}\n")),
        (
            "m.jsonl",
            format!("{{\"puzzle\":\"{p}\",\"solution\":\"{solution}\"}}\n"),
        ),
        (
            "m2.jsonl",
            format!("{{\"puzzle\":\"{puzzle}\",\"solution\":\"{s}\"}}\n"),
        ),
    ];
    for (name, text) in inputs {
        let rows = solve_rows(&[&scratch.file(name, text.as_bytes())], 0);
        assert_eq!(rows.len(), 1, "{name}");
        assert_eq!(
            (rows[0].status.as_str(), rows[0].puzzle.as_str()),
            ("solved", puzzle),
            "{name}"
        );
        assert_eq!(&rows[0].solution, solution, "{name}");
        let check = if matches!(name, "n.csv" | "sp.jsonl" | "d.csv") {
            ""
        } else {
            "ok"
        };
        assert_eq!(rows[0].check, check, "{name}");
    }
}

/// A one-line grid of another size one cell short or long, or cut, says
/// its length is wrong and names the size it is near, not a bad character
/// (`bad character 'A' at position 1`) or 81 cells (`15 cells, expected
/// 81`); nothing else about the run changes.
#[test]
fn one_line_grids_of_a_wrong_length_name_the_size_they_are_near() {
    let sixteen = std::fs::read_to_string(sixteen()).unwrap();
    let sixteen = sixteen.lines().next().unwrap();
    let letters = std::fs::read_to_string(repo("data/sizes/alphadoku_25x25_letters.csv")).unwrap();
    let letters = letters.replace([',', '\n'], "");
    let four = "3.....1.......32";
    let lines = [
        (
            sixteen[..255].to_string(),
            "255 cells, expected 256 (a 16x16 grid)",
        ),
        (
            format!("{sixteen}."),
            "257 cells, expected 256 (a 16x16 grid)",
        ),
        (
            sixteen[..240].to_string(),
            "240 cells, expected 256 (a 16x16 grid)",
        ),
        (
            letters[..624].to_string(),
            "624 cells, expected 625 (a 25x25 grid)",
        ),
        (
            format!("{letters}+"),
            "626 cells, expected 625 (a 25x25 grid)",
        ),
        (four[..15].to_string(), "15 cells, expected 16 (a 4x4 grid)"),
        (format!("{four}."), "17 cells, expected 16 (a 4x4 grid)"),
        (
            vec!["0"; 15].join(","),
            "15 values, expected 16 (a 4x4 grid)",
        ),
        (
            vec!["0"; 80].join(","),
            "80 values, expected 81 (a 9x9 grid)",
        ),
    ];
    let text: String = lines.iter().map(|(line, _)| format!("{line}\n")).collect();
    let output = solve_stdin(&[], text.as_bytes());
    assert_eq!(code(&output), 1, "stderr: {}", stderr(&output));
    let rows = rows(&stdout(&output));
    let messages: Vec<&str> = rows.iter().map(|r| r.message.as_str()).collect();
    let expected: Vec<&str> = lines.iter().map(|(_, m)| *m).collect();
    assert_eq!(messages, expected);
}

/// Sixteen one-line 4x4 puzzles alone look like a 16x16 grid file, and
/// are refused as one; the refusal names `--format lines` too, which
/// reads them, and a grid file of rows that are no whole grid (9 cells)
/// is told `--format grid` only.
#[test]
fn sixteen_one_line_four_by_fours_are_told_about_format_lines() {
    let scratch = Scratch::new();
    let fours = "3.....1.......32\n.4.3..........12\n".repeat(8);
    let file = scratch.file("fours.txt", fours.as_bytes());
    let output = solve(&[&file]);
    assert_eq!(code(&output), 2, "stderr: {}", stderr(&output));
    assert!(
        stderr(&output).contains(
            "use --format grid to read it, or --format lines if each line is a 4x4 puzzle"
        ),
        "{}",
        stderr(&output)
    );
    let rows = sized_rows(&[&file, "--format", "lines"], 0);
    assert_eq!(rows.len(), 16);
    assert!(rows.iter().all(|r| r.status == "solved"));
    let grid = "003020600\n900305001\n001806400\n008102900\n700000008\n006708200\n002609500\n800203009\n005010300\n";
    // Nor rows of 25 cells: a 5x5 has no boxes, so no line is a puzzle.
    let grid_file = scratch.file("grid.txt", grid.as_bytes());
    for file in [grid_file.as_str(), "data/sizes/alphadoku_25x25_letters.csv"] {
        let output = solve(&[file]);
        assert_eq!(code(&output), 2);
        assert!(
            stderr(&output).ends_with("use --format grid to read it\n"),
            "{}",
            stderr(&output)
        );
    }
}
