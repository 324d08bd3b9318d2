//! TriCore conformance against `docs/rules/tricore.md`: hand-built positions (placements, Ring
//! drives, trapped Rings, climbs, results), random games, perft and notation. Move lists and perft are
//! cross-checked against [`naive`], a deliberately plain implementation of the rules file on
//! doubled coordinates that shares nothing with the crate's tables.

mod common;

use std::collections::BTreeSet;

use common::{Position, Run, random_games};
use triboard::rules::geometry::lattice::Points;
use triboard::rules::tricore::{Phase, TriCore, TriCoreMove, TriCoreOptions};
use triboard::rules::{Game, Knowledge, perft, play_moves, rng_from_seed};

/// A fresh game after `moves` (space-separated notation).
fn tricore(moves: &str) -> TriCore {
    let mut g = TriCore::new(&TriCoreOptions::default()).unwrap();
    play_moves(&mut g, moves).unwrap_or_else(|e| panic!("{moves}: {e}"));
    g
}

/// A disc-phase position (see [`TriCore::setup`]).
fn setup(cores: &str, rings: &str, stacks: &[(&str, &str)], mover: u8) -> TriCore {
    let cores: Vec<&str> = cores.split_whitespace().collect();
    let rings: Vec<&str> = rings.split_whitespace().collect();
    TriCore::setup(&cores, &rings, stacks, mover).unwrap()
}

/// The legal moves as a set of texts.
fn legal_texts(g: &TriCore) -> BTreeSet<String> {
    let mut moves = Vec::new();
    g.legal_moves(&mut moves);
    let texts: BTreeSet<String> = moves.iter().map(|&m| g.move_text(m)).collect();
    assert_eq!(texts.len(), moves.len(), "no move generated twice");
    texts
}

fn set(texts: &str) -> BTreeSet<String> {
    texts.split_whitespace().map(str::to_string).collect()
}

/// The names of a set of points.
fn names(g: &TriCore, points: Points) -> BTreeSet<String> {
    (0..g.lattice().len).filter(|&p| points >> p & 1 != 0).map(|p| g.lattice().name(p)).collect()
}

fn pt(g: &TriCore, name: &str) -> usize {
    g.lattice().parse(name).unwrap_or_else(|| panic!("{name} is a point"))
}

fn mv(g: &TriCore, text: &str) -> TriCoreMove {
    g.parse_move(text).unwrap_or_else(|e| panic!("{text}: {e}"))
}

fn play(g: &mut TriCore, text: &str) {
    let m = mv(g, text);
    g.play(m).unwrap_or_else(|e| panic!("{text}: {e}"));
}

/// The reason `text` is refused here; panics if it is accepted. Also checks the state is unchanged.
fn refusal(g: &TriCore, text: &str) -> String {
    let mut copy = g.clone();
    let err = copy.play(mv(g, text)).expect_err(&format!("{text} should be refused"));
    assert_eq!(&copy, g, "a refused move leaves the state unchanged");
    assert!(!err.reason.is_empty());
    err.reason
}

/// TriCore as `docs/rules/tricore.md` states it, on plain maps of doubled coordinates `(x, row)`: a
/// row of `n` points has `x = 2·col + 9 - n`, neighbours differ by `(±2, 0)` or `(±1, ±1)`. No
/// bitboards, no tables, no point numbering. Only for cross-checking.
mod naive {
    use std::collections::{BTreeMap, BTreeSet};

    /// `docs/rules/tricore.md` §Board.
    pub const ROWS: [i32; 7] = [6, 7, 8, 9, 8, 7, 6];
    /// The six neighbour steps, also the six line directions.
    const DIRS: [(i32, i32); 6] = [(2, 0), (-2, 0), (1, 1), (-1, 1), (1, -1), (-1, -1)];

    pub type Pt = (i32, i32);

    pub fn on_board((x, r): Pt) -> bool {
        (0..7).contains(&r) && {
            let n = ROWS[r as usize];
            let c2 = x - (9 - n);
            c2 >= 0 && c2 % 2 == 0 && c2 / 2 < n
        }
    }

    pub fn all() -> Vec<Pt> {
        let mut v = Vec::new();
        for (r, &n) in ROWS.iter().enumerate() {
            for c in 0..n {
                v.push((2 * c + 9 - n, r as i32));
            }
        }
        v
    }

    pub fn name((x, r): Pt) -> String {
        let c = (x - (9 - ROWS[r as usize])) / 2;
        format!("{}{}", (b'a' + c as u8) as char, r + 1)
    }

    pub fn parse(s: &str) -> Pt {
        let c = (s.as_bytes()[0] - b'a') as i32;
        let r: i32 = s[1..].parse::<i32>().unwrap() - 1;
        let p = (2 * c + 9 - ROWS[r as usize], r);
        assert!(on_board(p), "{s}");
        p
    }

    pub fn neighbours((x, r): Pt) -> Vec<Pt> {
        DIRS.iter().map(|(dx, dr)| (x + dx, r + dr)).filter(|&p| on_board(p)).collect()
    }

    fn adjacent(a: Pt, b: Pt) -> bool {
        neighbours(a).contains(&b)
    }

    pub fn peripheral(p: Pt) -> bool {
        neighbours(p).len() < 6
    }

    #[derive(Clone, Debug)]
    pub struct State {
        pub cores: BTreeSet<Pt>,
        pub rings: BTreeSet<Pt>,
        /// Colours bottom to top, 0 Black, 1 White.
        pub stacks: BTreeMap<Pt, Vec<u8>>,
        pub left: [u32; 2],
        pub mover: u8,
        pub ply: usize,
        pub just: Option<Pt>,
        pub over: bool,
        pub removed: BTreeSet<Pt>,
    }

    impl State {
        pub fn new() -> State {
            State {
                cores: BTreeSet::new(),
                rings: BTreeSet::new(),
                stacks: BTreeMap::new(),
                left: [24, 24],
                mover: 0,
                ply: 0,
                just: None,
                over: false,
                removed: BTreeSet::new(),
            }
        }

        pub fn setup(cores: &[&str], rings: &[&str], stacks: &[(&str, &str)], mover: u8) -> State {
            let mut s = State::new();
            s.cores = cores.iter().map(|n| parse(n)).collect();
            s.rings = rings.iter().map(|n| parse(n)).collect();
            for (n, colours) in stacks {
                let v: Vec<u8> = colours.bytes().map(|b| (b == b'w') as u8).collect();
                for &c in &v {
                    s.left[c as usize] -= 1;
                }
                s.stacks.insert(parse(n), v);
            }
            s.ply = 6 + 2 * s.stacks.values().map(Vec::len).sum::<usize>();
            s.mover = mover;
            s.start_turn();
            s
        }

