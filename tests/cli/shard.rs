//! `--shard K/N`, `check --shard` against a full baseline, and `merge`, run
//! as the binary on a mixed corpus (every status, several inputs).

use std::process::Output;

use crate::common::{self, code, stderr, stdout, without_timing, Scratch};

/// Five inputs, in this order: malformed lines, puzzles with several
/// solutions, with none, Norvig's top95, and invalid puzzles.
pub(crate) const CORPUS: [&str; 5] = [
    "tests/cases/10-wrong-length.txt",
    "tests/cases/05-multiple-solutions.txt",
    "tests/cases/04-no-solution.txt",
    "data/top95.txt",
    "tests/cases/02-duplicate-givens.txt",
];

/// Statuses the corpus holds besides `solved`.
pub(crate) const ALLOW: &str = "multiple,unsolvable,invalid,malformed";

/// Runs `sudoku-batch SUBCOMMAND ARGS --quiet` in the crate root, so that
/// the `file` column holds the relative names above.
pub(crate) fn run(subcommand: &str, args: &[&str]) -> Output {
    let mut cmd = common::bin();
    cmd.current_dir(env!("CARGO_MANIFEST_DIR"))
        .arg(subcommand)
        .args(args)
        .arg("--quiet");
    if subcommand != "merge" {
        cmd.args(["--progress", "never"]);
    }
    cmd.output().expect("the binary runs")
}

/// Solves the corpus into `out` with `extra` options.
pub(crate) fn solve_to(out: &str, extra: &[&str]) {
    let mut args: Vec<&str> = CORPUS.to_vec();
    args.extend(["-o", out]);
    args.extend(extra);
    let output = run("solve", &args);
    // Not every puzzle is solvable: exit 1.
    assert_eq!(code(&output), 1, "{}", stderr(&output));
}

fn read(path: &str) -> String {
    std::fs::read_to_string(path).expect("a results file")
}

/// The data rows of a results CSV (header dropped), timing emptied.
fn data_rows(text: &str) -> Vec<String> {
    without_timing(text)
        .lines()
        .skip(1)
        .map(str::to_string)
        .collect()
}

#[test]
fn three_shards_cover_a_single_run_each_record_once_in_order() {
    let s = Scratch::new();
    let full = s.path("full.csv");
    solve_to(&full, &[]);
    let whole = data_rows(&read(&full));
    assert!(whole.len() > 100, "{}", whole.len());
    let statuses: std::collections::BTreeSet<&str> =
        whole.iter().map(|r| r.split(',').nth(3).unwrap()).collect();
    assert_eq!(statuses.len(), 5, "every status but timeout: {statuses:?}");
    for k in 1..=3 {
        let out = s.path(&format!("shard{k}.csv"));
        solve_to(&out, &["--shard", &format!("{k}/3")]);
        let text = read(&out);
        assert_eq!(
            text.lines().next(),
            read(&full).lines().next(),
            "same header"
        );
        let expected: Vec<String> = whole.iter().skip(k - 1).step_by(3).cloned().collect();
        assert_eq!(data_rows(&text), expected, "shard {k}/3");
    }
}

#[test]
fn a_limit_counts_the_whole_inputs_and_resume_continues_a_shard() {
    let s = Scratch::new();
    let full = s.path("full.csv");
    solve_to(&full, &["--limit", "20"]);
    let whole = data_rows(&read(&full));
    assert_eq!(whole.len(), 20);
    let shard = s.path("shard.csv");
    solve_to(&shard, &["--limit", "20", "--shard", "2/3"]);
    let mine = data_rows(&read(&shard));
    let expected: Vec<String> = whole.iter().skip(1).step_by(3).cloned().collect();
    assert_eq!(mine, expected);

    // A shard cut short after three rows, and half a row, resumes to the
    // same rows.
    let text = read(&shard);
    let mut lines: Vec<&str> = text.lines().take(4).collect();
    let half = &text.lines().nth(4).unwrap()[..10];
    lines.push(half);
    std::fs::write(&shard, format!("{}\n{half}", lines[..4].join("\n"))).unwrap();
    solve_to(&shard, &["--limit", "20", "--shard", "2/3", "--resume"]);
    assert_eq!(data_rows(&read(&shard)), expected);
}

/// `check` of shard K/3 against `baseline`; returns (exit code, stderr).
fn check_shard(k: usize, baseline: &str) -> (i32, String) {
    let mut args: Vec<&str> = CORPUS.to_vec();
    let shard = format!("{k}/3");
    args.extend(["--shard", &shard, "--allow", ALLOW, "-o", "/dev/null"]);
    args.extend(["--baseline", baseline]);
    let output = run("check", &args);
    (code(&output), stderr(&output))
}

