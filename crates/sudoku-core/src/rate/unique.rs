//! Uniqueness tests (Unique Rectangles and Loops, types 1 to 4, 4.5 to
//! 5.0 and more): a loop of cells sharing two candidates, which in a
//! puzzle with one solution cannot all keep only those two.

use super::board::{bits, Board, Mask, CELL_UNITS, PEER_SET, UNITS};
use super::Step;

/// Longest loop searched; Sudoku Explainer's loops are bounded by the cells
/// holding both digits, which never exceed this on a valid grid.
const MAX_LOOP: usize = 32;

/// The best uniqueness step found so far: (tenths, type).
struct Best {
    key: Option<(u8, u8)>,
}

struct Search<'a> {
    b: &'a Board,
    pair: Mask,
    lp: [u8; MAX_LOOP],
    len: usize,
    best: Best,
    step: &'a mut Step,
    scratch: Step,
}

/// Unique loops: the easiest one (lowest rating, then lowest type) whose
/// step eliminates something, the first found among equals.
pub(super) fn unique_loops(b: &Board, s: &mut Step) -> bool {
    s.clear();
    let mut search = Search {
        b,
        pair: 0,
        lp: [0; MAX_LOOP],
        len: 0,
        best: Best { key: None },
        step: s,
        scratch: Step::default(),
    };
    for c in 0..81 {
        let m = b.cand[c];
        if m.count_ones() != 2 {
            continue;
        }
        search.pair = m;
        search.len = 0;
        search.dfs(c, 2, 0, 3);
    }
    search.best.key.is_some()
}

