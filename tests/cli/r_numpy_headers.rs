//! Headers as numpy and R write them (trial61 F2-1, F2-2).
//!
//! `numpy.savetxt(..., header="id,puzzle,solution")` writes its header
//! after its `comments`, `# ` by default: the first column was named
//! `# id`, so `--keep id` was refused. R's `write.table` writes each row's
//! name first and no name for it in the header, so every record had a
//! field more than the header and was `malformed`; with its defaults
//! (`sep = " "`, quoted) every puzzle was malformed for its quote.

use crate::common::*;

/// Two Kaggle puzzles with their solutions, the second solution left out
/// (as an empty string).
fn pairs() -> [(String, String); 2] {
    let mut k = kaggle(2).into_iter();
    let (p1, s1) = k.next().expect("a pair");
    let (p2, _) = k.next().expect("a pair");
    [(p1, s1), (p2, String::new())]
}

/// Each row's line, status, check and kept column `kept`.
fn rows_of(out: &str, kept: &str) -> Vec<(String, String, String, String)> {
    csv_table(out)
        .1
        .into_iter()
        .map(|row| {
            (
                row["line"].clone(),
                row["status"].clone(),
                row["check"].clone(),
                row[kept].clone(),
            )
        })
        .collect()
}

fn row(line: &str, status: &str, check: &str, kept: &str) -> (String, String, String, String) {
    (line.into(), status.into(), check.into(), kept.into())
}

#[test]
fn numpy_savetxt_header_names_its_first_column_without_the_comment_mark() {
    let scratch = Scratch::new();
    let [(p1, s1), (p2, s2)] = pairs();
    for (name, d) in [("np.csv", ","), ("np.tsv", "\t"), ("np.txt", "\t")] {
        let file = scratch.file(
            name,
            format!("# id{d}puzzle{d}solution\n1{d}{p1}{d}{s1}\n2{d}{p2}{d}{s2}\n").as_bytes(),
        );
        let out = solve_stdout(&[&file, "--keep", "id", "-o", "-"], 0);
        assert_eq!(csv_table(&out).0.last().map(String::as_str), Some("id"));
        assert_eq!(
            rows_of(&out, "id"),
            [row("2", "solved", "ok", "1"), row("3", "solved", "", "2")],
            "{name}"
        );
        let text = std::fs::read(&file).expect("the file");
        let stdin = solve_stdin(&["-", "--keep", "id", "-o", "-"], &text);
        assert_eq!(code(&stdin), 0, "{name} from stdin: {}", stderr(&stdin));
        assert_eq!(
            rows_of(&stdout(&stdin), "id"),
            [row("2", "solved", "ok", "1"), row("3", "solved", "", "2")],
            "{name} from stdin"
        );
        // An unknown name is refused, naming the columns as read.
        let refused = solve(&[&file, "--keep", "# id", "-o", "-"]);
        assert_eq!(code(&refused), 2, "{name}");
        assert!(
            stderr(&refused).contains("(the header is id,puzzle,solution)"),
            "{name}: {}",
            stderr(&refused)
        );
    }
    // `#id` (no space) and `#` stay the names they are (comment_lines.rs).
    let file = scratch.file(
        "hash.csv",
        format!("#id,puzzle,solution\n1,{p1},{s1}\n2,{p2},{s2}\n").as_bytes(),
    );
    let out = solve_stdout(&[&file, "--keep", "#id", "-o", "-"], 0);
    assert_eq!(rows_of(&out, "#id")[1], row("3", "solved", "", "2"));
}