#[test]
fn each_shard_checks_against_the_full_baseline_and_only_the_altered_one_fails() {
    let s = Scratch::new();
    let full = s.path("full.csv");
    solve_to(&full, &[]);
    let rows = data_rows(&read(&full)).len();
    for k in 1..=3 {
        let (code, report) = check_shard(k, &full);
        assert_eq!(code, 0, "shard {k}: {report}");
        let mine = (rows + 3 - k) / 3;
        assert!(
            report.contains(&format!(
                "ok: {mine} puzzles, {mine} rows of shard {k}/3 compared with baseline"
            )),
            "shard {k}: {report}"
        );
    }

    // Change one solved row's solution in the baseline: the 41st data row
    // (record 40, which falls to shard 2 of 3) swaps two digits of row 1.
    let text = read(&full);
    let mut records: Vec<csv::StringRecord> = csv::ReaderBuilder::new()
        .has_headers(false)
        .from_reader(text.as_bytes())
        .records()
        .map(Result::unwrap)
        .collect();
    let row = &mut records[1 + 40];
    assert_eq!(&row[3], "solved", "{row:?}");
    assert_eq!(40 % 3, 1, "record 40 belongs to shard 2");
    let (file, line) = (row[0].to_string(), row[1].to_string());
    let old = row[4].to_string();
    let mut new = old.clone().into_bytes();
    new.swap(0, 1);
    let new = String::from_utf8(new).unwrap();
    let mut fields: Vec<String> = row.iter().map(str::to_string).collect();
    fields[4] = new.clone();
    *row = csv::StringRecord::from(fields);
    let altered = s.path("altered.csv");
    let mut writer = csv::Writer::from_path(&altered).unwrap();
    for record in &records {
        writer.write_record(record).unwrap();
    }
    writer.flush().unwrap();

    for k in [1, 3] {
        let (code, report) = check_shard(k, &altered);
        assert_eq!(code, 0, "shard {k}: {report}");
    }
    let (code, report) = check_shard(2, &altered);
    assert_eq!(code, 1, "{report}");
    let digit = |s: &str, i: usize| s.as_bytes()[i] as char;
    assert!(
        report.contains(&format!(
            "{file}:{line}: solution changed from the baseline: r1c1: {} -> {} (the first of 2 \
             changed cells)",
            digit(&new, 0),
            digit(&old, 0)
        )),
        "{report}"
    );
    assert!(report.contains("FAILED: 1 failure in"), "{report}");
}

#[test]
fn shard_options_are_checked() {
    for bad in ["0/3", "4/3", "1/0", "x"] {
        let output = run("solve", &["data/top95.txt", "--shard", bad]);
        assert_eq!(code(&output), 2, "{bad}");
        assert!(stderr(&output).contains("--shard"), "{}", stderr(&output));
    }
}

/// Solves the corpus whole (`full.csv`, `full.json`) and in three shards
/// (`shardK.csv`, `shardK.json`) into `s`.
fn full_and_shards(s: &Scratch) {
    solve_to(
        &s.path("full.csv"),
        &["--summary-json", &s.path("full.json")],
    );
    for k in 1..=3 {
        let json = s.path(&format!("shard{k}.json"));
        let shard = format!("{k}/3");
        solve_to(
            &s.path(&format!("shard{k}.csv")),
            &["--shard", &shard, "--summary-json", &json, "-j", "2"],
        );
    }
}

fn merge(args: &[&str]) -> Output {
    run("merge", args)
}

fn json(path: &str) -> serde_json::Value {
    serde_json::from_str(&read(path)).expect("a JSON summary")
}

#[test]
fn merged_shards_equal_a_single_run_and_merging_one_file_copies_it_byte_for_byte() {
    let s = Scratch::new();
    full_and_shards(&s);
    let merged = s.path("merged.csv");
    let (a, b, c) = (
        s.path("shard1.csv"),
        s.path("shard2.csv"),
        s.path("shard3.csv"),
    );
    let output = merge(&[&c, &a, &b, "-o", &merged]);
    assert_eq!(code(&output), 0, "{}", stderr(&output));
    let full = read(&s.path("full.csv"));
    assert_eq!(without_timing(&read(&merged)), without_timing(&full));
    // `-o -` is stdout, as for every other subcommand (it was a file
    // named `-`, and nothing on stdout).
    let output = merge(&[&c, &a, &b, "-o", "-"]);
    assert_eq!(code(&output), 0, "{}", stderr(&output));
    assert_eq!(stdout(&output), read(&merged));

    let copy = s.path("copy.csv");
    let output = merge(&[&s.path("full.csv"), "-o", &copy]);
    assert_eq!(code(&output), 0, "{}", stderr(&output));
    assert_eq!(read(&copy), full, "rows are written as they were read");

    // Gzip both ways, and --inputs giving the order.
    let gz = s.path("merged.csv.gz");
    let mut args = vec![
        a.as_str(),
        b.as_str(),
        c.as_str(),
        "-o",
        gz.as_str(),
        "--inputs",
    ];
    args.extend(CORPUS);
    let output = merge(&args);
    assert_eq!(code(&output), 0, "{}", stderr(&output));
    let again = s.path("again.csv");
    let output = merge(&[&gz, "-o", &again]);
    assert_eq!(code(&output), 0, "{}", stderr(&output));
    assert_eq!(read(&again), read(&merged));

    // --inputs naming the files otherwise than the rows do (`./data/x`):
    // refused as "not one of the inputs" before.
    let dotted: Vec<String> = CORPUS.iter().map(|c| format!("./{c}")).collect();
    let other = s.path("dotted.csv");
    let mut args = vec![a.as_str(), &b, &c, "-o", &other, "--inputs"];
    args.extend(dotted.iter().map(String::as_str));
    let output = merge(&args);
    assert_eq!(code(&output), 0, "{}", stderr(&output));
    assert_eq!(read(&other), read(&merged));
}