        fn empty(&self, p: Pt) -> bool {
            !self.cores.contains(&p) && !self.rings.contains(&p) && !self.stacks.contains_key(&p)
        }

        /// §Phase 3, 2: along each line, over discs, stopping before a Ring, a Core or the edge.
        pub fn destinations(&self, ring: Pt) -> Vec<Pt> {
            let mut out = Vec::new();
            for (dx, dr) in DIRS {
                let mut p = (ring.0 + dx, ring.1 + dr);
                while on_board(p) && !self.cores.contains(&p) && !self.rings.contains(&p) {
                    if self.empty(p) {
                        out.push(p);
                    }
                    p = (p.0 + dx, p.1 + dr);
                }
            }
            out
        }

        /// §Phase 3, 1 and §End.
        fn start_turn(&mut self) {
            self.removed = self.rings.iter().copied().filter(|&r| self.destinations(r).is_empty()).collect();
            for r in &self.removed {
                self.rings.remove(r);
            }
            self.over = self.rings.is_empty() || self.left == [0, 0] || self.left[self.mover as usize] == 0;
        }

        pub fn legal(&self) -> Vec<String> {
            let mut out = Vec::new();
            if self.over {
                return out;
            }
            if self.ply < 3 {
                // §Phase 1.
                for p in all() {
                    if !peripheral(p) && !self.cores.contains(&p) && !self.cores.iter().any(|&c| adjacent(c, p)) {
                        out.push(name(p));
                    }
                }
            } else if self.ply < 6 {
                // §Phase 2.
                for p in all() {
                    if self.empty(p)
                        && !self.cores.iter().any(|&c| adjacent(c, p))
                        && !self.rings.iter().any(|&r| adjacent(r, p))
                    {
                        out.push(name(p));
                    }
                }
            } else if let Some(just) = self.just {
                // §Phase 3, 3.
                for (&p, stack) in &self.stacks {
                    let h = stack.len();
                    if p == just || *stack.last().unwrap() != self.mover || h >= 3 {
                        continue;
                    }
                    for q in neighbours(p) {
                        if self.stacks.get(&q).is_some_and(|s| s.len() == h) {
                            out.push(format!("{}^{}", name(p), name(q)));
                        }
                    }
                }
                out.push("end".to_string());
            } else {
                for &r in &self.rings {
                    for d in self.destinations(r) {
                        out.push(format!("{}-{}", name(r), name(d)));
                    }
                }
            }
            out
        }

        /// Plays a move known to be legal.
        pub fn play(&mut self, text: &str) {
            self.ply += 1;
            if self.ply <= 3 {
                self.cores.insert(parse(text));
                self.mover ^= 1;
            } else if self.ply <= 6 {
                self.rings.insert(parse(text));
                self.mover ^= 1;
                if self.ply == 6 {
                    self.mover = 0;
                    self.start_turn();
                }
            } else if let Some((a, b)) = text.split_once('-') {
                let (a, b) = (parse(a), parse(b));
                self.rings.remove(&a);
                self.rings.insert(b);
                assert!(self.stacks.insert(a, vec![self.mover]).is_none());
                self.left[self.mover as usize] -= 1;
                self.just = Some(a);
            } else {
                if let Some((a, b)) = text.split_once('^') {
                    let (a, b) = (parse(a), parse(b));
                    let c = self.stacks.get_mut(&a).unwrap().pop().unwrap();
                    if self.stacks[&a].is_empty() {
                        self.stacks.remove(&a);
                    }
                    self.stacks.get_mut(&b).unwrap().push(c);
                } else {
                    assert_eq!(text, "end");
                }
                self.just = None;
                self.mover ^= 1;
                self.start_turn();
            }
        }

        /// §Result: per player, (Cores reached, size) of the best group.
        pub fn best(&self, player: u8) -> (usize, usize) {
            let own: BTreeSet<Pt> =
                self.stacks.iter().filter(|(_, s)| *s.last().unwrap() == player).map(|(&p, _)| p).collect();
            let mut seen = BTreeSet::new();
            let mut best = (0, 0);
            for &start in &own {
                if seen.contains(&start) {
                    continue;
                }
                let mut group = vec![start];
                seen.insert(start);
                let mut i = 0;
                while i < group.len() {
                    for q in neighbours(group[i]) {
                        if own.contains(&q) && seen.insert(q) {
                            group.push(q);
                        }
                    }
                    i += 1;
                }
                let cores = self.cores.iter().filter(|&&c| group.iter().any(|&p| adjacent(c, p))).count();
                best = best.max((cores, group.len()));
            }
            best
        }
    }

    /// Perft on the naive state.
    pub fn perft(s: &State, depth: usize, counts: &mut [u64]) {
        let moves = s.legal();
        counts[counts.len() - depth] += moves.len() as u64;
        if depth > 1 {
            for m in moves {
                let mut next = s.clone();
                next.play(&m);
                perft(&next, depth - 1, counts);
            }
        }
    }
}

/// The crate's state agrees with the naive one: legal moves, phase, discs, Rings, Cores.
fn agree(g: &TriCore, n: &naive::State) {
    let legal = legal_texts(g);
    let naive_legal: BTreeSet<String> = n.legal().into_iter().collect();
    assert_eq!(legal, naive_legal, "legal moves\n{}", g.board_text());
    assert_eq!(g.to_move().is_none(), n.over);
    let cores: BTreeSet<String> = n.cores.iter().map(|&p| naive::name(p)).collect();
    let rings: BTreeSet<String> = n.rings.iter().map(|&p| naive::name(p)).collect();
    let removed: BTreeSet<String> = n.removed.iter().map(|&p| naive::name(p)).collect();
    assert_eq!(names(g, g.cores()), cores);
    assert_eq!(names(g, g.rings()), rings);
    if g.ply() >= 6 {
        assert_eq!(names(g, g.trapped_rings_removed()), removed);
    }
    for p in naive::all() {
        let q = pt(g, &naive::name(p));
        let stack = n.stacks.get(&p).cloned().unwrap_or_default();
        assert_eq!(g.height(q) as usize, stack.len());
        for (level, &c) in stack.iter().enumerate() {
            assert_eq!(g.disc(q, level as u8), Some(c));
        }
        assert_eq!(g.disc(q, stack.len() as u8), None);
        assert_eq!(g.top(q), stack.last().copied());
    }
    assert_eq!([g.discs_left(0) as u32, g.discs_left(1) as u32], n.left);
    if n.over {
        let outcome = g.outcome().unwrap();
        let (b, w) = (n.best(0), n.best(1));
        assert_eq!(outcome.scores[..2], [b.0 as i32, w.0 as i32]);
        let expected = if b > w {
            1.0
        } else if b < w {
            0.0
        } else {
            0.5
        };
        assert_eq!(outcome.ranks[..2], [expected, 1.0 - expected]);
        for player in 0..2 {
            let (group, cores) = g.best_group(player);
            let nb = n.best(player as u8);
            assert_eq!((cores.count_ones() as usize, group.count_ones() as usize), nb);
        }
    }
}

