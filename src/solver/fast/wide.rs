//! The strong engine's propagation at the AVX-512 level: the rules of
//! `band` applied to all nine digits of a band at once, one 512-bit vector
//! per band (lane `d` for digit `d + 1`; lanes 9..16 stay empty).
//!
//! Where `band`'s scalar propagation keeps a queue of changed masks and
//! updates them one by one through table look-ups, this one applies every
//! rule to every mask in rounds of branch-free bit logic:
//! - *band rule*: a minirow keeps the digit when the two other rows and two
//!   other boxes still hold a matching pair of minirows (the permutation
//!   table of `band`, written as rotations of the minirow bits);
//! - *row singles*: a row left with one cell fixes it; the cell's column
//!   leaves the digit in the three bands and the cell leaves the other
//!   digits;
//! - when a round changes nothing: the *stack rule* (the band rule turned
//!   90 degrees) and *naked singles*.
//!
//! The rules only remove candidates, so both propagations stop at the same
//! state, the largest one every rule leaves unchanged: the search takes the
//! same guesses on both, which the tests check. Rounds cost more work than
//! the scalar queue but no table look-ups or unpredictable branches; on
//! 17-clue puzzles, where propagation from the givens runs through long
//! chains of deductions, they are about 1.3 times as fast.
//!
//! Everything here runs only inside functions compiled for AVX-512 (F, BW,
//! VL, DQ, CD), on a CPU that has it: `search::<true>` is reached only
//! from the fast solver's AVX-512 level.

use std::arch::x86_64::*;

/// All 27 cells of a band.
const BAND: i32 = (1 << 27) - 1;
/// The first cell of each of the band's nine minirows (bit `9 * row + 3 * box`).
const MINI: i32 = 0x49 | 0x49 << 9 | 0x49 << 18;
/// The minirow bits of the first, second and third box of each row.
const BOX0: i32 = 0x40201;
const BOX1: i32 = BOX0 << 3;
const BOX2: i32 = BOX0 << 6;
/// The cells of each row of a band.
const ROW: [i32; 3] = [0x1FF, 0x1FF << 9, 0x1FF << 18];
/// The lanes holding a digit.
const DIGITS: __mmask16 = 0x1FF;

/// No solution.
pub(super) struct Contradiction;

/// A vector with every lane `$x`.
macro_rules! c {
    ($x:expr) => {
        _mm512_set1_epi32($x)
    };
}

/// `a | b | c`.
#[inline(always)]
fn or3(a: __m512i, b: __m512i, c: __m512i) -> __m512i {
    unsafe { _mm512_or_si512(_mm512_or_si512(a, b), c) }
}

/// The 9-bit set of columns each lane's band mask has cells in.
#[inline(always)]
fn columns(m: __m512i) -> __m512i {
    unsafe {
        _mm512_and_si512(
            or3(m, _mm512_srli_epi32::<9>(m), _mm512_srli_epi32::<18>(m)),
            c!(0x1FF),
        )
    }
}

/// The band's cells in each lane's 9-bit column set.
#[inline(always)]
fn spread(c: __m512i) -> __m512i {
    unsafe { or3(c, _mm512_slli_epi32::<9>(c), _mm512_slli_epi32::<18>(c)) }
}

/// The lanes' row singles: the cells alone in their row of the band.
#[inline(always)]
fn row_singles(m: __m512i) -> __m512i {
    unsafe {
        let one = c!(1);
        let mut single = _mm512_setzero_si512();
        for row in ROW {
            let f = _mm512_and_si512(m, c!(row));
            let rest = _mm512_and_si512(f, _mm512_sub_epi32(f, one));
            let alone = _mm512_testn_epi32_mask(rest, rest);
            single = _mm512_mask_or_epi32(single, alone, single, f);
        }
        single
    }
}

/// Across the lanes: (cells in any lane, cells in two or more), in every
/// lane.
#[inline(always)]
fn one_two(v: __m512i) -> (__m512i, __m512i) {
    unsafe {
        let mut one = v;
        let mut two = _mm512_setzero_si512();
        macro_rules! step {
            ($shuffle:expr) => {
                let o = $shuffle(one);
                let t = $shuffle(two);
                two = or3(two, t, _mm512_and_si512(one, o));
                one = _mm512_or_si512(one, o);
            };
        }
        step!(|x| _mm512_shuffle_i32x4::<0b01_00_11_10>(x, x));
        step!(|x| _mm512_shuffle_i32x4::<0b10_11_00_01>(x, x));
        step!(|x| _mm512_shuffle_epi32::<0b01_00_11_10>(x));
        step!(|x| _mm512_shuffle_epi32::<0b10_11_00_01>(x));
        (one, two)
    }
}

