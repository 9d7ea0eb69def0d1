//! The strong engine's propagation at the AVX2 level: the same rules, in
//! the same steps and order, as `wide` (the AVX-512 level), so it stops at
//! the same states and finds the same contradictions; only the layout
//! differs. One 256-bit vector per digit of 16 16-bit lanes, lane
//! `4 * band + row` holding the digit's 9-bit column set in that row of
//! the band (lanes 3, 7 and 11..16 stay empty).
//!
//! AVX2 has no word permutation across a whole vector, but in this layout
//! none is needed:
//! - across the digits (naked singles, the cells a row single fixes) is
//!   across the nine vectors: plain bit logic, no shuffle at all;
//! - across the rows of a band (the band rule, a band's columns) stays
//!   within a 64-bit quarter: one byte shuffle (`vpshufb`);
//! - across the bands (the stack rule, a single's column) moves whole
//!   quarters: one 64-bit permutation (`vpermq`) with an immediate.
//!
//! The price is more vectors (nine of 256 bits, a bit over half their
//! lanes in use, against three of 512 bits) and so more instructions per
//! round than at the AVX-512 level.
//!
//! Everything here runs only inside functions compiled for AVX2 (with
//! BMI1/2, LZCNT and POPCNT), on a CPU that has it: it is reached only from
//! the fast solver's AVX2 level.

use std::arch::x86_64::*;

/// The bytes of the lanes holding a row (lanes 0-2, 4-6 and 8-10), as
/// `_mm256_movemask_epi8` reports them.
const ROW_BYTES: i32 = 0x3F_3F3F;
/// The bytes of band 0's rows (lanes 0-2).
const BAND0_BYTES: i32 = 0x3F;
/// The nine cells of a row.
const ROW: i16 = 0x1FF;
/// The first cell of each of a row's three minirows.
const MINI: i16 = 0o111;
/// All 27 cells of a band.
const BAND: u32 = (1 << 27) - 1;
/// `vpermq` immediate: band `b` takes band `(b + 1) % 3`, the fourth
/// quarter (empty) stays.
const BAND1: i32 = 0b11_00_10_01;
/// `vpermq` immediate: band `b` takes band `(b + 2) % 3`.
const BAND2: i32 = 0b11_01_00_10;

/// No solution.
pub(super) struct Contradiction;

/// A vector with every 16-bit lane `x`.
#[inline(always)]
fn c(x: i16) -> __m256i {
    unsafe { _mm256_set1_epi16(x) }
}

/// A vector with every 64-bit lane `x`.
#[inline(always)]
fn c64(x: i64) -> __m256i {
    unsafe { _mm256_set1_epi64x(x) }
}

/// The lanes holding a row, each the row's nine cells; the others empty.
#[inline(always)]
fn rows() -> __m256i {
    unsafe {
        _mm256_setr_epi16(
            ROW, ROW, ROW, 0, ROW, ROW, ROW, 0, ROW, ROW, ROW, 0, 0, 0, 0, 0,
        )
    }
}

/// A byte index of `_mm256_shuffle_epi8` that clears its byte.
const Z: i8 = -128;

/// Lane `4 * b + r` takes lane `4 * b + (r + K) % 3` (`K` 1 or 2), the
/// same band's row `K` further on; the fourth lane of each band is cleared.
/// That lane is empty in every vector of the layout, so clearing it costs
/// nothing, and it makes the shuffle one `vpshufb`: a shuffle keeping it
/// is compiled as two word shuffles (`vpshuflw`, `vpshufhw`).
#[inline(always)]
fn row_turn<const K: usize>(v: __m256i) -> __m256i {
    unsafe {
        let order = if K == 1 {
            _mm256_setr_epi8(
                2, 3, 4, 5, 0, 1, Z, Z, 10, 11, 12, 13, 8, 9, Z, Z, 2, 3, 4, 5, 0, 1, Z, Z, 10, 11,
                12, 13, 8, 9, Z, Z,
            )
        } else {
            _mm256_setr_epi8(
                4, 5, 0, 1, 2, 3, Z, Z, 12, 13, 8, 9, 10, 11, Z, Z, 4, 5, 0, 1, 2, 3, Z, Z, 12, 13,
                8, 9, 10, 11, Z, Z,
            )
        };
        _mm256_shuffle_epi8(v, order)
    }
}