impl Search<'_> {
    fn dfs(&mut self, cell: usize, allowed: i32, ex: Mask, last_type: usize) {
        if self.len == MAX_LOOP {
            return;
        }
        self.lp[self.len] = cell as u8;
        self.len += 1;
        for t in 0..3 {
            if t == last_type {
                continue;
            }
            let unit = CELL_UNITS[cell][t] as usize;
            for &next in &UNITS[unit] {
                let next = next as usize;
                if next == self.lp[0] as usize && self.len >= 4 {
                    self.found();
                } else if !self.lp[..self.len].contains(&(next as u8)) {
                    let pot = self.b.cand[next];
                    if pot & self.pair != self.pair {
                        continue;
                    }
                    let new_ex = ex | (pot & !self.pair);
                    let card = pot.count_ones();
                    if card == 2 || new_ex.count_ones() == 1 || allowed > 0 {
                        let na = if card > 2 { allowed - 1 } else { allowed };
                        self.dfs(next, na, new_ex, t);
                    }
                }
            }
        }
        self.len -= 1;
    }

    /// Whether each unit a loop cell is in is visited by exactly one cell
    /// at an even and one at an odd position.
    fn valid(&self) -> bool {
        let mut even = 0u32;
        let mut odd = 0u32;
        for (i, &c) in self.lp[..self.len].iter().enumerate() {
            for &u in &CELL_UNITS[c as usize] {
                let set = if i % 2 == 0 { &mut even } else { &mut odd };
                if *set >> u & 1 != 0 {
                    return false;
                }
                *set |= 1 << u;
            }
        }
        even == odd
    }

    fn base_tenths(&self) -> u8 {
        let n = self.len;
        45 + if n >= 10 {
            5
        } else if n >= 8 {
            2
        } else if n >= 6 {
            1
        } else {
            0
        }
    }

    fn offer(&mut self, tenths: u8, kind: u8) {
        if !self.scratch.has_elims() {
            return;
        }
        if self.best.key.is_none_or(|k| (tenths, kind) < k) {
            self.best.key = Some((tenths, kind));
            let name = match (self.len == 4, kind) {
                (true, 1) => "Unique Rectangle type 1",
                (true, 2) => "Unique Rectangle type 2",
                (true, 3) => "Unique Rectangle type 3",
                (true, _) => "Unique Rectangle type 4",
                (false, 1) => "Unique Loop type 1",
                (false, 2) => "Unique Loop type 2",
                (false, 3) => "Unique Loop type 3",
                (false, _) => "Unique Loop type 4",
            };
            self.scratch.set(tenths, name);
            *self.step = self.scratch;
        }
    }

    fn found(&mut self) {
        if !self.valid() {
            return;
        }
        let b = self.b;
        let pair = self.pair;
        let mut extra = [0usize; MAX_LOOP];
        let mut n_extra = 0;
        for &c in &self.lp[..self.len] {
            if b.cand[c as usize].count_ones() > 2 {
                extra[n_extra] = c as usize;
                n_extra += 1;
            }
        }
        let base = self.base_tenths();
        match n_extra {
            1 => {
                self.scratch.clear();
                self.scratch.elim[extra[0]] = pair;
                self.offer(base, 1);
            }
            0 => {}
            _ => {
                let extras = &extra[..n_extra];
                let mut rp = 0;
                for &c in extras {
                    rp |= b.cand[c];
                }
                rp &= !pair;
                if n_extra > 2 || rp.count_ones() == 1 {
                    self.type2(extras);
                    self.offer(base, 2);
                }
                if n_extra == 2 {
                    if rp.count_ones() >= 2 {
                        self.type3(extras[0], extras[1], rp, base);
                    }
                    self.type4(extras[0], extras[1]);
                    self.offer(base, 4);
                }
            }
        }
    }

    fn type2(&mut self, extras: &[usize]) {
        let b = self.b;
        let value = b.cand[extras[0]] & !self.pair;
        let value = value & value.wrapping_neg();
        let mut common = !0u128;
        for &c in extras {
            common &= PEER_SET[c];
        }
        self.scratch.clear();
        self.scratch.eliminate_in(common, value, b);
    }

    fn type3(&mut self, c1: usize, c2: usize, extra: Mask, base: u8) {
        for degree in 2..=7u32 {
            for t in 0..3 {
                let unit = CELL_UNITS[c1][t] as usize;
                if unit != CELL_UNITS[c2][t] as usize {
                    continue;
                }
                let empty = self.b.empty_count(unit);
                if degree * 2 <= empty && degree >= extra.count_ones() {
                    self.type3_naked(unit, c1, c2, extra, degree, base);
                }
                if degree * 2 < empty {
                    self.type3_hidden(unit, c1, c2, extra, degree, base);
                }
            }
        }
    }

    /// Type 3 with a naked set: `c1` standing for the extra digits and
    /// `degree - 1` other cells of the unit hold `degree` digits; those
    /// digits go from the unit's other cells but `c2`.
    fn type3_naked(
        &mut self,
        unit: usize,
        c1: usize,
        c2: usize,
        extra: Mask,
        degree: u32,
        base: u8,
    ) {
        let b = self.b;
        let i1 = UNITS[unit]
            .iter()
            .position(|&c| c as usize == c1)
            .unwrap_or(9);
        let i2 = UNITS[unit]
            .iter()
            .position(|&c| c as usize == c2)
            .unwrap_or(9);
        for idx in super::basic::subsets(degree) {
            if idx >> i1 & 1 == 0 || idx >> i2 & 1 != 0 {
                continue;
            }
            let mut naked = extra & b.cand[c1] & b.cand[c2];
            let mut union = 0;
            let mut ok = true;
            for i in bits(idx) {
                let p = if i == i1 {
                    extra
                } else {
                    b.cand[UNITS[unit][i] as usize]
                };
                if i != i1 {
                    naked |= p;
                }
                if p.count_ones() < 2 {
                    ok = false;
                }
                union |= p;
            }
            if !ok || naked.count_ones() != degree || union.count_ones() != degree {
                continue;
            }
            self.scratch.clear();
            for (i, &c) in UNITS[unit].iter().enumerate() {
                let c = c as usize;
                if idx >> i & 1 == 0 && c != c2 {
                    self.scratch.elim[c] = b.cand[c] & union;
                }
            }
            self.offer(base + (degree as u8 - 1), 3);
        }
    }

    /// Type 3 with a hidden set: the loop's two digits and `degree - 2`
    /// others (neither the loop's nor extra ones) have, outside `c2`,
    /// exactly `degree` places in the unit, `c1` among them; the other
    /// digits go from those places but `c1`.
    fn type3_hidden(
        &mut self,
        unit: usize,
        c1: usize,
        c2: usize,
        extra: Mask,
        degree: u32,
        base: u8,
    ) {
        let b = self.b;
        let rest = super::board::ALL & !self.pair & !extra;
        let i2 = UNITS[unit]
            .iter()
            .position(|&c| c as usize == c2)
            .unwrap_or(9);
        let places = |d: usize| b.positions(unit, d + 1) & !(1 << i2);
        for others in subsets_of(degree - 2, rest.count_ones() as usize) {
            let mut hidden = self.pair;
            for (k, d) in bits(rest).enumerate() {
                if others >> k & 1 != 0 {
                    hidden |= 1 << d;
                }
            }
            let mut union = 0;
            if bits(hidden).any(|d| {
                let p = places(d);
                union |= p;
                p == 0
            }) || union.count_ones() != degree
            {
                continue;
            }
            self.scratch.clear();
            for i in bits(union) {
                let c = UNITS[unit][i] as usize;
                if c != c1 && c != c2 {
                    self.scratch.elim[c] = b.cand[c] & !hidden;
                }
            }
            self.offer(base + (degree as u8 - 2), 3);
        }
    }

    fn type4(&mut self, c1: usize, c2: usize) {
        let b = self.b;
        let v1 = self.pair & self.pair.wrapping_neg();
        let v2 = self.pair & !v1;
        let (mut r1, mut r2) = (false, false);
        for t in 0..3 {
            let unit = CELL_UNITS[c1][t] as usize;
            if unit != CELL_UNITS[c2][t] as usize {
                continue;
            }
            let (mut h1, mut h2) = (false, false);
            for &c in &UNITS[unit] {
                let c = c as usize;
                if c != c1 && c != c2 {
                    h1 |= b.cand[c] & v1 != 0;
                    h2 |= b.cand[c] & v2 != 0;
                }
            }
            r1 |= !h1;
            r2 |= !h2;
        }
        self.scratch.clear();
        let rem = if r1 {
            v2
        } else if r2 {
            v1
        } else {
            return;
        };
        self.scratch.elim[c1] = rem;
        self.scratch.elim[c2] = rem;
    }
}

