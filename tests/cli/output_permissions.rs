//! Results files and the user's rights (trial61 F1-3, F1-4): a results
//! file the user may not write (`chmod 444`) is refused before the run by
//! `solve`, `check`, `rate` and `merge` (exit 2, the file named and left
//! as it was), as the shell's `>` and `--summary-json` refuse it, where a
//! new file renamed over it used to replace it; and a file the user may
//! write but not replace by a rename (another user's file in a sticky
//! directory such as /tmp: EPERM; a file bind-mounted into a container:
//! EBUSY) is written in place, where the run used to fail with the rows
//! gone.
//!
//! Root may write any file and replace it anywhere, so the rights are
//! tried as the user `nobody` (`runuser`), and the mount point with `mount
//! --bind`; a test that cannot do so says why on stderr (past the test
//! harness's capture) and checks nothing else. The decision itself (which
//! failed renames take the in-place path) is unit-tested in
//! src/output/replace.rs, always.

use std::io::Write;
use std::os::unix::fs::{MetadataExt, PermissionsExt};
use std::path::Path;
use std::process::{Command, Output};

use crate::common::*;

/// Says on stderr, past the harness's capture, that `test` checked nothing
/// and why.
fn skipped(test: &str, why: &str) {
    let _ = writeln!(
        std::io::stderr(),
        "output_permissions::{test}: SKIPPED, nothing checked: {why}"
    );
}

/// The ids of the user `nobody`, when this test process (root) can run the
/// binary as that user; else why not.
fn nobody() -> Result<(u32, u32), String> {
    // SAFETY: geteuid has no preconditions.
    if unsafe { libc::geteuid() } != 0 {
        return Err("not run as root: cannot run the binary as another user".into());
    }
    let id = |flag: &str| -> Result<u32, String> {
        let out = Command::new("id")
            .args([flag, "nobody"])
            .output()
            .map_err(|e| format!("`id` cannot run: {e}"))?;
        String::from_utf8_lossy(&out.stdout)
            .trim()
            .parse()
            .map_err(|_| "there is no user nobody".to_string())
    };
    let ids = (id("-u")?, id("-g")?);
    let ran = Command::new("runuser")
        .args(["-u", "nobody", "--"])
        .arg(assert_cmd::cargo::cargo_bin("sudoku-batch"))
        .arg("--version")
        .output()
        .map_err(|e| format!("`runuser` cannot run: {e}"))?;
    if !ran.status.success() {
        return Err(format!(
            "nobody cannot run the binary: {}",
            String::from_utf8_lossy(&ran.stderr).trim()
        ));
    }
    Ok(ids)
}

/// `sudoku-batch ARGS` run as `nobody` from `dir` (`--quiet`), whatever
/// its exit code.
fn as_nobody(dir: &Path, args: &[&str]) -> Output {
    Command::new("runuser")
        .args(["-u", "nobody", "--"])
        .arg(assert_cmd::cargo::cargo_bin("sudoku-batch"))
        .args(args)
        .arg("--quiet")
        .current_dir(dir)
        .env_remove("NO_COLOR")
        .output()
        .expect("runuser runs")
}

/// The names in `dir`, sorted.
fn names(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .expect("a directory")
        .map(|entry| {
            entry
                .expect("an entry")
                .file_name()
                .to_string_lossy()
                .into_owned()
        })
        .collect();
    names.sort();
    names
}

/// A scratch directory everyone may enter, holding `puzzles.txt` (three
/// puzzles) and `results.csv` (their results, written by root): inputs
/// that `nobody` may read.
fn shared_scratch() -> Scratch {
    let scratch = Scratch::new();
    let dir = scratch.path("");
    std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o755)).expect("chmod");
    let puzzles: String = kaggle(3).iter().map(|(p, _)| format!("{p}\n")).collect();
    let input = scratch.file("puzzles.txt", puzzles.as_bytes());
    let out = scratch.path("results.csv");
    let made = solve(&[&input, "-o", &out]);
    assert_eq!(code(&made), 0, "{}", stderr(&made));
    scratch
}