/// Each band's row `R` in its three rows; the fourth lane is cleared (as
/// in [`row_turn`]).
#[inline(always)]
fn row_spread<const R: usize>(v: __m256i) -> __m256i {
    unsafe {
        let order = match R {
            0 => _mm256_setr_epi8(
                0, 1, 0, 1, 0, 1, Z, Z, 8, 9, 8, 9, 8, 9, Z, Z, 0, 1, 0, 1, 0, 1, Z, Z, 8, 9, 8, 9,
                8, 9, Z, Z,
            ),
            1 => _mm256_setr_epi8(
                2, 3, 2, 3, 2, 3, Z, Z, 10, 11, 10, 11, 10, 11, Z, Z, 2, 3, 2, 3, 2, 3, Z, Z, 10,
                11, 10, 11, 10, 11, Z, Z,
            ),
            _ => _mm256_setr_epi8(
                4, 5, 4, 5, 4, 5, Z, Z, 12, 13, 12, 13, 12, 13, Z, Z, 4, 5, 4, 5, 4, 5, Z, Z, 12,
                13, 12, 13, 12, 13, Z, Z,
            ),
        };
        _mm256_shuffle_epi8(v, order)
    }
}

/// Band `b` takes band `(b + 1) % 3`.
#[inline(always)]
fn band_turn1(v: __m256i) -> __m256i {
    unsafe { _mm256_permute4x64_epi64::<BAND1>(v) }
}

/// Band `b` takes band `(b + 2) % 3`.
#[inline(always)]
fn band_turn2(v: __m256i) -> __m256i {
    unsafe { _mm256_permute4x64_epi64::<BAND2>(v) }
}

/// `a & b`.
#[inline(always)]
fn and(a: __m256i, b: __m256i) -> __m256i {
    unsafe { _mm256_and_si256(a, b) }
}

/// `a | b`.
#[inline(always)]
fn or(a: __m256i, b: __m256i) -> __m256i {
    unsafe { _mm256_or_si256(a, b) }
}

/// `!a & b`.
#[inline(always)]
fn andnot(a: __m256i, b: __m256i) -> __m256i {
    unsafe { _mm256_andnot_si256(a, b) }
}

/// `a | b | c`.
#[inline(always)]
fn or3(a: __m256i, b: __m256i, c: __m256i) -> __m256i {
    or(or(a, b), c)
}

/// At least two of `a`, `b` and `c`.
#[inline(always)]
fn two_of(a: __m256i, b: __m256i, c: __m256i) -> __m256i {
    or(and(a, or(b, c)), and(b, c))
}

/// The lanes of `v` equal to zero, all ones each, the others zero.
#[inline(always)]
fn is_zero(v: __m256i) -> __m256i {
    unsafe { _mm256_cmpeq_epi16(v, _mm256_setzero_si256()) }
}

/// True when some lane of `v` is not zero.
#[inline(always)]
fn any(v: __m256i) -> bool {
    unsafe { _mm256_testz_si256(v, v) == 0 }
}

/// Each band's digit's columns (the same in the band's three lanes).
#[inline(always)]
fn band_columns(m: __m256i) -> __m256i {
    or3(m, row_turn::<1>(m), row_turn::<2>(m))
}

/// Across the nine digits, per row: (cells in any vector, cells in two or
/// more).
#[inline(always)]
fn one_two(v: &[__m256i; 9]) -> (__m256i, __m256i) {
    let (mut one, mut two) = (v[0], unsafe { _mm256_setzero_si256() });
    for &x in &v[1..] {
        two = or(two, and(one, x));
        one = or(one, x);
    }
    (one, two)
}

/// Per lane, the cell of a row holding exactly one (none in the others).
#[inline(always)]
fn row_singles(m: __m256i) -> __m256i {
    unsafe { and(m, is_zero(and(m, _mm256_add_epi16(m, c(-1))))) }
}

