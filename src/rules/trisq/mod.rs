//! Trisq (Luis Bolaños Mures, 2013), as `docs/rules/trisq.md` settles it.
//!
//! Red (top and bottom) and Blue (left and right) place trapezia into the slots of an `N × N` grid
//! ([`TrisqBoard`]), one or two a turn (Red's first turn: one). After a turn every two point-adjacent
//! pieces of the mover must have a third of the mover's colour edge-adjacent to both. A chain of
//! edge-adjacent pieces joining a player's two edges wins at once.
//!
//! Moves: a placement `c4H2` (square, filling, slot 0–3), and `end` after a single placement.

pub mod features;
mod knowledge;
mod tactics;

use std::sync::OnceLock;

use serde::{Deserialize, Serialize};

use super::bits::BitSet;
use super::game::{Game, IllegalMove, Outcome, Player, Rng, random_index};
use super::geometry::trisq::{BOTTOM, LEFT, MAX_POINT, MAX_SIDE, MIN_SIDE, NO_SLOT, RIGHT, TOP, TrisqBoard};

/// Words of a set of slots of the largest board (`8·9² = 648` slots, and [`NO_SLOT`], never set).
const WORDS: usize = (8 * MAX_SIDE * MAX_SIDE + 1).div_ceil(64);
/// A set of slots.
type Slots = BitSet<WORDS>;
/// Slots of the largest board.
const SLOTS: usize = 8 * MAX_SIDE * MAX_SIDE;

/// Slot sets precomputed for one board size, beside [`TrisqBoard`]'s lists.
struct Masks {
    /// `neighbours[s]`: the slots edge-adjacent to slot `s`, as the words `base..base + 4` of a
    /// [`Slots`] (they lie in the squares around `s`'s, which 256 bits hold).
    neighbours: Vec<Window>,
    /// The slots with a side on each board edge, indexed by the bit number of [`TOP`] … [`RIGHT`].
    on_edge: [Slots; 4],
}

impl std::fmt::Debug for Masks {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Masks({} slots)", self.neighbours.len())
    }
}

impl Masks {
    /// The masks of side `n`, built on first use.
    fn get(n: usize) -> &'static Masks {
        static MASKS: [OnceLock<Masks>; MAX_SIDE + 1] = [const { OnceLock::new() }; MAX_SIDE + 1];
        MASKS[n].get_or_init(|| {
            let b = TrisqBoard::get(n);
            let mut on_edge = [Slots::default(); 4];
            let neighbours = (0..b.slots())
                .map(|s| {
                    for (e, set) in on_edge.iter_mut().enumerate() {
                        if b.edges[s] & (1 << e) != 0 {
                            set.insert(s);
                        }
                    }
                    let low = b.edge_adjacent[s].iter().min().map_or(0, |&t| t as usize / 64);
                    let base = low.min(WORDS - 4);
                    let mut bits = [0; 4];
                    for &t in &b.edge_adjacent[s] {
                        let word = t as usize / 64 - base;
                        bits[word] |= 1 << (t % 64);
                    }
                    Window { base, bits }
                })
                .collect();
            Masks { neighbours, on_edge }
        })
    }
}

/// Four consecutive words of a [`Slots`], from word `base`.
#[derive(Clone, Copy, Debug)]
struct Window {
    base: usize,
    bits: [u64; 4],
}

/// Trisq's options (`docs/rules/trisq.md` §Board).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct TrisqOptions {
    /// Squares a side: 6–9 for play (8 standard), 2–5 for tests.
    pub size: u8,
}

impl Default for TrisqOptions {
    fn default() -> Self {
        TrisqOptions { size: 8 }
    }
}

/// A Trisq move: a placement into a slot, or [`TrisqMove::END`].
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct TrisqMove(u16);

impl TrisqMove {
    /// Ends a turn after a single placement (`docs/rules/trisq.md` §Play), written `end`.
    pub const END: TrisqMove = TrisqMove(u16::MAX);

    /// The placement into `slot` (an index of [`TrisqBoard`]).
    pub fn place(slot: usize) -> TrisqMove {
        TrisqMove(slot as u16)
    }
    /// The slot placed into, or `None` for [`TrisqMove::END`].
    pub fn slot(self) -> Option<usize> {
        (self != Self::END).then_some(self.0 as usize)
    }
}