/// `merge` writes a file under a temporary name and renames it over `-o`
/// only where that puts the rows where readers of `-o` look: a named pipe
/// got nothing (the merge put a regular file in its place, and the reader
/// waited forever; as root, `-o /dev/null` replaced the device), a symbolic
/// link became a regular file, and a file's other names kept its old rows.
#[test]
#[cfg(unix)]
fn merge_into_a_pipe_a_link_or_a_file_of_two_names_writes_where_they_lead() {
    use std::os::unix::fs::FileTypeExt;

    let s = Scratch::new();
    full_and_shards(&s);
    let parts = [
        s.path("shard1.csv"),
        s.path("shard2.csv"),
        s.path("shard3.csv"),
    ];
    let merge_into = |out: &str| {
        let mut args: Vec<&str> = parts.iter().map(String::as_str).collect();
        args.extend(["-o", out]);
        let output = merge(&args);
        assert_eq!(code(&output), 0, "{}", stderr(&output));
    };
    let whole = without_timing(&read(&s.path("full.csv")));

    let fifo = s.path("pipe.csv");
    let made = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .expect("mkfifo runs");
    assert!(made.success());
    let reader = {
        let fifo = fifo.clone();
        std::thread::spawn(move || std::fs::read_to_string(fifo).expect("the pipe reads"))
    };
    merge_into(&fifo);
    // Checked first: a reader of a replaced pipe would wait forever.
    let kind = std::fs::symlink_metadata(&fifo)
        .expect("still there")
        .file_type();
    assert!(kind.is_fifo(), "the pipe was replaced: {kind:?}");
    assert_eq!(
        without_timing(&reader.join().expect("the reader ends")),
        whole
    );

    let target = s.file("target.csv", b"old\n");
    let link = s.path("link.csv");
    std::os::unix::fs::symlink(&target, &link).expect("a link");
    merge_into(&link);
    let kind = std::fs::symlink_metadata(&link)
        .expect("still there")
        .file_type();
    assert!(kind.is_symlink(), "the link was replaced: {kind:?}");
    assert_eq!(without_timing(&read(&target)), whole);

    let first = s.file("first.csv", b"old\n");
    let second = s.path("second.csv");
    std::fs::hard_link(&first, &second).expect("a second name");
    merge_into(&second);
    assert_eq!(without_timing(&read(&first)), whole);
    let names = std::fs::read_dir(s.path(""))
        .expect("the scratch folder")
        .filter_map(|entry| entry.ok())
        .filter(|entry| entry.file_name().to_string_lossy().ends_with(".partial"))
        .count();
    assert_eq!(names, 0, "a temporary file was left");
}

#[test]
fn shards_of_a_run_given_an_input_twice_merge_into_the_whole_run() {
    let s = Scratch::new();
    let twice = ["data/top95.txt", CORPUS[1], "data/top95.txt"];
    let solve = |out: &str, shard: Option<&str>| {
        let mut args = twice.to_vec();
        args.extend(["-o", out]);
        if let Some(shard) = shard {
            args.extend(["--shard", shard]);
        }
        let output = run("solve", &args);
        assert_eq!(code(&output), 1, "{}", stderr(&output));
    };
    let full = s.path("full.csv");
    solve(&full, None);
    let shards: Vec<String> = (1..=2).map(|k| s.path(&format!("shard{k}.csv"))).collect();
    solve(&shards[0], Some("1/2"));
    solve(&shards[1], Some("2/2"));
    let merged = s.path("merged.csv");
    let output = merge(&[&shards[1], &shards[0], "-o", &merged]);
    assert_eq!(code(&output), 0, "{}", stderr(&output));
    assert_eq!(without_timing(&read(&merged)), without_timing(&read(&full)));

    let with_inputs = s.path("with_inputs.csv");
    let mut args = vec![
        shards[0].as_str(),
        &shards[1],
        "-o",
        &with_inputs,
        "--inputs",
    ];
    args.extend(twice);
    let output = merge(&args);
    assert_eq!(code(&output), 0, "{}", stderr(&output));
    assert_eq!(read(&with_inputs), read(&merged));
}

