//! Which candidate states lead to which on the grid as it stands: the
//! static implication graph of forcing chains, its strongly connected
//! components and, for each node, every node it reaches.
//!
//! A node is a candidate (cell * 9 + digit - 1) on or off: `cand * 2 + 1`
//! on, `cand * 2` off. From an on candidate the digit goes off in its
//! peers and (with Y links) the cell's other digits go off; from an off
//! candidate the digit's last place in a unit (with X links) and the
//! cell's last digit (with Y links) go on. Every chain the static searches
//! follow is a path of this graph, so a node that does not reach another
//! has no chain to it: the searches are run only where this allows one,
//! and find the same chains as before, at a fraction of the cost on the
//! steps where there are none.
//!
//! Components are found with Tarjan's algorithm, which closes each one
//! after all the components it reaches, so the nodes a component reaches
//! are its own nodes and those of the components its edges lead to.

use super::board::{bits, cells_of, Board, CELL_UNITS, PEER_SET, UNIT_SET};

/// Nodes: each candidate on and off.
pub(super) const NODES: usize = 81 * 9 * 2;

/// A set of nodes, one bit each.
pub(super) type NodeSet = [u64; NODES.div_ceil(64)];

/// The empty set of nodes.
pub(super) const NO_NODES: NodeSet = [0; NODES.div_ceil(64)];

/// Whether node `n` is in `set`.
#[inline]
pub(super) fn has(set: &NodeSet, n: usize) -> bool {
    set[n / 64] >> (n % 64) & 1 != 0
}

const UNSEEN: u16 = u16::MAX;

/// The reachability of one implication graph.
pub(super) struct Reach {
    /// Each candidate's index among those on the board (`UNSEEN` for the
    /// others): the graph numbers only the board's candidates, node
    /// `index * 2 + on`, so that its sets are short.
    index: [u16; 81 * 9],
    /// Words in a set of the graph's nodes.
    words: usize,
    /// Each graph node's component.
    comp: Vec<u16>,
    /// The number of nodes in each component.
    size: Vec<u16>,
    /// The graph nodes each component reaches, its own included: `words`
    /// words per component.
    sets: Vec<u64>,
}

