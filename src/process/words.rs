//! Counts in messages: `1 puzzle`, `2 puzzles`, never `1 puzzles`.

/// The form of a noun for a count of `n`: `one` for 1, else `many`
/// (`noun(n, "copy", "copies")`).
pub fn noun<'a>(n: u64, one: &'a str, many: &'a str) -> &'a str {
    if n == 1 {
        one
    } else {
        many
    }
}

/// `n` and its noun: `1 puzzle`, `2 puzzles`, `0 puzzles`.
pub fn count(n: u64, one: &str, many: &str) -> String {
    format!("{n} {}", noun(n, one, many))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_is_singular_and_every_other_count_plural() {
        assert_eq!(count(1, "puzzle", "puzzles"), "1 puzzle");
        assert_eq!(count(0, "puzzle", "puzzles"), "0 puzzles");
        assert_eq!(count(2, "copy", "copies"), "2 copies");
        assert_eq!(noun(11, "row", "rows"), "rows");
    }
}
