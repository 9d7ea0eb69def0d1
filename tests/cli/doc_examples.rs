//! The shell examples of the README and of the docs/ guide, run as
//! written against the built binary, so that every command a reader copies
//! works and prints what the page shows.
//!
//! Every fenced block of a page that is shell (marked `sh` or `console`,
//! or holding `$ ` command lines) runs, block after block, in one
//! temporary directory per page holding copies of `data/`, `tests/cases/`
//! and `ci/`, with the built `sudoku-batch` first on `PATH`:
//!
//! - a transcript (`$ ` lines, each followed by what it prints): each
//!   command's stdout and stderr together must match the lines shown, with
//!   the numbers that vary from run to run (times, rates, spreads: any
//!   number shorter than a grid) masked, runs of spaces counted as one, and
//!   a line `...` standing for any lines;
//! - a command block (`sh`, no output shown): each command must succeed.
//!
//! A command expected to fail ends in a comment naming its exit code
//! (`# exit 1`). A block that cannot run here says why in a comment on the
//! line before it: `<!-- example not run: REASON -->` (it builds the
//! project, needs GNU parallel, takes minutes), or `<!-- example output
//! not compared: REASON -->` (it runs, but prints timings in a layout that
//! depends on the machine's speed). `<!-- example counts compared -->`
//! marks a transcript whose numbers are compared as shown but for times,
//! rates and thread counts (a number followed by ` s`, `/s`, ` WORD/s`,
//! ` us`, ` ms`, `%` or ` thread`): the counts a data-set recipe prints must be those of
//! the commands above them. `<!-- example file NAME -->` before any
//! block saves it as NAME for later blocks (a solver script). The Python
//! examples run in the Python package's tests.

use std::path::{Path, PathBuf};
use std::process::Command;

use tempfile::TempDir;

/// The repository's root.
fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// What the comment before a block says.
#[derive(Clone, Debug, PartialEq)]
enum Tag {
    /// Run and compared.
    None,
    /// Run and compared with only times, rates and thread counts masked.
    Counts,
    /// Not run, for this reason.
    NotRun(String),
    /// Run, but its output not compared, for this reason.
    OutputVaries(String),
    /// Saved as this file.
    File(String),
}

/// One fenced block of a page.
#[derive(Debug)]
struct Block {
    /// The line of its opening fence (1-based).
    line: usize,
    /// The word after the fence (`sh`, `console`, `python`, ...).
    info: String,
    tag: Tag,
    lines: Vec<String>,
}

impl Block {
    /// True for a block of shell commands.
    fn is_shell(&self) -> bool {
        matches!(self.info.as_str(), "sh" | "console" | "bash" | "shell")
            || (self.info.is_empty() || self.info == "text")
                && self.lines.iter().any(|l| l.starts_with("$ "))
    }
}

/// The fenced blocks of a page's text.
fn blocks(text: &str) -> Vec<Block> {
    let mut out = Vec::new();
    let mut lines = text.lines().enumerate();
    let mut before = "";
    while let Some((i, line)) = lines.next() {
        let Some(info) = line.strip_prefix("```") else {
            if !line.trim().is_empty() {
                before = line;
            }
            continue;
        };
        let tag = tag(before);
        let body: Vec<String> = lines
            .by_ref()
            .map(|(_, l)| l)
            .take_while(|l| !l.starts_with("```"))
            .map(str::to_string)
            .collect();
        out.push(Block {
            line: i + 1,
            info: info.trim().to_string(),
            tag,
            lines: body,
        });
        before = "";
    }
    out
}

/// The tag a comment line gives the block after it.
fn tag(line: &str) -> Tag {
    let Some(comment) = line
        .trim()
        .strip_prefix("<!-- example")
        .and_then(|c| c.strip_suffix("-->"))
    else {
        return Tag::None;
    };
    let comment = comment.trim();
    let reason = |prefix: &str| {
        comment
            .strip_prefix(prefix)
            .map(|r| r.trim().to_string())
            .filter(|r| !r.is_empty())
    };
    if let Some(why) = reason("not run:") {
        Tag::NotRun(why)
    } else if let Some(why) = reason("output not compared:") {
        Tag::OutputVaries(why)
    } else if comment == "counts compared" {
        Tag::Counts
    } else if let Some(name) = reason("file") {
        Tag::File(name)
    } else {
        panic!("unknown example tag {line:?}: use `not run: REASON`, `output not compared: REASON`, `counts compared` or `file NAME`")
    }
}