/// The player names: Red moves first.
pub const NAMES: [&str; 2] = ["Red", "Blue"];

/// A Trisq position.
#[derive(Clone, Debug)]
pub struct Trisq {
    options: TrisqOptions,
    board: &'static TrisqBoard,
    masks: &'static Masks,
    /// The pieces of each colour.
    own: [Slots; 2],
    /// The slots no piece may enter: taken, or of the other filling in a square that holds a piece
    /// (`docs/rules/trisq.md` §The piece and the slots).
    blocked: Slots,
    /// The available slots in no order (the first `open_count`), for drawing one uniformly, and
    /// each slot's place in that list ([`NO_SLOT`] once blocked).
    open: [u16; SLOTS],
    open_at: [u16; SLOTS],
    open_count: u16,
    mover: u8,
    ply: u16,
    /// Pieces the mover has placed this turn (0 or 1; a second ends the turn).
    placed: u8,
    /// The first piece of this turn while one is down, else [`NO_SLOT`].
    first: u16,
    /// The own pieces point-adjacent to `first` without a bridge, as bits `i` of
    /// `point_rows[first]`: a second piece must bridge them all (`docs/rules/trisq.md` §Play).
    pending: u8,
    winner: Option<u8>,
    /// `reach[c][e]`: colour `c`'s pieces joined by a chain of edge-adjacent own pieces to its edge
    /// `e` (0: top or left, 1: bottom or right). A piece in both wins (`docs/rules/trisq.md` §End).
    reach: [[Slots; 2]; 2],
    /// `frontier[c][e]`: the slots lying on colour `c`'s edge `e` or edge-adjacent to a piece of
    /// `reach[c][e]`; a piece in both frontiers completes the chain.
    frontier: [[Slots; 2]; 2],
    /// `last_turn[c]`: the pieces colour `c` placed in its latest turn ([`NO_SLOT`] for none), for
    /// the search priors' answers to them (`knowledge.rs`).
    last_turn: [[u16; 2]; 2],
}

/// The edge bits of colour `c`: Red top and bottom, Blue left and right.
fn own_edges(c: usize) -> (u8, u8) {
    if c == 0 { (TOP, BOTTOM) } else { (LEFT, RIGHT) }
}