/// OR across the lanes, in every lane.
#[inline(always)]
fn any(v: __m512i) -> __m512i {
    unsafe {
        let v = _mm512_or_si512(v, _mm512_shuffle_i32x4::<0b01_00_11_10>(v, v));
        let v = _mm512_or_si512(v, _mm512_shuffle_i32x4::<0b10_11_00_01>(v, v));
        let v = _mm512_or_si512(v, _mm512_shuffle_epi32::<0b01_00_11_10>(v));
        _mm512_or_si512(v, _mm512_shuffle_epi32::<0b10_11_00_01>(v))
    }
}

/// The candidates, one vector per band.
#[derive(Clone, Copy)]
pub(super) struct Wide {
    m: [__m512i; 3],
}

impl Wide {
    /// Loads the 27 masks (index `9 * band + digit`).
    #[inline(always)]
    pub(super) fn load(cand: &[u32; 27]) -> Wide {
        unsafe {
            Wide {
                m: std::array::from_fn(|b| {
                    _mm512_maskz_loadu_epi32(DIGITS, cand.as_ptr().add(9 * b).cast())
                }),
            }
        }
    }

    /// Stores the 27 masks back.
    #[inline(always)]
    pub(super) fn store(&self, cand: &mut [u32; 27]) {
        unsafe {
            for b in 0..3 {
                _mm512_mask_storeu_epi32(cand.as_mut_ptr().add(9 * b).cast(), DIGITS, self.m[b]);
            }
        }
    }

    /// One round of the band rule, hidden singles in rows and their
    /// eliminations. Returns whether anything changed, and each band's row
    /// singles (those of the masks after the round when nothing changed).
    #[inline(always)]
    fn round(&mut self) -> Result<(bool, [__m512i; 3]), Contradiction> {
        unsafe {
            let old = self.m;
            let mut bad: __mmask16 = 0;
            let mut s = [_mm512_setzero_si512(); 3];
            for (mask, single) in self.m.iter_mut().zip(&mut s) {
                let x = *mask;
                let t = _mm512_and_si512(
                    or3(x, _mm512_srli_epi32::<1>(x), _mm512_srli_epi32::<2>(x)),
                    c!(MINI),
                );
                let c1 = _mm512_or_si512(
                    _mm512_and_si512(_mm512_srli_epi32::<3>(t), c!(BOX0 | BOX1)),
                    _mm512_and_si512(_mm512_slli_epi32::<6>(t), c!(BOX2)),
                );
                let c2 = _mm512_or_si512(
                    _mm512_and_si512(_mm512_slli_epi32::<3>(t), c!(BOX1 | BOX2)),
                    _mm512_and_si512(_mm512_srli_epi32::<6>(t), c!(BOX0)),
                );
                let r1 = |v: __m512i| {
                    _mm512_and_si512(
                        _mm512_or_si512(_mm512_srli_epi32::<9>(v), _mm512_slli_epi32::<18>(v)),
                        c!(BAND),
                    )
                };
                let r2 = |v: __m512i| {
                    _mm512_or_si512(
                        _mm512_and_si512(_mm512_slli_epi32::<9>(v), c!(BAND)),
                        _mm512_srli_epi32::<18>(v),
                    )
                };
                let keep = _mm512_and_si512(
                    t,
                    _mm512_or_si512(
                        _mm512_and_si512(r1(c1), r2(c2)),
                        _mm512_and_si512(r1(c2), r2(c1)),
                    ),
                );
                bad |= _mm512_testn_epi32_mask(keep, keep);
                let m = _mm512_and_si512(
                    x,
                    or3(
                        keep,
                        _mm512_slli_epi32::<1>(keep),
                        _mm512_slli_epi32::<2>(keep),
                    ),
                );
                *mask = m;
                *single = row_singles(m);
            }
            if bad & DIGITS != 0 {
                return Err(Contradiction);
            }
            let cc: [__m512i; 3] = std::array::from_fn(|b| spread(columns(s[b])));
            let mut changed: __mmask16 = 0;
            for b in 0..3 {
                let (o1, o2) = ((b + 1) % 3, (b + 2) % 3);
                let own = _mm512_andnot_si512(s[b], _mm512_or_si512(cc[b], any(s[b])));
                let gone = or3(cc[o1], cc[o2], own);
                let m = _mm512_andnot_si512(gone, self.m[b]);
                changed |= _mm512_cmpneq_epi32_mask(m, old[b]);
                self.m[b] = m;
            }
            Ok((changed != 0, s))
        }
    }

