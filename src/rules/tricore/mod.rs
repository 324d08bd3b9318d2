//! TriCore (Paschalis Antoniou), as `docs/rules/tricore.md` settles it.
//!
//! Three neutral Cores and three neutral Rings are placed on a 51-point hexagon; then each turn a
//! player puts a disc on a Ring's point, drives that Ring along a line to an empty point, and may
//! climb one of their active discs onto an adjacent stack of the same height. The game ends when
//! the Rings are all trapped or the discs are all placed; the best group of active discs, by Cores
//! reached and then by size, wins.
//!
//! Every point the rules file leaves open is settled in [`resolved`].
//!
//! Moves (`docs/rules/tricore.md` §Phase 3, *Moves in the engine*): a placement is one move (`d4`); a disc
//! turn is two moves of the same player, the drive `RING-DEST` and then a climb `FROM^TO` or `end`.
//! Trapped Rings leave automatically at the start of a turn.

pub mod features;
mod knowledge;
pub mod resolved;

use std::sync::OnceLock;

use serde::{Deserialize, Serialize};

use super::game::{Game, IllegalMove, Outcome, Player, Rng, random_index};
use super::geometry::lattice::{Lattice, NONE, Points};

/// TriCore's options: none yet (`docs/rules/tricore.md` has one board and one rule set).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct TriCoreOptions {}

/// One move of TriCore (`docs/rules/tricore.md` §Phase 3, *Moves in the engine*). Points are indices of
/// [`TriCore::lattice`].
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum TriCoreMove {
    /// Phase 1: a Core on this point, written `d4`.
    Core(u8),
    /// Phase 2: a Ring on this point, written `d4`.
    Ring(u8),
    /// Phase 3, step 2: a disc of the mover on the Ring's point `ring`, the Ring driven to `to`;
    /// written `d4-d7`.
    Drive {
        /// The Ring's point, where the disc goes.
        ring: u8,
        /// Where the Ring stops.
        to: u8,
    },
    /// Phase 3, step 3: the mover's active disc on `from` climbs onto the adjacent stack on `to`;
    /// written `c3^d3`.
    Climb {
        /// The stack the disc leaves.
        from: u8,
        /// The stack it climbs onto (of the same height as `from`).
        to: u8,
    },
    /// Phase 3, step 3: no climb; the turn ends. Written `end`.
    End,
}

/// Where the game stands (`docs/rules/tricore.md` §Phase 1–3, §End).
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum Phase {
    /// Phase 1: Black, White, Black place a Core each.
    Cores,
    /// Phase 2: White, Black, White place a Ring each.
    Rings,
    /// Phase 3, a turn's first move: place a disc and drive a Ring.
    Drive,
    /// Phase 3, a turn's second move: climb or `end`.
    Climb,
    /// The game is over.
    Over,
}

/// The number of points of the board (`docs/rules/tricore.md` §Board).
pub const POINTS: usize = 51;
/// Black's colour index and seat (places the first Core, moves first in the disc phase).
pub const BLACK: u8 = 0;
/// White's colour index and seat (places the first Ring).
pub const WHITE: u8 = 1;

/// Moves of phases 1 and 2 together: 3 Cores, then 3 Rings.
const PLACEMENTS: u16 = 6;

// Internally the state's bitboards do not use the lattice's point numbers but *slots*: axial
// `(q, r)` at `9·r + q + 3` (`q` runs from -3 to 5 over the board's rows), 63 slots of which 51 are
// points. A step in a lattice direction is then a constant shift of the whole bitboard, so the
// neighbours of a set, the climbs of every disc at once and the groups at the end are a few shifts
// instead of a loop over points. The public interface speaks lattice points; the conversion is at
// its edge.

/// A set of slots (see above).
type Slots = u64;
/// Slots per row.
const WIDTH: i32 = 9;
/// Slot offset of a step in each of the lattice's [`DIRECTIONS`](crate::rules::geometry::lattice::DIRECTIONS).
const STEP: [i32; 6] = [1, 1 - WIDTH, -WIDTH, -1, WIDTH - 1, WIDTH];
/// The first and last slot columns: a step with `dq = ±1` from them would wrap to another row.
const COLUMN_FIRST: Slots = 1 | 1 << 9 | 1 << 18 | 1 << 27 | 1 << 36 | 1 << 45 | 1 << 54;
const COLUMN_LAST: Slots = COLUMN_FIRST << 8;
/// Slots that may step in each direction without wrapping.
const NO_WRAP: [Slots; 6] = [!COLUMN_LAST, !COLUMN_LAST, !0, !COLUMN_FIRST, !COLUMN_FIRST, !0];
/// Directions whose next slot is higher (right, down-left, down as drawn): the first obstacle on
/// such a ray is its lowest set bit.
const RAY_ASCENDS: [bool; 6] = [true, false, false, false, true, true];

/// The board's tables, built once.
struct Tables {
    lattice: Lattice,
    /// `slot[p]`: the slot of lattice point `p`.
    slot: [u8; POINTS],
    /// `point[s]`: the lattice point of slot `s`, or [`NONE`].
    point: [u8; 64],
    /// Every point, as slots.
    all: Slots,
    /// The inner points (`docs/rules/tricore.md` §Board), as slots.
    inner: Slots,
    /// `adj[s]`: the neighbours of slot `s`.
    adj: [Slots; 64],
    /// `nb[s][d]`: the neighbour of slot `s` in direction `d`, or [`NONE`].
    nb: [[u8; 6]; 64],
    /// `ray[s][d]`: every slot beyond `s` in direction `d`, to the edge.
    ray: [[Slots; 6]; 64],
}

