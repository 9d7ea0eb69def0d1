//! How an input is named in records, rows and messages. A path may be any
//! name the operating system accepts; rows and messages are text, so an
//! input goes by its path's UTF-8 rendering, `\u{FFFD}` standing for bytes
//! that are not UTF-8. Two different paths can render alike; their rows
//! could then not be told apart (`--resume`, `check --baseline` and `merge`
//! match rows by name), so such inputs are refused together.

use std::path::{Component, Path, PathBuf};

use super::InputError;

/// The name `path` goes by: its UTF-8 rendering, `\u{FFFD}` for each run of
/// bytes that are not UTF-8.
pub fn input_name(path: &Path) -> String {
    path.to_string_lossy().into_owned()
}

/// [`input_name`] of every path, in order. The same path given twice has
/// one name, as it always had.
///
/// # Errors
/// [`InputError::SameName`] for the first two different paths with the
/// same name (names that differ only in bytes that are not UTF-8, or such a
/// name and one holding `\u{FFFD}` itself).
pub fn input_names(paths: &[PathBuf]) -> Result<Vec<String>, InputError> {
    let names: Vec<String> = paths.iter().map(|p| input_name(p)).collect();
    for (i, name) in names.iter().enumerate() {
        if let Some(j) = (0..i).find(|&j| names[j] == *name && paths[j] != paths[i]) {
            return Err(InputError::SameName {
                first: paths[j].clone(),
                second: paths[i].clone(),
                name: name.clone(),
            });
        }
    }
    Ok(names)
}

/// Whether the input names `a` and `b` name one file: the same name, the
/// same path once `.` components and doubled separators are dropped
/// (`./data/x.txt` and `data/x.txt`), or two names that resolve from the
/// current directory to one existing file (a relative and an absolute
/// path, a symbolic link). A baseline's or a shard's rows name each input as
/// its run was given it; this lets a later run name it another way.
pub fn same_input(a: &str, b: &str) -> bool {
    if a == b {
        return true;
    }
    let plain = |name: &str| -> PathBuf {
        Path::new(name)
            .components()
            .filter(|c| !matches!(c, Component::CurDir))
            .collect()
    };
    if plain(a) == plain(b) {
        return true;
    }
    matches!(
        (std::fs::canonicalize(a), std::fs::canonicalize(b)),
        (Ok(x), Ok(y)) if x == y
    )
}

/// The positions among a run's input `names` of the inputs a row's `name`
/// may be of ([`same_input`]), those named exactly `name` first: a run may
/// name one file twice (`t.csv ./t.csv`) or two names may be one path
/// (`/` and `//`), and a row of the second must not be placed at the first
/// because that one is also the same file.
pub fn inputs_of(names: &[String], name: &str) -> Vec<usize> {
    let (mut exact, alias): (Vec<usize>, Vec<usize>) = (0..names.len())
        .filter(|&i| same_input(&names[i], name))
        .partition(|&i| names[i] == name);
    exact.extend(alias);
    exact
}

#[cfg(all(test, unix))]
mod tests {
    use std::ffi::OsStr;
    use std::os::unix::ffi::OsStrExt;

    use super::*;

    fn path(bytes: &[u8]) -> PathBuf {
        PathBuf::from(OsStr::from_bytes(bytes))
    }

    #[test]
    fn one_file_named_two_ways_is_one_input() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("x.txt");
        std::fs::write(&file, "1\n").unwrap();
        let absolute = file.to_string_lossy().into_owned();
        let dotted = format!("{}/./x.txt", dir.path().display());
        let link = dir.path().join("y.txt");
        std::os::unix::fs::symlink(&file, &link).unwrap();
        assert!(same_input(&absolute, &dotted));
        assert!(same_input(&absolute, &link.to_string_lossy()));
        // Files that need not exist, by their paths alone.
        assert!(same_input("./data/none.txt", "data//none.txt"));
        let names = ["//".to_string(), "a".into(), "/".into(), "./a".into()];
        assert_eq!(inputs_of(&names, "/"), [2, 0]);
        assert_eq!(inputs_of(&names, "./a"), [3, 1]);
        assert_eq!(inputs_of(&names, "a"), [1, 3]);
        assert_eq!(inputs_of(&names, "b"), Vec::<usize>::new());
        assert!(same_input(" a.txt", " a.txt"));
        for (a, b) in [("a.txt", " a.txt"), ("data/a.txt", "a.txt"), ("-", "./-x")] {
            assert!(!same_input(a, b), "{a} {b}");
        }
        let other = dir.path().join("z.txt");
        std::fs::write(&other, "1\n").unwrap();
        assert!(!same_input(&absolute, &other.to_string_lossy()));
    }

    #[test]
    fn names_render_bytes_that_are_not_utf8_as_the_replacement_character() {
        let names = input_names(&[path(b"a\xFFb.txt"), path(b"plain.txt")]).unwrap();
        assert_eq!(names, ["a\u{FFFD}b.txt", "plain.txt"]);
    }

    #[test]
    fn the_same_path_twice_is_one_name_and_two_paths_rendered_alike_are_refused() {
        let same = [path(b"a\xFF.txt"), path(b"a\xFF.txt")];
        assert_eq!(input_names(&same).unwrap(), ["a\u{FFFD}.txt"; 2]);
        for other in [&b"a\xFE.txt"[..], "a\u{FFFD}.txt".as_bytes()] {
            let paths = [path(b"a\xFF.txt"), path(b"x.txt"), path(other)];
            let err = input_names(&paths).unwrap_err();
            let message = err.to_string();
            assert!(
                matches!(&err, InputError::SameName { first, second, .. }
                    if *first == paths[0] && *second == paths[2]),
                "{message}"
            );
            assert!(message.contains(r#""a\xFF.txt""#), "{message}");
        }
    }
}