// §Board.
#[test]
fn board_has_51_points_22_peripheral() {
    let g = tricore("");
    let l = g.lattice();
    assert_eq!(l.len, 51);
    assert_eq!(l.boundary.count_ones(), 22);
    for p in naive::all() {
        let q = pt(&g, &naive::name(p));
        assert_eq!(l.boundary >> q & 1 != 0, naive::peripheral(p), "{}", naive::name(p));
        let ns: BTreeSet<String> = naive::neighbours(p).into_iter().map(naive::name).collect();
        assert_eq!(names(&g, l.adjacent[q]), ns);
    }
    assert_eq!(g.phase(), Phase::Cores);
    assert_eq!(g.player_name(g.to_move().unwrap()), "Black");
}

// §Phase 1: 29 inner points, all legal first moves.
#[test]
fn twenty_nine_first_moves() {
    let g = tricore("");
    let legal = legal_texts(&g);
    assert_eq!(legal.len(), 29);
    let expected: BTreeSet<String> =
        naive::all().into_iter().filter(|&p| !naive::peripheral(p)).map(naive::name).collect();
    assert_eq!(legal, expected);
    assert!(legal.contains("e4") && legal.contains("b2") && !legal.contains("a4") && !legal.contains("c1"));
}

// §Phase 1: Black, White, Black; never adjacent to a Core, never peripheral.
#[test]
fn cores_never_adjacent() {
    let mut g = tricore("e4");
    assert_eq!(g.to_move().unwrap().0, 1, "White places the second Core");
    let legal = legal_texts(&g);
    // e4's six neighbours, by the naive reading of the board.
    let around: BTreeSet<String> = naive::neighbours(naive::parse("e4")).into_iter().map(naive::name).collect();
    assert_eq!(around, set("d3 e3 d4 f4 d5 e5"));
    assert_eq!(legal.len(), 29 - 7);
    assert!(legal.is_disjoint(&around) && !legal.contains("e4"));
    assert!(refusal(&g, "e5").contains("adjacent to the Core on e4"));
    assert!(refusal(&g, "e4").contains("already holds a Core"));
    assert!(refusal(&g, "a4").contains("peripheral"));
    play(&mut g, "c4");
    play(&mut g, "e2");
    assert_eq!(g.phase(), Phase::Rings);
    assert_eq!(g.to_move().unwrap().0, 1, "White places the first Ring");
    assert_eq!(names(&g, g.cores()), set("c4 e4 e2"));
}

// §Phase 2: empty, not adjacent to a Core, not adjacent to another Ring; peripheral allowed.
#[test]
fn ring_placement_constraints() {
    let mut g = tricore("c4 e4 e2");
    assert!(refusal(&g, "c5").contains("adjacent to the Core on c4"));
    assert!(refusal(&g, "e4").contains("holds a Core"));
    // Peripheral points are allowed.
    play(&mut g, "a1");
    assert_eq!(g.to_move().unwrap().0, 0, "Black places the second Ring");
    assert!(refusal(&g, "b1").contains("adjacent to the Ring on a1"));
    assert!(refusal(&g, "a2").contains("adjacent to the Ring on a1"));
    assert!(refusal(&g, "a1").contains("already holds a Ring"));
    let legal = legal_texts(&g);
    // Every point but the Cores, the Ring and their neighbours: 51 - 7·3 (three inner Cores, apart)
    // - (a1 + its 3 neighbours), less the shared neighbours of c4 and e4 (d3, d4, d5 … counted once).
    let mut blocked: BTreeSet<String> = set("c4 e4 e2 a1");
    for c in ["c4", "e4", "e2", "a1"] {
        blocked.extend(naive::neighbours(naive::parse(c)).into_iter().map(naive::name));
    }
    let expected: BTreeSet<String> =
        naive::all().into_iter().map(naive::name).filter(|n| !blocked.contains(n)).collect();
    assert_eq!(legal, expected);
    assert_eq!(legal.len(), 51 - blocked.len());
    assert!(legal.contains("i4") && legal.contains("f7"), "peripheral points are allowed");
    // A Core's move is refused in the Ring phase, and a drive too.
    assert!(refusal(&g, "a1-b1").contains("Ring is placed"));
    play(&mut g, "i4");
    play(&mut g, "a7");
    assert_eq!(g.phase(), Phase::Drive);
    assert_eq!(g.player_name(g.to_move().unwrap()), "Black", "Black moves first with discs");
    assert_eq!(names(&g, g.rings()), set("a1 i4 a7"));
}

// §Phase 3, 2: a Ring passes over discs and stacks, never over or onto a Ring or a Core, and stops
// only on an empty point.
#[test]
fn ring_passes_over_stacks_not_rings_or_cores() {
    let stacks = [("f4", "b"), ("g4", "wb"), ("d3", "w"), ("b1", "b"), ("e5", "bwb"), ("e7", "w")];
    let g = setup("d4 a1 i4", "e4 e2 a7", &stacks, 0);
    // Along row 4: over f4 and the stack on g4 to h4 (i4 holds a Core); not past the Core on d4.
    // Up-right: e3, then the Ring on e2. Up: over d3 to c2, b1 holds a disc. Down-left: d5 c6 b7.
    // Down: over the stack of 3 on e5 to e6, e7 holds a disc.
    let expected = set("h4 e3 c2 d5 c6 b7 e6");
    assert_eq!(names(&g, g.ring_destinations(pt(&g, "e4"))), expected);
    // The naive reading agrees.
    let n = naive::State::setup(&["d4", "a1", "i4"], &["e4", "e2", "a7"], &stacks, 0);
    let nd: BTreeSet<String> = n.destinations(naive::parse("e4")).into_iter().map(naive::name).collect();
    assert_eq!(nd, expected);
    agree(&g, &n);
    let legal = legal_texts(&g);
    for d in &expected {
        assert!(legal.contains(&format!("e4-{d}")));
    }
    assert!(refusal(&g, "e4-c4").contains("pass over the Core on d4"));
    assert!(refusal(&g, "e4-e1").contains("pass over the Ring on e2"));
    assert!(refusal(&g, "e4-f4").contains("holds discs"));
    assert!(refusal(&g, "e4-d4").contains("holds a Core"));
    assert!(refusal(&g, "e4-e2").contains("holds a Ring"));
    assert!(refusal(&g, "e4-f2").contains("not on a straight line"));
    assert!(refusal(&g, "e4-e4").contains("must move"));
    assert!(refusal(&g, "f4-h4").contains("no Ring on f4"));
    assert!(refusal(&g, "end").contains("driven"));
}