/// Per lane, the minirows holding a cell (in a lane of columns, the
/// stacks): bit `3 * box` of the lane.
#[inline(always)]
fn minirows(x: __m256i) -> __m256i {
    unsafe {
        and(
            or3(x, _mm256_srli_epi16::<1>(x), _mm256_srli_epi16::<2>(x)),
            c(MINI),
        )
    }
}

/// Per lane, the cells of the minirows `t` marks (bit `3 * box` each).
#[inline(always)]
fn minirow_cells(t: __m256i) -> __m256i {
    unsafe { or3(t, _mm256_slli_epi16::<1>(t), _mm256_slli_epi16::<2>(t)) }
}

/// A band mask (bit `9 * row + column`) spread into 16-bit rows, row `r`
/// in word `r`: [`pack`] undone.
#[inline(always)]
fn spread(m: u32) -> i64 {
    let m = u64::from(m);
    ((m & 0x1FF) | ((m & 0x3_FE00) << 7) | ((m & 0x7FC_0000) << 14)) as i64
}

/// Each 64-bit lane's rows (word `r` row `r`) packed into a band mask
/// (bit `9 * row + column`) in the lane's low half: [`spread`] undone.
#[inline(always)]
fn pack(u: __m256i) -> __m256i {
    unsafe {
        or3(
            and(u, c64(0x1FF)),
            and(_mm256_srli_epi64::<7>(u), c64(0x3_FE00)),
            and(_mm256_srli_epi64::<14>(u), c64(0x7FC_0000)),
        )
    }
}

/// Per lane, each stack's columns turned by one: column `3 * s + i` takes
/// column `3 * s + (i + 1) % 3`.
#[inline(always)]
fn column_turn1(x: __m256i) -> __m256i {
    unsafe {
        or(
            and(_mm256_srli_epi16::<1>(x), c(0o333)),
            and(_mm256_slli_epi16::<2>(x), c(0o444)),
        )
    }
}

/// The 27 masks of eight digits of band `b` (digits 0..8) spread into rows
/// as 64-bit lanes: (digits 0, 1 | 4, 5) and (digits 2, 3 | 6, 7).
#[inline(always)]
fn spread_band(cand: &[u32; 27], b: usize) -> (__m256i, __m256i) {
    unsafe {
        let y = _mm256_loadu_si256(cand.as_ptr().add(9 * b).cast());
        let row = _mm256_set1_epi32(0x1FF);
        let first_two = or(
            and(y, row),
            and(_mm256_slli_epi32::<7>(y), _mm256_set1_epi32(0x1FF << 16)),
        );
        let third = and(_mm256_srli_epi32::<18>(y), row);
        (
            _mm256_unpacklo_epi32(first_two, third),
            _mm256_unpackhi_epi32(first_two, third),
        )
    }
}

/// The candidates, one vector per digit.
#[derive(Clone, Copy, Debug)]
pub(super) struct Wide {
    m: [__m256i; 9],
}

impl Wide {
    /// Loads the 27 band masks (index `9 * band + digit`, bit
    /// `9 * row + column`).
    #[inline(always)]
    pub(super) fn load(cand: &[u32; 27]) -> Wide {
        unsafe {
            let zero = _mm256_setzero_si256();
            let mut m = [zero; 9];
            let (a0, h0) = spread_band(cand, 0);
            let (a1, h1) = spread_band(cand, 1);
            let (a2, h2) = spread_band(cand, 2);
            // `a` holds digits (0, 1 | 4, 5), `h` digits (2, 3 | 6, 7).
            for (first, x0, x1, x2) in [(0, a0, a1, a2), (2, h0, h1, h2)] {
                let p = _mm256_unpacklo_epi64(x0, x1);
                let q = _mm256_unpacklo_epi64(x2, zero);
                m[first] = _mm256_permute2x128_si256::<0x20>(p, q);
                m[first + 4] = _mm256_permute2x128_si256::<0x31>(p, q);
                let p = _mm256_unpackhi_epi64(x0, x1);
                let q = _mm256_unpackhi_epi64(x2, zero);
                m[first + 1] = _mm256_permute2x128_si256::<0x20>(p, q);
                m[first + 5] = _mm256_permute2x128_si256::<0x31>(p, q);
            }
            m[8] = _mm256_setr_epi64x(spread(cand[8]), spread(cand[17]), spread(cand[26]), 0);
            Wide { m }
        }
    }

