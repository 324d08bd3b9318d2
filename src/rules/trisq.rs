//! Trisq (Luis Bolaños Mures, 2013), as `../shared/rules/trisq.md` settles it.
//!
//! Red (top and bottom) and Blue (left and right) place trapezia into the slots of an `N × N` grid
//! ([`TrisqBoard`]), one or two a turn (Red's first turn: one). After a turn every two point-adjacent
//! pieces of the mover must have a third of the mover's colour edge-adjacent to both. A chain of
//! edge-adjacent pieces joining a player's two edges wins at once.
//!
//! Moves: a placement `c4H2` (square, filling, slot 0–3), and `end` after a single placement.

use serde::{Deserialize, Serialize};

use super::bits::BitSet;
use super::geometry::trisq::{BOTTOM, LEFT, MAX_SIDE, MIN_SIDE, RIGHT, TOP, TrisqBoard};
use super::{Game, IllegalMove, Outcome, Player, Rng, random_index};

/// Words of a set of slots of the largest board (`8·9² = 648` slots).
const WORDS: usize = (8 * MAX_SIDE * MAX_SIDE).div_ceil(64);
/// A set of slots.
type Slots = BitSet<WORDS>;
/// Union-find nodes: the slots, then the four board edges.
const NODES: usize = 8 * MAX_SIDE * MAX_SIDE + 4;