// §Phase 3, 1 and 2: a drive places one disc and moves one Ring; a Ring trapped by it stays through
// the climb and leaves at the start of the next turn.
#[test]
fn trapped_ring_leaves_at_the_start_of_a_turn() {
    let stacks = [("a2", "b"), ("a3", "w"), ("a4", "b")];
    let mut g = setup("b2 c1 g4", "a1 d3 e6", &stacks, 0);
    assert_eq!(g.trapped_rings_removed(), 0);
    assert_eq!(names(&g, g.ring_destinations(pt(&g, "a1"))), set("b1"));
    play(&mut g, "d3-b1");
    assert_eq!(g.phase(), Phase::Climb);
    assert!(!g.is_turn_boundary(), "the drive and the climb are one turn");
    assert_eq!(g.to_move().unwrap().0, 0, "the same player climbs or ends");
    assert_eq!(g.just_placed(), Some(pt(&g, "d3")));
    assert_eq!(g.top(pt(&g, "d3")), Some(0));
    assert_eq!(g.discs_left(0), 24 - 3, "a2, a4 and the disc on d3");
    assert_eq!(g.ring_destinations(pt(&g, "a1")), 0, "a1 is trapped now…");
    assert_eq!(names(&g, g.rings()), set("a1 b1 e6"), "…but leaves only at the start of a turn");
    play(&mut g, "end");
    assert!(g.is_turn_boundary());
    assert_eq!(g.to_move().unwrap().0, 1);
    assert_eq!(names(&g, g.trapped_rings_removed()), set("a1"));
    assert_eq!(names(&g, g.rings()), set("b1 e6"));
    assert!(refusal(&g, "a1-b1").contains("no Ring on a1"));
    // A setup whose Ring is trapped from the start loses it at once.
    let h = setup("b2 c1 g4", "a1 b1 e6", &stacks, 0);
    assert_eq!(names(&h, h.trapped_rings_removed()), set("a1"));
    assert_eq!(names(&h, h.rings()), set("b1 e6"));
}

// §End: no Ring left after trapped Rings leave.
#[test]
fn game_ends_when_the_last_ring_is_trapped() {
    // The Ring on a1 can go only to b1; after the drive a1 holds a disc and b1 is boxed in by the
    // Cores on c1, b2 and d3 and the discs on a1 and c2.
    let stacks = [("a2", "b"), ("a3", "b"), ("a4", "b"), ("c2", "b")];
    let mut g = setup("b2 c1 d3", "a1", &stacks, 1);
    assert_eq!(legal_texts(&g), set("a1-b1"));
    play(&mut g, "a1-b1");
    assert_eq!(legal_texts(&g), set("end"));
    assert!(g.outcome().is_none());
    play(&mut g, "end");
    assert_eq!(g.phase(), Phase::Over);
    assert_eq!(names(&g, g.trapped_rings_removed()), set("b1"));
    assert_eq!(g.to_move(), None);
    assert!(legal_texts(&g).is_empty());
    assert!(g.outcome().is_some());
    assert!(refusal(&g, "end").contains("over"));
}

// §Phase 3, 3: from height h onto an adjacent h, at most 3, never the disc just placed, only the
// mover's active discs, never onto Cores, Rings or empty points.
#[test]
fn climbing() {
    let stacks = [
        ("c4", "b"),   // Black, height 1
        ("c5", "w"),   // White, height 1: a target of c4
        ("b4", "wb"),  // Black on top, height 2
        ("b5", "bw"),  // height 2, White on top: a target of b4, cannot move (White's)
        ("a4", "bww"), // height 3: neither source nor target
        ("g2", "b"),   // Black, height 1, alone
    ];
    let mut g = setup("e3 g5 b6", "f4 a1 h4", &stacks, 0);
    let n = naive::State::setup(&["e3", "g5", "b6"], &["f4", "a1", "h4"], &stacks, 0);
    agree(&g, &n);
    // Black's disc goes on f4, the Ring to d4 (next to c4, not a stack).
    assert!(legal_texts(&g).contains("f4-d4"));
    play(&mut g, "f4-d4");
    let legal = legal_texts(&g);
    // c4 (height 1) onto c5 (height 1, White); b4 (height 2) onto b5 (height 2); a4 is 3 high, g2
    // has no neighbour with discs, f4 was placed this turn, d4 holds the Ring.
    assert_eq!(legal, set("c4^c5 b4^b5 end"), "{}", g.board_text());
    assert_eq!(names(&g, g.climb_targets(pt(&g, "c4"))), set("c5"));
    assert_eq!(g.climb_targets(pt(&g, "f4")), 0, "the disc placed this turn does not climb");
    assert_eq!(g.climb_targets(pt(&g, "b5")), 0, "White's disc does not move on Black's turn");
    assert_eq!(g.climb_targets(pt(&g, "a4")), 0, "a stack of 3 does not grow");
    assert!(refusal(&g, "f4^e4").contains("placed this turn"));
    assert!(refusal(&g, "b5^b4").contains("not Black's"));
    assert!(refusal(&g, "c4^b5").contains("own height"));
    assert!(refusal(&g, "c4^d4").contains("holds a Ring"));
    assert!(refusal(&g, "c4^b3").contains("no disc"));
    assert!(refusal(&g, "c4^c3").contains("no disc"));
    assert!(refusal(&g, "c4^e4").contains("not adjacent"));
    assert!(refusal(&g, "g2^g3").contains("no disc"));
    assert!(refusal(&g, "d4-e4").contains("climb"));
    // b4 (Black over White) climbs onto b5: b5 becomes 3 high, Black on top; b4's White disc is
    // active again.
    let mut h = g.clone();
    play(&mut h, "b4^b5");
    assert_eq!(h.height(pt(&h, "b5")), 3);
    assert_eq!(h.top(pt(&h, "b5")), Some(0));
    assert_eq!(h.disc(pt(&h, "b5"), 1), Some(1));
    assert_eq!(h.height(pt(&h, "b4")), 1);
    assert_eq!(h.top(pt(&h, "b4")), Some(1), "the uncovered disc is active again");
    assert_eq!(h.to_move().unwrap().0, 1, "the climb ends the turn");
    assert!(h.is_turn_boundary());
    // c4 onto c5: c4 becomes empty, c5 is Black over White.
    play(&mut g, "c4^c5");
    assert_eq!(g.height(pt(&g, "c4")), 0);
    assert_eq!(g.top(pt(&g, "c4")), None);
    assert_eq!((g.height(pt(&g, "c5")), g.top(pt(&g, "c5")), g.disc(pt(&g, "c5"), 0)), (2, Some(0), Some(1)));
    // The emptied point is a Ring stop again.
    assert!(g.ring_destinations(pt(&g, "d4")) >> pt(&g, "c4") & 1 != 0);
}