#[test]
fn shards_holding_one_record_of_each_turn_check_and_resume() {
    // Three puzzles given twice over four shards: a shard holds at most one
    // row of each turn, and its lines need not start over between turns.
    let s = Scratch::new();
    let top95 = std::fs::read_to_string(common::repo("data/top95.txt")).unwrap();
    let three: String = top95.lines().take(3).map(|l| format!("{l}\n")).collect();
    let input = s.file("three.txt", three.as_bytes());
    let full = s.path("full.csv");
    let output = run("solve", &[&input, &input, "-o", &full]);
    assert_eq!(code(&output), 0, "{}", stderr(&output));
    for k in 1..=4 {
        let shard = format!("{k}/4");
        let out = s.path(&format!("shard{k}.csv"));
        let output = run("solve", &[&input, &input, "--shard", &shard, "-o", &out]);
        assert_eq!(code(&output), 0, "{}", stderr(&output));
        let check = [&input, &input, "--shard", &shard, "--baseline", &full];
        let output = run("check", &[&check[..], &["-o", "/dev/null"]].concat());
        assert_eq!(code(&output), 0, "shard {shard}: {}", stderr(&output));
        let written = read(&out);
        let output = run(
            "solve",
            &[&input, &input, "--shard", &shard, "-o", &out, "--resume"],
        );
        assert_eq!(code(&output), 0, "shard {shard}: {}", stderr(&output));
        assert_eq!(data_rows(&read(&out)), data_rows(&written), "shard {shard}");
    }
}

/// Nearest-rank percentile of `values`.
fn percentile(sorted: &[f64], q: f64) -> f64 {
    let rank = ((q * sorted.len() as f64).ceil() as usize).max(1);
    sorted[rank - 1]
}

#[test]
fn the_merged_summary_counts_like_a_single_run_and_takes_run_facts_from_every_shard() {
    let s = Scratch::new();
    full_and_shards(&s);
    let shards: Vec<String> = (1..=3).map(|k| s.path(&format!("shard{k}.csv"))).collect();
    let merged = s.path("merged.csv");
    let summary = s.path("merged.json");
    let mut args: Vec<&str> = shards.iter().map(String::as_str).collect();
    args.extend(["-o", &merged, "--summary-json", &summary]);
    let output = merge(&args);
    assert_eq!(code(&output), 0, "{}", stderr(&output));
    let (one, all) = (json(&s.path("full.json")), json(&summary));
    let keys =
        |v: &serde_json::Value| -> Vec<String> { v.as_object().unwrap().keys().cloned().collect() };
    assert_eq!(keys(&one), keys(&all));
    for key in [
        "inputs",
        "puzzles",
        "solved",
        "multiple",
        "unsolvable",
        "invalid",
        "malformed",
        "timeout",
        "mismatches",
        "guesses",
    ] {
        assert_eq!(one[key], all[key], "{key}");
    }
    for key in ["wall_s", "puzzles_per_s", "threads", "solver", "mode"] {
        assert!(all[key].is_null(), "{key}: {}", all[key]);
    }
    // Percentiles, exactly, from the merged rows' solve_us.
    let mut times: Vec<f64> = common::rows(&read(&merged))
        .iter()
        .filter(|r| r.status != "malformed")
        .map(|r| r.solve_us.parse().unwrap())
        .collect();
    times.sort_by(f64::total_cmp);
    for (key, q) in [("p50", 0.5), ("p90", 0.9), ("p99", 0.99), ("max", 1.0)] {
        let got = all["solve_us"][key].as_f64().unwrap();
        assert!((got - percentile(&times, q)).abs() < 1e-9, "{key}: {got}");
    }

    // Every shard's summary: the run's facts.
    let summaries: Vec<String> = (1..=3).map(|k| s.path(&format!("shard{k}.json"))).collect();
    args.push("--summaries");
    args.extend(summaries.iter().map(String::as_str));
    let output = merge(&args);
    assert_eq!(code(&output), 0, "{}", stderr(&output));
    let all = json(&summary);
    assert_eq!(all["threads"], 6, "3 shards of 2 threads");
    assert_eq!(
        (all["solver"].as_str(), all["mode"].as_str()),
        (Some("fast"), Some("unique"))
    );
    let longest = summaries
        .iter()
        .map(|p| json(p)["wall_s"].as_f64().unwrap())
        .fold(0.0, f64::max);
    assert_eq!(all["wall_s"].as_f64(), Some(longest));

    // A summary left out is refused.
    let output = merge(&[
        &shards[0],
        &shards[1],
        &shards[2],
        "-o",
        &merged,
        "--summaries",
        &summaries[0],
    ]);
    assert_eq!(code(&output), 2);
    assert!(
        stderr(&output).contains("give every shard's summary, once"),
        "{}",
        stderr(&output)
    );

    // The merged summary is a baseline for check: same status counts pass.
    let mut check: Vec<&str> = CORPUS.to_vec();
    check.extend(["--allow", ALLOW, "-o", "/dev/null", "--baseline", &summary]);
    let output = run("check", &check);
    assert_eq!(code(&output), 0, "{}", stderr(&output));
    // A status count changed in the baseline fails, naming it.
    let mut changed = json(&summary);
    changed["solved"] = (changed["solved"].as_u64().unwrap() - 1).into();
    changed["multiple"] = (changed["multiple"].as_u64().unwrap() + 1).into();
    let changed_path = s.path("changed.json");
    std::fs::write(&changed_path, changed.to_string()).unwrap();
    let last = check.len() - 1;
    check[last] = &changed_path;
    let output = run("check", &check);
    assert_eq!(code(&output), 1, "{}", stderr(&output));
    let report = stderr(&output);
    assert!(
        report.contains("solved count changed from the baseline"),
        "{report}"
    );
    assert!(
        report.contains("multiple count changed from the baseline"),
        "{report}"
    );
}

