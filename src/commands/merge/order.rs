//! The input order of a merge without `--inputs`: the order in which the
//! inputs' names first appear in the results files, kept consistent with
//! every file's own order.

use std::collections::{BTreeSet, HashMap};

/// Orders the input names that `sequences` list (each results file's names,
/// in its row order, a name once per run of rows, again when the input was
/// given again): every file's order is
/// kept, and names no file orders between them come in the order they
/// first appear, reading the files in the order given. A shard may lack an
/// input that had too few records to reach it, so one file's list alone
/// is not enough.
///
/// # Errors
/// A message naming two inputs that the files list in both orders.
pub fn input_order(sequences: &[Vec<String>]) -> Result<Vec<String>, String> {
    // A name listed again in one file is an input given again: its k-th
    // listing in a file is the same input as the k-th in every other.
    let turns: Vec<Vec<(&str, usize)>> = sequences
        .iter()
        .map(|sequence| {
            let mut seen: HashMap<&str, usize> = HashMap::new();
            sequence
                .iter()
                .map(|name| {
                    let turn = seen.entry(name).or_default();
                    *turn += 1;
                    (name.as_str(), *turn)
                })
                .collect()
        })
        .collect();
    let mut names: Vec<&str> = vec![];
    let mut index: HashMap<(&str, usize), usize> = HashMap::new();
    for &(name, turn) in turns.iter().flatten() {
        index.entry((name, turn)).or_insert_with(|| {
            names.push(name);
            names.len() - 1
        });
    }
    let mut after: Vec<BTreeSet<usize>> = vec![BTreeSet::new(); names.len()];
    let mut before = vec![0usize; names.len()];
    for sequence in &turns {
        for pair in sequence.windows(2) {
            let (a, b) = (index[&pair[0]], index[&pair[1]]);
            if after[a].insert(b) {
                before[b] += 1;
            }
        }
    }
    // Kahn's topological sort, taking the earliest-seen name that is free.
    let mut free: BTreeSet<usize> = (0..names.len()).filter(|&i| before[i] == 0).collect();
    let mut order = Vec::with_capacity(names.len());
    while let Some(next) = free.pop_first() {
        order.push(names[next].to_string());
        for &b in &after[next] {
            before[b] -= 1;
            if before[b] == 0 {
                free.insert(b);
            }
        }
    }
    if order.len() < names.len() {
        let stuck: Vec<&str> = (0..names.len())
            .filter(|&i| before[i] > 0)
            .map(|i| names[i])
            .take(2)
            .collect();
        return Err(format!(
            "the results files list their inputs in different orders (`{}` and `{}` come \
             both ways): give the inputs in order with --inputs",
            stuck[0],
            stuck.get(1).unwrap_or(&stuck[0])
        ));
    }
    Ok(order)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn seqs(lists: &[&[&str]]) -> Vec<Vec<String>> {
        lists
            .iter()
            .map(|l| l.iter().map(|s| s.to_string()).collect())
            .collect()
    }

    #[test]
    fn first_appearance_kept_consistent_with_every_file() {
        let order = input_order(&seqs(&[&["a", "c"], &["a", "b", "c"]])).unwrap();
        assert_eq!(order, ["a", "b", "c"]);
        // `b` is first seen after `c`, but the second file puts it before.
        let order = input_order(&seqs(&[&["c"], &["b", "c"], &["a"]])).unwrap();
        assert_eq!(order, ["b", "c", "a"]);
        assert_eq!(input_order(&[]).unwrap(), Vec::<String>::new());
    }

    #[test]
    fn contradicting_orders_are_refused() {
        let err = input_order(&seqs(&[&["a", "b"], &["b", "a"]])).unwrap_err();
        assert!(err.contains("`a` and `b`"), "{err}");
    }

    #[test]
    fn a_name_listed_again_is_an_input_given_again() {
        let order = input_order(&seqs(&[&["a", "b", "a"], &["b", "a"]])).unwrap_err();
        assert!(order.contains("`a` and `b`"), "{order}");
        let order = input_order(&seqs(&[&["a", "b", "a"], &["a", "a"]])).unwrap();
        assert_eq!(order, ["a", "b", "a"]);
        let order = input_order(&seqs(&[&["a", "a"], &["a", "a"]])).unwrap();
        assert_eq!(order, ["a", "a"]);
    }
}
