//! The strong engine's propagation at the AVX-512 level: the rules of
//! `band` applied to every row of a band for all nine digits at once, one
//! 512-bit vector per band of 32 16-bit lanes, lane `3 * d + r` holding the
//! 9-bit column set of digit `d + 1` in row `r` of the band (lanes 27..32
//! stay empty).
//!
//! Where `band`'s scalar propagation keeps a queue of changed masks and
//! updates them one by one through table look-ups, this one applies every
//! rule to every mask in rounds of branch-free bit logic:
//! - *band rule*: a minirow keeps the digit when the two other rows and two
//!   other boxes still hold a matching pair of minirows (the permutation
//!   table of `band`, written as turns of the minirow bits within a lane
//!   and of the rows across lanes);
//! - *row singles*: a row left with one cell fixes it; the cell's column
//!   leaves the digit in the three bands and the cell leaves the other
//!   digits;
//! - *naked singles*: a cell with one candidate takes its digit's row;
//! - the *stack rule* (the band rule turned 90 degrees).
//!
//! Every step applies all four: that is 1.07-1.15 times as fast as applying
//! the stack rule and naked singles only once the first two change nothing
//! (the chains of deductions then wait for the slower rules' turn).
//!
//! With one row per lane, the row singles are one subtraction and test for
//! the whole band, and no lane's bits cross a row: the rotations and masks
//! a 27-bit band mask needs per row are gone. What crosses lanes (another
//! row or digit of the band) is one word permutation each.
//!
//! The rules only remove candidates, so both propagations stop at the same
//! state, the largest one every rule leaves unchanged: the search takes the
//! same guesses on both, which the tests check. Rounds cost more work than
//! the scalar queue but no table look-ups or unpredictable branches.
//!
//! Everything here runs only inside functions compiled for AVX-512 (F, BW,
//! VL, DQ, CD), on a CPU that has it: `search::<true>` is reached only
//! from the fast solver's AVX-512 level.

use std::arch::x86_64::*;

/// The lanes holding a row of a digit (`3 * digit + row`).
const LANES: __mmask32 = (1 << 27) - 1;
/// The nine cells of a row.
const ROW: i16 = 0x1FF;
/// The first cell of each of a row's three minirows.
const MINI: i16 = 0o111;

/// Word permutation: lane `3 * d + r` takes lane `3 * d + (r + k) % 3`, the
/// same digit's row `k` further on in the band; the empty lanes stay.
const fn row_turn(k: usize) -> [u16; 32] {
    let mut t = [0u16; 32];
    let mut lane = 0;
    while lane < 32 {
        t[lane] = if lane < 27 {
            (lane / 3 * 3 + (lane % 3 + k) % 3) as u16
        } else {
            lane as u16
        };
        lane += 1;
    }
    t
}

/// Word permutation: lane `3 * d + r` takes lane `3 * ((d + k) % 9) + r`,
/// the same row of the digit `k` further on; the empty lanes stay.
const fn digit_turn(k: usize) -> [u16; 32] {
    let mut t = [0u16; 32];
    let mut lane = 0;
    while lane < 32 {
        t[lane] = if lane < 27 {
            ((lane + 3 * k) % 27) as u16
        } else {
            lane as u16
        };
        lane += 1;
    }
    t
}

/// Two-source word permutation for loading: lane `3 * d + r` takes word
/// `2 * d + r` of the first source for rows 0 and 1 and word `2 * d` of the
/// second for row 2; the empty lanes take word 31 of the first, which is
/// empty.
const fn load_order() -> [u16; 32] {
    let mut t = [31u16; 32];
    let mut lane = 0;
    while lane < 27 {
        let (d, r) = (lane / 3, lane % 3);
        t[lane] = if r < 2 { 2 * d + r } else { 32 + 2 * d } as u16;
        lane += 1;
    }
    t
}

/// Word permutation for storing: word `2 * d + i` takes lane `3 * d + i`
/// (rows 0 and 1 of digit `d` in dword `d`), or with `third`, word `2 * d`
/// takes lane `3 * d + 2` (row 2). Words the mask of [`store_lanes`] leaves
/// out are zeroed.
const fn store_order(third: bool) -> [u16; 32] {
    let mut t = [0u16; 32];
    let mut d = 0;
    while d < 9 {
        if third {
            t[2 * d] = (3 * d + 2) as u16;
        } else {
            t[2 * d] = (3 * d) as u16;
            t[2 * d + 1] = (3 * d + 1) as u16;
        }
        d += 1;
    }
    t
}