/// The earlier contents of every results file in these tests.
const OLD: &str = "id,puzzle,solution\nkeep,these,rows\n";

/// `sub` in `scratch`, made anew with `mode`, owned by `owner` (uid, gid).
fn subdirectory(scratch: &Scratch, sub: &str, mode: u32, owner: (u32, u32)) -> String {
    let dir = scratch.path(sub);
    std::fs::create_dir(&dir).expect("mkdir");
    std::os::unix::fs::chown(&dir, Some(owner.0), Some(owner.1)).expect("chown");
    std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(mode)).expect("chmod");
    dir
}

/// `name` in `dir`, holding [`OLD`], with `mode`, owned by `owner`.
fn old_file(dir: &str, name: &str, mode: u32, owner: (u32, u32)) -> String {
    let path = Path::new(dir).join(name);
    std::fs::write(&path, OLD).expect("written");
    std::os::unix::fs::chown(&path, Some(owner.0), Some(owner.1)).expect("chown");
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(mode)).expect("chmod");
    path.to_string_lossy().into_owned()
}

#[test]
fn a_read_only_results_file_is_refused_before_the_run_and_left_as_it_was() {
    let ids = match nobody() {
        Ok(ids) => ids,
        Err(why) => {
            return skipped(
                "a_read_only_results_file_is_refused_before_the_run_and_left_as_it_was",
                &why,
            )
        }
    };
    let scratch = shared_scratch();
    // A directory nobody owns: the rename over the file would be allowed.
    let dir = subdirectory(&scratch, "mine", 0o755, ids);
    let input = scratch.path("puzzles.txt");
    let results = scratch.path("results.csv");
    let runs: [(&str, &str, Vec<&str>); 9] = [
        ("solve", "r.csv", vec![&input]),
        ("solve", "r.jsonl", vec![&input]),
        ("solve", "r.parquet", vec![&input]),
        ("solve", "r.csv.gz", vec![&input]),
        ("check", "r.csv", vec![&input]),
        ("rate", "r.csv", vec![&input]),
        ("merge", "r.csv", vec![&results]),
        ("canon", "r.csv", vec![&input]),
        ("augment", "r.csv", vec![&input, "-n", "2"]),
    ];
    for (command, name, inputs) in runs {
        let out = old_file(&dir, name, 0o444, ids);
        let inode = std::fs::metadata(&out).expect("there").ino();
        let mut args = vec![command];
        args.extend(&inputs);
        args.extend(["-o", &out]);
        let run = as_nobody(Path::new(&dir), &args);
        let said = stderr(&run);
        assert_eq!(code(&run), 2, "{command} -o {name}: {said}");
        assert!(
            said.contains(&format!(
                "writing results to {out}: Permission denied (os error 13); {out} is not \
                 writable for this user, and is left as it was"
            )),
            "{command} -o {name}: {said}"
        );
        // Refused before anything was read or solved.
        assert!(!said.contains("puzzles in"), "{command}: {said}");
        let meta = std::fs::metadata(&out).expect("still there");
        assert_eq!(
            std::fs::read_to_string(&out).expect("read"),
            OLD,
            "{command} {name}"
        );
        assert_eq!(
            (meta.ino(), meta.mode() & 0o777),
            (inode, 0o444),
            "{command} {name}"
        );
        assert_eq!(
            names(Path::new(&dir)),
            [name],
            "{command}: nothing left beside it"
        );
        std::fs::remove_file(&out).expect("removed");
    }
    // `generate` (no inputs) is refused as `>` refuses it, the file kept.
    let out = old_file(&dir, "r.csv", 0o444, ids);
    let run = as_nobody(Path::new(&dir), &["generate", "-n", "2", "-o", &out]);
    assert_eq!(code(&run), 2, "{}", stderr(&run));
    assert!(
        stderr(&run).contains("Permission denied"),
        "{}",
        stderr(&run)
    );
    assert_eq!(std::fs::read_to_string(&out).expect("read"), OLD);
    assert_eq!(names(Path::new(&dir)), ["r.csv"]);
    std::fs::remove_file(&out).expect("removed");
    // `--resume` of such a file is refused the same way, before reading it.
    let out = old_file(&dir, "r.csv", 0o444, ids);
    let run = as_nobody(Path::new(&dir), &["solve", &input, "-o", &out, "--resume"]);
    assert_eq!(code(&run), 2, "{}", stderr(&run));
    assert!(
        stderr(&run).contains("is not writable for this user"),
        "{}",
        stderr(&run)
    );
    assert_eq!(std::fs::read_to_string(&out).expect("read"), OLD);
    // The same file made writable is replaced as before.
    std::fs::set_permissions(&out, std::fs::Permissions::from_mode(0o644)).expect("chmod");
    let run = as_nobody(Path::new(&dir), &["solve", &input, "-o", &out]);
    assert_eq!(code(&run), 0, "{}", stderr(&run));
    assert_eq!(rows(&read_output(&out)).len(), 3);
}