/// One command and what it should print and exit with.
#[derive(Debug)]
struct Example {
    /// Its first line in the page (1-based).
    line: usize,
    command: String,
    /// The lines shown after it; `None` when the block shows no output or
    /// its output is not compared.
    output: Option<Vec<String>>,
    code: i32,
}

/// The commands of a shell block.
fn examples(block: &Block) -> Vec<Example> {
    let transcript = block.lines.iter().any(|l| l.starts_with("$ "));
    let compared = matches!(block.tag, Tag::None | Tag::Counts);
    let mut out: Vec<Example> = Vec::new();
    let mut continued = false;
    let mut open = 0i32;
    for (i, line) in block.lines.iter().enumerate() {
        let line_no = block.line + 1 + i;
        if continued || open > 0 {
            let last = out.last_mut().expect("a continuation follows a command");
            last.command.push('\n');
            last.command.push_str(line);
        } else if let Some(command) = line.strip_prefix("$ ") {
            out.push(Example {
                line: line_no,
                command: command.to_string(),
                output: compared.then(Vec::new),
                code: 0,
            });
        } else if transcript {
            let last = out.last_mut().expect("a transcript starts with a command");
            if let Some(lines) = &mut last.output {
                lines.push(line.clone());
            }
            continue;
        } else if line.trim().is_empty() || line.trim_start().starts_with('#') {
            continue;
        } else {
            out.push(Example {
                line: line_no,
                command: line.clone(),
                output: None,
                code: 0,
            });
        }
        continued = line.ends_with('\\');
        open += compound_depth(line);
    }
    for example in &mut out {
        example.code = expected_code(&example.command);
    }
    out
}

/// How many compound commands (`for`/`while` ... `done`, `if` ... `fi`)
/// a line opens, less those it closes.
fn compound_depth(line: &str) -> i32 {
    let code = line.split(" #").next().unwrap_or(line);
    code.split(|c: char| c.is_whitespace() || c == ';')
        .map(|word| match word {
            "do" | "then" => 1,
            "done" | "fi" => -1,
            _ => 0,
        })
        .sum()
}

/// The exit code a command's trailing `# exit N` comment names, else 0.
fn expected_code(command: &str) -> i32 {
    command
        .rsplit_once("# exit ")
        .and_then(|(_, n)| n.trim().parse().ok())
        .unwrap_or(0)
}

/// `line` with its varying numbers masked: every run of digits and dots
/// shorter than 17 characters that holds a digit becomes `N` (grids and
/// puzzles, 81 characters, stay as they are), a list of them (`1,465`,
/// `8,8.6`) one `N`, and runs of whitespace one space. `N threads`
/// becomes `N thread`: the default thread count is the machine's cores,
/// one on some test machines.
fn masked(line: &str) -> String {
    let mut words = String::new();
    for word in line.split_whitespace() {
        if !words.is_empty() {
            words.push(' ');
        }
        words.push_str(word);
    }
    let chars: Vec<char> = words.chars().collect();
    let mut out = String::new();
    let mut i = 0;
    while i < chars.len() {
        let run = chars[i..]
            .iter()
            .take_while(|c| c.is_ascii_digit() || **c == '.')
            .count();
        let number = chars[i..i + run].iter().any(char::is_ascii_digit);
        if run > 0 && number && run < 17 {
            if !out.ends_with("N,") {
                out.push('N');
            } else {
                out.pop();
            }
        } else if run > 0 {
            out.extend(&chars[i..i + run]);
        } else {
            out.push(chars[i]);
            i += 1;
            continue;
        }
        i += run;
    }
    out.replace("N threads", "N thread")
}