impl Trisq {
    /// The board's tables.
    pub fn board(&self) -> &'static TrisqBoard {
        self.board
    }
    /// The colour of the piece in `slot`: 0 Red, 1 Blue.
    pub fn piece(&self, slot: usize) -> Option<u8> {
        (0..2).find(|&c| self.own[c].contains(slot)).map(|c| c as u8)
    }
    /// The winner, once the game is over.
    pub fn winner(&self) -> Option<Player> {
        self.winner.map(Player)
    }

    /// The first piece of the turn in progress (placed, the turn not yet ended), if any.
    pub fn first_placed(&self) -> Option<usize> {
        (self.first != NO_SLOT).then_some(self.first as usize)
    }

    /// The pieces of the last finished turn, in the order placed: the winner's last turn once the
    /// game is over, else the other colour's latest (turns alternate, `docs/rules/trisq.md` §Play);
    /// empty before the first turn ends.
    pub fn last_turn(&self) -> Vec<usize> {
        let c = if self.winner.is_some() { self.mover } else { self.mover ^ 1 } as usize;
        self.last_turn[c].iter().filter(|&&s| s != NO_SLOT).map(|&s| s as usize).collect()
    }

    /// Why `end` would be refused now: the first piece of the turn and an own piece point-adjacent
    /// to it without a bridge (`docs/rules/trisq.md` §Play). `None` when no turn is half done or the
    /// turn may end.
    pub fn end_blocker(&self) -> Option<(usize, usize)> {
        let s = self.first_placed()?;
        (self.pending != 0).then(|| (s, self.board.point_rows[s][self.pending.trailing_zeros() as usize] as usize))
    }

    /// The winner's chain once the game is over: a shortest run of edge-adjacent winner's pieces
    /// from one of their edges to the other (`docs/rules/trisq.md` §End), in order; empty while play goes on.
    pub fn winning_chain(&self) -> Vec<usize> {
        let Some(w) = self.winner else { return Vec::new() };
        let c = w as usize;
        let (ea, eb) = own_edges(c);
        let n = self.board.slots();
        let mut from = vec![usize::MAX; n];
        let mut queue = std::collections::VecDeque::new();
        for s in self.own[c].iter().filter(|&s| self.board.edges[s] & ea != 0) {
            from[s] = s;
            queue.push_back(s);
        }
        while let Some(s) = queue.pop_front() {
            if self.board.edges[s] & eb != 0 {
                let mut chain = vec![s];
                let mut at = s;
                while from[at] != at {
                    at = from[at];
                    chain.push(at);
                }
                return chain;
            }
            for &t in &self.board.edge_adjacent[s] {
                let t = t as usize;
                if self.own[c].contains(t) && from[t] == usize::MAX {
                    from[t] = s;
                    queue.push_back(t);
                }
            }
        }
        Vec::new()
    }

    /// True when `slot` is empty and its square allows its filling (`docs/rules/trisq.md` §The piece).
    pub fn available(&self, slot: usize) -> bool {
        slot < self.board.slots() && !self.blocked.contains(slot)
    }

    /// The own pieces (in `own`) point-adjacent to slot `s` that have no bridge in `own`, as bits
    /// `i` of `point_rows[s]` (`docs/rules/trisq.md` §Play: a bridge is a third piece edge-adjacent to both).
    #[inline(always)]
    fn unbridged(&self, own: &Slots, s: usize) -> u8 {
        let (points, bridges) = (&self.board.point_rows[s], &self.board.bridge_rows[s]);
        let mut mask = 0;
        for i in 0..MAX_POINT {
            if own.contains(points[i] as usize) && !bridges[i].iter().any(|&r| own.contains(r as usize)) {
                mask |= 1 << i;
            }
        }
        mask
    }

    /// True when placing `slot` for the mover would join the mover's two edges: it lies in both
    /// frontiers.
    #[inline(always)]
    fn completes_chain(&self, slot: usize) -> bool {
        let [fa, fb] = &self.frontier[self.mover as usize];
        fa.contains(slot) && fb.contains(slot)
    }

    /// The available slots that complete the mover's chain now.
    #[inline]
    fn chain_completers(&self) -> Slots {
        let [fa, fb] = &self.frontier[self.mover as usize];
        fa.and(fb).and_not(&self.blocked)
    }

    /// Blocks `slot`: no piece may enter it any more.
    #[inline(always)]
    fn close(&mut self, slot: usize) {
        let at = self.open_at[slot];
        if at != NO_SLOT {
            self.open_count -= 1;
            let last = self.open[self.open_count as usize];
            self.open[at as usize] = last;
            self.open_at[last as usize] = at;
            self.open_at[slot] = NO_SLOT;
            self.blocked.insert(slot);
        }
    }

    /// Whether `s` (available) may be the first placement of a turn after the opening: legal alone,
    /// completing the chain, or with a second piece that makes the pair legal (`docs/rules/trisq.md` §Play).
    #[inline(always)]
    fn first_ok(&self, s: usize) -> bool {
        let own = &self.own[self.mover as usize];
        self.unbridged(own, s) == 0 || self.completes_chain(s) || self.has_second(s)
    }

    /// Whether some second piece makes a legal turn with first piece `s` (available, not legal alone):
    /// a bridge of all of `s`'s unbridged contacts that leaves none of its own, or a piece completing
    /// the chain.
    fn has_second(&self, s: usize) -> bool {
        let c = self.mover as usize;
        let mut own = self.own[c];
        let pending = self.unbridged(&own, s);
        own.insert(s);
        let first_contact = pending.trailing_zeros() as usize;
        let bridging = self.board.bridge_rows[s][first_contact].iter().any(|&t| {
            let t = t as usize;
            t != NO_SLOT as usize
                && !self.blocked.contains(t)
                && (s / 8 != t / 8 || s / 4 == t / 4)
                && self.bridges_all(s, pending, t)
                && self.unbridged(&own, t) == 0
        });
        bridging || {
            let mut after = self.clone();
            after.place_piece(s);
            !after.chain_completers().is_empty()
        }
    }

    /// True when `t` is edge-adjacent to each of `s`'s contacts in `pending` (bits of `point_rows[s]`).
    #[inline(always)]
    fn bridges_all(&self, s: usize, pending: u8, t: usize) -> bool {
        let mut m = pending;
        while m != 0 {
            let i = m.trailing_zeros() as usize;
            m &= m - 1;
            if !self.board.bridge_rows[s][i].contains(&(t as u16)) {
                return false;
            }
        }
        true
    }

    /// Whether `t` (available) may be the second piece after the turn's first: the pair meets the
    /// end-of-turn condition, or `t` completes the chain.
    #[inline(always)]
    fn second_ok(&self, t: usize) -> bool {
        let own = &self.own[self.mover as usize];
        (self.bridges_all(self.first as usize, self.pending, t) && self.unbridged(own, t) == 0)
            || self.completes_chain(t)
    }

    /// Puts the mover's piece into `slot`, closes the square to the other filling, and extends the
    /// mover's reach sets: when the piece lies on an edge or touches a piece reaching it, it and the
    /// own pieces joined to it through edge adjacency reach that edge (each piece joins once a game).
    #[inline(always)]
    fn place_piece(&mut self, slot: usize) {
        let c = self.mover as usize;
        self.own[c].insert(slot);
        self.close(slot);
        let other = 4 * ((slot / 4) ^ 1);
        if !self.blocked.contains(other) || !self.blocked.contains(other + 3) {
            for s in other..other + 4 {
                self.close(s);
            }
        }
        for e in 0..2 {
            if self.frontier[c][e].contains(slot) {
                self.flood(c, e, slot);
            }
        }
    }

    /// Adds `slot` and the own pieces joined to it through edge adjacency to `reach[c][e]`, and
    /// their neighbours to `frontier[c][e]`.
    fn flood(&mut self, c: usize, e: usize, slot: usize) {
        let mut stack = [0u16; 32];
        let (mut top, mut overflow) = (1, false);
        stack[0] = slot as u16;
        self.reach[c][e].insert(slot);
        while top > 0 && !overflow {
            top -= 1;
            self.spread(c, e, stack[top] as usize, |n| {
                if top == stack.len() {
                    overflow = true;
                } else {
                    stack[top] = n as u16;
                    top += 1;
                }
            });
        }
        if overflow {
            // A long chain joined at once (rare): spread again from all of the reach, on the heap.
            let mut stack: Vec<usize> = self.reach[c][e].iter().collect();
            while let Some(x) = stack.pop() {
                self.spread(c, e, x, |n| stack.push(n));
            }
        }
    }

    /// Puts the neighbours of piece `x` into `frontier[c][e]` and its own neighbours not yet in
    /// `reach[c][e]` into it, handing each of those to `found`.
    #[inline(always)]
    fn spread(&mut self, c: usize, e: usize, x: usize, mut found: impl FnMut(usize)) {
        let Window { base, bits } = self.masks.neighbours[x];
        for (k, &near) in bits.iter().enumerate() {
            let w = base + k;
            self.frontier[c][e].0[w] |= near;
            let mut new = near & self.own[c].0[w] & !self.reach[c][e].0[w];
            self.reach[c][e].0[w] |= new;
            while new != 0 {
                found(64 * w + new.trailing_zeros() as usize);
                new &= new - 1;
            }
        }
    }

    fn legal(&self, mv: TrisqMove) -> Result<(), String> {
        if self.winner.is_some() {
            return Err("the game is over".into());
        }
        let c = self.mover as usize;
        let Some(slot) = mv.slot() else {
            let Some(s) = self.first_placed() else {
                return Err("end comes only after a single placement".into());
            };
            if let Some((_, q)) = self.end_blocker() {
                return Err(format!(
                    "{} and {} touch at a point without a bridge of {}, so the turn cannot end",
                    self.slot_name(s),
                    self.slot_name(q),
                    NAMES[c]
                ));
            }
            return Ok(());
        };
        if slot >= self.board.slots() {
            return Err("no such slot on this board".into());
        }
        if !self.available(slot) {
            return Err(format!("{} is taken or its square holds the other filling", self.slot_name(slot)));
        }
        match self.first_placed() {
            None if self.ply == 0 || self.first_ok(slot) => Ok(()),
            None => Err(format!("{} would leave a point contact without a bridge", self.slot_name(slot))),
            Some(_) if self.second_ok(slot) => Ok(()),
            Some(s) => Err(format!(
                "{} with {} would leave a point contact without a bridge",
                self.slot_name(slot),
                self.slot_name(s)
            )),
        }
    }

    /// The legal second pieces when the first forces one (`pending` not empty): the bridges of its
    /// first unbridged contact that pass [`Trisq::second_ok`], and the chain completers. Fills `out`
    /// without repeats.
    fn forced_seconds(&self, out: &mut Vec<TrisqMove>) {
        out.clear();
        let s = self.first as usize;
        for &t in &self.board.bridge_rows[s][self.pending.trailing_zeros() as usize] {
            let t = t as usize;
            if t != NO_SLOT as usize && !self.blocked.contains(t) && self.second_ok(t) {
                out.push(TrisqMove::place(t));
            }
        }
        for t in self.chain_completers().iter() {
            if !out.contains(&TrisqMove::place(t)) {
                out.push(TrisqMove::place(t));
            }
        }
    }

    /// A slot's name: `c4H2`.
    pub fn slot_name(&self, slot: usize) -> String {
        let (col, row) = self.board.square(slot);
        let filling = if (slot / 4).is_multiple_of(2) { 'H' } else { 'V' };
        format!("{}{}{}{}", (b'a' + col as u8) as char, row + 1, filling, slot % 4)
    }
}