#[test]
fn another_users_results_file_in_a_sticky_directory_is_written_in_place() {
    if let Err(why) = nobody() {
        return skipped(
            "another_users_results_file_in_a_sticky_directory_is_written_in_place",
            &why,
        );
    }
    let scratch = shared_scratch();
    // As /tmp: root's, everyone's to write, sticky.
    let dir = subdirectory(&scratch, "sticky", 0o1777, (0, 0));
    let input = scratch.path("puzzles.txt");
    let results = scratch.path("results.csv");
    let runs: [(&str, &str, Vec<&str>); 6] = [
        ("solve", "r.csv", vec![&input]),
        ("solve", "r.jsonl", vec![&input]),
        ("solve", "r.parquet", vec![&input]),
        ("solve", "r.csv.zst", vec![&input]),
        ("check", "r.csv", vec![&input]),
        ("merge", "r.csv", vec![&results]),
    ];
    for (command, name, inputs) in runs {
        let out = old_file(&dir, name, 0o666, (0, 0));
        let inode = std::fs::metadata(&out).expect("there").ino();
        let mut args = vec![command];
        args.extend(&inputs);
        args.extend(["-o", &out]);
        let run = as_nobody(Path::new(&dir), &args);
        assert_eq!(code(&run), 0, "{command} -o {name}: {}", stderr(&run));
        let meta = std::fs::metadata(&out).expect("still there");
        // Written in place: still root's file, its inode and mode.
        assert_eq!(
            (meta.ino(), meta.uid(), meta.mode() & 0o777),
            (inode, 0, 0o666),
            "{command} {name}"
        );
        assert_eq!(
            names(Path::new(&dir)),
            [name],
            "{command}: nothing left beside it"
        );
        // The whole table, as into any other file.
        let written = match name {
            "r.parquet" => {
                let copy = scratch.path("copy.parquet");
                std::fs::copy(&out, &copy).expect("copied");
                let csv = scratch.path("copy.csv");
                let merged = run_subcommand("merge", &[&copy, "-o", &csv]);
                assert_eq!(code(&merged), 0, "{}", stderr(&merged));
                read_output(&csv)
            }
            "r.csv.zst" => {
                let bytes = std::fs::read(&out).expect("read");
                let text = zstd::decode_all(&bytes[..]).expect("one whole zstd stream");
                String::from_utf8(text).expect("UTF-8")
            }
            "r.jsonl" => {
                let text = read_output(&out);
                assert_eq!(text.lines().count(), 3, "{text}");
                std::fs::remove_file(&out).expect("removed");
                continue;
            }
            _ => read_output(&out),
        };
        let rows = rows(&written);
        assert_eq!(rows.len(), 3, "{command} {name}: {written}");
        check_rows(&rows);
        std::fs::remove_file(&out).expect("removed");
    }
    // A run of no rows gets the header alone there too.
    let empty = scratch.file("empty.txt", b"");
    let out = old_file(&dir, "r.csv", 0o666, (0, 0));
    let run = as_nobody(Path::new(&dir), &["solve", &empty, "-o", &out]);
    assert_eq!(code(&run), 0, "{}", stderr(&run));
    let text = read_output(&out);
    assert!(
        text.starts_with("line,puzzle,status") && text.lines().count() == 1,
        "{text}"
    );
}

