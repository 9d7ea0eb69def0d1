//! Puzzle generation: random solution grids dug down to puzzles with
//! exactly one solution, minimal unless asked otherwise.
//!
//! Candidate `k` of output puzzle `i` comes from a random stream seeded by
//! `(seed, i)` alone ([`stream`]), so a puzzle does not depend on the
//! thread that made it or on the puzzles before it: runs are reproducible
//! for any thread count and can be split by index.
//!
//! One candidate:
//! 1. *A solution grid.* The three boxes on the diagonal do not see each
//!    other, so each gets a random order of 1-9; the solver completes the
//!    grid, and a random [`Transform`] spreads it over its equivalence class.
//! 2. *Digging.* The givens are visited in a random order and each is
//!    removed when the puzzle keeps one solution. A given that a single
//!    would put back (its peers hold the other eight digits, or every other
//!    blank of one of its units sees its digit) is removed without a
//!    search; a given that is the last one left in an unavoidable set of
//!    two digits (cells whose two digits can be swapped to give another
//!    solution grid) is kept without a search; any other removal is
//!    checked with a unique-mode search. A given kept was needed by a puzzle with more givens than the
//!    final one, so it is needed by the final one too: the result is minimal
//!    (every given removed gives several solutions). With `minimal: false`
//!    digging stops at the first given that must stay, which leaves more,
//!    and easier to find, givens.
//! 3. *Acceptance.* The puzzle's unique-mode search must take at least
//!    `min_guesses` guesses, and its rating (when a band is asked for) must
//!    fall in the band; otherwise the stream's next candidate is tried.

use rand::seq::SliceRandom;
use rand::SeedableRng;
use rand_xorshift::XorShiftRng;

use crate::grid::{Cell, Grid, CELLS, PEERS, UNITS};
use crate::rate::{Band, Rating};
use crate::solver::{FastSolver, Limits, Mode, Solver, Status};
use crate::transform::Transform;

/// What a generated puzzle must satisfy.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Requirements {
    /// Every given is needed (removing any leaves several solutions).
    pub minimal: bool,
    /// The least number of guesses the puzzle's unique-mode search takes
    /// (see [`crate::solver::Outcome::guesses`]).
    pub min_guesses: u64,
    /// The band the puzzle's rating must fall in (see [`crate::rate`]);
    /// `None` for any rating, which is then not computed.
    pub rating: Option<Band>,
}

impl Default for Requirements {
    fn default() -> Requirements {
        Requirements {
            minimal: true,
            min_guesses: 0,
            rating: None,
        }
    }
}

/// One generated puzzle.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Generated {
    /// The puzzle: exactly one solution.
    pub puzzle: Grid,
    /// Its solution.
    pub solution: Grid,
    /// Guesses of the puzzle's unique-mode search with the fast solver, as
    /// `solve` reports them.
    pub guesses: u64,
    /// Candidates tried for this puzzle, the kept one included (at least 1).
    pub tried: u64,
    /// Its rating, when the requirements asked for a band.
    pub rating: Option<Rating>,
}

/// The random stream of output puzzle `index` under `seed`: the seed and
/// index are hashed together (XXH3), so neighbouring indices and seeds give
/// unrelated streams.
pub fn stream(seed: u64, index: u64) -> XorShiftRng {
    let mut key = [0u8; 16];
    key[..8].copy_from_slice(&seed.to_le_bytes());
    key[8..].copy_from_slice(&index.to_le_bytes());
    XorShiftRng::seed_from_u64(twox_hash::XxHash3_64::oneshot(&key))
}

/// Makes puzzles; holds a solver, so keep one per thread.
#[derive(Debug, Default)]
pub struct Generator {
    solver: FastSolver,
    /// The unavoidable sets of the solution being dug (a buffer).
    unavoidable: Vec<u128>,
}

impl Generator {
    /// A generator with its own solver.
    pub fn new() -> Generator {
        Generator::default()
    }

    /// Output puzzle `index` under `seed`: the first candidate of its
    /// stream that meets `requirements`. `stop` is asked once before each
    /// candidate, so a caller can count candidates as they are tried;
    /// returns `None` when it says to stop, which matters only for
    /// demanding `min_guesses`.
    pub fn generate(
        &mut self,
        seed: u64,
        index: u64,
        requirements: &Requirements,
        stop: &dyn Fn() -> bool,
    ) -> Option<Generated> {
        let mut rng = stream(seed, index);
        let mut tried = 0;
        loop {
            if stop() {
                return None;
            }
            tried += 1;
            let Some(solution) = self.solution(&mut rng) else {
                continue;
            };
            let puzzle = self.dig(&solution, &mut rng, requirements.minimal);
            let outcome = self.solver.solve(&puzzle, Mode::Unique, &Limits::default());
            if outcome.status != Status::Solved || outcome.guesses < requirements.min_guesses {
                continue;
            }
            // Rated last: the rater costs more than the search.
            let rating = match requirements.rating {
                Some(band) => match band.rate(&puzzle) {
                    Some(rating) => Some(rating),
                    None => continue,
                },
                None => None,
            };
            return Some(Generated {
                puzzle,
                solution,
                guesses: outcome.guesses,
                tried,
                rating,
            });
        }
    }