/// The words [`store_order`] fills.
const fn store_lanes(third: bool) -> __mmask32 {
    if third {
        0x15555
    } else {
        0x3FFFF
    }
}

static ROW1: [u16; 32] = row_turn(1);
static ROW2: [u16; 32] = row_turn(2);
static DIGIT1: [u16; 32] = digit_turn(1);
static DIGIT2: [u16; 32] = digit_turn(2);
static DIGIT3: [u16; 32] = digit_turn(3);
static DIGIT6: [u16; 32] = digit_turn(6);
static LOAD: [u16; 32] = load_order();
static STORE01: [u16; 32] = store_order(false);
static STORE2: [u16; 32] = store_order(true);

/// No solution.
pub(super) struct Contradiction;

/// A vector with every 16-bit lane `$x`.
macro_rules! c {
    ($x:expr) => {
        _mm512_set1_epi16($x)
    };
}

/// The lanes of `v` permuted by `order`.
#[inline(always)]
fn turn(order: &[u16; 32], v: __m512i) -> __m512i {
    unsafe { _mm512_permutexvar_epi16(_mm512_loadu_si512(order.as_ptr().cast()), v) }
}

/// `a | b | c`.
#[inline(always)]
fn or3(a: __m512i, b: __m512i, c: __m512i) -> __m512i {
    unsafe { _mm512_or_si512(_mm512_or_si512(a, b), c) }
}

/// At least two of `a`, `b` and `c`.
#[inline(always)]
fn two_of(a: __m512i, b: __m512i, c: __m512i) -> __m512i {
    unsafe { _mm512_ternarylogic_epi32::<0xE8>(a, b, c) }
}

/// Each lane's digit's columns in the whole band (the same in the digit's
/// three lanes).
#[inline(always)]
fn band_columns(m: __m512i) -> __m512i {
    or3(m, turn(&ROW1, m), turn(&ROW2, m))
}

/// Across the nine digits, per row: (cells in any lane, cells in two or
/// more), in every lane of the row.
#[inline(always)]
fn one_two(v: __m512i) -> (__m512i, __m512i) {
    let (p, q) = (turn(&DIGIT1, v), turn(&DIGIT2, v));
    let (one, two) = (or3(v, p, q), two_of(v, p, q));
    let (p, q) = (turn(&DIGIT3, one), turn(&DIGIT6, one));
    let (s, t) = (turn(&DIGIT3, two), turn(&DIGIT6, two));
    let many = unsafe { _mm512_or_si512(or3(two, s, t), two_of(one, p, q)) };
    (or3(one, p, q), many)
}

/// Per lane, the minirows holding a cell (in a lane of columns, the
/// stacks): bit `3 * box` of the lane.
#[inline(always)]
fn minirows(x: __m512i) -> __m512i {
    unsafe {
        _mm512_and_si512(
            or3(x, _mm512_srli_epi16::<1>(x), _mm512_srli_epi16::<2>(x)),
            c!(MINI),
        )
    }
}

/// Per lane, the cells of the minirows `t` marks (bit `3 * box` each).
#[inline(always)]
fn minirow_cells(t: __m512i) -> __m512i {
    unsafe { or3(t, _mm512_slli_epi16::<1>(t), _mm512_slli_epi16::<2>(t)) }
}

/// The candidates, one vector per band.
#[derive(Clone, Copy)]
pub(super) struct Wide {
    m: [__m512i; 3],
}

impl Wide {
    /// Loads the 27 band masks (index `9 * band + digit`, bit
    /// `9 * row + column`). Written band by band, not with a closure: a
    /// closure over vectors is not always inlined into the caller compiled
    /// for AVX-512, and its intrinsics then become calls.
    #[inline(always)]
    pub(super) fn load(cand: &[u32; 27]) -> Wide {
        Wide {
            m: [
                Wide::load_band(cand, 0),
                Wide::load_band(cand, 1),
                Wide::load_band(cand, 2),
            ],
        }
    }

