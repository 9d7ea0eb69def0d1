//! Two runs into one results file (trial61 F1-2): a run whose `-o` a live
//! run is writing (the file itself locked once that run has its first row,
//! or its temporary twin `.NAME.results-PID.partial` before) is refused at
//! its start, exit 2, with nothing written and the other run undisturbed;
//! and a run whose `-o` no longer leads to the file it wrote when it ends
//! (replaced or moved, by another run or by hand) says so and exits 2. The
//! live run is a real second process: a run reading its records from a
//! pipe that the test keeps open.

use std::io::Write;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use crate::common::*;

/// A run reading its records from a pipe that the test keeps open: it
/// writes (or waits to write) its results file until the pipe is closed
/// ([`Holder::finish`]); killed if the test ends first.
struct Holder {
    child: Option<Child>,
}

impl Holder {
    /// `sudoku-batch COMMAND - -o OUT` with `flags`, given a `puzzle`
    /// header and `puzzles`; returns once `ready` (given the run's
    /// process id) says the run is where the test wants it.
    fn start(
        command: &str,
        out: &str,
        flags: &[&str],
        puzzles: &[(String, String)],
        ready: impl Fn(u32) -> bool,
    ) -> Holder {
        let mut child = Command::new(assert_cmd::cargo::cargo_bin("sudoku-batch"))
            .args([command, "-", "-o", out, "--quiet", "--progress", "never"])
            .args(flags)
            .stdin(Stdio::piped())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .expect("the binary starts");
        let mut stdin = child.stdin.take().expect("a piped stdin");
        let mut text = String::from("puzzle\n");
        for (puzzle, _) in puzzles {
            text.push_str(puzzle);
            text.push('\n');
        }
        stdin.write_all(text.as_bytes()).expect("the run reads");
        // Kept open: the run waits for more records.
        child.stdin = Some(stdin);
        let deadline = Instant::now() + Duration::from_secs(60);
        while !ready(child.id()) {
            assert!(
                Instant::now() < deadline,
                "{command} -o {out} never got ready"
            );
            std::thread::sleep(Duration::from_millis(20));
        }
        Holder { child: Some(child) }
    }

    /// A `solve` into `out`, a file not there yet, that has written its
    /// first rows (its table renamed to `out`) and waits for more.
    fn writing(out: &str, flags: &[&str], puzzles: &[(String, String)]) -> Holder {
        Holder::start("solve", out, flags, puzzles, |pid| {
            Path::new(out).exists() && !Path::new(&results_partial(out, pid)).exists()
        })
    }

    /// Closes the run's input: it ends. Its exit code and stderr.
    fn finish(mut self) -> (i32, String) {
        let child = self.child.take().expect("running");
        let output = child.wait_with_output().expect("the run ends");
        (code(&output), stderr(&output))
    }
}