// §Phase 3, 3 (resolved::MAY_CLIMB_ONTO_JUST_PLACED): the stack of the disc placed this turn may be
// climbed onto.
#[test]
fn climbing_onto_the_disc_just_placed() {
    let g0 = setup("e3 g5 b6", "d4 a1 h4", &[("c4", "b")], 0);
    let mut g = g0.clone();
    play(&mut g, "d4-f4");
    assert_eq!(legal_texts(&g), set("c4^d4 end"));
    play(&mut g, "c4^d4");
    assert_eq!(g.height(pt(&g, "d4")), 2);
}

fn outcome_of(cores: &str, stacks: &[(&str, &str)]) -> (TriCore, [i32; 2], [f32; 2]) {
    let g = setup(cores, "", stacks, 0);
    assert_eq!(g.phase(), Phase::Over, "no Ring: over");
    let o = g.outcome().expect("over");
    let n = naive::State::setup(&cores.split_whitespace().collect::<Vec<_>>(), &[], stacks, 0);
    agree(&g, &n);
    (g, [o.scores[0], o.scores[1]], [o.ranks[0], o.ranks[1]])
}

// §Result: the best group reaches the most Cores; then the larger group wins; then a draw.
#[test]
fn results() {
    // Black: c3 touches b3 (left) and d3; d3 touches e3. Black reaches 2 Cores with 2 discs.
    // White: a big group g4 h4 g5 f5 reaching nothing, and c6 touching c5 (1 Core).
    let (g, scores, ranks) = outcome_of(
        "b3 e3 c5",
        &[("c3", "b"), ("d3", "b"), ("g4", "w"), ("h4", "w"), ("g5", "w"), ("f5", "w"), ("c6", "w")],
    );
    assert_eq!(scores, [2, 1]);
    assert_eq!(ranks, [1.0, 0.0]);
    assert_eq!(names(&g, g.best_group(0).0), set("c3 d3"));
    assert_eq!(names(&g, g.best_group(0).1), set("b3 e3"));
    assert_eq!(names(&g, g.best_group(1).0), set("c6"), "one Core beats a bigger group without");

    // Both reach one Core; White's group is larger.
    let (_, scores, ranks) = outcome_of("b3 g3 c6", &[("c3", "b"), ("h3", "w"), ("h4", "w")]);
    assert_eq!(scores, [1, 1]);
    assert_eq!(ranks, [0.0, 1.0]);

    // Equal Cores, equal size: a draw.
    let (_, scores, ranks) = outcome_of("b3 g3 c6", &[("c3", "b"), ("h3", "w")]);
    assert_eq!(scores, [1, 1]);
    assert_eq!(ranks, [0.5, 0.5]);

    // Only active discs count: White's disc under Black's breaks White's chain, and a Black top
    // disc joins Black's.
    let (g, scores, ranks) =
        outcome_of("b3 g3 c6", &[("c3", "b"), ("d3", "wb"), ("e3", "w"), ("f3", "w"), ("h3", "w")]);
    assert_eq!(names(&g, g.best_group(0).0), set("c3 d3"));
    assert_eq!(names(&g, g.best_group(1).0), set("e3 f3"), "e3-f3 and h3 both reach g3: the larger counts");
    assert_eq!(scores, [1, 1]);
    assert_eq!(ranks, [0.5, 0.5]);

    // Among a player's groups, the one with more Cores counts even if smaller.
    let (g, scores, ranks) = outcome_of(
        "b3 d3 c6",
        &[("c3", "b"), ("f3", "b"), ("g3", "b"), ("h3", "b"), ("f4", "b"), ("e6", "w"), ("d6", "w")],
    );
    assert_eq!(names(&g, g.best_group(0).0), set("c3"));
    assert_eq!(scores, [2, 1]);
    assert_eq!(ranks, [1.0, 0.0]);

    // No disc at all: a draw with nothing.
    let (g, scores, ranks) = outcome_of("b3 d3 c6", &[]);
    assert_eq!(g.best_group(0), (0, 0));
    assert_eq!(scores, [0, 0]);
    assert_eq!(ranks, [0.5, 0.5]);
}

// §End: both players have placed all 24 discs.
#[test]
fn game_ends_when_all_discs_are_placed() {
    // 23 Black and 24 White discs on the board (23 stacks "bw" and one "w" in the top five rows),
    // Black to move with one disc left; two Rings in the empty bottom rows.
    let cores = ["c3", "e3", "g3"];
    let rings = ["b6", "f6"];
    let free: Vec<String> = naive::all()
        .into_iter()
        .filter(|p| p.1 < 5)
        .map(naive::name)
        .filter(|n| !cores.contains(&n.as_str()))
        .collect();
    let stacks: Vec<(&str, &str)> =
        free.iter().take(24).enumerate().map(|(k, n)| (n.as_str(), if k < 23 { "bw" } else { "w" })).collect();
    let mut g = TriCore::setup(&cores, &rings, &stacks, 0).unwrap();
    assert_eq!((g.discs_left(0), g.discs_left(1)), (1, 0));
    assert_eq!(g.phase(), Phase::Drive);
    play(&mut g, "b6-b7");
    assert_eq!(g.discs_left(0), 0);
    play(&mut g, "end");
    assert_eq!(g.phase(), Phase::Over, "48 discs placed");
    assert_eq!(names(&g, g.rings()), set("b7 f6"), "the game ends with Rings left");
    assert!(g.outcome().is_some());
}