    /// Stores the 27 band masks back.
    #[inline(always)]
    pub(super) fn store(&self, cand: &mut [u32; 27]) {
        unsafe {
            // Two digits' masks per 64-bit lane, one band each:
            // (band 0 | band 1 || band 2 | -).
            let m = &self.m;
            let p01 = or(pack(m[0]), _mm256_slli_epi64::<32>(pack(m[1])));
            let p23 = or(pack(m[2]), _mm256_slli_epi64::<32>(pack(m[3])));
            let p45 = or(pack(m[4]), _mm256_slli_epi64::<32>(pack(m[5])));
            let p67 = or(pack(m[6]), _mm256_slli_epi64::<32>(pack(m[7])));
            // Bands 0 and 2 of digits 0..4, band 1 of them; then 4..8.
            let (lo03, hi03) = (
                _mm256_unpacklo_epi64(p01, p23),
                _mm256_unpackhi_epi64(p01, p23),
            );
            let (lo47, hi47) = (
                _mm256_unpacklo_epi64(p45, p67),
                _mm256_unpackhi_epi64(p45, p67),
            );
            let out = cand.as_mut_ptr();
            let bands = [
                _mm256_permute2x128_si256::<0x20>(lo03, lo47),
                _mm256_permute2x128_si256::<0x20>(hi03, hi47),
                _mm256_permute2x128_si256::<0x31>(lo03, lo47),
            ];
            for (b, v) in bands.into_iter().enumerate() {
                _mm256_storeu_si256(out.add(9 * b).cast(), v);
            }
            let last = pack(m[8]);
            cand[8] = _mm256_extract_epi64::<0>(last) as u32;
            cand[17] = _mm256_extract_epi64::<1>(last) as u32;
            cand[26] = _mm256_extract_epi64::<2>(last) as u32;
        }
    }

    /// The band rule and the hidden singles in rows it leaves, for the
    /// digits `todo` names (bit `d` for digit `d + 1`): each one's mask and
    /// row singles (`s`) are brought up to date. The rule is idempotent, so
    /// a digit whose mask is unchanged since its last pass is left alone.
    /// Returns true when a digit's row singles changed.
    #[inline(always)]
    fn band_rule(&mut self, mut todo: u32, s: &mut [__m256i; 9]) -> Result<bool, Contradiction> {
        unsafe {
            let mut least = c(-1);
            let mut new_singles = _mm256_setzero_si256();
            while todo != 0 {
                let d = todo.trailing_zeros() as usize;
                todo &= todo - 1;
                let x = self.m[d];
                let t = minirows(x);
                // Each row's minirows turned by one and two boxes; the bits
                // shifted past the row are cleared with `t` below.
                let c1 = or(_mm256_srli_epi16::<3>(t), _mm256_slli_epi16::<6>(t));
                let c2 = or(_mm256_slli_epi16::<3>(t), _mm256_srli_epi16::<6>(t));
                // Rows `r + 1` and `r + 2` hold the other two boxes: turned
                // once more after the pairing, three shuffles in all.
                let keep = and(
                    t,
                    row_turn::<1>(or(and(c1, row_turn::<1>(c2)), and(c2, row_turn::<1>(c1)))),
                );
                // A kept minirow belongs to a whole permutation: a digit
                // keeps one in every row of the band or in none. The
                // digits' keeps are tested at once, through their minimum.
                least = _mm256_min_epu16(least, keep);
                let m = and(x, minirow_cells(keep));
                self.m[d] = m;
                let single = row_singles(m);
                new_singles = or(new_singles, _mm256_xor_si256(single, s[d]));
                s[d] = single;
            }
            if _mm256_movemask_epi8(is_zero(least)) & ROW_BYTES != 0 {
                return Err(Contradiction);
            }
            Ok(any(new_singles))
        }
    }