    /// One band of [`Wide::load`].
    #[inline(always)]
    fn load_band(cand: &[u32; 27], b: usize) -> __m512i {
        unsafe {
            let v = _mm512_maskz_loadu_epi32(0x1FF, cand.as_ptr().add(9 * b).cast());
            let row = _mm512_set1_epi32(0x1FF);
            let first_two = _mm512_or_si512(
                _mm512_and_si512(v, row),
                _mm512_slli_epi32::<16>(_mm512_and_si512(_mm512_srli_epi32::<9>(v), row)),
            );
            let third = _mm512_and_si512(_mm512_srli_epi32::<18>(v), row);
            _mm512_permutex2var_epi16(first_two, _mm512_loadu_si512(LOAD.as_ptr().cast()), third)
        }
    }

    /// Stores the 27 band masks back.
    #[inline(always)]
    pub(super) fn store(&self, cand: &mut [u32; 27]) {
        unsafe {
            for b in 0..3 {
                let z = self.m[b];
                let first_two = _mm512_maskz_permutexvar_epi16(
                    store_lanes(false),
                    _mm512_loadu_si512(STORE01.as_ptr().cast()),
                    z,
                );
                let third = _mm512_maskz_permutexvar_epi16(
                    store_lanes(true),
                    _mm512_loadu_si512(STORE2.as_ptr().cast()),
                    z,
                );
                let v = or3(
                    _mm512_and_si512(first_two, _mm512_set1_epi32(0x1FF)),
                    _mm512_and_si512(
                        _mm512_srli_epi32::<7>(first_two),
                        _mm512_set1_epi32(0x1FF << 9),
                    ),
                    _mm512_slli_epi32::<18>(third),
                );
                _mm512_mask_storeu_epi32(cand.as_mut_ptr().add(9 * b).cast(), 0x1FF, v);
            }
        }
    }

    /// The band rule and the hidden singles in rows it leaves. Returns each
    /// band's row singles.
    #[inline(always)]
    fn band_rule(&mut self) -> Result<[__m512i; 3], Contradiction> {
        unsafe {
            let mut least = c!(-1);
            let mut s = [_mm512_setzero_si512(); 3];
            for (mask, single) in self.m.iter_mut().zip(&mut s) {
                let x = *mask;
                let t = minirows(x);
                // Each row's minirows turned by one and two boxes; the bits
                // shifted past the row are cleared with `t` below.
                let c1 = _mm512_or_si512(_mm512_srli_epi16::<3>(t), _mm512_slli_epi16::<6>(t));
                let c2 = _mm512_or_si512(_mm512_slli_epi16::<3>(t), _mm512_srli_epi16::<6>(t));
                let keep = _mm512_and_si512(
                    t,
                    _mm512_or_si512(
                        _mm512_and_si512(turn(&ROW1, c1), turn(&ROW2, c2)),
                        _mm512_and_si512(turn(&ROW1, c2), turn(&ROW2, c1)),
                    ),
                );
                // A kept minirow belongs to a whole permutation: a digit
                // keeps one in every row of the band or in none. The three
                // bands' keeps are tested at once, through their minimum.
                least = _mm512_min_epu16(least, keep);
                let m = _mm512_and_si512(x, minirow_cells(keep));
                *mask = m;
                let alone = _mm512_testn_epi16_mask(m, _mm512_add_epi16(m, c!(-1)));
                *single = _mm512_maskz_mov_epi16(alone, m);
            }
            if _mm512_mask_testn_epi16_mask(LANES, least, least) != 0 {
                return Err(Contradiction);
            }
            Ok(s)
        }
    }

    /// The row singles' eliminations: a single's column leaves its digit
    /// in the three bands, and its cell leaves the other digits.
    #[inline(always)]
    fn eliminate(&mut self, s: [__m512i; 3]) {
        unsafe {
            let cc = [band_columns(s[0]), band_columns(s[1]), band_columns(s[2])];
            for b in 0..3 {
                let (o1, o2) = ((b + 1) % 3, (b + 2) % 3);
                // The cells fixed in each row, for any digit (the pair counts
                // go unused and are not computed).
                let (fixed, _) = one_two(s[b]);
                let own = _mm512_andnot_si512(s[b], _mm512_or_si512(cc[b], fixed));
                let gone = or3(cc[o1], cc[o2], own);
                self.m[b] = _mm512_andnot_si512(gone, self.m[b]);
            }
        }
    }