// §Phase 3 and the engine's moves: random games, each position cross-checked against the naive
// rules; every disc turn places exactly one disc and moves exactly one Ring.
#[test]
fn random_games_agree_with_naive_rules() {
    let mut rng = rng_from_seed(7);
    let mut buf = Vec::new();
    let mut legal = Vec::new();
    let mut ends = [0usize; 2];
    let mut max_discs = 0;
    for game in 0..3000 {
        let mut g = tricore("");
        let mut n = naive::State::new();
        let check_all = game < 300;
        loop {
            if check_all {
                agree(&g, &n);
            }
            g.legal_moves(&mut legal);
            let Some(m) = g.random_move(&mut rng, &mut buf) else {
                assert!(legal.is_empty());
                break;
            };
            assert!(legal.contains(&m), "random_move {m:?} is legal");
            let text = g.move_text(m);
            let before = g.clone();
            let discs = |g: &TriCore| (0..51).map(|p| g.height(p) as u32).sum::<u32>();
            g.play(m).unwrap_or_else(|e| panic!("{text}: {e}"));
            n.play(&text);
            match m {
                TriCoreMove::Drive { ring, to } => {
                    assert_eq!(discs(&g), discs(&before) + 1, "a drive places one disc");
                    assert_eq!(g.rings(), before.rings() ^ (1 << ring) ^ (1 << to), "and moves one Ring");
                    assert_eq!(g.to_move(), before.to_move());
                    assert!(!g.is_turn_boundary());
                }
                TriCoreMove::Climb { .. } | TriCoreMove::End => {
                    assert_eq!(discs(&g), discs(&before), "the climb step places no disc");
                    assert_eq!(g.rings() | g.trapped_rings_removed(), before.rings(), "only trapped Rings leave");
                    assert!(g.is_turn_boundary());
                    if g.to_move().is_some() {
                        assert_ne!(g.to_move(), before.to_move());
                    }
                }
                _ => assert!(g.is_turn_boundary()),
            }
            let d = discs(&g);
            assert!(d <= 48);
            max_discs = max_discs.max(d);
            assert!((0..51).all(|p| g.height(p) <= 3));
        }
        agree(&g, &n);
        ends[(g.discs_left(0) + g.discs_left(1) == 0) as usize] += 1;
    }
    assert_eq!(ends[0] + ends[1], 3000);
    eprintln!("ends (rings trapped, all discs placed): {ends:?}, most discs {max_discs}");
}

// The shared harness: legality, refusals, keys, notation, records.
#[test]
fn random_games_harness() {
    // 3 Cores, 3 Rings, then at most 48 discs of two plies each (drive, then climb or end).
    let run = Run::<TriCore>::new(TriCoreOptions::default(), 300, 11, 6 + 2 * 48);
    let stats = random_games(&run, |p: Position<'_, TriCore>| {
        let Position { state, history, legal, .. } = p;
        if history.len() < 3 {
            assert!(legal.iter().all(|m| matches!(m, TriCoreMove::Core(_))));
        } else if history.len() < 6 {
            assert!(legal.iter().all(|m| matches!(m, TriCoreMove::Ring(_))));
        }
        if state.phase() == Phase::Climb {
            assert_eq!(legal.last(), Some(&TriCoreMove::End));
        }
    });
    assert_eq!(stats.games, 300);
    assert!(stats.refusals_checked > 0);
}

/// Perft of `moves`' position to `depth`, checked against the naive rules; returns the counts.
fn perft_both(moves: &str, depth: usize) -> Vec<u64> {
    let g = tricore(moves);
    let counts = perft(&g, depth);
    let mut n = naive::State::new();
    for m in moves.split_whitespace() {
        n.play(m);
    }
    let mut naive_counts = vec![0; depth];
    naive::perft(&n, depth, &mut naive_counts);
    assert_eq!(counts, naive_counts, "perft after {moves}");
    counts
}

// Perft from the start (plies 1–4: Cores, then the first Ring), from the first disc turn (plies
// 1–6, the first climbs at ply 6) and from a middle game with stacks (plies 1–3), against the naive rules and pinned.
#[test]
fn perft_matches_naive() {
    assert_eq!(perft_both("", 4), [29, 676, 12306, 386148]);
    // Entering the disc phase: after the first drive the climb step has only `end`.
    assert_eq!(perft_both("e4 c3 g3 a1 i4 d7", 6), PERFT_DISC_PHASE);
    // A middle game (30 turns of a seeded random game): stacks and climbs on the board, two Rings.
    let moves = MIDDLE_GAME;
    let g = tricore(moves);
    assert!((0..51).any(|p| g.height(p) >= 2), "{}", g.board_text());
    assert_eq!(perft_both(moves, 3), PERFT_MIDDLE_GAME);
}

// Notation: `d4`, `d4-d7`, `c3^d3`, `end` read back; bad text is refused with a reason.
#[test]
fn notation() {
    let g = tricore("");
    assert_eq!(mv(&g, "e4"), TriCoreMove::Core(pt(&g, "e4") as u8));
    assert_eq!(mv(&g, " E4 "), TriCoreMove::Core(pt(&g, "e4") as u8));
    let r = tricore("e4 c3 g3");
    assert_eq!(mv(&r, "a1"), TriCoreMove::Ring(pt(&r, "a1") as u8));
    assert_eq!(mv(&g, "d4-d7"), TriCoreMove::Drive { ring: pt(&g, "d4") as u8, to: pt(&g, "d7") as u8 });
    assert_eq!(mv(&g, "c3^d3"), TriCoreMove::Climb { from: pt(&g, "c3") as u8, to: pt(&g, "d3") as u8 });
    assert_eq!(mv(&g, "end"), TriCoreMove::End);
    assert_eq!(mv(&g, "D4 - D7"), mv(&g, "d4-d7"));
    for text in ["e4", "d4-d7", "c3^d3", "end", "i4-a4", "f7^e7"] {
        assert_eq!(g.move_text(mv(&g, text)), text);
    }
    for bad in ["", "z9", "g1", "a8", "d4-", "-d4", "d4-z1", "c3^", "pass", "d0"] {
        assert!(g.parse_move(bad).is_err(), "{bad} is refused");
    }
    // Keys are dense and distinct over every move of the universe.
    let mut keys = BTreeSet::new();
    let p = 51u8;
    let mut all = vec![TriCoreMove::End];
    for a in 0..p {
        all.push(TriCoreMove::Core(a));
        all.push(TriCoreMove::Ring(a));
        for b in 0..p {
            all.push(TriCoreMove::Drive { ring: a, to: b });
        }
        for &b in g.lattice().neighbor[a as usize].iter().filter(|&&b| b != u8::MAX) {
            all.push(TriCoreMove::Climb { from: a, to: b });
        }
    }
    for m in &all {
        let k = g.move_key(*m);
        assert!(k < g.move_key_space());
        assert!(keys.insert(k), "{m:?} has its own key");
    }
    // Every generated move reads back in its position (the harness checks this on random games too).
    let g = tricore("e4 c3 g3 a1 i4 d7");
    for t in legal_texts(&g) {
        assert_eq!(g.move_text(mv(&g, &t)), t);
    }
}