/// Bivalue Universal Grave, types 1 (5.6), 2 and 4 (5.7) and 3 (5.8 to
/// 6.2): every unit holds each digit in two places or none, and every cell
/// two candidates, but for extra candidates in a few cells; one of them
/// must be true, or the puzzle would have two solutions.
pub(super) fn bug(b: &Board, s: &mut Step) -> bool {
    let mut bug_cells = [0usize; 81];
    let mut n_bug = 0;
    let mut all_bug: Mask = 0;
    let mut common: Option<u128> = None;
    let mut all_extra: Option<u128> = None;
    let mut only_value = 0;
    let mut one_value = true;
    let mut temp = b.cand;
    let mut bug_set = 0u128;
    // The extra digits of each BUG cell.
    let mut extra_of = [0 as Mask; 81];
    // Adds a cell and its extra digit; false when no BUG type applies.
    let mut add = |cell: usize,
                   d: usize,
                   bug_cells: &mut [usize; 81],
                   n_bug: &mut usize,
                   bug_set: &mut u128,
                   all_bug: &mut Mask,
                   temp: &mut [Mask; 81]|
     -> bool {
        if *bug_set >> cell & 1 == 0 {
            bug_cells[*n_bug] = cell;
            *n_bug += 1;
            *bug_set |= 1 << cell;
        }
        *all_bug |= 1 << d;
        extra_of[cell] |= 1 << d;
        temp[cell] &= !(1 << d);
        let c = common.unwrap_or(PEER_SET[cell]) & PEER_SET[cell] & !*bug_set;
        common = Some(c);
        !(*n_bug > 1 && all_bug.count_ones() > 1 && c == 0)
    };
    for u in 0..27 {
        for d in 0..9 {
            let pos = b.positions(u, d + 1);
            let n = pos.count_ones();
            if n == 0 || n == 2 {
                continue;
            }
            let mut new = 0u128;
            for i in bits(pos) {
                let c = UNITS[u][i] as usize;
                if b.cand[c].count_ones() >= 3 {
                    new |= 1 << c;
                }
            }
            match all_extra {
                None => {
                    all_extra = Some(new);
                    only_value = d;
                }
                Some(ref mut e) if one_value => {
                    if d == only_value {
                        *e |= new;
                    } else {
                        one_value = false;
                    }
                }
                _ => {}
            }
            if new.count_ones() == 1
                && !add(
                    new.trailing_zeros() as usize,
                    d,
                    &mut bug_cells,
                    &mut n_bug,
                    &mut bug_set,
                    &mut all_bug,
                    &mut temp,
                )
            {
                return false;
            }
            if new == 0 {
                return false;
            }
        }
    }
    if let (true, Some(extra)) = (one_value, all_extra) {
        if extra.count_ones() as usize > n_bug {
            for c in super::board::cells_of(extra & !bug_set) {
                if !add(
                    c,
                    only_value,
                    &mut bug_cells,
                    &mut n_bug,
                    &mut bug_set,
                    &mut all_bug,
                    &mut temp,
                ) {
                    return false;
                }
            }
        }
    }
    if (0..81).any(|c| b.value[c] == 0 && temp[c].count_ones() != 2) {
        return false;
    }
    let tb = Board {
        value: b.value,
        cand: temp,
    };
    for u in 0..27 {
        for d in 1..=9 {
            let n = tb.positions(u, d).count_ones();
            if n != 0 && n != 2 {
                return false;
            }
        }
    }
    s.clear();
    if n_bug == 1 {
        let c = bug_cells[0];
        s.elim[c] = b.cand[c] & !all_bug;
        s.set(56, "BUG type 1");
        return true;
    }
    let cells = &bug_cells[..n_bug];
    let common = common.unwrap_or(0);
    if all_bug.count_ones() == 1 {
        if s.eliminate_in(common, all_bug, b) {
            s.set(57, "BUG type 2");
            return true;
        }
        return n_bug == 2 && bug_type4(b, s, cells, &extra_of, all_bug);
    }
    if common == 0 {
        return false;
    }
    (n_bug == 2 && bug_type4(b, s, cells, &extra_of, all_bug))
        || bug_type3(b, s, cells, common, all_bug)
}