#[test]
fn merge_refuses_overlaps_and_with_inputs_gaps() {
    let s = Scratch::new();
    full_and_shards(&s);
    let (a, b, c) = (
        s.path("shard1.csv"),
        s.path("shard2.csv"),
        s.path("shard3.csv"),
    );
    let merged = s.path("merged.csv");

    // The same rows in two files.
    let again = s.path("again.csv");
    std::fs::copy(&a, &again).unwrap();
    let output = merge(&[&a, &b, &again, &c, "-o", &merged]);
    assert_eq!(code(&output), 2);
    let err = stderr(&output);
    assert!(
        err.contains(&format!("\n  {}:1 in {a} and {again}\n", CORPUS[0])),
        "{err}"
    );
    assert!(!std::path::Path::new(&merged).exists(), "no partial output");
    // One file given twice is named as such (it was every record "in
    // more than one results file": `shard1.csv and shard1.csv`).
    let output = merge(&[&a, &b, &a, &c, "-o", &merged]);
    assert_eq!(code(&output), 2);
    let err = stderr(&output);
    assert!(err.contains(&format!("{a} is given twice")), "{err}");

    // Shard 2 missing: its first record is the corpus's second.
    let mut args = vec![a.as_str(), c.as_str(), "-o", merged.as_str(), "--inputs"];
    args.extend(CORPUS);
    let output = merge(&args);
    assert_eq!(code(&output), 2);
    let err = stderr(&output);
    let full = common::rows(&read(&s.path("full.csv")));
    let second = &full[1];
    let first_missing = format!(
        "no file has a row for {}:{} (the first of {} records",
        second.file.as_deref().unwrap(),
        second.line,
        full.iter().skip(1).step_by(3).count()
    );
    assert!(err.contains(&first_missing), "{err}");
    assert!(!std::path::Path::new(&merged).exists(), "no partial output");

    args.push("--allow-missing");
    let output = merge(&args);
    assert_eq!(code(&output), 0, "{}", stderr(&output));
    assert!(stderr(&output).contains("warning"), "{}", stderr(&output));
    let rows = common::rows(&read(&merged));
    assert_eq!(
        rows.len(),
        full.len() - full.iter().skip(1).step_by(3).count()
    );

    // Without --inputs a gap cannot be seen: the merge is partial, silently.
    let output = merge(&[&a, &c, "-o", &merged]);
    assert_eq!(code(&output), 0, "{}", stderr(&output));
    // Inputs that are not the results' own are refused.
    let output = merge(&[&a, "-o", &merged, "--inputs", "data/top95.txt"]);
    assert_eq!(code(&output), 2);
}

#[test]
fn tables_with_several_rows_per_record_merge_by_file_line_and_copy() {
    let s = Scratch::new();
    let header = "file,line,copy,puzzle\n";
    let (a, b) = (s.path("a.csv"), s.path("b.csv"));
    // Records 0 and 2 (x.txt:1, y.txt:1) in one shard, record 1 (x.txt:4)
    // in the other; each record has two copies.
    std::fs::write(
        &a,
        format!("{header}x.txt,1,1,p\nx.txt,1,2,q\ny.txt,1,1,r\ny.txt,1,2,s\n"),
    )
    .unwrap();
    std::fs::write(&b, format!("{header}x.txt,4,1,t\nx.txt,4,2,u\n")).unwrap();
    let merged = s.path("m.csv");
    let output = merge(&[&b, &a, "-o", &merged]);
    assert_eq!(code(&output), 0, "{}", stderr(&output));
    assert_eq!(
        read(&merged),
        format!(
            "{header}x.txt,1,1,p\nx.txt,1,2,q\nx.txt,4,1,t\nx.txt,4,2,u\ny.txt,1,1,r\ny.txt,1,2,s\n"
        )
    );
    // A record in both shards, even with other copies, is an overlap.
    std::fs::write(&b, format!("{header}x.txt,1,3,t\nx.txt,4,2,u\n")).unwrap();
    let output = merge(&[&a, &b, "-o", &merged]);
    assert_eq!(code(&output), 2);
    assert!(
        stderr(&output).contains("1 record has a row in more than one"),
        "{}",
        stderr(&output)
    );
    assert!(
        stderr(&output).contains("x.txt:1 in "),
        "{}",
        stderr(&output)
    );
    // No summary of rows that are not results.
    let output = merge(&[&a, "-o", &merged, "--summary-json", &s.path("s.json")]);
    assert_eq!(code(&output), 2);
    assert!(
        stderr(&output).contains("not a results CSV"),
        "{}",
        stderr(&output)
    );
}