/// Perft after `e4 c3 g3 a1 i4 d7`, plies 1–6.
const PERFT_DISC_PHASE: [u64; 6] = [29, 29, 862, 862, 25898, 31360];
/// 30 turns of a seeded random game.
const MIDDLE_GAME: &str = "e4 c3 g3 a1 i4 d7 a1-a2 end d7-a7 end a2-a4 end a4-d4 end i4-g4 a1^a2 g4-e2 end a7-b7 end \
    e2-e1 end b7-c6 end c6-c5 end c5-d5 b7^a7 e1-f2 e2^e1 f2-c2 c5^c6 d5-f5 end c2-d2 end f5-e6 end d4-d3 end e6-a6 \
    g4^f5 d2-d1 c2^d2 a6-b6 end d1-b1 d4^d5 b1-b3 e6^d7 d3-c2 end b6-b4 a6^b6 b4-c4 c6^b6 c4-d4 end b3-b2 b4^b3 b2-b4 \
    end d4-d6 d3^d4 b4-a3 a4^b4";
/// Perft of [`MIDDLE_GAME`], plies 1–3.
const PERFT_MIDDLE_GAME: [u64; 3] = [17, 102, 1740];

// The terminal diagram shows every Core, Ring and stack on its point, and names the points a move
// names: an empty point shows its letter and a Ring the letter of its point, `(c)`, in the line of
// its row's number (`docs/rules/tricore.md` §Board, notation), each cell's middle character on the
// point, two characters per half step.
#[test]
fn board_text_shows_the_position() {
    let g = tricore(MIDDLE_GAME);
    let text = g.board_text();
    let rings = g.rings();
    assert!(rings != 0 && g.cores() != 0, "the position has Rings and Cores");
    // The cells of each row line: (text, column of its middle character).
    let mut middles = Vec::new();
    let rows = common::diagram_rows(&text, g.lattice().rows.len());
    for (r, (cells, &n)) in rows.into_iter().zip(&g.lattice().rows).enumerate() {
        assert_eq!(cells.len(), n as usize, "row {}: one cell per point\n{text}", r + 1);
        // A Ring's "(c)": its letter's column.
        middles.extend(cells.into_iter().map(|(cell, s)| {
            let s = if cell.starts_with('(') { s + 1 } else { s };
            (cell, s)
        }));
    }
    for (p, (cell, _)) in middles.iter().enumerate() {
        let name = g.lattice().name(p);
        let letter = &name[..1];
        let expected = if g.cores() >> p & 1 != 0 {
            "##".to_string()
        } else if rings >> p & 1 != 0 {
            format!("({letter})")
        } else {
            match g.top(p) {
                None => letter.to_string(),
                Some(c) => format!("{}{}", if c == 0 { 'x' } else { 'o' }, g.height(p)),
            }
        };
        assert_eq!(cell, &expected, "{name}\n{text}");
        // Four characters to the next point of the row, two (half a step) to either neighbour below.
        for (d, shift) in [(0, 4), (5, 2), (4, -2)] {
            if let Some(q) = g.lattice().step(p, d, 1) {
                assert_eq!(
                    middles[q].1 as i32 - middles[p].1 as i32,
                    shift,
                    "{name} to {}\n{text}",
                    g.lattice().name(q)
                );
            }
        }
    }
    assert_eq!(names(&g, g.cores()), set("e4 c3 g3"));
    assert!(text.contains("c4 is c in row 4"), "the legend says how to read a name: {text}");
}

/// How often `random_move` picks each legal move of `g` over `n` draws.
fn frequencies(g: &TriCore, n: usize, seed: u64) -> std::collections::BTreeMap<String, usize> {
    let mut rng = rng_from_seed(seed);
    let mut buf = Vec::new();
    let mut counts = std::collections::BTreeMap::new();
    for text in legal_texts(g) {
        counts.insert(text, 0);
    }
    for _ in 0..n {
        let mut copy = g.clone();
        let m = copy.random_move(&mut rng, &mut buf).unwrap();
        *counts.get_mut(&g.move_text(m)).expect("a legal move") += 1;
    }
    counts
}

// `random_move`'s documented distribution: the climb step is uniform over the climbs and `end`; a
// drive picks a Ring uniformly, then one of its destinations uniformly.
#[test]
fn random_move_distribution() {
    let mut g = tricore(MIDDLE_GAME);
    let n = 120_000;
    // The drive.
    let counts = frequencies(&g, n, 5);
    let rings: BTreeSet<String> = names(&g, g.rings());
    for ring in &rings {
        let dests = g.ring_destinations(pt(&g, ring)).count_ones() as f64;
        for (text, &c) in counts.iter().filter(|(t, _)| t.starts_with(&format!("{ring}-"))) {
            let expected = n as f64 / rings.len() as f64 / dests;
            assert!((c as f64 - expected).abs() < 5.0 * expected.sqrt() + 1.0, "{text}: {c} vs {expected:.0}");
        }
    }
    // The climb step: find a drive after which there are several climbs.
    let drive = legal_texts(&g)
        .into_iter()
        .find(|d| {
            let mut h = g.clone();
            play(&mut h, d);
            legal_texts(&h).len() >= 4
        })
        .expect("a drive with climbs after it");
    play(&mut g, &drive);
    let counts = frequencies(&g, n, 6);
    let expected = n as f64 / counts.len() as f64;
    for (text, &c) in &counts {
        assert!((c as f64 - expected).abs() < 5.0 * expected.sqrt(), "{text}: {c} vs {expected:.0} ({counts:?})");
    }
}