impl Drop for Holder {
    fn drop(&mut self) {
        if let Some(mut child) = self.child.take() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

/// The results formats, by name and flags.
const FORMATS: [(&str, &[&str]); 6] = [
    ("csv", &[]),
    ("txt.csv", &["--output-delimiter", "tab"]),
    ("jsonl", &[]),
    ("parquet", &[]),
    ("csv.gz", &[]),
    ("jsonl.zst", &[]),
];

/// The rows of the results file `path` of any format.
fn row_count(path: &str) -> usize {
    if path.ends_with(".parquet") {
        use parquet::file::reader::{FileReader, SerializedFileReader};
        let file = std::fs::File::open(path).expect("written");
        let reader = SerializedFileReader::new(file).expect("a Parquet file");
        return usize::try_from(reader.metadata().file_metadata().num_rows()).expect("rows");
    }
    let text = match path.ends_with(".zst") {
        true => {
            let bytes = std::fs::read(path).expect("written");
            String::from_utf8(zstd::decode_all(&bytes[..]).expect("valid zstd")).expect("UTF-8")
        }
        false => read_output(path),
    };
    let header = usize::from(path.contains(".csv"));
    text.lines().count() - header
}

/// The device and inode of `path`.
fn identity(path: &str) -> (u64, u64) {
    use std::os::unix::fs::MetadataExt;
    let meta = std::fs::metadata(path).expect("there");
    (meta.dev(), meta.ino())
}

/// The names in `scratch` that start with a dot (temporary files), sorted.
fn dot_files(scratch: &Scratch) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(scratch.path(""))
        .expect("the scratch directory")
        .map(|entry| entry.expect("an entry").file_name())
        .map(|name| name.to_string_lossy().into_owned())
        .filter(|name| name.starts_with('.'))
        .collect();
    names.sort();
    names
}

/// The message of a run refused because another holds `out`'s lock.
fn refused_on(out: &str) -> String {
    format!(
        "error: writing results to {out}: another run is writing {out} (it holds the file's \
         lock); nothing was written"
    )
}

#[test]
fn a_run_into_a_file_a_live_run_writes_is_refused_and_the_live_run_keeps_its_rows() {
    let scratch = Scratch::new();
    let pairs = kaggle(5000);
    let given = scratch.file("given.csv", format!("puzzle\n{}\n", pairs[0].0).as_bytes());
    for (extension, flags) in FORMATS {
        let out = scratch.path(&format!("r.{extension}"));
        let holder = Holder::writing(&out, flags, &pairs);
        let before = identity(&out);
        for command in ["solve", "check", "rate"] {
            let mut args = vec![given.as_str(), "-o", out.as_str()];
            args.extend(flags);
            let output = run_subcommand(command, &args);
            let what = format!("{command} -o r.{extension}");
            assert_eq!(code(&output), 2, "{what}: {}", stderr(&output));
            let said = stderr(&output);
            assert!(said.contains(&refused_on(&out)), "{what}: {said}");
            assert!(!said.contains("warning"), "{what}: {said}");
            assert_eq!(identity(&out), before, "{what}");
            assert_eq!(dot_files(&scratch), Vec::<String>::new(), "{what}");
        }
        let (code, said) = holder.finish();
        assert_eq!(code, 0, "r.{extension}: {said}");
        assert_eq!(identity(&out), before, "r.{extension}");
        assert_eq!(row_count(&out), pairs.len(), "r.{extension}");
    }
}

#[test]
fn a_resume_or_a_merge_into_a_file_a_live_run_writes_is_refused() {
    // trial61 F1-2b: a --resume while the first run wrote the file ended
    // it in a fragment, both runs exit 0.
    let scratch = Scratch::new();
    let pairs = kaggle(5000);
    let given = scratch.file("given.csv", format!("puzzle\n{}\n", pairs[0].0).as_bytes());
    let shard = scratch.path("shard.csv");
    let output = run_subcommand("solve", &[&given, "-o", &shard, "--quiet"]);
    assert_eq!(code(&output), 0, "{}", stderr(&output));
    for extension in ["csv", "parquet"] {
        let out = scratch.path(&format!("r.{extension}"));
        let holder = Holder::writing(&out, &[], &pairs);
        let output = run_subcommand("solve", &[&given, "-o", &out, "--resume"]);
        assert_eq!(
            code(&output),
            2,
            "--resume {extension}: {}",
            stderr(&output)
        );
        assert!(
            stderr(&output).contains(&refused_on(&out)),
            "{}",
            stderr(&output)
        );
        let (code, said) = holder.finish();
        assert_eq!(code, 0, "{extension}: {said}");
        assert_eq!(row_count(&out), pairs.len(), "{extension}");
    }
    let out = scratch.path("r.csv");
    let holder = Holder::writing(&out, &[], &pairs);
    let output = run_subcommand("merge", &[&shard, "-o", &out]);
    assert_eq!(code(&output), 2, "merge: {}", stderr(&output));
    assert!(
        stderr(&output).contains(&refused_on(&out)),
        "{}",
        stderr(&output)
    );
    assert_eq!(dot_files(&scratch), Vec::<String>::new());
    let (code, said) = holder.finish();
    assert_eq!(code, 0, "{said}");
    assert_eq!(row_count(&out), pairs.len());
}

#[test]
fn a_run_before_its_first_row_keeps_other_runs_off_its_file_too() {
    let scratch = Scratch::new();
    let pairs = kaggle(2);
    let given = scratch.file("given.csv", format!("puzzle\n{}\n", pairs[0].0).as_bytes());
    let out = scratch.path("r.csv");
    // One record: the run reads ahead for more, and has no row yet.
    let holder = Holder::start("solve", &out, &[], &pairs[1..], |pid| {
        Path::new(&results_partial(&out, pid)).exists()
    });
    let partial = dot_files(&scratch);
    assert_eq!(partial.len(), 1);
    let partial = scratch.path(&partial[0]);
    let pid = holder.child.as_ref().expect("running").id();
    for command in ["solve", "check", "rate"] {
        let output = run_subcommand(command, &[&given, "-o", &out, "--quiet"]);
        assert_eq!(code(&output), 2, "{command}: {}", stderr(&output));
        let said = stderr(&output);
        let named = format!(
            "error: writing results to {out}: another run is writing {out} (process {pid} holds \
             the lock of its temporary file {partial}); nothing was written"
        );
        assert!(said.contains(&named), "{command}: {said}");
        assert!(!Path::new(&out).exists(), "{command}");
        assert_eq!(dot_files(&scratch).len(), 1, "{command}");
    }
    let (code, said) = holder.finish();
    assert_eq!(code, 0, "{said}");
    assert_eq!(row_count(&out), 1);
}

#[test]
fn a_run_whose_file_is_replaced_or_moved_while_it_writes_says_so_and_fails() {
    let scratch = Scratch::new();
    let pairs = kaggle(5000);
    for (extension, flags) in FORMATS {
        let out = scratch.path(&format!("r.{extension}"));
        // Replaced, as another run's first row replaces it, or a `mv`.
        let holder = Holder::writing(&out, flags, &pairs);
        let theirs = scratch.file("theirs", b"another file\n");
        std::fs::rename(&theirs, &out).expect("renamed over it");
        let (code, said) = holder.finish();
        assert_eq!(code, 2, "r.{extension}: {said}");
        let replaced = format!(
            "error: writing results to {out}: {out} was replaced by another file while this run \
             wrote it (another run into the same file, or by hand): this run's rows are not in \
             {out}"
        );
        assert!(said.contains(&replaced), "r.{extension}: {said}");
        assert_eq!(std::fs::read(&out).expect("theirs"), b"another file\n");

        // Moved away: the rows are all there, under the other name.
        let holder = Holder::writing(&out, flags, &pairs);
        let moved = scratch.path(&format!("moved.{extension}"));
        std::fs::rename(&out, &moved).expect("moved");
        let (code, said) = holder.finish();
        assert_eq!(code, 2, "r.{extension}: {said}");
        assert!(
            said.contains("was moved or removed while this run wrote it"),
            "{said}"
        );
        assert!(!Path::new(&out).exists());
        assert_eq!(row_count(&moved), pairs.len(), "r.{extension}");
    }
    // `check` and `rate` end the same way.
    for command in ["check", "rate"] {
        let out = scratch.path(&format!("{command}.csv"));
        let holder = Holder::start(command, &out, &[], &pairs, |pid| {
            Path::new(&out).exists() && !Path::new(&results_partial(&out, pid)).exists()
        });
        std::fs::remove_file(&out).expect("removed");
        let (code, said) = holder.finish();
        assert_eq!(code, 2, "{command}: {said}");
        assert!(said.contains("was moved or removed"), "{command}: {said}");
    }
}

#[test]
fn a_file_written_in_place_is_held_by_its_run_too() {
    // No room beside it for the temporary name (a directory the user
    // cannot write; here, as root too, a name too long for it), and a
    // file of several links: the run writes the file itself.
    let scratch = Scratch::new();
    let pairs = kaggle(5000);
    let given = scratch.file("given.csv", format!("puzzle\n{}\n", pairs[0].0).as_bytes());
    let long = "r".repeat(236);
    let old = b"yesterday's results\n";
    for extension in ["csv", "jsonl.zst", "parquet"] {
        let linked = scratch.path(&format!("linked.{extension}"));
        for name in [format!("{long}.{extension}"), format!("links.{extension}")] {
            let out = scratch.file(&name, old);
            if name.starts_with("links") {
                let _ = std::fs::remove_file(&linked);
                std::fs::hard_link(&out, &linked).expect("a second link");
            }
            // Cut and written (at the start, or at the first row).
            let holder = Holder::start("solve", &out, &[], &pairs, |_| {
                std::fs::read(&out).is_ok_and(|bytes| bytes != old)
            });
            let before = identity(&out);
            let output = run_subcommand("solve", &[&given, "-o", &out]);
            assert_eq!(code(&output), 2, "{name}: {}", stderr(&output));
            assert!(
                stderr(&output).contains(&refused_on(&out)),
                "{}",
                stderr(&output)
            );
            assert_eq!(dot_files(&scratch), Vec::<String>::new(), "{name}");
            let (code, said) = holder.finish();
            assert_eq!(code, 0, "{name}: {said}");
            assert_eq!(identity(&out), before, "{name}");
            assert_eq!(row_count(&out), pairs.len(), "{name}");
        }
    }
}