    /// The stack rule for every digit. Returns whether anything changed.
    #[inline(always)]
    fn stacks(&mut self) -> Result<bool, Contradiction> {
        unsafe {
            let cols: [__m512i; 3] = self.m.map(columns);
            let j1 = |x: __m512i| {
                _mm512_or_si512(
                    _mm512_and_si512(_mm512_srli_epi32::<1>(x), c!(0o333)),
                    _mm512_and_si512(_mm512_slli_epi32::<2>(x), c!(0o444)),
                )
            };
            let j2 = |x: __m512i| {
                _mm512_or_si512(
                    _mm512_and_si512(_mm512_slli_epi32::<1>(x), c!(0o666)),
                    _mm512_and_si512(_mm512_srli_epi32::<2>(x), c!(0o111)),
                )
            };
            let mut changed: __mmask16 = 0;
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
                    let stacks = _mm512_and_si512(
                        or3(
                            keep,
                            _mm512_srli_epi32::<1>(keep),
                            _mm512_srli_epi32::<2>(keep),
                        ),
                        c!(0o111),
                    );
                    if _mm512_cmpneq_epi32_mask(stacks, c!(0o111)) & DIGITS != 0 {
                        return Err(Contradiction);
                    }
                }
                let m = _mm512_and_si512(self.m[b], spread(keep));
                changed |= _mm512_cmpneq_epi32_mask(m, self.m[b]);
                self.m[b] = m;
            }
            Ok(changed != 0)
        }
    }

    /// Naked singles: a cell with one candidate takes its digit's row.
    /// Returns whether anything changed, and each band's cells with two or
    /// more candidates before this step.
    #[inline(always)]
    fn naked(&mut self) -> Result<(bool, [__m512i; 3]), Contradiction> {
        unsafe {
            let mut changed: __mmask16 = 0;
            let mut several = [_mm512_setzero_si512(); 3];
            for (mask, many) in self.m.iter_mut().zip(&mut several) {
                let m = *mask;
                let (one, two) = one_two(m);
                *many = two;
                let empty = _mm512_andnot_si512(one, c!(BAND));
                if _mm512_test_epi32_mask(empty, empty) != 0 {
                    return Err(Contradiction);
                }
                let n = _mm512_and_si512(m, _mm512_andnot_si512(two, one));
                let mut new = m;
                for row in ROW {
                    let nr = _mm512_and_si512(n, c!(row));
                    let has = _mm512_test_epi32_mask(nr, nr);
                    new = _mm512_mask_mov_epi32(
                        new,
                        has,
                        _mm512_or_si512(_mm512_andnot_si512(c!(row), new), nr),
                    );
                }
                changed |= _mm512_cmpneq_epi32_mask(new, m);
                *mask = new;
            }
            Ok((changed != 0, several))
        }
    }

    /// The cells fixed per band, from the row singles and the cells with
    /// two or more candidates of the propagated masks; or a contradiction
    /// the rules leave standing: a cell fixed for two digits, or a naked
    /// single that is not fixed (two in one row for one digit).
    #[inline(always)]
    fn settled(singles: [__m512i; 3], several: [__m512i; 3]) -> Result<[u32; 3], Contradiction> {
        unsafe {
            let mut fixed = [0u32; 3];
            for ((f, s), many) in fixed.iter_mut().zip(singles).zip(several) {
                let (one, two) = one_two(s);
                let unsettled = _mm512_andnot_si512(_mm512_or_si512(many, one), c!(BAND));
                let bad = _mm512_or_si512(two, unsettled);
                if _mm512_test_epi32_mask(bad, bad) != 0 {
                    return Err(Contradiction);
                }
                *f = _mm512_cvtsi512_si32(one) as u32;
            }
            Ok(fixed)
        }
    }

    /// Propagates to the fixpoint of the rules; returns the fixed cells per
    /// band.
    #[inline(always)]
    pub(super) fn propagate(&mut self) -> Result<[u32; 3], Contradiction> {
        loop {
            let singles = loop {
                let (changed, singles) = self.round()?;
                if !changed {
                    break singles;
                }
            };
            let stacked = self.stacks()?;
            let (nak, several) = self.naked()?;
            if !stacked && !nak {
                return Wide::settled(singles, several);
            }
        }
    }
}