/// BUG type 4 (5.7): two BUG cells in one unit sharing one digit besides
/// the extra ones: that digit is true in one of them, so in each cell the
/// other BUG digit goes.
fn bug_type4(b: &Board, s: &mut Step, cells: &[usize], extra_of: &[Mask; 81], all: Mask) -> bool {
    let (c1, c2) = (cells[0], cells[1]);
    let shared = b.cand[c1] & b.cand[c2] & !all;
    if shared.count_ones() != 1 || !(0..3).any(|t| CELL_UNITS[c1][t] == CELL_UNITS[c2][t]) {
        return false;
    }
    s.clear();
    s.elim[c1] = b.cand[c1] & !extra_of[c1] & !shared;
    s.elim[c2] = b.cand[c2] & !extra_of[c2] & !shared;
    s.set(57, "BUG type 4");
    s.has_elims()
}

/// BUG type 3 (5.7 plus 0.1 a digit past the first): the BUG cells, all
/// in one unit, act as one cell holding their extra digits, which with
/// other cells of the unit seeing them all makes a naked set; the set's
/// digits go from cells seeing all their holders. The smallest set first,
/// boxes before rows before columns.
fn bug_type3(b: &Board, s: &mut Step, cells: &[usize], common: u128, all: Mask) -> bool {
    if all.count_ones() < 2 {
        return false;
    }
    for degree in 2..=6u32 {
        for t in 0..3 {
            let unit = CELL_UNITS[cells[0]][t];
            if cells.iter().any(|&c| CELL_UNITS[c][t] != unit) {
                continue;
            }
            let around: Vec<usize> =
                super::board::cells_of(common & super::board::UNIT_SET[unit as usize]).collect();
            if around.len() < degree as usize {
                continue;
            }
            for pick in subsets_of(degree - 1, around.len()) {
                let mut union: Mask = 0;
                let mut ok = true;
                for i in bits_of(pick) {
                    let m = b.cand[around[i]];
                    ok &= m.count_ones() >= 2;
                    union |= m;
                }
                if !ok || union.count_ones() != degree || all & !union != 0 {
                    continue;
                }
                s.clear();
                for d in bits(union) {
                    let mut victims = !0u128;
                    for i in bits_of(pick) {
                        if b.cand[around[i]] >> d & 1 != 0 {
                            victims &= PEER_SET[around[i]];
                        }
                    }
                    for &c in cells {
                        if b.cand[c] >> d & 1 != 0 {
                            victims &= PEER_SET[c];
                        }
                    }
                    s.eliminate_in(victims, 1 << d, b);
                }
                if s.has_elims() {
                    s.set(57 + (degree as u8 - 1), "BUG type 3");
                    return true;
                }
            }
        }
    }
    false
}

/// The `k`-subsets of `n` items (`n` below 64) as bitmasks in increasing
/// numeric order, the order of Sudoku Explainer's `Permutations`.
fn subsets_of(k: u32, n: usize) -> impl Iterator<Item = u64> {
    let end = 1u64 << n;
    let mut next = (k as usize <= n && n > 0).then_some((1u64 << k) - 1);
    std::iter::from_fn(move || {
        let v = next?;
        if v == 0 {
            // The one empty subset.
            next = None;
            return Some(0);
        }
        // Gosper's hack: the next larger number with as many bits set.
        let low = v & v.wrapping_neg();
        let ripple = v + low;
        let after = ripple | (((v ^ ripple) >> 2) / low);
        next = (after < end).then_some(after);
        Some(v)
    })
}

/// The set bits of a 64-bit mask.
fn bits_of(mut m: u64) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        (m != 0).then(|| {
            let i = m.trailing_zeros() as usize;
            m &= m - 1;
            i
        })
    })
}