#[test]
fn augment_shards_merge_into_the_whole_run_byte_for_byte() {
    let s = Scratch::new();
    let augment = |out: &str, extra: &[&str]| {
        let mut args: Vec<&str> = CORPUS.to_vec();
        args.extend(["-n", "3", "--seed", "7", "-o", out]);
        args.extend(extra);
        let output = run("augment", &args);
        // 1: some records (malformed, invalid, ...) were not augmented.
        assert!(code(&output) <= 1, "{}", stderr(&output));
    };
    let whole = s.path("whole.csv");
    augment(&whole, &[]);
    let shards: Vec<String> = (1..=3).map(|k| s.path(&format!("a{k}.csv"))).collect();
    for (k, path) in shards.iter().enumerate() {
        augment(path, &["--shard", &format!("{}/3", k + 1)]);
    }
    let merged = s.path("merged.csv");
    let mut args: Vec<&str> = shards.iter().rev().map(String::as_str).collect();
    args.extend(["-o", &merged, "--inputs"]);
    args.extend(CORPUS);
    let output = merge(&args);
    assert_eq!(code(&output), 0, "{}", stderr(&output));
    assert_eq!(read(&merged), read(&whole));
}

#[test]
fn merge_writes_parquet_from_parquet_shards_only() {
    let s = Scratch::new();
    solve_to(&s.path("r.csv"), &[]);
    let target = s.path("m.parquet");
    let out = merge(&[&s.path("r.csv"), "-o", &target]);
    assert_eq!(code(&out), 2, "{}", stderr(&out));
    assert!(
        stderr(&out).contains(&format!(
            "{} is CSV, and merge writes Parquet (-o {target}) from Parquet results only",
            s.path("r.csv")
        )),
        "{}",
        stderr(&out)
    );
    assert!(!std::path::Path::new(&target).exists());
}

/// One 6x6 grid of 3x2 boxes (line 1), then nine 9x9 puzzles of top95:
/// `--box 3x2` fits the input, and shard 2/2 holds none of its 6x6 grids.
fn one_six_then_nines(s: &Scratch) -> String {
    let mut text = read(&common::case("sizes-6x6-box-3x2.txt"));
    text.extend(
        read(&common::repo("data/top95.txt"))
            .lines()
            .take(9)
            .map(|l| format!("{l}\n")),
    );
    s.file("one6.txt", text.as_bytes())
}

#[test]
fn box_that_fits_the_inputs_fits_every_shard_and_resume() {
    let s = Scratch::new();
    let input = one_six_then_nines(&s);
    // Shard 2/2 holds only 9x9 records: solve, check and rate all run it.
    for command in ["solve", "check", "rate"] {
        let out = s.path(&format!("{command}2.csv"));
        let output = run(
            command,
            &[&input, "--box", "3x2", "--shard", "2/2", "-o", &out],
        );
        assert_eq!(code(&output), 0, "{command}: {}", stderr(&output));
        assert!(!stderr(&output).contains("--box"), "{}", stderr(&output));
        assert_eq!(read(&out).lines().count(), 1 + 5, "{command}");
    }
    // The shards' summaries hold no error, so they merge.
    for k in 1..=2 {
        let shard = format!("{k}/2");
        let (out, json) = (s.path(&format!("r{k}.csv")), s.path(&format!("s{k}.json")));
        let output = run(
            "solve",
            &[
                &input,
                "--box",
                "3x2",
                "--shard",
                &shard,
                "-o",
                &out,
                "--summary-json",
                &json,
            ],
        );
        assert_eq!(code(&output), 0, "{}", stderr(&output));
    }
    let (r1, r2, s1, s2) = (
        s.path("r1.csv"),
        s.path("r2.csv"),
        s.path("s1.json"),
        s.path("s2.json"),
    );
    let merged = s.path("merged.csv");
    let output = merge(&[
        &r1,
        &r2,
        "-o",
        &merged,
        "--summaries",
        &s1,
        &s2,
        "--inputs",
        &input,
    ]);
    assert_eq!(code(&output), 0, "{}", stderr(&output));

    // A resume whose records left are all 9x9: the rows are appended, exit 0.
    let whole = s.path("whole.csv");
    let output = run("solve", &[&input, "--box", "3x2", "-o", &whole]);
    assert_eq!(code(&output), 0, "{}", stderr(&output));
    let text = read(&whole);
    let kept: String = text.lines().take(3).map(|l| format!("{l}\n")).collect();
    let resumed = s.file("resumed.csv", kept.as_bytes());
    let output = run(
        "solve",
        &[&input, "--box", "3x2", "-o", &resumed, "--resume"],
    );
    assert_eq!(code(&output), 0, "{}", stderr(&output));
    assert_eq!(data_rows(&read(&resumed)), data_rows(&text));

    // A --box that fits no record of the inputs is still refused before
    // anything is written, for a shard and a resume alike.
    let nines = s.file(
        "nines.txt",
        read(&input).split_once('\n').unwrap().1.as_bytes(),
    );
    let output = run(
        "solve",
        &[
            &nines,
            "--box",
            "3x2",
            "--shard",
            "2/2",
            "-o",
            &s.path("none.csv"),
        ],
    );
    assert_eq!(code(&output), 2);
    assert!(
        stderr(&output).contains("no record read is one (9 records: 9x9 grids)"),
        "{}",
        stderr(&output)
    );
    assert!(!std::path::Path::new(&s.path("none.csv")).exists());
    let output = run(
        "solve",
        &[&nines, "--box", "3x2", "-o", &resumed, "--resume"],
    );
    assert_eq!(code(&output), 2);
    assert_eq!(
        data_rows(&read(&resumed)),
        data_rows(&text),
        "nothing appended"
    );
}