    /// The row singles' eliminations: a single's column leaves its digit
    /// in the three bands, and its cell leaves the other digits.
    #[inline(always)]
    fn eliminate(&mut self, s: &[__m256i; 9]) {
        // The cells fixed in each row, for any digit.
        let mut fixed = s[0];
        for &x in &s[1..] {
            fixed = or(fixed, x);
        }
        for (mask, &single) in self.m.iter_mut().zip(s) {
            let cc = band_columns(single);
            let other_bands = or(band_turn1(cc), band_turn2(cc));
            let own = andnot(single, or(cc, fixed));
            *mask = andnot(or(other_bands, own), *mask);
        }
    }

    /// The stack rule for every digit.
    #[inline(always)]
    fn stacks(&mut self) -> Result<(), Contradiction> {
        unsafe {
            let mut differ = _mm256_setzero_si256();
            // A band's columns are the same in its three rows: three
            // digits share a vector, digit `3 * k + r` in row `r`.
            for k in 0..3 {
                let m = &mut self.m[3 * k..3 * k + 3];
                // Row `r` of `rows(a, b, c)` from `a`, `b`, `c` for `r` 0, 1,
                // 2: the three vectors hold each digit's three rows in its
                // own lane, turned into place, so that two turns make the
                // columns of all three digits (instead of two per digit).
                let rows =
                    |a, b, c| _mm256_blend_epi16::<0x44>(_mm256_blend_epi16::<0x22>(a, b), c);
                let cols = or3(
                    rows(m[0], m[1], m[2]),
                    row_turn::<1>(rows(m[2], m[0], m[1])),
                    row_turn::<2>(rows(m[1], m[2], m[0])),
                );
                let (p, q) = (band_turn1(cols), band_turn2(cols));
                // Column `c` is kept when the two other bands take columns
                // `c + 1` and `c + 2` of the stack, in either order: the
                // turn distributes over `and`, so three turns, not four.
                let keep = and(
                    cols,
                    column_turn1(or(and(p, column_turn1(q)), and(column_turn1(p), q))),
                );
                differ = or(differ, _mm256_xor_si256(minirows(keep), c(MINI)));
                m[0] = and(m[0], row_spread::<0>(keep));
                m[1] = and(m[1], row_spread::<1>(keep));
                m[2] = and(m[2], row_spread::<2>(keep));
            }
            // Tested on band 0, as at the AVX-512 level.
            if _mm256_movemask_epi8(is_zero(differ)) & BAND0_BYTES != BAND0_BYTES {
                return Err(Contradiction);
            }
            Ok(())
        }
    }

    /// Naked singles: a cell with one candidate takes its digit's row.
    /// Returns the cells with two or more candidates before this step.
    #[inline(always)]
    fn naked(&mut self) -> Result<__m256i, Contradiction> {
        let (one, two) = one_two(&self.m);
        let empty = andnot(one, rows());
        if any(empty) {
            return Err(Contradiction);
        }
        let lone = andnot(two, one);
        for mask in &mut self.m {
            // The lone cells where the lane has one, else the lane.
            let n = and(*mask, lone);
            *mask = unsafe { _mm256_blendv_epi8(n, *mask, is_zero(n)) };
        }
        Ok(two)
    }

    /// The cells fixed per band (bit `9 * row + column`), from the row
    /// singles and the cells with two or more candidates of the propagated
    /// masks; or a contradiction the rules leave standing: a cell fixed for
    /// two digits, or a naked single that is not fixed (two in one row for
    /// one digit).
    #[inline(always)]
    fn settled(singles: &[__m256i; 9], several: __m256i) -> Result<[u32; 3], Contradiction> {
        unsafe {
            let (one, two) = one_two(singles);
            let unsettled = andnot(or(several, one), rows());
            if any(or(two, unsettled)) {
                return Err(Contradiction);
            }
            let fixed = pack(one);
            Ok([
                _mm256_extract_epi64::<0>(fixed) as u32,
                _mm256_extract_epi64::<1>(fixed) as u32,
                _mm256_extract_epi64::<2>(fixed) as u32,
            ])
        }
    }