    /// A random solution grid (see the module docs); `None` if the solver
    /// failed to complete the diagonal boxes, which a correct solver never
    /// does.
    fn solution(&mut self, rng: &mut XorShiftRng) -> Option<Grid> {
        let mut cells = [0u8; CELLS];
        for b in [0, 4, 8] {
            let mut digits = [1u8, 2, 3, 4, 5, 6, 7, 8, 9];
            digits.shuffle(rng);
            let (top, left) = (b / 3 * 3, b % 3 * 3);
            for (k, d) in digits.into_iter().enumerate() {
                cells[(top + k / 3) * 9 + left + k % 3] = d;
            }
        }
        let seed = Grid::from_cells(cells)?;
        let search = self.solver.search(&seed, Mode::First, &Limits::default());
        let solution = search.first?;
        Some(Transform::random(rng).apply(&solution))
    }

    /// Digs `solution` down to a puzzle with one solution (see the module
    /// docs).
    fn dig(&mut self, solution: &Grid, rng: &mut XorShiftRng, minimal: bool) -> Grid {
        let mut order: [u8; CELLS] = std::array::from_fn(|i| i as u8);
        order.shuffle(rng);
        unavoidable_pairs(solution, &mut self.unavoidable);
        let mut puzzle = *solution;
        let mut givens: u128 = (1 << CELLS) - 1;
        let mut cells_of = [0u128; 10];
        for (i, &v) in solution.cells().iter().enumerate() {
            cells_of[usize::from(v)] |= 1 << i;
        }
        for cell in order.map(Cell) {
            let c = usize::from(cell.0);
            let bit = 1u128 << c;
            // A set that only this given still hits: without it, the set's
            // two digits can be swapped, so it must stay.
            if self.unavoidable.iter().any(|&set| set & givens == bit) {
                if !minimal {
                    break;
                }
                continue;
            }
            let value = puzzle.get(cell);
            let v = usize::from(value);
            puzzle.set(cell, 0);
            givens &= !bit;
            cells_of[v] &= !bit;
            if forced(c, v, givens, &cells_of, &puzzle) {
                continue;
            }
            let search = self
                .solver
                .search(&puzzle, Mode::Unique, &Limits::default());
            if search.solutions != 1 {
                puzzle.set(cell, value);
                givens |= bit;
                cells_of[v] |= bit;
                if !minimal {
                    break;
                }
            }
        }
        puzzle
    }
}

/// True when blank cell `c` of `puzzle` can only hold `v` by a single: its
/// peers hold the eight other digits (naked single), or every other blank
/// of one of its units sees a `v` (hidden single). `givens` and `cells_of`
/// (the cells holding each digit) describe `puzzle`.
fn forced(c: usize, v: usize, givens: u128, cells_of: &[u128; 10], puzzle: &Grid) -> bool {
    let seen = PEERS[c]
        .iter()
        .fold(0u16, |m, &p| m | 1 << puzzle.get(Cell(p)));
    if seen | 1 << v | 1 == 0x3FF {
        return true;
    }
    let mut sees_v = 0u128;
    let mut holders = cells_of[v];
    while holders != 0 {
        let h = holders.trailing_zeros() as usize;
        holders &= holders - 1;
        sees_v |= PEER_MASKS[h];
    }
    let blanks = !givens & !(1u128 << c);
    UNIT_MASKS[c]
        .iter()
        .any(|&unit| unit & blanks & !sees_v == 0)
}