// The playout policy (`tricore::knowledge`) plays legal moves, and a climb onto an opponent's active
// disc whenever there is one that uncovers none of the opponent's.
#[test]
fn playout_policy() {
    let mut rng = rng_from_seed(9);
    let mut buf = Vec::new();
    let mut legal = Vec::new();
    let mut covering = 0;
    for _ in 0..300 {
        let mut g = tricore("");
        while let Some(m) = g.playout_move(&mut rng, &mut buf) {
            g.legal_moves(&mut legal);
            assert!(legal.contains(&m), "{m:?} is legal");
            if g.phase() == Phase::Climb {
                let mover = g.to_move().unwrap().0;
                let covers = |m: &TriCoreMove| match *m {
                    TriCoreMove::Climb { from, to } => {
                        let (from, to) = (from as usize, to as usize);
                        let h = g.height(from);
                        g.top(to) == Some(1 - mover) && (h == 1 || g.disc(from, h - 2) == Some(mover))
                    }
                    _ => false,
                };
                if legal.iter().any(covers) {
                    assert!(covers(&m), "{} is not a covering climb", g.move_text(m));
                    covering += 1;
                }
            }
            g.play(m).unwrap();
        }
        assert!(g.outcome().is_some());
    }
    assert!(covering > 1000, "{covering} covering climbs");
}

// The search's priors (`tricore::knowledge`): in the climb step, climbs onto an opponent's active disc
// that uncover none of theirs first; nothing for `end` or other phases. The reward stays in [0, 1]
// and orders the players as the ranks do.
#[test]
fn priors_and_reward() {
    let stacks = [("c4", "b"), ("c5", "w"), ("b4", "wb"), ("b5", "bw"), ("a4", "bww"), ("g2", "b"), ("c3", "b")];
    let mut g = setup("e3 g5 b6", "f4 a1 h4", &stacks, 0);
    let mut moves = Vec::new();
    let mut priors = Vec::new();
    g.legal_moves(&mut moves);
    g.move_priors(&moves, &mut priors);
    assert!(priors.iter().all(|&p| p == (0.0, 0.0)), "no priors for drives");
    play(&mut g, "f4-d4");
    g.legal_moves(&mut moves);
    g.move_priors(&moves, &mut priors);
    let by_text: BTreeSet<(String, String)> =
        moves.iter().zip(&priors).map(|(&m, p)| (g.move_text(m), format!("{p:?}"))).collect();
    // c4 covers White's c5; b4 covers b5 (White on top) but uncovers White's disc in b4; c3 and c4
    // are both Black's.
    let expected: BTreeSet<(String, String)> = [
        ("c4^c5", "(1.0, 10.0)"),
        ("b4^b5", "(0.3, 10.0)"),
        ("c4^c3", "(0.3, 10.0)"),
        ("c3^c4", "(0.3, 10.0)"),
        ("end", "(0.0, 0.0)"),
    ]
    .iter()
    .map(|(a, b)| (a.to_string(), b.to_string()))
    .collect();
    assert_eq!(by_text, expected);

    let (g, _, ranks) = outcome_of("b3 e3 c5", &[("c3", "b"), ("d3", "b"), ("g4", "w"), ("c6", "w")]);
    let reward = g.reward(&g.outcome().unwrap());
    assert_eq!(ranks, [1.0, 0.0]);
    assert!(reward[0] > 0.85 && reward[0] <= 1.0 && reward[1] >= 0.0 && reward[1] < 0.15, "{reward:?}");
}

/// The move features (`src/rules/tricore/features.rs`) equal a recount at every ply of random
/// games through the rules' public interface: each move played on a copy, the best groups, Cores,
/// Rings and stacks read from both positions.
#[test]
fn move_features_equal_a_recount() {
    use triboard::rules::tricore::features::FEATURE_SET;
    let groups = FEATURE_SET.groups.len();
    let bucket = |g: usize, f: u16| f as usize - FEATURE_SET.offset(g);
    let mut rng = rng_from_seed(12);
    let mut kinds = [0usize; 5];
    for _ in 0..3 {
        let mut g = tricore("");
        let (mut moves, mut active) = (Vec::new(), Vec::new());
        while g.outcome().is_none() {
            g.legal_moves(&mut moves);
            g.move_features(&moves, &mut active);
            assert_eq!(active.len(), moves.len() * groups);
            let me = g.to_move().unwrap().index();
            let value = |s: &TriCore, p: usize| {
                let (group, reached) = s.best_group(p);
                (reached.count_ones() as i32, group.count_ones() as i32)
            };
            let (mine, theirs) = (value(&g, me), value(&g, 1 - me));
            let near = |p: u8| {
                let l = g.lattice();
                (0..l.len).filter(|&x| l.adjacent[p as usize] >> x & 1 != 0 && g.cores() >> x & 1 != 0).count()
            };
            let placed = 24 - g.discs_left(me) as usize;
            for (k, &m) in moves.iter().enumerate() {
                let a: Vec<usize> =
                    active[k * groups..(k + 1) * groups].iter().enumerate().map(|(i, &f)| bucket(i, f)).collect();
                let mut after = g.clone();
                after.play(m).unwrap();
                let (kind, point, dest, covers) = match m {
                    TriCoreMove::Core(p) => (0, near(p), 0, false),
                    TriCoreMove::Ring(p) => (1, near(p), 0, false),
                    TriCoreMove::Drive { ring, to } => (2, near(ring), near(to), false),
                    TriCoreMove::Climb { to, .. } => (3, near(to), 0, g.top(to as usize) == Some(1 - me as u8)),
                    TriCoreMove::End => (4, 0, 0, false),
                };
                kinds[kind] += 1;
                let (m2, t2) = (value(&after, me), value(&after, 1 - me));
                let expected = [
                    kind,
                    m2.0 as usize,
                    ((m2.0 - mine.0).clamp(-1, 2) + 1) as usize,
                    ((t2.0 - theirs.0).clamp(-2, 1) + 2) as usize,
                    ((m2.1 - mine.1).clamp(-2, 3) + 2) as usize,
                    ((t2.1 - theirs.1).clamp(-3, 2) + 3) as usize,
                    point.min(2),
                    covers as usize,
                    dest.min(2),
                    after.rings().count_ones() as usize,
                    (placed * 4 / 24).min(3) * 5 + kind,
                    ((m2.0 - t2.0).clamp(-2, 2) + 2) as usize,
                ];
                assert_eq!(a, expected, "{}", g.move_text(m));
            }
            let m = g.random_move(&mut rng, &mut moves).unwrap();
            g.play(m).unwrap();
        }
    }
    assert!(kinds.iter().all(|&n| n > 20), "every kind of move checked: {kinds:?}");
}