    /// Propagates to the fixpoint of the rules, step by step as `wide`
    /// does: per step the band rule, the row singles' eliminations, naked
    /// singles and the stack rule, until a step after its band rule changes
    /// nothing; returns the fixed cells per band. (Running the stack rule
    /// only once the other rules had settled took fewer instructions with
    /// the eliminations narrowed to the changed singles, more without, and
    /// its branch cost mispredictions: not kept.)
    ///
    /// Steps whose inputs are unchanged since they last ran are skipped,
    /// which reaches the same fixpoint (every rule only removes candidates,
    /// and a second pass of a rule over its own result removes nothing):
    /// the band rule runs only for the digits whose masks changed since
    /// their last band rule, and the singles' eliminations only when a row
    /// single changed (the same singles remove nothing more from masks they
    /// already left). On the hardest sets this takes an eighth off the
    /// instructions of the whole search (callgrind); testing the naked
    /// singles and the stack rule for change too cost more than it saved.
    /// Going over the columns of the changed singles alone took 3 % fewer
    /// instructions but 10 % more time (a loop over unpredictable digits).
    ///
    /// `digits` (bit `d` for digit `d + 1`) names the digits whose masks
    /// changed since the masks were last propagated, all of them for masks
    /// never propagated: the others are where the band rule left them, so
    /// the first step runs it for these alone. After a guess in a bivalue
    /// cell that is two or three digits of nine. The first step's
    /// eliminations always run: the guess's own single is new.
    #[inline(always)]
    pub(super) fn propagate(&mut self, digits: u32) -> Result<[u32; 3], Contradiction> {
        // The row singles of the digits the band rule skips, as it left
        // them; those of the others are remade by it.
        // Built in a loop, not copied from `self.m` (a call to `memcpy`)
        // nor by `std::array::from_fn` (left out of line, where the
        // intrinsics cannot inline, in some builds).
        let mut singles = [unsafe { _mm256_setzero_si256() }; 9];
        for (single, &x) in singles.iter_mut().zip(&self.m) {
            *single = row_singles(x);
        }
        self.propagate_with(digits, &mut singles)
    }

    /// [`Wide::propagate`] with the row singles (`singles`, per digit) of
    /// the masks as the band rule last left them, kept from the last
    /// propagation for the digits not in `digits` (those of the others
    /// are remade, whatever they hold); on success, they are those of the
    /// propagated masks.
    #[inline(always)]
    fn propagate_with(
        &mut self,
        digits: u32,
        singles: &mut [__m256i; 9],
    ) -> Result<[u32; 3], Contradiction> {
        let mut todo = digits;
        let mut first = true;
        loop {
            let new_singles = self.band_rule(todo, singles)?;
            let before = self.m;
            if new_singles || first {
                self.eliminate(singles);
            }
            first = false;
            let several = self.naked()?;
            self.stacks()?;
            todo = Wide::changed(&before, &self.m);
            if todo == 0 {
                return Wide::settled(singles, several);
            }
        }
    }

    /// The cells with exactly two candidates, per band (bit
    /// `9 * row + column`): once propagated, the bivalue cells of the
    /// stored masks (`State::bivalue`), without their scalar count.
    #[inline(always)]
    pub(super) fn bivalue(&self) -> [u32; 3] {
        unsafe {
            let m = &self.m;
            let zero = _mm256_setzero_si256();
            let (mut one, mut two, mut three) = (m[0], zero, zero);
            for &x in &m[1..] {
                three = or(three, and(two, x));
                two = or(two, and(one, x));
                one = or(one, x);
            }
            let bivalue = pack(andnot(three, two));
            [
                _mm256_extract_epi64::<0>(bivalue) as u32,
                _mm256_extract_epi64::<1>(bivalue) as u32,
                _mm256_extract_epi64::<2>(bivalue) as u32,
            ]
        }
    }

    /// The digits (bit `d` for digit `d + 1`) whose masks differ.
    #[inline(always)]
    fn changed(a: &[__m256i; 9], b: &[__m256i; 9]) -> u32 {
        nonzero_digits(|d| unsafe { _mm256_xor_si256(a[d], b[d]) })
    }
}