impl Game for Trisq {
    type Move = TrisqMove;
    type Options = TrisqOptions;
    const IDS: &'static [&'static str] = &["trisq"];

    fn id(&self) -> &'static str {
        "trisq"
    }

    fn new(options: &TrisqOptions) -> Result<Trisq, String> {
        let n = options.size as usize;
        if !(MIN_SIDE..=MAX_SIDE).contains(&n) {
            return Err(format!("size {n} is outside {MIN_SIDE}–{MAX_SIDE}"));
        }
        Ok(Trisq {
            options: options.clone(),
            board: TrisqBoard::get(n),
            masks: Masks::get(n),
            own: [Slots::default(); 2],
            blocked: {
                let mut blocked = Slots::default();
                (8 * n * n..SLOTS).for_each(|s| blocked.insert(s));
                blocked
            },
            open: std::array::from_fn(|s| s as u16),
            open_at: std::array::from_fn(|s| if s < 8 * n * n { s as u16 } else { NO_SLOT }),
            open_count: (8 * n * n) as u16,
            mover: 0,
            ply: 0,
            placed: 0,
            first: NO_SLOT,
            pending: 0,
            winner: None,
            reach: [[Slots::default(); 2]; 2],
            last_turn: [[NO_SLOT; 2]; 2],
            frontier: {
                let e = &Masks::get(n).on_edge;
                // TOP, BOTTOM, LEFT, RIGHT are bits 0–3.
                [[e[0], e[1]], [e[2], e[3]]]
            },
        })
    }

    fn options(&self) -> &TrisqOptions {
        &self.options
    }

    fn num_players(&self) -> usize {
        2
    }

    fn to_move(&self) -> Option<Player> {
        self.winner.is_none().then_some(Player(self.mover))
    }

    fn ply(&self) -> usize {
        self.ply as usize
    }

    fn legal_moves(&self, out: &mut Vec<TrisqMove>) {
        out.clear();
        if self.winner.is_some() {
            return;
        }
        if self.first != NO_SLOT && self.pending != 0 {
            self.forced_seconds(out);
            return;
        }
        for slot in 0..self.board.slots() {
            if self.blocked.contains(slot) {
                continue;
            }
            let ok = match self.first {
                NO_SLOT => self.ply == 0 || self.first_ok(slot),
                _ => self.second_ok(slot),
            };
            if ok {
                out.push(TrisqMove::place(slot));
            }
        }
        if self.first != NO_SLOT {
            out.push(TrisqMove::END);
        }
    }

    fn play(&mut self, mv: TrisqMove) -> Result<(), IllegalMove> {
        self.legal(mv).map_err(IllegalMove::new)?;
        self.play_unchecked(mv);
        Ok(())
    }

    fn play_unchecked(&mut self, mv: TrisqMove) {
        self.ply += 1;
        let c = self.mover as usize;
        let Some(slot) = mv.slot() else {
            self.next_turn();
            return;
        };
        self.place_piece(slot);
        self.last_turn[c][self.placed as usize] = slot as u16;
        if self.placed == 0 {
            self.last_turn[c][1] = NO_SLOT;
        }
        if self.reach[c][0].contains(slot) && self.reach[c][1].contains(slot) {
            self.winner = Some(self.mover);
            return;
        }
        self.placed += 1;
        if self.ply == 1 || self.placed == 2 {
            self.next_turn();
        } else {
            self.first = slot as u16;
            self.pending = self.unbridged(&self.own[c], slot);
        }
    }

    fn outcome(&self) -> Option<Outcome> {
        let w = self.winner? as usize;
        let mut scores = [0; 2];
        scores[w] = 1;
        Some(Outcome::from_scores(&scores))
    }

    fn is_turn_boundary(&self) -> bool {
        self.placed == 0 || self.winner.is_some()
    }

    fn parse_move(&self, text: &str) -> Result<TrisqMove, IllegalMove> {
        let t = text.trim();
        if t.eq_ignore_ascii_case("end") {
            return Ok(TrisqMove::END);
        }
        let bad = || IllegalMove::new(format!("'{text}' is not a slot such as c4H2 or 'end'"));
        let b = t.as_bytes();
        if b.len() < 4 || !t.is_ascii() || !b[0].is_ascii_lowercase() {
            return Err(bad());
        }
        let (digits, tail) = t[1..].split_at(t.len() - 3);
        let row: usize = digits.parse().map_err(|_| bad())?;
        let mut tail = tail.chars();
        let filling = match tail.next() {
            Some('H') => 0,
            Some('V') => 1,
            _ => return Err(bad()),
        };
        let k = tail.next().and_then(|d| d.to_digit(10)).filter(|&k| k < 4).ok_or_else(bad)? as usize;
        let col = (b[0] - b'a') as usize;
        let n = self.board.side;
        if col >= n || row == 0 || row > n {
            return Err(IllegalMove::new(format!("{t} is off this {n}×{n} board")));
        }
        Ok(TrisqMove::place(8 * ((row - 1) * n + col) + 4 * filling + k))
    }

    fn notation(&self) -> &'static str {
        "Trisq: a move is a square, a filling and a slot: c4H2 is square c4 (column c, row 4 from \
         the top), the horizontal filling H, its slot 2 (0-3: top-left, top-right, bottom-left, \
         bottom-right); V is the vertical filling (0-3: left-top, right-top, left-bottom, \
         right-bottom). Place one or two pieces a turn (Red's first turn one), then end (or \
         a second piece) ends the turn."
    }

    fn move_text(&self, mv: TrisqMove) -> String {
        match mv.slot() {
            Some(slot) => self.slot_name(slot),
            None => "end".to_string(),
        }
    }

    fn player_name(&self, player: Player) -> &'static str {
        NAMES[player.index()]
    }

    /// Each square as two lines: its filling (`H`, `V`, or `.` while empty) and its four slots, 0 1
    /// over 2 3 (`r` Red, `b` Blue, `.` free), as `c4H2` names them; Red's edges are the top and
    /// bottom, Blue's the left and right.
    fn board_text(&self) -> String {
        let n = self.board.side;
        let mut out = String::from("    ");
        for col in 0..n {
            out.push_str(&format!("{:<5}", (b'a' + col as u8) as char));
        }
        out.push_str("  (r Red: top-bottom, b Blue: left-right)\n");
        for row in 0..n {
            let squares: Vec<(char, [char; 4])> = (0..n)
                .map(|col| {
                    let sq = row * n + col;
                    let filled = |f: usize| (0..4).any(|k| self.piece(8 * sq + 4 * f + k).is_some());
                    let f = if filled(1) { 1 } else { 0 };
                    let slot = |k: usize| match self.piece(8 * sq + 4 * f + k) {
                        Some(p) => ['r', 'b'][p as usize & 1],
                        None => '.',
                    };
                    let name = if filled(0) {
                        'H'
                    } else if filled(1) {
                        'V'
                    } else {
                        '.'
                    };
                    (name, [slot(0), slot(1), slot(2), slot(3)])
                })
                .collect();
            out.push_str(&format!("{:>2}  ", row + 1));
            for (name, s) in &squares {
                out.push_str(&format!("{name}{}{}  ", s[0], s[1]));
            }
            out.push_str("\n    ");
            for (_, s) in &squares {
                out.push_str(&format!(" {}{}  ", s[2], s[3]));
            }
            out.push('\n');
        }
        out.lines().map(|line| line.trim_end().to_string() + "\n").collect()
    }

    fn move_key(&self, mv: TrisqMove) -> usize {
        mv.slot().unwrap_or(self.board.slots())
    }

    fn move_key_space(&self) -> usize {
        self.board.slots() + 1
    }

    /// Uniform over the legal moves. A forced second piece is drawn from the few candidates
    /// ([`Trisq::forced_seconds`]); otherwise by rejection: a random available slot (or `end` after
    /// a first piece) is drawn until one is legal, a handful of bit tests each instead of generating
    /// every move; after 64 misses it falls back to [`Game::legal_moves`].
    fn random_move(&mut self, rng: &mut Rng, buf: &mut Vec<TrisqMove>) -> Option<TrisqMove> {
        if self.winner.is_some() {
            return None;
        }
        let open = self.open_count as usize;
        if self.first == NO_SLOT && open > 0 {
            for _ in 0..64 {
                let slot = self.open[random_index(rng, open)] as usize;
                if self.ply == 0 || self.first_ok(slot) {
                    return Some(TrisqMove::place(slot));
                }
            }
        } else if self.first != NO_SLOT && self.pending == 0 {
            for _ in 0..64 {
                let k = random_index(rng, open + 1);
                if k == open {
                    return Some(TrisqMove::END);
                }
                let slot = self.open[k] as usize;
                if self.second_ok(slot) {
                    return Some(TrisqMove::place(slot));
                }
            }
        }
        self.legal_moves(buf);
        (!buf.is_empty()).then(|| buf[random_index(rng, buf.len())])
    }
}