/// Runs `solve ARGS --quiet` with `stdin` piped in.
fn solve_piped(args: &[&str], stdin: &str) -> Output {
    common::bin()
        .arg("solve")
        .args(args)
        .args(["--quiet", "--progress", "never"])
        .write_stdin(stdin.as_bytes().to_vec())
        .output()
        .expect("the binary runs")
}

#[test]
fn box_from_a_pipe_is_judged_on_what_was_read() {
    let s = Scratch::new();
    let text = read(&one_six_then_nines(&s));
    let out = s.path("r.csv");
    // A shard sees only its own records: a warning, not a refusal.
    let output = solve_piped(&["--box", "3x2", "--shard", "2/2", "-o", &out], &text);
    assert_eq!(code(&output), 0, "{}", stderr(&output));
    let warning = stderr(&output);
    assert!(
        warning.contains("warning: among the records of shard 2/2: --box 3x2"),
        "{warning}"
    );
    assert_eq!(common::rows(&read(&out)).len(), 5);
    // A resume counts the kept records' grids: the 6x6 one fits.
    let whole = s.path("whole.csv");
    assert_eq!(
        code(&solve_piped(&["--box", "3x2", "-o", &whole], &text)),
        0
    );
    let kept: String = read(&whole)
        .lines()
        .take(3)
        .map(|l| format!("{l}\n"))
        .collect();
    let resumed = s.file("resumed.csv", kept.as_bytes());
    let output = solve_piped(&["--box", "3x2", "-o", &resumed, "--resume"], &text);
    assert_eq!(code(&output), 0, "{}", stderr(&output));
    assert!(stderr(&output).is_empty(), "{}", stderr(&output));
    assert_eq!(data_rows(&read(&resumed)), data_rows(&read(&whole)));
    // Nothing fits: a whole run is refused (its rows written), a resumed one
    // warns, since its rows are appended by then.
    let nines = text.split_once('\n').unwrap().1;
    let output = solve_piped(&["--box", "3x2", "-o", &out], nines);
    assert_eq!(code(&output), 2);
    let plain = s.path("plain.csv");
    assert_eq!(code(&solve_piped(&["-o", &plain], nines)), 0);
    let kept: String = read(&plain)
        .lines()
        .take(3)
        .map(|l| format!("{l}\n"))
        .collect();
    let resumed = s.file("resumed9.csv", kept.as_bytes());
    let output = solve_piped(&["--box", "3x2", "-o", &resumed, "--resume"], nines);
    assert_eq!(code(&output), 0, "{}", stderr(&output));
    let warning = stderr(&output);
    assert!(
        warning.contains("no record read is one (9 records: 9x9 grids)"),
        "{warning}"
    );
    assert!(
        warning.contains("found once the rows were appended"),
        "{warning}"
    );
}