/// The digits `d` (bit `d`) whose vector `x(d)` (of 9-bit lanes) is not
/// zero.
///
/// The vectors of digits 0..8 are narrowed by saturating packs (a lane's 9
/// bits, then pairs of lanes, are one byte, zero exactly when they are)
/// into one vector, two bytes per digit and 128-bit half, read with one
/// mask: fewer instructions than a test per digit.
#[inline(always)]
fn nonzero_digits(x: impl Fn(usize) -> __m256i) -> u32 {
    unsafe {
        // Bytes of `p01`: per half, digit 0's eight lanes, then digit
        // 1's; of the packs of two such: per half, four bytes per digit
        // 0..4; of `r`: per half, two bytes per digit 0..8.
        let p01 = _mm256_packs_epi16(x(0), x(1));
        let p23 = _mm256_packs_epi16(x(2), x(3));
        let p45 = _mm256_packs_epi16(x(4), x(5));
        let p67 = _mm256_packs_epi16(x(6), x(7));
        let r = _mm256_packs_epi16(_mm256_packs_epi16(p01, p23), _mm256_packs_epi16(p45, p67));
        let zero = _mm256_cmpeq_epi8(r, _mm256_setzero_si256());
        let differ = !(_mm256_movemask_epi8(zero) as u32);
        let halves = (differ | differ >> 16) & 0xFFFF;
        let pairs = halves | halves >> 1;
        _pext_u32(pairs, 0x5555) | u32::from(any(x(8))) << 8
    }
}