// One board exists: identity is equality, and the tables stay out of `Debug` output.
impl PartialEq for Tables {
    fn eq(&self, other: &Self) -> bool {
        std::ptr::eq(self, other)
    }
}

impl std::fmt::Debug for Tables {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Tables({:?})", self.lattice)
    }
}

impl Tables {
    /// The slots of a set of lattice points.
    fn slots(&self, points: Points) -> Slots {
        Lattice::iter(points).fold(0, |x, p| x | bit(self.slot[p] as usize))
    }
    /// The lattice points of a set of slots.
    fn points(&self, slots: Slots) -> Points {
        Lattice::iter(slots).fold(0, |x, s| x | 1 << self.point[s])
    }
    /// The name of a slot's point (`c4`).
    fn name(&self, s: usize) -> String {
        self.lattice.name(self.point[s] as usize)
    }
}

fn tables() -> &'static Tables {
    static TABLES: OnceLock<Tables> = OnceLock::new();
    TABLES.get_or_init(|| {
        let lattice = Lattice::new(&resolved::ROWS);
        assert_eq!(lattice.len, POINTS);
        let mut t = Tables {
            slot: [0; POINTS],
            point: [NONE; 64],
            all: 0,
            inner: 0,
            adj: [0; 64],
            nb: [[NONE; 6]; 64],
            ray: [[0; 6]; 64],
            lattice,
        };
        for p in 0..POINTS {
            let s = WIDTH * t.lattice.r[p] as i32 + t.lattice.q[p] as i32 + 3;
            assert!((0..63).contains(&s) && (0..WIDTH).contains(&(t.lattice.q[p] as i32 + 3)));
            t.slot[p] = s as u8;
            t.point[s as usize] = p as u8;
        }
        t.all = t.slots(t.lattice.all);
        t.inner = t.slots(t.lattice.all & !t.lattice.boundary);
        for p in 0..POINTS {
            let s = t.slot[p] as usize;
            t.adj[s] = t.slots(t.lattice.adjacent[p]);
            for (d, &step) in STEP.iter().enumerate() {
                let mut q = t.lattice.neighbor[p][d];
                if q != NONE {
                    t.nb[s][d] = t.slot[q as usize];
                    assert_eq!(t.slot[q as usize] as i32 - s as i32, step, "a step is a shift");
                }
                while q != NONE {
                    t.ray[s][d] |= bit(t.slot[q as usize] as usize);
                    q = t.lattice.neighbor[q as usize][d];
                }
            }
        }
        for s in Lattice::iter(t.all) {
            for d in 0..6 {
                assert_eq!(shift(bit(s), d, t.all), if t.nb[s][d] == NONE { 0 } else { bit(t.nb[s][d] as usize) });
            }
        }
        t
    })
}

#[inline(always)]
fn bit(s: usize) -> Slots {
    1 << s
}

/// The neighbours in direction `d` of the slots of `x`, on the board `all`.
#[inline(always)]
fn shift(x: Slots, d: usize, all: Slots) -> Slots {
    let x = x & NO_WRAP[d];
    let moved = if STEP[d] > 0 { x << STEP[d] } else { x >> -STEP[d] };
    moved & all
}

/// Every neighbour of the slots of `x`, on the board `all`.
#[inline(always)]
fn around(x: Slots, all: Slots) -> Slots {
    let a = x & !COLUMN_LAST;
    let b = x & !COLUMN_FIRST;
    (a << 1 | a >> 8 | x >> 9 | b >> 1 | b << 8 | x << 9) & all
}

/// The number of set bits of each byte of `x`, in that byte (the first steps of a popcount: this
/// target has no popcount instruction by default).
#[inline(always)]
fn bits_per_byte(x: u64) -> u64 {
    let b = x - ((x >> 1) & 0x5555_5555_5555_5555);
    let b = (b & 0x3333_3333_3333_3333) + ((b >> 2) & 0x3333_3333_3333_3333);
    (b + (b >> 4)) & 0x0f0f_0f0f_0f0f_0f0f
}

/// The `n`-th lowest slot of a set (`n < count`), without a loop: bytes' bit counts, their running
/// sums, the byte holding the `n`-th bit, then the bit within the byte from a table.
#[inline(always)]
fn nth_slot(x: Slots, n: usize) -> usize {
    nth_slot_counted(x, bits_per_byte(x), n)
}

/// [`nth_slot`] given [`bits_per_byte`] of `x`.
#[inline(always)]
fn nth_slot_counted(x: Slots, b: u64, n: usize) -> usize {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    // Byte i of `sums`: the bits in bytes 0..=i (at most 64, so no carry between bytes).
    let sums = b.wrapping_mul(ONES);
    // High bit of byte i set ⇔ sums_i ≤ n; those bytes are a prefix, and their number is the byte
    // holding the n-th bit.
    let at_most = ((n as u64 * ONES) | HIGH).wrapping_sub(sums) & HIGH;
    let byte = ((at_most >> 7).wrapping_mul(ONES) >> 56) as usize;
    let before = if byte == 0 { 0 } else { (sums >> (8 * byte - 8)) as u8 as usize };
    8 * byte + SELECT_IN_BYTE[n - before][(x >> (8 * byte)) as u8 as usize] as usize
}

/// `SELECT_IN_BYTE[k][b]`: the position of the `k`-th lowest set bit of byte `b` (8 if none).
static SELECT_IN_BYTE: [[u8; 256]; 8] = {
    let mut table = [[8u8; 256]; 8];
    let mut b = 0;
    while b < 256 {
        let (mut k, mut i) = (0, 0);
        while i < 8 {
            if b >> i & 1 != 0 {
                table[k][b] = i as u8;
                k += 1;
            }
            i += 1;
        }
        b += 1;
    }
    table
};

