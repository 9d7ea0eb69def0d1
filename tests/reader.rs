//! The input reader's rules, through the real binary: a grid cut short
//! is never joined with the next.

mod common;

use common::*;

const GRID: &str = "003020600\n900305001\n001806400\n008102900\n700000008\n006708200\n002609500\n800203009\n005010300\n";

fn messages(rows: &[Row]) -> Vec<(u64, &str, &str)> {
    rows.iter()
        .map(|r| (r.line, r.status.as_str(), r.message.as_str()))
        .collect()
}

fn solve_in(scratch: &Scratch, name: &str, text: &[u8], args: &[&str], code: i32) -> Vec<Row> {
    let input = scratch.file(name, text);
    let mut all = vec![input.as_str()];
    all.extend_from_slice(args);
    solve_rows(&all, code)
}

#[test]
fn grid_cut_short_before_a_separator_is_never_joined_with_the_next() {
    let scratch = Scratch::new();
    let short: String = GRID.lines().take(4).map(|l| format!("{l}\n")).collect();
    for sep in ["========", "---", "Grid 02", "", "~~~~~~"] {
        let text = format!("{GRID}========\n{short}{sep}\n{GRID}");
        let rows = solve_in(
            &scratch,
            "easy.txt",
            text.as_bytes(),
            &["--format", "grid"],
            1,
        );
        assert_eq!(
            messages(&rows),
            [
                (1, "solved", ""),
                (
                    11,
                    "malformed",
                    if sep.is_empty() {
                        "a 9x9 grid cut short after 4 of 9 rows (a blank line)"
                    } else if sep == "Grid 02" {
                        "a 9x9 grid cut short after 4 of 9 rows (a line of text)"
                    } else if sep == "---" {
                        "a 9x9 grid cut short after 4 of 9 rows (line 15 has 3 cells)"
                    } else {
                        "a 9x9 grid cut short after 4 of 9 rows (a separator line)"
                    }
                ),
                (16, "solved", ""),
            ],
            "{sep:?}"
        );
    }
    // Rules between bands of boxes stay inside a grid.
    let rows: Vec<&str> = GRID.lines().collect();
    let ruled = format!(
        "{}\n------+------+------\n{}\n------+------+------\n{}\n",
        rows[..3].join("\n"),
        rows[3..6].join("\n"),
        rows[6..].join("\n")
    );
    let rows = solve_in(
        &scratch,
        "ruled.txt",
        ruled.as_bytes(),
        &["--format", "grid"],
        0,
    );
    assert_eq!(messages(&rows), [(1, "solved", "")]);
}