    /// The stack rule for every digit.
    #[inline(always)]
    fn stacks(&mut self) -> Result<(), Contradiction> {
        unsafe {
            let cols = [
                band_columns(self.m[0]),
                band_columns(self.m[1]),
                band_columns(self.m[2]),
            ];
            let j1 = |x: __m512i| {
                _mm512_or_si512(
                    _mm512_and_si512(_mm512_srli_epi16::<1>(x), c!(0o333)),
                    _mm512_and_si512(_mm512_slli_epi16::<2>(x), c!(0o444)),
                )
            };
            let j2 = |x: __m512i| {
                _mm512_or_si512(
                    _mm512_and_si512(_mm512_slli_epi16::<1>(x), c!(0o666)),
                    _mm512_and_si512(_mm512_srli_epi16::<2>(x), c!(0o111)),
                )
            };
            for b in 0..3 {
                let (p, q) = (cols[(b + 1) % 3], cols[(b + 2) % 3]);
                let keep = _mm512_and_si512(
                    cols[b],
                    _mm512_or_si512(
                        _mm512_and_si512(j1(p), j2(q)),
                        _mm512_and_si512(j2(p), j1(q)),
                    ),
                );
                if b == 0 {
                    let stacks = minirows(keep);
                    if _mm512_cmpneq_epi16_mask(stacks, c!(MINI)) & LANES != 0 {
                        return Err(Contradiction);
                    }
                }
                self.m[b] = _mm512_and_si512(self.m[b], keep);
            }
            Ok(())
        }
    }

    /// Naked singles: a cell with one candidate takes its digit's row.
    /// Returns each band's cells with two or more candidates before this
    /// step.
    #[inline(always)]
    fn naked(&mut self) -> Result<[__m512i; 3], Contradiction> {
        unsafe {
            let mut several = [_mm512_setzero_si512(); 3];
            for (mask, many) in self.m.iter_mut().zip(&mut several) {
                let m = *mask;
                let (one, two) = one_two(m);
                *many = two;
                let empty = _mm512_andnot_si512(one, c!(ROW));
                if _mm512_mask_test_epi16_mask(LANES, empty, empty) != 0 {
                    return Err(Contradiction);
                }
                let n = _mm512_and_si512(m, _mm512_andnot_si512(two, one));
                *mask = _mm512_mask_mov_epi16(m, _mm512_test_epi16_mask(n, n), n);
            }
            Ok(several)
        }
    }

    /// The cells fixed per band (bit `9 * row + column`), from the row
    /// singles and the cells with two or more candidates of the propagated
    /// masks; or a contradiction the rules leave standing: a cell fixed for
    /// two digits, or a naked single that is not fixed (two in one row for
    /// one digit).
    #[inline(always)]
    fn settled(singles: [__m512i; 3], several: [__m512i; 3]) -> Result<[u32; 3], Contradiction> {
        unsafe {
            let mut fixed = [0u32; 3];
            for ((f, s), many) in fixed.iter_mut().zip(singles).zip(several) {
                let (one, two) = one_two(s);
                let unsettled = _mm512_andnot_si512(_mm512_or_si512(many, one), c!(ROW));
                let bad = _mm512_or_si512(two, unsettled);
                if _mm512_mask_test_epi16_mask(LANES, bad, bad) != 0 {
                    return Err(Contradiction);
                }
                // Lanes 0, 1 and 2 hold rows 0, 1 and 2.
                let rows = _mm512_cvtsi512_si32(one) as u32;
                let third = _mm_extract_epi16::<2>(_mm512_castsi512_si128(one)) as u32;
                *f = (rows & 0x1FF) | ((rows >> 16) << 9) | (third << 18);
            }
            Ok(fixed)
        }
    }