/// A uniformly chosen slot of a non-empty set.
#[inline(always)]
fn random_slot(rng: &mut Rng, set: Slots) -> usize {
    nth_slot(set, random_index(rng, set.count_ones() as usize))
}

/// A uniformly chosen slot of a non-empty set, cheaper than [`random_slot`] for the Rings' sets of
/// at most three.
#[inline(always)]
fn random_ring(rng: &mut Rng, rings: Slots) -> usize {
    let rest = rings & (rings - 1);
    if rest == 0 {
        return rings.trailing_zeros() as usize;
    }
    let third = rest & (rest - 1);
    if third != 0 && third & (third - 1) != 0 {
        // More than three (a set-up position).
        return random_slot(rng, rings);
    }
    let n = 2 + (third != 0) as usize;
    let mut set = rings;
    for _ in 0..random_index(rng, n) {
        set &= set - 1;
    }
    set.trailing_zeros() as usize
}

/// The slots of a set, lowest first.
#[inline(always)]
fn slots(set: Slots) -> impl Iterator<Item = usize> {
    Lattice::iter(set)
}

/// A TriCore position: Cores, Rings and the discs of every stack level as bitboards of slots, the
/// discs each player has left, whose turn it is and the step within it. `Clone` is a copy of about
/// 100 bytes.
///
/// ```
/// use triboard::rules::tricore::{Phase, TriCore, TriCoreOptions};
/// use triboard::rules::{Game, play_moves};
///
/// let mut g = TriCore::new(&TriCoreOptions::default()).unwrap();
/// // Three Cores (Black, White, Black), three Rings (White, Black, White).
/// play_moves(&mut g, "e4 c3 g3 a1 i4 d7").unwrap();
/// assert_eq!(g.phase(), Phase::Drive);
/// // Black's disc goes on a1, the Ring slides to f1; then the same player may climb or end.
/// play_moves(&mut g, "a1-f1").unwrap();
/// assert_eq!((g.phase(), g.is_turn_boundary()), (Phase::Climb, false));
/// let err = g.play(g.parse_move("a1^b1").unwrap()).unwrap_err();
/// assert_eq!(err.reason, "the disc on a1 was placed this turn; it cannot climb");
/// play_moves(&mut g, "end").unwrap();
/// assert_eq!(g.player_name(g.to_move().unwrap()), "White");
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct TriCore {
    t: &'static Tables,
    options: TriCoreOptions,
    cores: Slots,
    rings: Slots,
    /// `occ[l]`: slots whose stack holds a disc at level `l` (height above `l`).
    occ: [Slots; 3],
    /// `white[l]`: slots whose disc at level `l` is White.
    white: [Slots; 3],
    /// The active (top) discs per colour.
    top: [Slots; 2],
    left: [u8; 2],
    mover: u8,
    /// The slot of the disc placed this turn while the turn's climb step is due, else [`NONE`].
    just: u8,
    ply: u16,
    over: bool,
    /// Rings removed as trapped at the start of the current turn.
    removed: Slots,
}