/// `line` with only its times, rates and thread counts masked (each
/// number, or list of numbers such as `8,235`, followed by ` s`, `/s`,
/// ` WORD/s`, ` us`, ` ms`, `%` or ` thread` becomes `N`) and runs of whitespace one
/// space: for transcripts whose counts are compared.
fn times_masked(line: &str) -> String {
    let words = line.split_whitespace().collect::<Vec<_>>().join(" ");
    let chars: Vec<char> = words.chars().collect();
    let mut out = String::new();
    let mut i = 0;
    while i < chars.len() {
        let starts_number = chars[i].is_ascii_digit()
            && (i == 0 || !(chars[i - 1].is_ascii_alphanumeric() || chars[i - 1] == '-'));
        if !starts_number {
            out.push(chars[i]);
            i += 1;
            continue;
        }
        let mut run = chars[i..]
            .iter()
            .take_while(|c| c.is_ascii_digit() || **c == '.' || **c == ',')
            .count();
        while matches!(chars[i + run - 1], ',' | '.') {
            run -= 1;
        }
        let after: String = chars[i + run..].iter().collect();
        let unit = |u: &str| {
            after.strip_prefix(u).is_some_and(|rest| {
                !rest.starts_with(|c: char| c.is_ascii_alphanumeric()) || u == " thread"
            })
        };
        // A rate of things: `16,126 records/s`.
        let per_second = after
            .strip_prefix(' ')
            .map(|rest| rest.trim_start_matches(|c: char| c.is_ascii_alphabetic()))
            .is_some_and(|rest| rest.starts_with("/s"));
        if per_second
            || [" s", "/s", " us", " ms", "%", " thread"]
                .into_iter()
                .any(unit)
        {
            out.push('N');
        } else {
            out.extend(&chars[i..i + run]);
        }
        i += run;
    }
    out.replace("N threads", "N thread")
}

/// True when the printed `actual` lines match the `expected` ones shown
/// (both masked by `mask`; a `...` line stands for any lines).
fn matches(expected: &[String], actual: &[String], mask: fn(&str) -> String) -> bool {
    match expected.split_first() {
        None => actual.is_empty(),
        Some((first, rest)) if first.trim() == "..." => {
            (0..=actual.len()).any(|skip| matches(rest, &actual[skip..], mask))
        }
        Some((first, rest)) => actual
            .split_first()
            .is_some_and(|(a, more)| mask(a) == mask(first) && matches(rest, more, mask)),
    }
}

/// Copies the directory `from` to `to`, recursively.
fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), &target).unwrap();
        }
    }
}

/// A directory for one page's examples: the repository's data, cases and
/// baseline, as the examples name them.
fn workdir() -> TempDir {
    let dir = TempDir::new().unwrap();
    for sub in ["data", "tests/cases", "ci"] {
        copy_dir(&root().join(sub), &dir.path().join(sub));
    }
    dir
}

/// Runs one command in `dir` with the binary first on `PATH`: its exit
/// code and its stdout and stderr together.
fn run(dir: &Path, command: &str) -> (i32, Vec<String>) {
    let bin = PathBuf::from(env!("CARGO_BIN_EXE_sudoku-batch"));
    let path = std::env::join_paths(std::iter::once(bin.parent().unwrap().to_path_buf()).chain(
        std::env::split_paths(&std::env::var_os("PATH").unwrap_or_default()),
    ))
    .unwrap();
    let output = Command::new("sh")
        .arg("-c")
        .arg(format!("exec 2>&1\n{command}"))
        .current_dir(dir)
        .env("PATH", path)
        .env_remove("NO_COLOR")
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&output.stdout);
    (
        output.status.code().unwrap_or(-1),
        text.lines().map(str::to_string).collect(),
    )
}

/// Runs every shell example of `page` (relative to the root); returns the
/// failures, each naming the page and line, and lists what was not run.
fn check_page(page: &str) -> Vec<String> {
    let text = std::fs::read_to_string(root().join(page)).unwrap();
    let dir = workdir();
    let mut failures = Vec::new();
    let mut ran = 0;
    for block in blocks(&text) {
        match &block.tag {
            Tag::File(name) => {
                std::fs::write(dir.path().join(name), block.lines.join("\n") + "\n").unwrap();
                continue;
            }
            Tag::NotRun(why) => {
                println!("{page}:{}: not run: {why}", block.line);
                continue;
            }
            _ if !block.is_shell() => continue,
            _ => {}
        }
        for example in examples(&block) {
            ran += 1;
            let (code, printed) = run(dir.path(), &example.command);
            let at = format!("{page}:{}: `{}`", example.line, example.command);
            if code != example.code {
                failures.push(format!(
                    "{at}: exit {code}, expected {}; it printed:\n{}",
                    example.code,
                    printed.join("\n")
                ));
            } else if let Some(expected) = &example.output {
                let mask = if block.tag == Tag::Counts {
                    times_masked
                } else {
                    masked
                };
                if !matches(expected, &printed, mask) {
                    failures.push(format!(
                        "{at}: printed\n{}\n-- where the page shows --\n{}",
                        printed.join("\n"),
                        expected.join("\n")
                    ));
                }
            }
        }
    }
    println!("{page}: {ran} commands run");
    failures
}