impl Trisq {
    fn next_turn(&mut self) {
        self.mover ^= 1;
        self.placed = 0;
        self.first = NO_SLOT;
        self.pending = 0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A blob of 4 · 9 · 7 Red pieces joins the top edge with one piece: the flood outgrows its
    /// fixed stack and finishes on the heap, and the reach and frontier are exactly what they
    /// should be.
    #[test]
    fn a_large_group_joins_an_edge_at_once() {
        let mut g = Trisq::new(&TrisqOptions { size: 9 }).unwrap();
        let board = g.board;
        let h_slots = |row: usize| (0..9).flat_map(move |col| (0..4).map(move |k| 8 * (row * 9 + col) + k));
        for row in 1..8 {
            h_slots(row).for_each(|s| g.place_piece(s));
        }
        g.place_piece(2); // a1H2, the lower strip of a1: not on the top edge
        assert!(g.reach[0][0].is_empty() && g.reach[0][1].is_empty(), "nothing touches Red's edges yet");
        g.place_piece(0); // a1H0: on the top edge, edge-adjacent to a1H2 below
        assert_eq!(g.reach[0][0], g.own[0], "every piece joins the top");
        let mut frontier = Masks::get(9).on_edge[0];
        for p in g.own[0].iter() {
            board.edge_adjacent[p].iter().for_each(|&t| frontier.insert(t as usize));
        }
        assert_eq!(g.frontier[0][0], frontier);
    }

    /// `last_turn` is the run of placements before the latest turn boundary, as a replay cutting the
    /// moves at [`Game::is_turn_boundary`] finds it, through whole games of ends and second pieces.
    #[test]
    fn the_last_turn_is_the_run_of_pieces_before_the_latest_boundary() {
        let mut rng = super::super::rng_from_seed(7);
        for _ in 0..20 {
            let mut g = Trisq::new(&TrisqOptions { size: 6 }).unwrap();
            let (mut last, mut current) = (Vec::new(), Vec::new());
            let mut moves = Vec::new();
            while g.outcome().is_none() {
                g.legal_moves(&mut moves);
                let mv = moves[random_index(&mut rng, moves.len())];
                g.play_unchecked(mv);
                current.extend(mv.slot());
                if g.is_turn_boundary() && !current.is_empty() {
                    last = std::mem::take(&mut current);
                }
                assert_eq!(g.last_turn(), last, "after {}", g.ply());
            }
        }
    }
}