impl TriCore {
    /// The board: 51 points in rows of 6, 7, 8, 9, 8, 7, 6 (`docs/rules/tricore.md` §Board).
    pub fn lattice(&self) -> &'static Lattice {
        &self.t.lattice
    }

    /// Where the game stands.
    pub fn phase(&self) -> Phase {
        if self.over {
            Phase::Over
        } else if self.ply < 3 {
            Phase::Cores
        } else if self.ply < PLACEMENTS {
            Phase::Rings
        } else if self.just != NONE {
            Phase::Climb
        } else {
            Phase::Drive
        }
    }

    /// The points holding a Core.
    pub fn cores(&self) -> Points {
        self.t.points(self.cores)
    }

    /// The points holding a Ring (after trapped Rings left at the start of this turn).
    pub fn rings(&self) -> Points {
        self.t.points(self.rings)
    }

    /// The number of discs stacked on point `p`, 0–3.
    pub fn height(&self, p: usize) -> u8 {
        self.height_at(self.t.slot[p] as usize)
    }

    /// The number of discs stacked on slot `s`.
    #[inline(always)]
    fn height_at(&self, s: usize) -> u8 {
        self.occ.iter().map(|o| (o >> s & 1) as u8).sum()
    }

    /// The colour (0 Black, 1 White) of the disc at `level` (0 at the bottom, below
    /// [`TriCore::height`]) of the stack on `p`, or `None` if there is no disc there.
    pub fn disc(&self, p: usize, level: u8) -> Option<u8> {
        let (s, l) = (self.t.slot[p] as usize, level as usize);
        (l < 3 && self.occ[l] & bit(s) != 0).then(|| (self.white[l] >> s & 1) as u8)
    }

    /// The colour of the active (top) disc on `p`, or `None` for a point without discs.
    pub fn top(&self, p: usize) -> Option<u8> {
        let s = self.t.slot[p] as usize;
        if self.top[0] & bit(s) != 0 {
            Some(BLACK)
        } else if self.top[1] & bit(s) != 0 {
            Some(WHITE)
        } else {
            None
        }
    }

    /// The discs `player` (0 Black, 1 White) has not placed yet, of 24.
    pub fn discs_left(&self, player: usize) -> u8 {
        self.left[player]
    }

    /// The disc placed this turn, during [`Phase::Climb`] (it may not climb); else `None`.
    pub fn just_placed(&self) -> Option<usize> {
        (self.just != NONE).then(|| self.t.point[self.just as usize] as usize)
    }

    /// Where a Ring standing on `ring` may be driven now: the empty points along the six lines from
    /// it, passing over discs but not over Rings or Cores (`docs/rules/tricore.md` §Phase 3, 2). Empty
    /// for a trapped Ring.
    pub fn ring_destinations(&self, ring: usize) -> Points {
        self.t.points(self.destinations(self.t.slot[ring] as usize))
    }

    /// [`TriCore::ring_destinations`] in slots.
    #[inline(always)]
    fn destinations(&self, ring: usize) -> Slots {
        let t = self.t;
        let blockers = resolved::ring_blockers(self.rings, self.cores, self.occ[0]);
        let stops = resolved::ring_stops(t.all, self.rings, self.cores, self.occ[0]);
        let mut reach = 0;
        for (&ray, &ascends) in t.ray[ring].iter().zip(&RAY_ASCENDS) {
            let hit = ray & blockers;
            reach |= if hit == 0 {
                ray
            } else if ascends {
                // The slots below the lowest obstacle.
                ray & ((hit & hit.wrapping_neg()) - 1)
            } else {
                // The slots above the highest obstacle.
                ray & (u64::MAX << (63 - hit.leading_zeros()) << 1)
            };
        }
        reach & stops
    }

    /// The slots holding exactly `h` discs.
    #[inline(always)]
    fn exactly(&self, h: usize) -> Slots {
        match h {
            1 => self.occ[0] & !self.occ[1],
            2 => self.occ[1] & !self.occ[2],
            3 => self.occ[2],
            _ => unreachable!(),
        }
    }

    /// The stacks a disc of the mover may climb onto from `from` now (`docs/rules/tricore.md` §Phase 3,
    /// 3): adjacent stacks of the same height `h`, when `h + 1 ≤ 3`, `from`'s active disc is the
    /// mover's and not the one placed this turn. Empty outside [`Phase::Climb`].
    pub fn climb_targets(&self, from: usize) -> Points {
        if from >= POINTS {
            return 0;
        }
        self.t.points(self.targets(self.t.slot[from] as usize))
    }

    /// [`TriCore::climb_targets`] in slots.
    fn targets(&self, from: usize) -> Slots {
        if self.just == NONE || from == self.just as usize || self.top[self.mover as usize] & bit(from) == 0 {
            return 0;
        }
        let h = self.height_at(from);
        if h >= resolved::MAX_HEIGHT {
            return 0;
        }
        self.t.adj[from] & self.climb_onto(h as usize)
    }

    /// The stacks a disc of height `h` may climb onto, adjacency aside: those of height `h`
    /// ([`resolved::MAY_CLIMB_ONTO_JUST_PLACED`]).
    #[inline(always)]
    fn climb_onto(&self, h: usize) -> Slots {
        if resolved::MAY_CLIMB_ONTO_JUST_PLACED { self.exactly(h) } else { self.exactly(h) & !bit(self.just as usize) }
    }

    /// The discs that may climb now (before their targets are checked): the mover's active discs
    /// below the maximum height, less the one placed this turn.
    #[inline(always)]
    fn climb_sources(&self, h: usize) -> Slots {
        self.top[self.mover as usize] & self.exactly(h) & !bit(self.just as usize)
    }

    /// The Rings removed as trapped at the start of the current turn (`docs/rules/tricore.md` §Phase 3,
    /// 1), for the view to fade out; 0 if none. Still set during the turn's climb step, and after the
    /// game ended at a turn's start.
    pub fn trapped_rings_removed(&self) -> Points {
        self.t.points(self.removed)
    }

    /// The discs of `player`'s best group and the Cores it reaches (`docs/rules/tricore.md` §Result,
    /// [`resolved::group_value`]); `(0, 0)` for a player without active discs. Meaningful at any
    /// time; the result counts once the game is over.
    pub fn best_group(&self, player: usize) -> (Points, Points) {
        let (group, reached) = self.best_group_slots(player);
        (self.t.points(group), self.t.points(reached))
    }

    /// [`TriCore::best_group`] in slots.
    fn best_group_slots(&self, player: usize) -> (Slots, Slots) {
        let own = self.top[player];
        let all = self.t.all;
        let mut best = (0, 0);
        let mut best_value = 0;
        let mut rest = own;
        while rest != 0 {
            let mut group = rest & rest.wrapping_neg();
            loop {
                let grown = group | (around(group, all) & own);
                if grown == group {
                    break;
                }
                group = grown;
            }
            rest &= !group;
            let reached = around(group, all) & self.cores;
            let value = resolved::group_value(reached.count_ones(), group.count_ones());
            if value > best_value {
                best_value = value;
                best = (group, reached);
            }
        }
        best
    }

    /// A disc-phase position built directly, for tests and puzzles: Cores and Rings on the named
    /// points, stacks given as `(point, colours bottom to top)` with `b` for Black and `w` for White
    /// (`("d4", "bw")`: a White disc on a Black one), and `mover` (0 Black, 1 White) to start a turn.
    /// The discs left are 24 less those on the board; [`Game::ply`] counts 6 placements and two moves
    /// per disc on the board. The turn then starts as in play: trapped Rings leave and the game may
    /// be over (with no Ring, at once).
    ///
    /// # Errors
    /// An unknown point, a point named twice, a stack above 3 or a colour other than `b`/`w`, more
    /// than 24 discs of a colour, or a mover other than 0 or 1.
    pub fn setup(cores: &[&str], rings: &[&str], stacks: &[(&str, &str)], mover: u8) -> Result<TriCore, String> {
        let mut g = TriCore::new(&TriCoreOptions::default())?;
        if mover > 1 {
            return Err(format!("mover {mover} is neither 0 (Black) nor 1 (White)"));
        }
        let mut used = 0;
        let mut take = |name: &str| -> Result<usize, String> {
            let p = g.t.lattice.parse(name).ok_or_else(|| format!("'{name}' is not a point of the board"))?;
            let s = g.t.slot[p] as usize;
            if used & bit(s) != 0 {
                return Err(format!("{name} is named twice"));
            }
            used |= bit(s);
            Ok(s)
        };
        for name in cores {
            g.cores |= bit(take(name)?);
        }
        for name in rings {
            g.rings |= bit(take(name)?);
        }
        for (name, colours) in stacks {
            let p = take(name)?;
            if colours.is_empty() || colours.len() > resolved::MAX_HEIGHT as usize {
                return Err(format!("the stack on {name} has {} discs (1–3)", colours.len()));
            }
            for (level, colour) in colours.bytes().enumerate() {
                let c = match colour {
                    b'b' => BLACK,
                    b'w' => WHITE,
                    _ => return Err(format!("'{}' on {name} is neither b nor w", colour as char)),
                } as usize;
                g.occ[level] |= bit(p);
                g.white[level] |= (c as u64) << p;
                g.top[0] &= !bit(p);
                g.top[1] &= !bit(p);
                g.top[c] |= bit(p);
                g.left[c] = g.left[c].checked_sub(1).ok_or("more than 24 discs of one colour")?;
            }
        }
        g.ply = PLACEMENTS + 2 * (g.occ.iter().map(|o| o.count_ones() as u16).sum::<u16>());
        g.mover = mover;
        g.start_turn();
        Ok(g)
    }

    /// Places the disc of a drive and moves the Ring; the climb step follows.
    #[inline(always)]
    fn drive(&mut self, ring: usize, to: usize) {
        let c = self.mover as usize;
        self.rings ^= bit(ring) | bit(to);
        self.occ[0] |= bit(ring);
        self.white[0] |= (c as u64) << ring;
        self.top[c] |= bit(ring);
        self.left[c] -= 1;
        self.just = ring as u8;
    }

    /// Moves the mover's top disc from `from` onto the stack of the same height on `to`.
    #[inline(always)]
    fn climb(&mut self, from: usize, to: usize) {
        let c = self.mover as usize;
        let h = self.height_at(from) as usize;
        let (f, t) = (bit(from), bit(to));
        self.occ[h - 1] &= !f;
        self.white[h - 1] &= !f;
        self.top[c] &= !f;
        if h >= 2 {
            // The uncovered disc is active again.
            let below = (self.white[h - 2] >> from & 1) as usize;
            self.top[below] |= f;
        }
        self.top[0] &= !t;
        self.top[1] &= !t;
        self.top[c] |= t;
        self.occ[h] |= t;
        self.white[h] |= (c as u64) << to;
    }

    /// Ends the current disc turn and starts the next one.
    #[inline(always)]
    fn end_turn(&mut self) {
        self.just = NONE;
        self.mover ^= 1;
        self.start_turn();
    }

    /// The start of a disc turn (`docs/rules/tricore.md` §Phase 3, 1 and §End): trapped Rings leave, then
    /// the game may be over.
    fn start_turn(&mut self) {
        const _: () = assert!(resolved::TRAPPED_RINGS_LEAVE_ONLY_AT_TURN_START);
        self.removed = 0;
        let stops = resolved::ring_stops(self.t.all, self.rings, self.cores, self.occ[0]);
        for r in slots(self.rings) {
            // A Ring next to a stop can move there: the common case, decided without the rays.
            if self.t.adj[r] & stops == 0 && self.destinations(r) == 0 {
                self.removed |= bit(r);
            }
        }
        self.rings &= !self.removed;
        self.over = resolved::game_over_at_turn_start(self.rings, self.left, self.mover as usize);
    }

    /// Checks a move without playing it.
    fn check(&self, mv: TriCoreMove) -> Result<(), IllegalMove> {
        let t = self.t;
        let name = |s: usize| t.name(s);
        // The slot of a move's point.
        let on_board = |p: u8| {
            if (p as usize) < POINTS {
                Ok(t.slot[p as usize] as usize)
            } else {
                Err(IllegalMove::new("that point is not on the board"))
            }
        };
        let phase = self.phase();
        if phase == Phase::Over {
            return Err(IllegalMove::new("the game is over"));
        }
        let wrong_phase = || {
            Err(IllegalMove::new(match phase {
                Phase::Cores => "now a Core is placed (phase 1)",
                Phase::Rings => "now a Ring is placed (phase 2)",
                Phase::Drive => "now a disc goes on a Ring, which is driven to an empty point (RING-DEST)",
                Phase::Climb => "now a disc may climb (FROM^TO), or the turn ends (end)",
                Phase::Over => unreachable!(),
            }))
        };
        match mv {
            TriCoreMove::Core(p) => {
                if phase != Phase::Cores {
                    return wrong_phase();
                }
                let p = on_board(p)?;
                if self.cores & bit(p) != 0 {
                    Err(IllegalMove::new(format!("{} already holds a Core", name(p))))
                } else if t.inner & bit(p) == 0 {
                    Err(IllegalMove::new(format!("{} is a peripheral point; Cores go on inner points", name(p))))
                } else if let Some(c) = slots(t.adj[p] & self.cores).next() {
                    Err(IllegalMove::new(format!("{} is adjacent to the Core on {}", name(p), name(c))))
                } else {
                    Ok(())
                }
            }
            TriCoreMove::Ring(p) => {
                if phase != Phase::Rings {
                    return wrong_phase();
                }
                let p = on_board(p)?;
                if self.cores & bit(p) != 0 {
                    Err(IllegalMove::new(format!("{} holds a Core", name(p))))
                } else if self.rings & bit(p) != 0 {
                    Err(IllegalMove::new(format!("{} already holds a Ring", name(p))))
                } else if let Some(c) = slots(t.adj[p] & self.cores).next() {
                    Err(IllegalMove::new(format!("{} is adjacent to the Core on {}", name(p), name(c))))
                } else if let Some(r) = slots(t.adj[p] & self.rings).next() {
                    Err(IllegalMove::new(format!("{} is adjacent to the Ring on {}", name(p), name(r))))
                } else {
                    Ok(())
                }
            }
            TriCoreMove::Drive { ring, to } => {
                if phase != Phase::Drive {
                    return wrong_phase();
                }
                self.check_drive(on_board(ring)?, on_board(to)?)
            }
            TriCoreMove::Climb { from, to } => {
                if phase != Phase::Climb {
                    return wrong_phase();
                }
                self.check_climb(on_board(from)?, on_board(to)?)
            }
            TriCoreMove::End => {
                if phase != Phase::Climb {
                    return wrong_phase();
                }
                Ok(())
            }
        }
    }

    /// Checks a drive, in slots.
    fn check_drive(&self, ring: usize, to: usize) -> Result<(), IllegalMove> {
        let t = self.t;
        let name = |s: usize| t.name(s);
        if self.rings & bit(ring) == 0 {
            return Err(IllegalMove::new(format!("there is no Ring on {}", name(ring))));
        }
        if self.destinations(ring) & bit(to) != 0 {
            return Ok(());
        }
        if to == ring {
            return Err(IllegalMove::new(format!("the Ring on {} must move", name(ring))));
        }
        let Some(d) = (0..6).find(|&d| t.ray[ring][d] & bit(to) != 0) else {
            return Err(IllegalMove::new(format!(
                "{} is not on a straight line from the Ring on {}",
                name(to),
                name(ring)
            )));
        };
        let blockers = resolved::ring_blockers(self.rings, self.cores, self.occ[0]);
        let mut p = t.nb[ring][d] as usize;
        while p != to {
            if blockers & bit(p) != 0 {
                let what = if self.cores & bit(p) != 0 { "Core" } else { "Ring" };
                return Err(IllegalMove::new(format!("the Ring cannot pass over the {what} on {}", name(p))));
            }
            p = t.nb[p][d] as usize;
        }
        let what = if self.cores & bit(to) != 0 {
            "a Core"
        } else if self.rings & bit(to) != 0 {
            "a Ring"
        } else {
            "discs"
        };
        Err(IllegalMove::new(format!("{} holds {what}; a Ring stops only on an empty point", name(to))))
    }

    /// Checks a climb, in slots.
    fn check_climb(&self, from: usize, to: usize) -> Result<(), IllegalMove> {
        let t = self.t;
        let name = |s: usize| t.name(s);
        let mover = if self.mover == BLACK { "Black" } else { "White" };
        if self.occ[0] & bit(from) == 0 {
            return Err(IllegalMove::new(format!("there is no disc on {}", name(from))));
        }
        if self.top[self.mover as usize] & bit(from) == 0 {
            return Err(IllegalMove::new(format!("the active disc on {} is not {mover}'s", name(from))));
        }
        if from == self.just as usize {
            return Err(IllegalMove::new(format!("the disc on {} was placed this turn; it cannot climb", name(from))));
        }
        if t.adj[from] & bit(to) == 0 {
            return Err(IllegalMove::new(format!("{} is not adjacent to {}", name(to), name(from))));
        }
        let (hf, ht) = (self.height_at(from), self.height_at(to));
        if ht == 0 {
            let what = if self.cores & bit(to) != 0 {
                "a Core"
            } else if self.rings & bit(to) != 0 {
                "a Ring"
            } else {
                "no disc"
            };
            return Err(IllegalMove::new(format!("{} holds {what}; a disc climbs only onto a stack", name(to))));
        }
        if hf != ht {
            return Err(IllegalMove::new(format!(
                "the stack on {} has {ht} discs and the one on {} has {hf}; a disc climbs only onto a stack of its own height",
                name(to),
                name(from)
            )));
        }
        if ht >= resolved::MAX_HEIGHT {
            return Err(IllegalMove::new(format!(
                "the stack on {} is already {} high",
                name(to),
                resolved::MAX_HEIGHT
            )));
        }
        if !resolved::MAY_CLIMB_ONTO_JUST_PLACED && to == self.just as usize {
            return Err(IllegalMove::new(format!(
                "the disc on {} was placed this turn; it cannot be climbed onto",
                name(to)
            )));
        }
        Ok(())
    }

    /// A uniformly random climb of the mover, or `End`, each of these equally likely: the climbs
    /// are counted per direction with shifts, then the chosen one is looked up.
    #[inline(always)]
    fn random_climb_or_end(&self, rng: &mut Rng) -> TriCoreMove {
        const ONES: u64 = 0x0101_0101_0101_0101;
        let t = self.t;
        let (s1, s2) = (self.climb_sources(1), self.climb_sources(2));
        let (t1, t2) = (self.climb_onto(1), self.climb_onto(2));
        // `pairs[d]`: the sources whose neighbour in direction d is a target of their height (a
        // source has one height, so both heights share the set); the targets stepped back against
        // d are the slots whose d-neighbour is a target. `counts[d]`: its bits per byte.
        let mut pairs = [0 as Slots; 6];
        let mut counts = [0u64; 6];
        let mut sum = 0;
        for d in 0..6 {
            let back = (d + 3) % 6;
            pairs[d] = s1 & shift(t1, back, t.all) | s2 & shift(t2, back, t.all);
            counts[d] = bits_per_byte(pairs[d]);
            // At most 6·8 per byte: no carry between bytes.
            sum += counts[d];
        }
        let total = (sum.wrapping_mul(ONES) >> 56) as usize;
        let mut k = random_index(rng, total + 1);
        if k == total {
            return TriCoreMove::End;
        }
        for d in 0..6 {
            let n = (counts[d].wrapping_mul(ONES) >> 56) as usize;
            if k < n {
                let s = nth_slot_counted(pairs[d], counts[d], k);
                let to = (s as i32 + STEP[d]) as usize;
                return TriCoreMove::Climb { from: t.point[s], to: t.point[to] };
            }
            k -= n;
        }
        unreachable!("the climb count and the climbs agree")
    }
}

