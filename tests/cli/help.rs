//! Finding things: `solve -h` fits on one screen with its options under
//! headings, `--help` keeps the full text, `rate --help` lists only what
//! `rate` uses, and the README names every subcommand and links every page
//! of the guide.

use std::collections::BTreeSet;

use crate::common::*;

/// What `sudoku-batch ARGS` prints on stdout at 100 columns.
fn help(args: &[&str]) -> String {
    let output = bin()
        .args(args)
        .env("COLUMNS", "100")
        .output()
        .expect("the binary runs");
    assert_eq!(code(&output), 0, "{}", stderr(&output));
    stdout(&output)
}

/// The subcommands `sudoku-batch --help` lists (the first word of each
/// line of its `Commands:` section, `help` aside).
fn subcommands() -> Vec<String> {
    let text = help(&["--help"]);
    text.lines()
        .skip_while(|line| !line.starts_with("Commands:"))
        .skip(1)
        .take_while(|line| line.starts_with("  "))
        // A name is indented by two spaces; its wrapped text by more.
        .filter(|line| !line[2..].starts_with(' '))
        .filter_map(|line| line.split_whitespace().next())
        .filter(|name| *name != "help")
        .map(str::to_string)
        .collect()
}

#[test]
fn solve_short_help_fits_one_screen_under_headings() {
    let short = help(&["solve", "-h"]);
    let lines = short.lines().count();
    assert!(
        lines <= 60,
        "solve -h is {lines} lines at 100 columns:\n{short}"
    );
    for heading in ["Input:", "Output:", "Solving:", "Run and summary:"] {
        assert!(
            short.lines().any(|line| line == heading),
            "no {heading} heading:\n{short}"
        );
    }
    // Every option is still listed, each on its own line.
    for option in [
        "--keep-all",
        "--timeout-ms",
        "--resume",
        "--box",
        "--solutions",
    ] {
        assert!(short.contains(option), "{option} missing:\n{short}");
    }
}

#[test]
fn solve_long_help_keeps_the_full_text() {
    let short = help(&["solve", "-h"]);
    let long = help(&["solve", "--help"]);
    assert!(long.lines().count() > short.lines().count() + 40);
    // Details that only the long text gives.
    assert!(long.contains("last complete gzip"), "{long}");
    assert!(long.contains("`answer`"), "{long}");
    assert!(!short.contains("last complete gzip"), "{short}");
}

#[test]
fn solve_help_says_that_answer_and_solution_columns_are_checked() {
    let long = help(&["solve", "--help"]);
    let about: String = long
        .lines()
        .take_while(|line| !line.starts_with("Usage:"))
        .collect::<Vec<_>>()
        .join(" ");
    for name in ["`solution`", "`answer`"] {
        assert!(about.contains(name), "{name} not in the about:\n{about}");
    }
}

#[test]
fn rate_help_does_not_offer_rate() {
    let long = help(&["rate", "--help"]);
    assert!(!long.contains("--rate"), "{long}");
    assert!(long.contains("--keep"), "{long}");
    assert!(help(&["solve", "--help"]).contains("--rate"));
}

#[test]
fn the_readme_names_every_subcommand() {
    let readme = std::fs::read_to_string(repo("README.md")).unwrap();
    let names = subcommands();
    assert!(names.len() >= 8, "{names:?}");
    for name in &names {
        assert!(
            readme.contains(&format!("`{name}`")),
            "the README never names `{name}`"
        );
    }
}

#[test]
fn the_readme_and_the_guide_index_link_every_page() {
    let pages: BTreeSet<String> = std::fs::read_dir(repo("docs"))
        .unwrap()
        .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|name| name.ends_with(".md") && name != "README.md")
        .collect();
    assert!(pages.len() >= 10, "{pages:?}");
    let readme = std::fs::read_to_string(repo("README.md")).unwrap();
    let index = std::fs::read_to_string(repo("docs/README.md")).unwrap();
    for page in &pages {
        assert!(
            readme.contains(&format!("(docs/{page})")),
            "the README's guide table does not link docs/{page}"
        );
        assert!(
            index.contains(&format!("({page})")),
            "docs/README.md does not link {page}"
        );
    }
}