impl Reach {
    /// The graph of board `b` with Y links (a cell's digits) when `y` and
    /// X links (a unit's places of a digit) when `x`; weak links between
    /// peers are always in.
    pub(super) fn new(b: &Board, y: bool, x: bool) -> Reach {
        let mut places = [0u128; 9];
        let mut index = [UNSEEN; 81 * 9];
        let mut cands = Vec::with_capacity(81 * 9);
        for (c, &m) in b.cand.iter().enumerate() {
            for d in bits(m) {
                places[d] |= 1 << c;
                index[c * 9 + d] = cands.len() as u16;
                cands.push(c * 9 + d);
            }
        }
        let nodes = cands.len() * 2;
        let words = nodes.div_ceil(64).max(1);
        let g = |cand: usize, on: bool| index[cand] * 2 + on as u16;
        // The edges, flattened: node n's successors are
        // `list[start[n]..start[n + 1]]`.
        let mut start = Vec::with_capacity(nodes + 1);
        let mut list: Vec<u16> = Vec::with_capacity(nodes * 16);
        for n in 0..nodes {
            start.push(list.len() as u32);
            let cand = cands[n / 2];
            let (c, d) = (cand / 9, cand % 9);
            let m = b.cand[c];
            if n & 1 == 1 {
                if y {
                    list.extend(bits(m & !(1 << d)).map(|o| g(c * 9 + o, false)));
                }
                list.extend(cells_of(places[d] & PEER_SET[c]).map(|o| g(o * 9 + d, false)));
            } else {
                if y && m.count_ones() == 2 {
                    let o = (m & !(1 << d)).trailing_zeros() as usize;
                    list.push(g(c * 9 + o, true));
                }
                if x {
                    for &u in &CELL_UNITS[c] {
                        let others = places[d] & UNIT_SET[u as usize] & !(1 << c);
                        if others.count_ones() == 1 {
                            list.push(g(others.trailing_zeros() as usize * 9 + d, true));
                        }
                    }
                }
            }
        }
        start.push(list.len() as u32);
        let succ = |n: usize| &list[start[n] as usize..start[n + 1] as usize];

        let mut r = Reach {
            index,
            words,
            comp: vec![UNSEEN; nodes],
            size: Vec::with_capacity(nodes),
            sets: Vec::with_capacity(nodes * words),
        };
        // A component with one node and no edges out reaches that node
        // only (most off nodes): its own node, else `UNSEEN`.
        let mut lone: Vec<u16> = Vec::with_capacity(nodes);
        // Tarjan's algorithm, iterative: the depth-first path as (node,
        // next edge) pairs.
        let mut order = vec![UNSEEN; nodes];
        let mut low = vec![0u16; nodes];
        let mut stack: Vec<u16> = Vec::with_capacity(nodes);
        let mut path: Vec<(u16, u32)> = Vec::with_capacity(nodes);
        let mut next = 0u16;
        for root in 0..nodes {
            if order[root] != UNSEEN {
                continue;
            }
            order[root] = next;
            low[root] = next;
            next += 1;
            stack.push(root as u16);
            path.push((root as u16, 0));
            while let Some(&(v, e)) = path.last() {
                let v = v as usize;
                if let Some(&w) = succ(v).get(e as usize) {
                    let top = path.len() - 1;
                    path[top].1 += 1;
                    let w = w as usize;
                    if order[w] == UNSEEN {
                        order[w] = next;
                        low[w] = next;
                        next += 1;
                        stack.push(w as u16);
                        path.push((w as u16, 0));
                    } else if r.comp[w] == UNSEEN {
                        low[v] = low[v].min(order[w]);
                    }
                    continue;
                }
                path.pop();
                if let Some(&(u, _)) = path.last() {
                    low[u as usize] = low[u as usize].min(low[v]);
                }
                if low[v] != order[v] {
                    continue;
                }
                // A component closes: its nodes are on the stack down to
                // v, and every component they lead to is closed.
                let id = r.size.len() as u16;
                let from = stack.iter().rposition(|&s| s as usize == v).unwrap_or(0);
                let base = r.sets.len();
                r.sets.resize(base + words, 0);
                let mut out = false;
                for &s in &stack[from..] {
                    r.comp[s as usize] = id;
                    r.sets[base + s as usize / 64] |= 1 << (s % 64);
                }
                for &s in &stack[from..] {
                    for &w in succ(s as usize) {
                        let cw = r.comp[w as usize] as usize;
                        if cw == id as usize {
                            continue;
                        }
                        out = true;
                        if lone[cw] != UNSEEN {
                            r.sets[base + w as usize / 64] |= 1 << (w % 64);
                        } else {
                            let (done, set) = r.sets.split_at_mut(base);
                            for (a, o) in set.iter_mut().zip(&done[cw * words..]) {
                                *a |= o;
                            }
                        }
                    }
                }
                let size = stack.len() - from;
                lone.push(if size == 1 && !out { v as u16 } else { UNSEEN });
                r.size.push(size as u16);
                stack.truncate(from);
            }
        }
        r
    }

    /// The graph node of node `n` (`cand * 2 + on`), a candidate of the
    /// board.
    #[inline]
    fn graph_node(&self, n: usize) -> usize {
        self.index[n / 2] as usize * 2 + n % 2
    }

    /// Whether node `from` leads to node `to` (every node leads to
    /// itself); both candidates of the board.
    #[inline]
    pub(super) fn reaches(&self, from: usize, to: usize) -> bool {
        let to = self.graph_node(to);
        self.set(from)[to / 64] >> (to % 64) & 1 != 0
    }

    /// The nodes `n` leads to, itself included, as a set of graph nodes
    /// (sets of the same graph compare and intersect).
    #[inline]
    pub(super) fn set(&self, n: usize) -> &[u64] {
        let c = self.comp[self.graph_node(n)] as usize;
        &self.sets[c * self.words..(c + 1) * self.words]
    }

    /// Whether the nodes of `starts` (candidates of the board) all lead
    /// to a node.
    pub(super) fn meet(&self, starts: impl Iterator<Item = usize>) -> bool {
        let mut all = NO_NODES;
        let all = &mut all[..self.words];
        all.fill(!0);
        for n in starts {
            for (w, r) in all.iter_mut().zip(self.set(n)) {
                *w &= r;
            }
        }
        all.iter().any(|&w| w != 0)
    }

    /// Whether node `n` lies on a cycle (its component has other nodes:
    /// there are no edges from a node to itself).
    #[inline]
    pub(super) fn on_cycle(&self, n: usize) -> bool {
        self.size[self.comp[self.graph_node(n)] as usize] > 1
    }
}