    /// Propagates to the fixpoint of the rules: per step the band rule,
    /// the row singles' eliminations, naked singles and the stack rule,
    /// until a step after its band rule changes nothing; returns the fixed
    /// cells per band.
    ///
    /// What the band rule itself removes is not counted as a change: it
    /// keeps all it kept once (a kept minirow's whole permutation is kept),
    /// so when nothing after it changes anything, another step would find
    /// the same singles and change nothing. The change is one comparison of
    /// the masks after the band rule with those at the step's end.
    #[inline(always)]
    pub(super) fn propagate(&mut self) -> Result<[u32; 3], Contradiction> {
        loop {
            let singles = self.band_rule()?;
            let before = self.m;
            self.eliminate(singles);
            let several = self.naked()?;
            self.stacks()?;
            if Wide::same(&before, &self.m) {
                return Wide::settled(singles, several);
            }
        }
    }

    /// True when the two sets of masks are equal.
    #[inline(always)]
    fn same(a: &[__m512i; 3], b: &[__m512i; 3]) -> bool {
        unsafe {
            let differ = _mm512_or_si512(
                _mm512_xor_si512(a[0], b[0]),
                _mm512_or_si512(_mm512_xor_si512(a[1], b[1]), _mm512_xor_si512(a[2], b[2])),
            );
            _mm512_test_epi16_mask(differ, differ) == 0
        }
    }
}

/// The strong engine's candidates for a grid of few givens, built from its
/// cells in one go: what the singles engine's set-up and hand-over make of
/// such a grid (`Singles::new`, `Singles::boards`, `State::from_boards`),
/// each given's digit gone from its row, column and box, without the
/// bitboards. Returns the masks (index `9 * band + digit`, as
/// [`Wide::load`] takes them) and the open cells per band, or `None` when
/// a digit is given twice in a row, column or box.
#[inline(always)]
pub(super) fn from_givens(cells: &[u8; 81]) -> Option<([u32; 27], [u32; 3])> {
    unsafe {
        let mut givens = [0u32; 27];
        let mut open = [0u32; 3];
        for band in 0..3 {
            let v = _mm256_maskz_loadu_epi8((1 << 27) - 1, cells.as_ptr().add(27 * band).cast());
            open[band] = !_mm256_test_epi8_mask(v, v) & ((1 << 27) - 1);
            for digit in 0..9 {
                givens[9 * band + digit] =
                    _mm256_cmpeq_epi8_mask(v, _mm256_set1_epi8(digit as i8 + 1));
            }
        }
        let g = Wide::load(&givens).m;
        // Per lane, the digit's given columns in the band; the minirows of
        // the lane's givens; and the band's boxes holding the digit.
        let cols = [band_columns(g[0]), band_columns(g[1]), band_columns(g[2])];
        let mini = [minirows(g[0]), minirows(g[1]), minirows(g[2])];
        // A digit twice in a column (two bands, or two rows of one), a row
        // (a lane with two cells) or a box (two rows of a band).
        let mut twice = two_of(cols[0], cols[1], cols[2]);
        for band in 0..3 {
            let (x, t) = (g[band], mini[band]);
            let in_row = _mm512_and_si512(x, _mm512_add_epi16(x, c!(-1)));
            let in_column = two_of(x, turn(&ROW1, x), turn(&ROW2, x));
            let in_box = two_of(t, turn(&ROW1, t), turn(&ROW2, t));
            twice = _mm512_or_si512(twice, or3(in_row, in_column, in_box));
        }
        if _mm512_mask_test_epi16_mask(LANES, twice, twice) != 0 {
            return None;
        }
        // A lane holding a given keeps it alone; another keeps its row's
        // open cells outside the digit's given columns and boxes.
        let columns = or3(cols[0], cols[1], cols[2]);
        let mut masks = [_mm512_setzero_si512(); 3];
        for band in 0..3 {
            let x = g[band];
            let (filled, _) = one_two(x);
            let box_cells = minirow_cells(band_columns(mini[band]));
            let left = _mm512_andnot_si512(or3(columns, filled, box_cells), c!(ROW));
            let left = _mm512_maskz_mov_epi16(LANES, left);
            masks[band] = _mm512_mask_mov_epi16(left, _mm512_test_epi16_mask(x, x), x);
        }
        let mut cand = [0u32; 27];
        Wide { m: masks }.store(&mut cand);
        Some((cand, open))
    }
}