/// A file bind-mounted over another, unmounted when dropped.
struct BindMount(String);

impl BindMount {
    /// `source` mounted over `target`; else why not.
    fn new(source: &str, target: &str) -> Result<BindMount, String> {
        let mounted = Command::new("mount")
            .args(["--bind", source, target])
            .output()
            .map_err(|e| format!("`mount` cannot run: {e}"))?;
        match mounted.status.success() {
            true => Ok(BindMount(target.to_string())),
            false => Err(format!(
                "mount --bind is refused here: {}",
                String::from_utf8_lossy(&mounted.stderr).trim()
            )),
        }
    }
}

impl Drop for BindMount {
    fn drop(&mut self) {
        let _ = Command::new("umount").arg(&self.0).status();
    }
}

#[test]
fn a_bind_mounted_results_file_is_written_in_place() {
    let scratch = shared_scratch();
    let input = scratch.path("puzzles.txt");
    let results = scratch.path("results.csv");
    for (command, name, inputs) in [
        ("solve", "r.csv", vec![&input]),
        ("solve", "r.parquet", vec![&input]),
        ("merge", "r.csv", vec![&results]),
    ] {
        let host = scratch.file(&format!("host-{name}"), OLD.as_bytes());
        let out = scratch.file(name, b"");
        let mount = match BindMount::new(&host, &out) {
            Ok(mount) => mount,
            Err(why) => return skipped("a_bind_mounted_results_file_is_written_in_place", &why),
        };
        let mut args: Vec<&str> = inputs.iter().map(|s| s.as_str()).collect();
        args.extend(["-o", &out]);
        let run = run_subcommand(command, &args);
        assert_eq!(code(&run), 0, "{command} -o {name}: {}", stderr(&run));
        drop(mount);
        // What the mount point showed is in the file mounted there.
        assert_eq!(std::fs::metadata(&out).expect("there").len(), 0);
        let written = match name {
            "r.parquet" => {
                let csv = scratch.path("copy.csv");
                let merged = run_subcommand("merge", &[&host, "-o", &csv]);
                assert_eq!(code(&merged), 0, "{}", stderr(&merged));
                read_output(&csv)
            }
            _ => read_output(&host),
        };
        let rows = rows(&written);
        assert_eq!(rows.len(), 3, "{command} {name}: {written}");
        check_rows(&rows);
        assert!(
            !names(Path::new(&scratch.path("")))
                .iter()
                .any(|n| n.ends_with(".partial")),
            "nothing left beside it"
        );
    }
    // `--resume` of Parquet writes the continued file anew beside it and
    // renames it over the file: copied into it whole there.
    let host = scratch.path("host-resume.parquet");
    let made = solve(&[&input, "--limit", "2", "-o", &host]);
    assert_eq!(code(&made), 0, "{}", stderr(&made));
    let out = scratch.file("resume.parquet", b"");
    let mount = match BindMount::new(&host, &out) {
        Ok(mount) => mount,
        Err(why) => return skipped("a_bind_mounted_results_file_is_written_in_place", &why),
    };
    let run = run_subcommand("solve", &[&input, "-o", &out, "--resume"]);
    assert_eq!(code(&run), 0, "{}", stderr(&run));
    drop(mount);
    let csv = scratch.path("resumed.csv");
    let merged = run_subcommand("merge", &[&host, "-o", &csv]);
    assert_eq!(code(&merged), 0, "{}", stderr(&merged));
    let rows = rows(&read_output(&csv));
    assert_eq!(rows.len(), 3);
    check_rows(&rows);
}