fn assert_page(page: &str) {
    let failures = check_page(page);
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

#[test]
fn readme() {
    assert_page("README.md");
}

#[test]
fn formats() {
    assert_page("docs/formats.md");
}

#[test]
fn solve() {
    assert_page("docs/solve.md");
}

#[test]
fn architecture() {
    assert_page("docs/architecture.md");
}

#[test]
fn bench() {
    assert_page("docs/bench.md");
}

#[test]
fn ci() {
    assert_page("docs/ci.md");
}

#[test]
fn datasets() {
    assert_page("docs/datasets.md");
}

#[test]
fn python() {
    assert_page("docs/python.md");
}

#[test]
fn performance() {
    assert_page("docs/performance.md");
}

#[test]
fn contributing() {
    assert_page("docs/contributing.md");
}

#[test]
fn rate() {
    assert_page("docs/rate.md");
}

#[test]
fn sizes() {
    assert_page("docs/sizes.md");
}

#[test]
fn every_page_of_the_guide_is_checked() {
    let mut pages: Vec<String> = std::fs::read_dir(root().join("docs"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|name| name.ends_with(".md") && name != "README.md")
        .collect();
    pages.sort();
    assert_eq!(
        pages,
        [
            "architecture.md",
            "bench.md",
            "ci.md",
            "contributing.md",
            "datasets.md",
            "formats.md",
            "performance.md",
            "python.md",
            "rate.md",
            "sizes.md",
            "solve.md"
        ],
        "a page added to docs/ needs its test here"
    );
}

#[test]
fn the_checker_finds_and_masks_what_it_should() {
    let page = "text\n<!-- example not run: slow -->\n```sh\ncargo test\n```\n\n```console\n\
                $ sudoku-batch solve x.txt --quiet   # exit 1\nline,puzzle\n...\n$ ls \\\n  -l\n```\n";
    let found = blocks(page);
    assert_eq!(found.len(), 2);
    assert_eq!(found[0].tag, Tag::NotRun("slow".into()));
    let commands = examples(&found[1]);
    assert_eq!(commands.len(), 2);
    assert_eq!(commands[0].code, 1);
    assert_eq!(
        commands[0].output.as_deref(),
        Some(&["line,puzzle".to_string(), "...".into()][..])
    );
    assert_eq!(commands[1].command, "ls \\\n  -l");
    assert_eq!(
        masked("5000 puzzles in 0.076 s: 65437 puzzles/s   (±2.4%, 1,465)"),
        "N puzzles in N s: N puzzles/s (±N%, N)"
    );
    assert_eq!(
        masked("(fast solver, unique mode, 1 thread)"),
        masked("(fast solver, unique mode, 2 threads)")
    );
    let grid = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";
    assert_eq!(
        masked(&format!("3,{grid},solved,8,20.8,,")),
        format!("N,{grid},solved,N,,")
    );
    let lines = |l: &[&str]| l.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    assert!(matches(
        &lines(&["a 1", "...", "z"]),
        &lines(&["a 22", "b", "c", "z"]),
        masked
    ));
    assert!(!matches(
        &lines(&["a 1", "z"]),
        &lines(&["a 22", "b", "z"]),
        masked
    ));
    assert!(!matches(
        &lines(&["solved 5"]),
        &lines(&["failed 5"]),
        masked
    ));
    // Counts compared: times, rates and thread counts masked, the rest not.
    assert_eq!(
        times_masked("canon: 1,000 records, 0 leaks in 7.35 s (11,162/s on 2 threads), 4.1%"),
        "canon: 1,000 records, 0 leaks in N s (N/s on N thread), N%"
    );
    assert_eq!(
        times_masked("(16,126 records/s, 129,009 copies/s on 2 threads)"),
        "(N records/s, N copies/s on N thread)"
    );
    assert_ne!(
        times_masked("generate: 10,000 puzzles in 13.58 s"),
        times_masked("generate: 1,000 puzzles in 1.2 s")
    );
    assert_eq!(
        times_masked("givens 20-28, max 78."),
        "givens 20-28, max 78."
    );
    let page = "<!-- example counts compared -->\n```console\n$ true\n```\n";
    assert_eq!(blocks(page)[0].tag, Tag::Counts);
}