/// Lane `4 * band + row` of a vector all ones, the others zero: the lane of
/// a band mask's bit `bit` (bit `9 * row + column`); with the bit's column.
#[inline(always)]
fn lane_of(band: usize, bit: u32) -> (__m256i, __m256i) {
    unsafe {
        let pos = bit.trailing_zeros();
        let lane = 4 * band as i16 + (pos / 9) as i16;
        let lanes = _mm256_setr_epi16(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
        let row = _mm256_cmpeq_epi16(lanes, c(lane));
        (row, and(row, c(1 << (pos % 9))))
    }
}

/// The AVX2 search's node: the candidates as vectors from one guess to the
/// next, and the open cells per band (bit `9 * row + column`) as the last
/// propagation left them.
#[derive(Clone, Copy, Debug)]
pub(super) struct Node {
    wide: Wide,
    /// The row singles of the masks per digit, as the last propagation
    /// left them: a guess changes the masks of its cell's digits alone, so
    /// the others' need not be made again ([`Wide::propagate_with`]).
    singles: [__m256i; 9],
    unsolved: [u32; 3],
}

impl Node {
    /// The node for the band masks (index `9 * band + digit`) and open
    /// cells of a state.
    #[inline(always)]
    pub(super) fn new(cand: &[u32; 27], unsolved: [u32; 3]) -> Node {
        Node {
            wide: Wide::load(cand),
            // Never read: the first propagation runs the band rule for
            // every digit.
            singles: [unsafe { _mm256_setzero_si256() }; 9],
            unsolved,
        }
    }

    /// [`Wide::propagate`], keeping the open cells.
    #[inline(always)]
    pub(super) fn propagate(&mut self, digits: u32) -> Result<(), Contradiction> {
        let fixed = self.wide.propagate_with(digits, &mut self.singles)?;
        self.unsolved = fixed.map(|f| BAND & !f);
        Ok(())
    }

    /// The open cells per band.
    #[inline(always)]
    pub(super) fn unsolved(&self) -> [u32; 3] {
        self.unsolved
    }

    /// Copies the node into `to` vector by vector: a plain copy of its
    /// 600 bytes is a call to `memcpy`, whose size branches mispredict.
    #[inline(always)]
    pub(super) fn copy_to(&self, to: &mut Node) {
        for (to, &from) in to.wide.m.iter_mut().zip(&self.wide.m) {
            // SAFETY: `to` is a valid, aligned `__m256i`; the volatile store
            // keeps the stores from being merged into a `memcpy`.
            unsafe { std::ptr::write_volatile(to, from) };
        }
        for (to, &from) in to.singles.iter_mut().zip(&self.singles) {
            // SAFETY: as above.
            unsafe { std::ptr::write_volatile(to, from) };
        }
        to.unsolved = self.unsolved;
    }

    /// [`Wide::bivalue`].
    #[inline(always)]
    pub(super) fn bivalue(&self) -> [u32; 3] {
        self.wide.bivalue()
    }

    /// [`Wide::store`].
    #[inline(always)]
    pub(super) fn store(&self, cand: &mut [u32; 27]) {
        self.wide.store(cand);
    }

    /// The candidates (bit `d` for digit `d + 1`) of the cell at bit `bit`
    /// of band `band`.
    #[inline(always)]
    pub(super) fn digits_at(&self, band: usize, bit: u32) -> u16 {
        let (_, cell) = lane_of(band, bit);
        nonzero_digits(|d| and(self.wide.m[d], cell)) as u16
    }

    /// Places `digit` at the cell at bit `bit` of band `band`, a candidate
    /// there: the other cells of its row lose the digit and the cell loses
    /// the other digits (as the band masks' placement does).
    #[inline(always)]
    pub(super) fn place(&mut self, digit: usize, band: usize, bit: u32) {
        let (row, cell) = lane_of(band, bit);
        for x in &mut self.wide.m {
            *x = andnot(cell, *x);
        }
        self.wide.m[digit] = or(andnot(row, self.wide.m[digit]), cell);
    }
}

/// The band's cells (bytes 0..27 of `v`) holding `value`.
#[inline(always)]
fn cells_of(v: __m256i, value: i8) -> u32 {
    unsafe { _mm256_movemask_epi8(_mm256_cmpeq_epi8(v, _mm256_set1_epi8(value))) as u32 & BAND }
}

/// The strong engine's candidates for a grid of few givens, built from its
/// cells in one go, as `wide::from_givens` builds them at the AVX-512
/// level (the same masks and open cells): each given's digit gone from its
/// row, column and box. Returns the masks (index `9 * band + digit`) and
/// the open cells per band, or `None` when a digit is given twice in a
/// row, column or box.
#[inline(always)]
pub(super) fn from_givens(cells: &[u8; 81]) -> Option<([u32; 27], [u32; 3])> {
    unsafe {
        // Room for a 32-byte load at each band's first cell.
        let mut padded = [0u8; 96];
        padded[..81].copy_from_slice(cells);
        let mut givens = [0u32; 27];
        let mut open = [0u32; 3];
        for band in 0..3 {
            let v = _mm256_loadu_si256(padded.as_ptr().add(27 * band).cast());
            open[band] = cells_of(v, 0);
            for digit in 0..9 {
                givens[9 * band + digit] = cells_of(v, digit as i8 + 1);
            }
        }
        let g = Wide::load(&givens).m;
        // A digit twice in a column (two bands, or two rows of one), a row
        // (a lane with two cells) or a box (two rows of a band).
        let mut twice = _mm256_setzero_si256();
        for &x in &g {
            let cols = band_columns(x);
            let t = minirows(x);
            let across = two_of(cols, band_turn1(cols), band_turn2(cols));
            let in_row = and(x, _mm256_add_epi16(x, c(-1)));
            let in_column = two_of(x, row_turn::<1>(x), row_turn::<2>(x));
            let in_box = two_of(t, row_turn::<1>(t), row_turn::<2>(t));
            twice = or(twice, or(or(across, in_row), or(in_column, in_box)));
        }
        if any(twice) {
            return None;
        }
        // A lane holding a given keeps it alone; another keeps its row's
        // open cells outside the digit's given columns and boxes.
        let (filled, _) = one_two(&g);
        let mut masks = g;
        for mask in &mut masks {
            let x = *mask;
            let cols = band_columns(x);
            let columns = or3(cols, band_turn1(cols), band_turn2(cols));
            let box_cells = minirow_cells(band_columns(minirows(x)));
            let left = andnot(or3(columns, filled, box_cells), rows());
            *mask = or(x, and(left, is_zero(x)));
        }
        let mut cand = [0u32; 27];
        Wide { m: masks }.store(&mut cand);
        Some((cand, open))
    }
}