/// Trisq's options (`rules/trisq.md` §Board).
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
    /// Ends a turn after a single placement (`rules/trisq.md` §Play), written `end`.
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
    /// The pieces of each colour.
    own: [Slots; 2],
    /// The filling chosen in each square: 0 none, 1 H, 2 V.
    filling: [u8; MAX_SIDE * MAX_SIDE],
    mover: u8,
    ply: u16,
    /// Pieces the mover has placed this turn (0, 1 or 2 — a second ends the turn).
    placed: u8,
    /// The first piece of this turn, while one is down.
    first: Option<u16>,
    winner: Option<u8>,
    parent: [u16; NODES],
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
        self.first.map(|s| s as usize)
    }

    /// Why `end` would be refused now: the first piece of the turn and an own piece point-adjacent
    /// to it without a bridge (`rules/trisq.md` §Play). `None` when no turn is half done or the
    /// turn may end.
    pub fn end_blocker(&self) -> Option<(usize, usize)> {
        let s = self.first? as usize;
        let own = self.own[self.mover as usize];
        self.unbridged(&own, s).next().map(|q| (s, q))
    }

    /// The winner's chain once the game is over: a shortest run of edge-adjacent winner's pieces
    /// from one of their edges to the other (`rules/trisq.md` §End), in order; empty while play goes on.
    pub fn winning_chain(&self) -> Vec<usize> {
        let Some(w) = self.winner else { return Vec::new() };
        let c = w as usize;
        let (ea, eb) = if c == 0 { (TOP, BOTTOM) } else { (LEFT, RIGHT) };
        let n = self.board.slots();
        let mut from = vec![usize::MAX; n];
        let mut queue = std::collections::VecDeque::new();
        for s in (0..n).filter(|&s| self.own[c].contains(s) && self.board.edges[s] & ea != 0) {
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

    /// True when `slot` is empty and its square allows its filling (`rules/trisq.md` §The piece).
    pub fn available(&self, slot: usize) -> bool {
        let f = self.filling[slot / 8];
        !self.own[0].contains(slot) && !self.own[1].contains(slot) && (f == 0 || f == (slot / 4 % 2) as u8 + 1)
    }

    /// Two slots that can hold pieces together: different, and in one square only of one filling.
    fn compatible(a: usize, b: usize) -> bool {
        a != b && (a / 8 != b / 8 || a / 4 == b / 4)
    }

    /// Whether own pieces `p` and `q` (point-adjacent) have an own bridge in `own`.
    fn bridged(&self, own: &Slots, p: usize, q: usize) -> bool {
        self.board.edge_adjacent[p]
            .iter()
            .any(|&r| own.contains(r as usize) && self.board.edge_adjacent[q].contains(&r))
    }

    /// The own pieces point-adjacent to `p` without a bridge, with `own` the mover's pieces
    /// (including `p`).
    fn unbridged(&self, own: &Slots, p: usize) -> impl Iterator<Item = usize> + '_ {
        let own = *own;
        self.board.point_adjacent[p]
            .iter()
            .map(|&q| q as usize)
            .filter(move |&q| own.contains(q) && !self.bridged(&own, p, q))
    }

    /// The end-of-turn condition for the pieces `new` just added to the mover's `own`
    /// (`rules/trisq.md` §Play): every own piece point-adjacent to a new one is bridged.
    fn turn_ok(&self, own: &Slots, new: &[usize]) -> bool {
        new.iter().all(|&p| self.unbridged(own, p).next().is_none())
    }

    fn find(parent: &mut [u16; NODES], mut x: usize) -> usize {
        while parent[x] as usize != x {
            let up = parent[parent[x] as usize];
            parent[x] = up;
            x = up as usize;
        }
        x
    }

    fn union(parent: &mut [u16; NODES], a: usize, b: usize) {
        let (ra, rb) = (Self::find(parent, a), Self::find(parent, b));
        if ra != rb {
            parent[ra] = rb as u16;
        }
    }

    /// The two edge nodes of colour `c` (Red: top and bottom; Blue: left and right).
    fn edge_nodes(c: usize) -> [usize; 2] {
        let base = 8 * MAX_SIDE * MAX_SIDE;
        if c == 0 { [base, base + 1] } else { [base + 2, base + 3] }
    }

    /// The root of `x` without compressing paths (for questions that change nothing).
    fn root(&self, mut x: usize) -> usize {
        while self.parent[x] as usize != x {
            x = self.parent[x] as usize;
        }
        x
    }

    /// True when placing `slot` for the mover would join the mover's two edges: the groups it
    /// would join (its own edge-adjacent pieces' and the edges it lies on) hold both edges.
    fn completes_chain(&self, slot: usize) -> bool {
        let c = self.mover as usize;
        let [a, b] = Self::edge_nodes(c);
        let (ra, rb) = (self.root(a), self.root(b));
        let edges = self.board.edges[slot];
        let (ea, eb) = if c == 0 { (TOP, BOTTOM) } else { (LEFT, RIGHT) };
        let (mut hit_a, mut hit_b) = (edges & ea != 0, edges & eb != 0);
        for &n in &self.board.edge_adjacent[slot] {
            if self.own[c].contains(n as usize) {
                let r = self.root(n as usize);
                hit_a |= r == ra;
                hit_b |= r == rb;
            }
        }
        hit_a && hit_b
    }

    /// Whether `s` may be the first placement of a turn (not the opening): legal alone, or with a
    /// second piece that makes the pair legal, or completing the chain.
    fn first_ok(&self, s: usize) -> bool {
        if !self.available(s) {
            return false;
        }
        let c = self.mover as usize;
        let mut own = self.own[c];
        own.insert(s);
        self.turn_ok(&own, &[s]) || self.completes_chain(s) || self.has_second(&own, s)
    }

    /// Whether some second piece `t` completes a legal pair with first piece `s` (already in `own`).
    fn has_second(&self, own: &Slots, s: usize) -> bool {
        // The second piece must bridge `s` to each unbridged partner: it is edge-adjacent to `s`.
        let bridges = self.board.edge_adjacent[s].iter().any(|&t| {
            let t = t as usize;
            self.unbridged(own, s).all(|q| self.board.edge_adjacent[t].contains(&(q as u16)))
                && self.second_ok(own, s, t)
        });
        bridges || {
            // A second piece that completes the chain ends the game at once, whatever the condition.
            let mut after = self.clone();
            after.place_piece(s);
            (0..self.board.slots()).any(|t| Self::compatible(s, t) && after.available(t) && after.completes_chain(t))
        }
    }

    /// Puts the mover's piece into `slot` and joins it to its own edge-adjacent pieces and to the
    /// mover's edges it lies on.
    fn place_piece(&mut self, slot: usize) {
        let c = self.mover as usize;
        self.own[c].insert(slot);
        self.filling[slot / 8] = (slot / 4 % 2) as u8 + 1;
        for &n in &self.board.edge_adjacent[slot] {
            if self.own[c].contains(n as usize) {
                Self::union(&mut self.parent, slot, n as usize);
            }
        }
        let edges = self.board.edges[slot];
        let [a, b] = Self::edge_nodes(c);
        let (ea, eb) = if c == 0 { (TOP, BOTTOM) } else { (LEFT, RIGHT) };
        if edges & ea != 0 {
            Self::union(&mut self.parent, slot, a);
        }
        if edges & eb != 0 {
            Self::union(&mut self.parent, slot, b);
        }
    }

    /// Whether `t` may be the second piece after `s` (in `own`): available and compatible, and the
    /// pair meets the end-of-turn condition, or `t` completes the chain.
    fn second_ok(&self, own: &Slots, s: usize, t: usize) -> bool {
        if !self.available(t) || !Self::compatible(s, t) {
            return false;
        }
        let mut both = *own;
        both.insert(t);
        self.turn_ok(&both, &[s, t])
    }

    fn legal(&self, mv: TrisqMove) -> Result<(), String> {
        if self.winner.is_some() {
            return Err("the game is over".into());
        }
        let c = self.mover as usize;
        let Some(slot) = mv.slot() else {
            let Some(s) = self.first else { return Err("end comes only after a single placement".into()) };
            let own = self.own[c];
            if let Some(q) = self.unbridged(&own, s as usize).next() {
                return Err(format!(
                    "the turn cannot end: {} and {} touch at a point without a bridge of {}",
                    self.slot_name(s as usize),
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
        if self.completes_chain(slot) {
            return Ok(());
        }
        match self.first {
            None if self.ply == 0 => Ok(()),
            None if self.first_ok(slot) => Ok(()),
            None => Err(format!("{} would leave a point contact without a bridge", self.slot_name(slot))),
            Some(s) => {
                if self.second_ok(&self.own[c], s as usize, slot) {
                    Ok(())
                } else {
                    Err(format!(
                        "{} with {} would leave a point contact without a bridge",
                        self.slot_name(slot),
                        self.slot_name(s as usize)
                    ))
                }
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
        let mut parent = [0u16; NODES];
        for (i, p) in parent.iter_mut().enumerate() {
            *p = i as u16;
        }
        Ok(Trisq {
            options: options.clone(),
            board: TrisqBoard::get(n),
            own: [Slots::default(); 2],
            filling: [0; MAX_SIDE * MAX_SIDE],
            mover: 0,
            ply: 0,
            placed: 0,
            first: None,
            winner: None,
            parent,
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
        for slot in 0..self.board.slots() {
            if self.available(slot) && self.legal(TrisqMove::place(slot)).is_ok() {
                out.push(TrisqMove::place(slot));
            }
        }
        if self.first.is_some() && self.legal(TrisqMove::END).is_ok() {
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
        let [a, b] = Self::edge_nodes(c);
        if Self::find(&mut self.parent, a) == Self::find(&mut self.parent, b) {
            self.winner = Some(self.mover);
            return;
        }
        self.placed += 1;
        if self.ply == 1 || self.placed == 2 {
            self.next_turn();
        } else {
            self.first = Some(slot as u16);
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
        if b.len() < 4 || !b[0].is_ascii_lowercase() {
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

    fn move_text(&self, mv: TrisqMove) -> String {
        match mv.slot() {
            Some(slot) => self.slot_name(slot),
            None => "end".to_string(),
        }
    }

    fn player_name(&self, player: Player) -> &'static str {
        NAMES[player.index()]
    }

    fn board_text(&self) -> String {
        let n = self.board.side;
        let mut out = String::new();
        for row in 0..n {
            out.push_str(&format!("{:>2} ", row + 1));
            for col in 0..n {
                let sq = row * n + col;
                let cell: String = (0..8)
                    .filter(|&k| self.piece(8 * sq + k).is_some())
                    .map(|k| ['r', 'b'][self.piece(8 * sq + k).unwrap_or(0) as usize])
                    .collect();
                out.push_str(&format!("{:<5}", if cell.is_empty() { ".".to_string() } else { cell }));
            }
            out.push('\n');
        }
        out
    }

    fn move_key(&self, mv: TrisqMove) -> usize {
        mv.slot().unwrap_or(self.board.slots())
    }

    fn move_key_space(&self) -> usize {
        self.board.slots() + 1
    }

    /// Uniform over the legal moves, by rejection: a random slot (or `end`) is drawn until one is
    /// legal, which needs a handful of checks instead of generating every move; after 64 misses it
    /// falls back to [`Game::legal_moves`].
    fn random_move(&mut self, rng: &mut Rng, buf: &mut Vec<TrisqMove>) -> Option<TrisqMove> {
        if self.winner.is_some() {
            return None;
        }
        let slots = self.board.slots();
        for _ in 0..64 {
            let k = random_index(rng, slots + 1);
            let mv = if k == slots { TrisqMove::END } else { TrisqMove::place(k) };
            if (k == slots || self.available(k)) && self.legal(mv).is_ok() {
                return Some(mv);
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
        self.first = None;
    }
}