/// The unavoidable sets of two digits of a solution grid: for each pair of
/// digits, the groups of their 18 cells linked by sharing a row, column or
/// box. Swapping the two digits inside one group gives another valid grid,
/// so a puzzle with one solution keeps a given in every group. Writes the
/// groups as cell masks into `sets`.
fn unavoidable_pairs(solution: &Grid, sets: &mut Vec<u128>) {
    sets.clear();
    let mut cells_of = [[0u8; 9]; 10];
    let mut count = [0usize; 10];
    for (i, &v) in solution.cells().iter().enumerate() {
        let v = usize::from(v);
        cells_of[v][count[v]] = i as u8;
        count[v] += 1;
    }
    for a in 1..=9 {
        for b in a + 1..=9 {
            // Nodes 0..9 are a's cells, 9..18 b's; a and b cells are linked
            // when they share a unit.
            let mut parent: [u8; 18] = std::array::from_fn(|i| i as u8);
            fn root(parent: &mut [u8; 18], mut x: usize) -> usize {
                while usize::from(parent[x]) != x {
                    parent[x] = parent[usize::from(parent[x])];
                    x = usize::from(parent[x]);
                }
                x
            }
            for (i, &x) in cells_of[a].iter().enumerate() {
                for (j, &y) in cells_of[b].iter().enumerate() {
                    let (x, y) = (Cell(x), Cell(y));
                    if x.row() == y.row() || x.col() == y.col() || x.box_index() == y.box_index() {
                        let (ra, rb) = (root(&mut parent, i), root(&mut parent, 9 + j));
                        parent[ra] = rb as u8;
                    }
                }
            }
            let mut groups = [0u128; 18];
            for n in 0..18 {
                let cell = if n < 9 {
                    cells_of[a][n]
                } else {
                    cells_of[b][n - 9]
                };
                groups[root(&mut parent, n)] |= 1 << cell;
            }
            sets.extend(groups.into_iter().filter(|&g| g != 0));
        }
    }
}

const fn build_peer_masks() -> [u128; CELLS] {
    let mut masks = [0u128; CELLS];
    let mut c = 0;
    while c < CELLS {
        let mut k = 0;
        while k < 20 {
            masks[c] |= 1 << PEERS[c][k];
            k += 1;
        }
        c += 1;
    }
    masks
}

/// Each cell's 20 peers as a cell mask.
const PEER_MASKS: [u128; CELLS] = build_peer_masks();

const fn build_unit_masks() -> [[u128; 3]; CELLS] {
    let mut masks = [[0u128; 3]; CELLS];
    let mut u = 0;
    while u < 27 {
        let mut unit = 0u128;
        let mut k = 0;
        while k < 9 {
            unit |= 1 << UNITS[u][k];
            k += 1;
        }
        let mut k = 0;
        while k < 9 {
            masks[UNITS[u][k] as usize][u / 9] = unit;
            k += 1;
        }
        u += 1;
    }
    masks
}

/// Each cell's row, column and box as cell masks.
const UNIT_MASKS: [[u128; 3]; CELLS] = build_unit_masks();

#[cfg(test)]
mod tests {
    use super::*;

    fn status(solver: &mut FastSolver, grid: &Grid) -> Status {
        solver.solve(grid, Mode::Unique, &Limits::default()).status
    }

    #[test]
    fn generated_puzzles_are_unique_minimal_and_reproducible() {
        let mut generator = Generator::new();
        let mut solver = FastSolver::new();
        for index in 1..=5 {
            let made = generator
                .generate(7, index, &Requirements::default(), &|| false)
                .unwrap();
            assert_eq!(status(&mut solver, &made.puzzle), Status::Solved);
            assert!(made.solution.is_solution_of(&made.puzzle));
            for i in 0..CELLS {
                let cell = Cell(i as u8);
                if made.puzzle.get(cell) != 0 {
                    let mut fewer = made.puzzle;
                    fewer.set(cell, 0);
                    assert_eq!(status(&mut solver, &fewer), Status::Multiple, "{cell}");
                }
            }
            let again = Generator::new().generate(7, index, &Requirements::default(), &|| false);
            assert_eq!(again, Some(made));
        }
    }

    #[test]
    fn harder_puzzles_on_request_and_stopping() {
        let hard = Requirements {
            min_guesses: 3,
            ..Requirements::default()
        };
        let made = Generator::new().generate(1, 1, &hard, &|| false).unwrap();
        assert!(made.guesses >= 3);
        assert_eq!(Generator::new().generate(1, 1, &hard, &|| true), None);
    }

    #[test]
    fn non_minimal_puzzles_are_still_unique() {
        let loose = Requirements {
            minimal: false,
            ..Requirements::default()
        };
        let made = Generator::new().generate(3, 9, &loose, &|| false).unwrap();
        assert_eq!(status(&mut FastSolver::new(), &made.puzzle), Status::Solved);
    }

    #[test]
    fn puzzles_of_a_rating_band_on_request() {
        let band = Band { low: 20, high: 36 };
        let requirements = Requirements {
            rating: Some(band),
            ..Requirements::default()
        };
        for index in 1..=3 {
            let made = Generator::new()
                .generate(5, index, &requirements, &|| false)
                .unwrap();
            let rating = made.rating.unwrap();
            assert!(band.contains(rating.tenths), "{rating:?}");
            assert_eq!(crate::rate::rate(&made.puzzle), rating);
        }
        let any = Generator::new()
            .generate(5, 1, &Requirements::default(), &|| false)
            .unwrap();
        assert_eq!(any.rating, None);
    }
}