#[test]
fn r_write_table_row_names_are_a_column_before_the_header_s() {
    let scratch = Scratch::new();
    let [(p1, s1), (p2, s2)] = pairs();
    let files = [
        // write.table(df, sep = ",", quote = FALSE)
        (
            "r.csv",
            format!("puzzle,solution\n1,{p1},{s1}\n2,{p2},{s2}\n"),
        ),
        // write.table(df, sep = "\t", quote = FALSE)
        (
            "r.tsv",
            format!("puzzle\tsolution\n1\t{p1}\t{s1}\n2\t{p2}\t{s2}\n"),
        ),
        // write.table(df, sep = ",")
        (
            "rq.csv",
            format!("\"puzzle\",\"solution\"\n\"1\",\"{p1}\",\"{s1}\"\n\"2\",\"{p2}\",\"{s2}\"\n"),
        ),
        // write.table(df): separated by spaces, quoted.
        (
            "rs.txt",
            format!("\"puzzle\" \"solution\"\n\"1\" \"{p1}\" \"{s1}\"\n\"2\" \"{p2}\" \"{s2}\"\n"),
        ),
        (
            "rs.csv",
            format!("\"puzzle\" \"solution\"\n\"1\" \"{p1}\" \"{s1}\"\n\"2\" \"{p2}\" \"{s2}\"\n"),
        ),
        // write.csv(df): R names the row names' column "" itself.
        (
            "wcsv.csv",
            format!(
                "\"\",\"puzzle\",\"solution\"\n\"1\",\"{p1}\",\"{s1}\"\n\"2\",\"{p2}\",\"{s2}\"\n"
            ),
        ),
    ];
    for (name, text) in &files {
        let file = scratch.file(name, text.as_bytes());
        let out = solve_stdout(&[&file, "--keep-all", "-o", "-"], 0);
        let (header, table) = csv_table(&out);
        assert_eq!(
            header[header.len() - 3..],
            ["", "input_puzzle", "input_solution"],
            "{name}"
        );
        assert_eq!(
            rows_of(&out, ""),
            [row("2", "solved", "ok", "1"), row("3", "solved", "", "2")],
            "{name}"
        );
        assert_eq!(table[0]["input_solution"], s1, "{name}");
        // The header's names still name their columns; the row names are
        // the first field.
        let out = solve_stdout(&[&file, "--keep", "solution,1", "-o", "-"], 0);
        assert_eq!(csv_table(&out).1[0]["input_solution"], s1, "{name}");
        assert_eq!(csv_table(&out).1[1][""], "2", "{name}");
        // By number, every field counts, the row names first.
        let out = solve_stdout(&[&file, "--keep", "3", "-o", "-"], 0);
        assert_eq!(csv_table(&out).1[0]["input_solution"], s1, "{name}");
        let stdin = solve_stdin(&["-", "-o", "-"], text.as_bytes());
        assert_eq!(code(&stdin), 0, "{name} from stdin: {}", stderr(&stdin));
    }
}

#[test]
fn a_header_short_of_a_name_for_only_some_records_is_no_row_names_header() {
    let scratch = Scratch::new();
    let [(p1, s1), (p2, _)] = pairs();
    // One record of three fields, one of two: the header is the file's.
    let short = scratch.file(
        "short.csv",
        format!("puzzle,solution\n1,{p1},{s1}\n{p2},\n").as_bytes(),
    );
    let rows = solve_rows(&[&short, "-o", "-"], 1);
    assert_eq!(
        statuses(&rows),
        [(2, "malformed"), (3, "solved")],
        "{rows:?}"
    );
    assert_eq!(rows[0].message, "3 fields, but the header has 2");
    // A third field is no column of such a file: refused before any row.
    let refused = solve(&[&short, "--keep", "3", "-o", "-"]);
    assert_eq!(code(&refused), 2);
    assert!(stdout(&refused).is_empty());
    assert!(
        stderr(&refused).contains("no column named '3' (the header is puzzle,solution)"),
        "{}",
        stderr(&refused)
    );
    // Every record ending in a delimiter: an empty last field, no row
    // names.
    let trailing = scratch.file(
        "trailing.csv",
        format!("puzzle,solution\n{p1},{s1},\n{p2},,\n").as_bytes(),
    );
    let rows = solve_rows(&[&trailing, "-o", "-"], 0);
    assert_eq!(statuses(&rows), [(2, "solved"), (3, "solved")]);
    assert_eq!(rows[0].check, "ok");
    assert_eq!(code(&solve(&[&trailing, "--keep", "3", "-o", "-"])), 2);
    // A puzzle first and the solution after it, under a header naming
    // only the puzzle: the puzzle is no row name.
    let unnamed = scratch.file(
        "unnamed.csv",
        format!("puzzle\n{p1},{s1}\n{p2},{s1}\n").as_bytes(),
    );
    let rows = solve_rows(&[&unnamed, "-o", "-"], 1);
    assert_eq!(statuses(&rows), [(2, "malformed"), (3, "malformed")]);
}