impl Game for TriCore {
    type Move = TriCoreMove;
    type Options = TriCoreOptions;
    const IDS: &'static [&'static str] = &["tricore"];

    fn id(&self) -> &'static str {
        "tricore"
    }

    fn new(options: &TriCoreOptions) -> Result<TriCore, String> {
        Ok(TriCore {
            t: tables(),
            options: options.clone(),
            cores: 0,
            rings: 0,
            occ: [0; 3],
            white: [0; 3],
            top: [0; 2],
            left: [resolved::DISCS_PER_PLAYER; 2],
            mover: BLACK,
            just: NONE,
            ply: 0,
            over: false,
            removed: 0,
        })
    }

    fn options(&self) -> &TriCoreOptions {
        &self.options
    }

    fn num_players(&self) -> usize {
        2
    }

    fn to_move(&self) -> Option<Player> {
        (!self.over).then_some(Player(self.mover))
    }

    fn ply(&self) -> usize {
        self.ply as usize
    }

    fn legal_moves(&self, out: &mut Vec<TriCoreMove>) {
        out.clear();
        let t = self.t;
        // Slots ascend with the lattice's points (both row by row, left to right), so the moves come
        // in the order of their points.
        let point = |s: usize| t.point[s];
        match self.phase() {
            Phase::Over => {}
            Phase::Cores => {
                let near = self.cores | around(self.cores, t.all);
                out.extend(slots(t.inner & !near).map(|s| TriCoreMove::Core(point(s))));
            }
            Phase::Rings => {
                let taken = self.cores | self.rings;
                let near = taken | around(taken, t.all);
                out.extend(slots(t.all & !near).map(|s| TriCoreMove::Ring(point(s))));
            }
            Phase::Drive => {
                for r in slots(self.rings) {
                    let ring = point(r);
                    out.extend(slots(self.destinations(r)).map(|to| TriCoreMove::Drive { ring, to: point(to) }));
                }
            }
            Phase::Climb => {
                for from in slots(self.top[self.mover as usize]) {
                    let f = point(from);
                    out.extend(slots(self.targets(from)).map(|to| TriCoreMove::Climb { from: f, to: point(to) }));
                }
                out.push(TriCoreMove::End);
            }
        }
    }

    fn play(&mut self, mv: TriCoreMove) -> Result<(), IllegalMove> {
        self.check(mv)?;
        self.play_unchecked(mv);
        Ok(())
    }

    fn play_unchecked(&mut self, mv: TriCoreMove) {
        self.ply += 1;
        let slot = |p: u8| self.t.slot[p as usize] as usize;
        match mv {
            TriCoreMove::Core(p) => {
                self.cores |= bit(slot(p));
                self.mover ^= 1;
            }
            TriCoreMove::Ring(p) => {
                self.rings |= bit(slot(p));
                self.mover ^= 1;
                if self.ply == PLACEMENTS {
                    // §Phase 3: Black moves first.
                    self.mover = BLACK;
                    self.start_turn();
                }
            }
            TriCoreMove::Drive { ring, to } => self.drive(slot(ring), slot(to)),
            TriCoreMove::Climb { from, to } => {
                self.climb(slot(from), slot(to));
                self.end_turn();
            }
            TriCoreMove::End => self.end_turn(),
        }
    }

    /// Scores: the Cores each player's best group reaches ([`resolved::score`]); ranks: by
    /// [`resolved::group_value`] (Cores, then the group's size), 1 / 0, or 0.5 each for a draw.
    fn outcome(&self) -> Option<Outcome> {
        if !self.over {
            return None;
        }
        let mut scores = [0; 2];
        let mut values = [0; 2];
        for (player, (score, value)) in scores.iter_mut().zip(values.iter_mut()).enumerate() {
            let (group, reached) = self.best_group_slots(player);
            let (c, n) = (reached.count_ones(), group.count_ones());
            *score = resolved::score(c, n);
            *value = resolved::group_value(c, n);
        }
        let mut outcome = Outcome::from_scores(&scores);
        outcome.ranks[0] = match values[0].cmp(&values[1]) {
            std::cmp::Ordering::Greater => 1.0,
            std::cmp::Ordering::Less => 0.0,
            std::cmp::Ordering::Equal => 0.5,
        };
        outcome.ranks[1] = 1.0 - outcome.ranks[0];
        Some(outcome)
    }

    fn is_turn_boundary(&self) -> bool {
        self.just == NONE
    }

    fn parse_move(&self, text: &str) -> Result<TriCoreMove, IllegalMove> {
        let text = text.trim().to_ascii_lowercase();
        let lattice = &self.t.lattice;
        let point = |s: &str| {
            let s = s.trim();
            lattice.parse(s).map(|p| p as u8).ok_or_else(|| {
                IllegalMove::new(format!("'{s}' is not a point of the board (a1–f1 in row 1 … a4–i4 in row 4)"))
            })
        };
        if text == "end" {
            return Ok(TriCoreMove::End);
        }
        if let Some((a, b)) = text.split_once('-') {
            return Ok(TriCoreMove::Drive { ring: point(a)?, to: point(b)? });
        }
        if let Some((a, b)) = text.split_once('^') {
            return Ok(TriCoreMove::Climb { from: point(a)?, to: point(b)? });
        }
        let p = point(&text).map_err(|_| {
            IllegalMove::new(format!("'{text}' is neither a point (d4), a drive (d4-d7), a climb (c3^d3) nor 'end'"))
        })?;
        Ok(if self.ply < 3 { TriCoreMove::Core(p) } else { TriCoreMove::Ring(p) })
    }

    fn notation(&self) -> &'static str {
        "TriCore: a point is its letter then its row (a1..f1 in row 1, a4..i4 in row 4; rows \
         count from the top). The first three moves place Cores, the next three Rings, each as its \
         point (d4). Then a turn is a drive, RING-DEST (d4-d7: your disc goes on the Ring's point, \
         the Ring moves to DEST), then a climb FROM^TO (c3^d3) or end."
    }

    fn move_text(&self, mv: TriCoreMove) -> String {
        let name = |p: u8| self.t.lattice.name(p as usize);
        match mv {
            TriCoreMove::Core(p) | TriCoreMove::Ring(p) => name(p),
            TriCoreMove::Drive { ring, to } => format!("{}-{}", name(ring), name(to)),
            TriCoreMove::Climb { from, to } => format!("{}^{}", name(from), name(to)),
            TriCoreMove::End => "end".to_string(),
        }
    }

    fn player_name(&self, player: Player) -> &'static str {
        if player.0 == BLACK { "Black" } else { "White" }
    }

    /// Rows numbered on the left; an empty point shows its letter and a Ring the letter of its
    /// point, `(c)`, so a point's name is that letter and the row's number
    /// (`docs/rules/tricore.md` §Board, notation: `c4`); `x2`/`o1` a stack, its active disc
    /// Black's or White's and its height; `##` a Core.
    fn board_text(&self) -> String {
        let lattice = &self.t.lattice;
        let (cores, rings) = (self.cores(), self.rings());
        let mut s = lattice.text_rows(|p| match (self.top(p), self.height(p)) {
            (Some(BLACK), h) => format!(" x{h}"),
            (Some(_), h) => format!(" o{h}"),
            (None, _) if cores >> p & 1 != 0 => " ##".to_string(),
            (None, _) if rings >> p & 1 != 0 => format!("({})", lattice.letter(p)),
            _ => format!(" {} ", lattice.letter(p)),
        });
        s += "    x/o: Black/White active disc, then the stack's height; ## Core; (c) Ring on point c\n";
        s += &format!(
            "    a letter: an empty point, c4 is c in row 4. Discs left: Black {}, White {}\n",
            self.left[0], self.left[1]
        );
        s
    }

    /// Cores 0–50, Rings 51–101, drives `102 + 51·ring + to`, climbs `2703 + 6·from + direction`,
    /// `end` 3009.
    fn move_key(&self, mv: TriCoreMove) -> usize {
        const RING: usize = POINTS;
        const DRIVE: usize = 2 * POINTS;
        const CLIMB: usize = DRIVE + POINTS * POINTS;
        match mv {
            TriCoreMove::Core(p) => p as usize,
            TriCoreMove::Ring(p) => RING + p as usize,
            TriCoreMove::Drive { ring, to } => DRIVE + POINTS * ring as usize + to as usize,
            TriCoreMove::Climb { from, to } => {
                let d = self.t.lattice.neighbor[from as usize].iter().position(|&n| n == to).unwrap_or(0);
                CLIMB + 6 * from as usize + d
            }
            TriCoreMove::End => CLIMB + 6 * POINTS,
        }
    }

    fn move_key_space(&self) -> usize {
        2 * POINTS + POINTS * POINTS + 6 * POINTS + 1
    }

    /// A random legal move without generating the list. Placements are uniform. A drive picks a Ring
    /// uniformly, then one of its destinations uniformly (so a drive of a Ring with few destinations
    /// is likelier than one of a Ring with many; every Ring left has one, trapped ones having left at
    /// the turn's start). The climb step is uniform over the climbs and `end`.
    fn random_move(&mut self, rng: &mut Rng, _buf: &mut Vec<TriCoreMove>) -> Option<TriCoreMove> {
        let t = self.t;
        let point = |s: usize| t.point[s];
        Some(match self.phase() {
            Phase::Over => return None,
            Phase::Cores => {
                let near = self.cores | around(self.cores, t.all);
                TriCoreMove::Core(point(random_slot(rng, t.inner & !near)))
            }
            Phase::Rings => {
                let taken = self.cores | self.rings;
                let near = taken | around(taken, t.all);
                TriCoreMove::Ring(point(random_slot(rng, t.all & !near)))
            }
            Phase::Drive => {
                let ring = random_ring(rng, self.rings);
                TriCoreMove::Drive { ring: point(ring), to: point(random_slot(rng, self.destinations(ring))) }
            }
            Phase::Climb => self.random_climb_or_end(rng),
        })
    }
}