#[test]
fn a_shard_resumed_with_a_lower_limit_keeps_its_rows_as_a_whole_run_does() {
    let s = Scratch::new();
    let top95 = common::repo("data/top95.txt");
    for shard in [None, Some("2/3")] {
        let out = s.path("limited.csv");
        let mut args = vec![top95.as_str(), "-o", &out, "--limit", "60"];
        args.extend(shard.map(|k| ["--shard", k]).into_iter().flatten());
        let output = run("solve", &args);
        assert_eq!(code(&output), 0, "{}", stderr(&output));
        let before = read(&out);
        args[4] = "50";
        args.push("--resume");
        let output = run("solve", &args);
        assert_eq!(code(&output), 0, "{shard:?}: {}", stderr(&output));
        assert_eq!(read(&out), before, "{shard:?}: nothing appended");
    }
    // Rows the inputs really lack are still refused.
    let out = s.path("other.csv");
    let output = run("solve", &[&top95, "--shard", "2/3", "-o", &out]);
    assert_eq!(code(&output), 0);
    let short = s.file(
        "short.txt",
        read(&top95)
            .lines()
            .take(30)
            .map(|l| format!("{l}\n"))
            .collect::<String>()
            .as_bytes(),
    );
    let output = run("solve", &[&short, "--shard", "2/3", "-o", &out, "--resume"]);
    assert_eq!(code(&output), 2);
    assert!(
        stderr(&output).contains("the inputs end before it"),
        "{}",
        stderr(&output)
    );
}

#[test]
fn merge_refuses_an_interrupted_shard_and_names_options_that_differ() {
    let s = Scratch::new();
    let top95 = common::repo("data/top95.txt");
    let shards = |tag: &str, extra: &[&str]| {
        for k in 1..=3 {
            let shard = format!("{k}/3");
            let out = s.path(&format!("{tag}{k}.csv"));
            let json = s.path(&format!("{tag}{k}.json"));
            let mut args = vec![
                top95.as_str(),
                "--shard",
                &shard,
                "-o",
                &out,
                "--summary-json",
                &json,
            ];
            args.extend(extra);
            let output = run("solve", &args);
            // 9x1 boxes make some of top95 invalid: exit 1.
            assert!(code(&output) <= 1, "{}", stderr(&output));
        }
    };
    shards("r", &[]);
    let part = |tag: &str, k: usize, ext: &str| s.path(&format!("{tag}{k}.{ext}"));
    // Shard 2's summary says a signal stopped it.
    let mut summary = json(&part("r", 2, "json"));
    summary["interrupted"] = true.into();
    let stopped = s.file("stopped.json", summary.to_string().as_bytes());
    let merged = s.path("merged.csv");
    let (r1, r2, r3) = (
        part("r", 1, "csv"),
        part("r", 2, "csv"),
        part("r", 3, "csv"),
    );
    let (j1, j3) = (part("r", 1, "json"), part("r", 3, "json"));
    let mut args = vec![
        r1.as_str(),
        &r2,
        &r3,
        "-o",
        &merged,
        "--summaries",
        &j1,
        &stopped,
        &j3,
    ];
    let output = merge(&args);
    assert_eq!(code(&output), 2);
    assert!(
        stderr(&output).contains(&format!("shard 2/3 ({stopped}) was interrupted")),
        "{}",
        stderr(&output)
    );
    assert!(!std::path::Path::new(&merged).exists(), "nothing written");
    args.push("--allow-missing");
    let summary_out = s.path("merged.json");
    args.extend(["--summary-json", &summary_out]);
    let output = merge(&args);
    assert_eq!(code(&output), 0, "{}", stderr(&output));
    assert!(
        stderr(&output).contains(&format!("warning: shard 2/3 ({stopped}) was interrupted")),
        "{}",
        stderr(&output)
    );
    assert_eq!(json(&summary_out)["interrupted"], true);

    // Shards of another --box: the message names it, and both values.
    shards("b", &["--box", "9x1"]);
    let (b2, k2) = (part("b", 2, "csv"), part("b", 2, "json"));
    let output = merge(&[&r1, &b2, &r3, "-o", &merged, "--summaries", &j1, &k2, &j3]);
    assert_eq!(code(&output), 2);
    assert!(
        stderr(&output).contains("different options (--box none and 9x1, in shards 1/3 and 2/3)"),
        "{}",
        stderr(&output)
    );
}

#[test]
fn check_of_a_shard_that_holds_no_record_passes_with_solves_warning() {
    let s = Scratch::new();
    let input = one_six_then_nines(&s);
    let output = run(
        "check",
        &[
            &input,
            "--box",
            "3x2",
            "--shard",
            "15/20",
            "-o",
            &s.path("c.csv"),
        ],
    );
    assert_eq!(code(&output), 0, "{}", stderr(&output));
    let report = stderr(&output);
    assert!(report.contains("warning: no puzzles found in"), "{report}");
    assert!(report.contains("for shard 15/20"), "{report}");
    assert!(!report.contains("nothing was checked"), "{report}");
    // Inputs that hold no record at all still fail, shard or not.
    let empty = s.file("empty.txt", b"");
    let output = run(
        "check",
        &[&empty, "--shard", "1/20", "-o", &s.path("c.csv")],
    );
    assert_eq!(code(&output), 1);
    assert!(
        stderr(&output).contains("nothing was checked"),
        "{}",
        stderr(&output)
    );
}
