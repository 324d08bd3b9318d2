//! Tri-It-Out (Dale W. Walton, 2023), as `docs/rules/tri-it-out.md` settles it.
//!
//! A misère pattern-capture game on the points of a triangular lattice: Red and Blue place counters;
//! nobody may place where a red and a blue counter would be completed into an equilateral triangle
//! (a *restricted* point); a placement that closes triangles with two enemy counters captures one of
//! them and places again. The game ends when the player to move cannot place; fewest counters wins.
//!
//! Every placement and every capture is its own move ([`TriItOutMove`]); a turn is a run of moves by
//! one player ending with a placement that forms no mixed triangle ([`Game::is_turn_boundary`]).
//! The position is two bitboards plus the restricted set, kept incrementally on placements and
//! recomputed after a capture; the board's triangles are tabled per board
//! ([`Board::triangles`]).

pub mod features;
mod knowledge;
mod tables;

use serde::{Deserialize, Serialize};

pub use self::tables::Board;
use self::tables::Tables;
use super::game::{Game, IllegalMove, MAX_PLAYERS, Outcome, ParamError, Player, Rng, random_index};
use super::geometry::lattice::{Lattice, Points};

/// Who loses when the counts are equal at the end (`docs/rules/tri-it-out.md` §End and result).
/// When the game ends in the middle of a turn (after a capture) the stuck player is the last mover,
/// so both rules agree there; they differ only when it ends at a turn boundary.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum TieRule {
    /// The player who made the last move loses: Ludii's rule, whose implementation is the designer's
    /// own. The default, since it leaves the seats even.
    #[default]
    #[serde(rename = "last-mover-loses")]
    LastMoverLoses,
    /// The player to move, who cannot place, loses: the published sentence read literally. An
    /// option: under it the second player (Blue) wins about 95 % of games at every level.
    #[serde(rename = "stuck-player-loses")]
    StuckPlayerLoses,
}

impl TieRule {
    /// Both rules, the default first.
    pub const ALL: [TieRule; 2] = [TieRule::LastMoverLoses, TieRule::StuckPlayerLoses];

    /// The rule's id in records and on the command line.
    pub fn id(self) -> &'static str {
        match self {
            TieRule::StuckPlayerLoses => "stuck-player-loses",
            TieRule::LastMoverLoses => "last-mover-loses",
        }
    }

    /// The rule with this id, if any.
    pub fn from_id(id: &str) -> Option<TieRule> {
        TieRule::ALL.into_iter().find(|t| t.id() == id)
    }
}

/// The rules variant (`docs/rules/tri-it-out.md` §Variant).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Variant {
    /// Captures come from the mixed triangles the last placement formed. The default.
    #[default]
    #[serde(rename = "standard")]
    Standard,
    /// A capture may take an enemy counter from any mixed triangle on the board; after every
    /// placement that leaves a mixed triangle anywhere the mover must capture, so a turn ends only
    /// with none left; a player who cannot place while one remains loses.
    #[serde(rename = "any-mixed-triangle")]
    AnyMixedTriangle,
}

impl Variant {
    /// Both variants, the default first.
    pub const ALL: [Variant; 2] = [Variant::Standard, Variant::AnyMixedTriangle];

    /// The variant's id in records and on the command line.
    pub fn id(self) -> &'static str {
        match self {
            Variant::Standard => "standard",
            Variant::AnyMixedTriangle => "any-mixed-triangle",
        }
    }

    /// The variant with this id, if any.
    pub fn from_id(id: &str) -> Option<Variant> {
        Variant::ALL.into_iter().find(|v| v.id() == id)
    }
}

/// Tri-It-Out's options (`docs/rules/tri-it-out.md` §Board, §End and result, §Variant). In records:
/// `{"board": "hex-3-4", "tie": "last-mover-loses", "variant": "standard"}`, each field optional (a
/// missing one is its default). Records are written with every field, so a record saved while
/// `stuck-player-loses` was the default names it and keeps its rule.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct TriItOutOptions {
    /// The board shape; default `hex-3-4` (27 points).
    pub board: Board,
    /// Who loses on equal counts; default `last-mover-loses`, the other `stuck-player-loses`.
    pub tie: TieRule,
    /// The rules variant; default `standard`.
    pub variant: Variant,
}

/// One move: a placement of the mover's counter on a point, or the capture of an enemy counter.
/// Points are indices of the board's [`Lattice`]. Notation: `c4` places, `xc4` captures.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum TriItOutMove {
    /// Put a counter of the mover on this empty, unrestricted point (§A turn 1).
    Place(u8),
    /// Remove the enemy counter on this point (§A turn 2).
    Capture(u8),
}

/// The players' names by seat: Red places first.
pub const NAMES: [&str; 2] = ["Red", "Blue"];

/// A Tri-It-Out position: each colour's counters as a bitboard, the restricted points, the enemy
/// counters open to a pending capture, and whose move it is. `Clone` copies a few dozen bytes.
///
/// ```
/// use triboard::rules::tri_it_out::{TriItOut, TriItOutOptions};
/// use triboard::rules::{Game, play_moves};
///
/// let mut g = TriItOut::new(&TriItOutOptions::default()).unwrap(); // hex-3-4
/// play_moves(&mut g, "a1 a2").unwrap(); // Red a1, Blue a2: b2 closes their triangle
/// let b2 = g.parse_move("b2").unwrap();
/// let refused = g.play(b2).unwrap_err();
/// assert_eq!(refused.reason, "b2 is restricted: it would complete a triangle with Red a1 and Blue a2");
/// assert_eq!(g.counts(), [1, 1]);
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct TriItOut {
    tables: &'static Tables,
    options: TriItOutOptions,
    /// `counters[seat]`: the points holding that seat's counters (0 Red, 1 Blue).
    counters: [Points; 2],
    /// Empty points that complete a triangle with a red and a blue counter (§Definitions).
    restricted: Points,
    /// Enemy counters the mover must choose a capture from; nonzero exactly while a capture is due.
    capturable: Points,
    ply: u16,
    /// The seat to move; once the game is over, the seat that could not place.
    mover: u8,
    /// The last move was a capture: the mover places again within the same turn (§A turn 3).
    continuing: bool,
    over: bool,
    /// `closes[seat]`: points (empty or not) completing a triangle with two of that seat's counters;
    /// an unrestricted empty one among the enemy's is a placement that forms a mixed triangle
    /// (playout knowledge).
    closes: [Points; 2],
}

impl TriItOut {
    /// The board's lattice: points, coordinates, notation.
    pub fn lattice(&self) -> &'static Lattice {
        &self.tables.lattice
    }

    /// The seat whose counter stands on point `p` (0 Red, 1 Blue), if any.
    pub fn counter(&self, p: usize) -> Option<u8> {
        let bit = 1u64 << p;
        if self.counters[0] & bit != 0 {
            Some(0)
        } else if self.counters[1] & bit != 0 {
            Some(1)
        } else {
            None
        }
    }

    /// The points holding each seat's counters, `[red, blue]`.
    pub fn counter_sets(&self) -> [Points; 2] {
        self.counters
    }

    /// Counters on the board per seat, `[red, blue]` (the score: fewest wins).
    pub fn counts(&self) -> [u32; 2] {
        [self.counters[0].count_ones(), self.counters[1].count_ones()]
    }

    /// The empty points nobody may place on: each completes a triangle with a red and a blue counter
    /// (§Definitions, restricted location).
    pub fn restricted(&self) -> Points {
        self.restricted
    }

    /// A red and a blue counter, `(red, blue)`, that restrict the empty point `p`: the closest such
    /// pair (the smallest triangle), lowest points first on equal size. `None` if `p` is not
    /// restricted.
    pub fn restricting_pair(&self, p: usize) -> Option<(usize, usize)> {
        if p >= self.lattice().len || self.restricted & (1 << p) == 0 {
            return None;
        }
        let mut best: Option<(i32, usize, usize)> = None;
        for a in Lattice::iter(self.counters[0]) {
            for b in Lattice::iter(self.counters[1]) {
                if self.tables.third(a, b) & (1 << p) != 0 {
                    let d = self.lattice().distance2(a, b);
                    if best.is_none_or(|(bd, _, _)| d < bd) {
                        best = Some((d, a, b));
                    }
                }
            }
        }
        best.map(|(_, a, b)| (a, b))
    }

    /// The enemy counters the mover must choose a capture from now; empty when no capture is due
    /// (§A turn 2; §Variant: from any mixed triangle).
    pub fn capturable(&self) -> Points {
        self.capturable
    }

    /// True when the next move must be a capture.
    pub fn capture_pending(&self) -> bool {
        self.capturable != 0
    }

    /// The empty points the mover may place on now (none while a capture is due or once the game
    /// is over).
    pub fn placements(&self) -> Points {
        if self.over || self.capturable != 0 { 0 } else { self.free() }
    }

    /// Once the game is over, the seat that could not place (§End and result); `None` before.
    pub fn stuck(&self) -> Option<Player> {
        self.over.then_some(Player(self.mover))
    }

    /// True when the last move was a capture: the mover places again within the same turn
    /// (`docs/rules/tri-it-out.md` §A turn 3).
    pub fn placing_again(&self) -> bool {
        self.continuing
    }

    /// The seat that made the last move, if any move was played.
    pub fn last_mover(&self) -> Option<Player> {
        if self.ply == 0 {
            None
        } else if self.continuing || self.capturable != 0 {
            // A capture, or a placement whose capture is due: the mover is still the same.
            Some(Player(self.mover))
        } else {
            Some(Player(1 - self.mover))
        }
    }

    /// True once the game is over with a mixed triangle on the board in the variant
    /// `any-mixed-triangle`: the stuck player then loses whatever the counts (§Variant).
    pub fn mixed_triangle_loss(&self) -> bool {
        self.over && self.options.variant == Variant::AnyMixedTriangle && self.any_mixed_triangle()
    }

    /// True once the game is over with equal counts, so that the tie rule ([`TieRule`]) decided it
    /// (false when [`TriItOut::mixed_triangle_loss`] decided it).
    pub fn tie_decided(&self) -> bool {
        self.over && self.counters[0].count_ones() == self.counters[1].count_ones() && !self.mixed_triangle_loss()
    }

    /// The seat that wins, once the game is over (§End and result, §Variant).
    pub fn winner(&self) -> Option<Player> {
        if !self.over {
            return None;
        }
        let [red, blue] = self.counts();
        let loser = if self.mixed_triangle_loss() {
            self.mover
        } else if red != blue {
            if red < blue { 1 } else { 0 }
        } else {
            match self.options.tie {
                TieRule::StuckPlayerLoses => self.mover,
                TieRule::LastMoverLoses => self.last_mover().map_or(self.mover, |p| p.0),
            }
        };
        Some(Player(1 - loser))
    }

    /// Every mixed triangle on the board, as point sets.
    pub fn mixed_triangles(&self) -> impl Iterator<Item = Points> + '_ {
        let occupied = self.occupied();
        self.tables
            .triangle_sets
            .iter()
            .copied()
            .filter(move |&t| t & occupied == t && t & self.counters[0] != 0 && t & self.counters[1] != 0)
    }

    #[inline(always)]
    fn occupied(&self) -> Points {
        self.counters[0] | self.counters[1]
    }

    /// Empty, unrestricted points.
    #[inline(always)]
    fn free(&self) -> Points {
        self.tables.lattice.all & !self.occupied() & !self.restricted
    }

    fn any_mixed_triangle(&self) -> bool {
        self.mixed_triangles().next().is_some()
    }

    /// The enemy counters (of `me`'s opponent) in any mixed triangle on the board (§Variant).
    fn enemies_in_mixed_triangles(&self, me: usize) -> Points {
        let enemy = self.counters[1 - me];
        self.mixed_triangles().fold(0, |acc, t| acc | (t & enemy))
    }

    /// The points completing a triangle with two of `seat`'s counters, from scratch.
    fn recompute_closes(&mut self, seat: usize) {
        let mut closes = 0;
        let mut rest = self.counters[seat];
        while rest != 0 {
            let a = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            for b in Lattice::iter(rest) {
                closes |= self.tables.third(a, b);
            }
        }
        self.closes[seat] = closes;
    }

    /// The restricted set from scratch: every red–blue pair's third corners that are empty.
    fn recompute_restricted(&mut self) {
        let mut restricted = 0;
        for a in Lattice::iter(self.counters[0]) {
            for b in Lattice::iter(self.counters[1]) {
                restricted |= self.tables.third(a, b);
            }
        }
        self.restricted = restricted & !self.occupied();
    }

    fn name(&self, p: usize) -> String {
        self.tables.lattice.name(p)
    }

    fn names(&self, points: Points) -> String {
        let names: Vec<String> = Lattice::iter(points).map(|p| self.name(p)).collect();
        match names.len() {
            0 => String::new(),
            1 => names[0].clone(),
            n => format!("{} or {}", names[..n - 1].join(", "), names[n - 1]),
        }
    }

    /// Checks a move without playing it, explaining a refusal.
    fn check(&self, mv: TriItOutMove) -> Result<(), IllegalMove> {
        let me = self.mover as usize;
        if self.over {
            return Err(IllegalMove::new(format!("the game is over: {} cannot place", NAMES[me])));
        }
        let len = self.lattice().len;
        match mv {
            TriItOutMove::Place(p) => {
                let p = p as usize;
                if self.capturable != 0 {
                    return Err(IllegalMove::new(format!(
                        "{} must first capture a {} counter of a mixed triangle ({}), then place again",
                        NAMES[me],
                        NAMES[1 - me],
                        self.names(self.capturable)
                    )));
                }
                if p >= len {
                    return Err(IllegalMove::new("that point is not on the board"));
                }
                if let Some(owner) = self.counter(p) {
                    return Err(IllegalMove::new(format!(
                        "{} already holds a {} counter",
                        self.name(p),
                        NAMES[owner as usize]
                    )));
                }
                if let Some((a, b)) = self.restricting_pair(p) {
                    return Err(IllegalMove::new(format!(
                        "{} is restricted: it would complete a triangle with Red {} and Blue {}",
                        self.name(p),
                        self.name(a),
                        self.name(b)
                    )));
                }
                Ok(())
            }
            TriItOutMove::Capture(p) => {
                let p = p as usize;
                if self.capturable == 0 {
                    return Err(IllegalMove::new(format!(
                        "{} has nothing to capture: a capture follows a placement that forms a mixed triangle",
                        NAMES[me]
                    )));
                }
                if p >= len {
                    return Err(IllegalMove::new("that point is not on the board"));
                }
                let choose = format!("capture one of {}", self.names(self.capturable));
                match self.counter(p) {
                    None => Err(IllegalMove::new(format!("{} holds no counter to capture ({choose})", self.name(p)))),
                    Some(owner) if owner as usize == me => {
                        Err(IllegalMove::new(format!("{} is {}'s own counter ({choose})", self.name(p), NAMES[me])))
                    }
                    Some(_) if self.capturable & (1 << p) == 0 => Err(IllegalMove::new(match self.options.variant {
                        Variant::Standard => format!(
                            "{} {} is not in a mixed triangle {}'s last placement formed ({choose})",
                            NAMES[1 - me],
                            self.name(p),
                            NAMES[me]
                        ),
                        Variant::AnyMixedTriangle => {
                            format!("{} {} is in no mixed triangle ({choose})", NAMES[1 - me], self.name(p))
                        }
                    })),
                    Some(_) => Ok(()),
                }
            }
        }
    }

    /// After a turn passes or a capture: the game ends if the seat to move cannot place
    /// (§End and result).
    #[inline(always)]
    fn check_end(&mut self) {
        self.over = self.free() == 0;
    }
}

/// The `k`-th lowest set bit of `x` (`k < x.count_ones()`).
#[inline(always)]
fn nth_bit(mut x: u64, k: usize) -> usize {
    // Skip whole bytes first, then bits.
    let mut k = k as u32;
    let mut base = 0;
    loop {
        let c = (x & 0xff).count_ones();
        if k < c {
            break;
        }
        k -= c;
        x >>= 8;
        base += 8;
    }
    for _ in 0..k {
        x &= x - 1;
    }
    base + x.trailing_zeros() as usize
}

/// A uniformly chosen point of a nonempty set.
#[inline(always)]
fn random_point(rng: &mut Rng, set: Points) -> u8 {
    nth_bit(set, random_index(rng, set.count_ones() as usize)) as u8
}

impl Game for TriItOut {
    type Move = TriItOutMove;
    type Options = TriItOutOptions;
    const IDS: &'static [&'static str] = &["tri-it-out"];

    fn id(&self) -> &'static str {
        "tri-it-out"
    }

    /// `board`, `tie` and `variant` by their ids (`docs/rules/tri-it-out.md` §Board, §End,
    /// §Variant), each refused with the ids it may take.
    fn options_with(_id: &str, params: &[(&str, &str)]) -> Result<TriItOutOptions, ParamError> {
        fn ids<T: Copy>(all: &[T], id: impl Fn(T) -> &'static str) -> String {
            all.iter().map(|&t| id(t)).collect::<Vec<_>>().join(", ")
        }
        let mut options = TriItOutOptions::default();
        for &(name, value) in params {
            match name {
                "board" => {
                    options.board = Board::from_id(value).ok_or_else(|| {
                        ParamError::Bad(format!("unknown board '{value}' (boards: {})", ids(&Board::ALL, Board::id)))
                    })?
                }
                "tie" => {
                    options.tie = TieRule::from_id(value).ok_or_else(|| {
                        ParamError::Bad(format!(
                            "unknown tie rule '{value}' (rules: {})",
                            ids(&TieRule::ALL, TieRule::id)
                        ))
                    })?
                }
                "variant" => {
                    options.variant = Variant::from_id(value).ok_or_else(|| {
                        ParamError::Bad(format!(
                            "unknown variant '{value}' (variants: {})",
                            ids(&Variant::ALL, Variant::id)
                        ))
                    })?
                }
                _ => return Err(ParamError::Unknown(name.to_string())),
            }
        }
        Ok(options)
    }

    fn new(options: &TriItOutOptions) -> Result<TriItOut, String> {
        Ok(TriItOut {
            tables: options.board.tables(),
            options: *options,
            counters: [0; 2],
            restricted: 0,
            capturable: 0,
            ply: 0,
            mover: 0,
            continuing: false,
            over: false,
            closes: [0; 2],
        })
    }

    fn options(&self) -> &TriItOutOptions {
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

    fn position_hash(&self) -> Option<u64> {
        // `restricted` and `closes` follow from the counters; the tie rule reads the last mover,
        // which `mover`, `continuing` and `capturable` give (and `ply` only at the start).
        let flags = u64::from(self.mover)
            | u64::from(self.continuing) << 1
            | u64::from(self.over) << 2
            | u64::from(self.ply == 0) << 3;
        Some(super::game::hash_words([self.counters[0], self.counters[1], self.capturable, flags]))
    }

    fn legal_moves(&self, out: &mut Vec<TriItOutMove>) {
        out.clear();
        if self.over {
            return;
        }
        if self.capturable != 0 {
            out.extend(Lattice::iter(self.capturable).map(|p| TriItOutMove::Capture(p as u8)));
        } else {
            out.extend(Lattice::iter(self.free()).map(|p| TriItOutMove::Place(p as u8)));
        }
    }

    fn play(&mut self, mv: TriItOutMove) -> Result<(), IllegalMove> {
        self.check(mv)?;
        self.play_unchecked(mv);
        Ok(())
    }

    fn play_unchecked(&mut self, mv: TriItOutMove) {
        self.ply += 1;
        let me = self.mover as usize;
        match mv {
            TriItOutMove::Place(p) => {
                let p = p as usize;
                let row = &self.tables.third[p * self.tables.lattice.len..][..self.tables.lattice.len];
                for q in Lattice::iter(self.counters[me]) {
                    self.closes[me] |= row[q];
                }
                self.counters[me] |= 1 << p;
                let enemy = self.counters[1 - me];
                // The new counter pairs with each enemy counter: their third corners become
                // restricted, and those already holding an enemy counter close a mixed triangle
                // (§A turn 2: the new counter plus two enemy counters — a triangle with one of the
                // mover's own counters would have made `p` restricted).
                let mut restricted = self.restricted;
                let mut capturable = 0;
                for q in Lattice::iter(enemy) {
                    let t = row[q];
                    restricted |= t;
                    capturable |= t & enemy;
                }
                self.restricted = restricted & !self.occupied();
                // §Variant: older mixed triangles count too. A turn only ends with none on the
                // board, so they exist only after a capture in this turn.
                if self.options.variant == Variant::AnyMixedTriangle && self.continuing {
                    capturable = self.enemies_in_mixed_triangles(me);
                }
                self.capturable = capturable;
                self.continuing = false;
                if capturable == 0 {
                    self.mover ^= 1;
                    self.check_end();
                }
            }
            TriItOutMove::Capture(p) => {
                self.counters[1 - me] &= !(1 << p);
                self.capturable = 0;
                self.continuing = true;
                self.recompute_restricted();
                self.recompute_closes(1 - me);
                self.check_end();
            }
        }
    }

    /// Scores are the counters each seat has on the board (fewer is better); ranks are 1 for the
    /// winner and 0 for the loser, as the tie rule or the variant decides equal counts
    /// (§End and result).
    fn outcome(&self) -> Option<Outcome> {
        let winner = self.winner()?.index();
        let [red, blue] = self.counts();
        let mut outcome = Outcome { num_players: 2, scores: [0; MAX_PLAYERS], ranks: [0.0; MAX_PLAYERS] };
        outcome.scores[0] = red as i32;
        outcome.scores[1] = blue as i32;
        outcome.ranks[winner] = 1.0;
        Some(outcome)
    }

    fn is_turn_boundary(&self) -> bool {
        self.over || (self.capturable == 0 && !self.continuing)
    }

    fn parse_move(&self, text: &str) -> Result<TriItOutMove, IllegalMove> {
        let text = text.trim();
        let lower = text.to_ascii_lowercase();
        let (capture, point) = match lower.strip_prefix('x') {
            Some(rest) => (true, rest),
            None => (false, lower.as_str()),
        };
        let lattice = self.lattice();
        match lattice.parse(point) {
            Some(p) if capture => Ok(TriItOutMove::Capture(p as u8)),
            Some(p) => Ok(TriItOutMove::Place(p as u8)),
            None => Err(IllegalMove::new(format!(
                "'{text}' is not a point of this board (a1 to {}) nor a capture such as 'x{}'",
                lattice.name(lattice.len - 1),
                lattice.name(0)
            ))),
        }
    }

    fn notation(&self) -> &'static str {
        "Tri-It-Out: a placement is a point, its letter then its row (c4: the third point from the \
         left of row 4; rows count from the top). A placement that forms a mixed triangle must be \
         followed by a capture: x and the opposing counter taken (xd2), then you place again."
    }

    fn move_text(&self, mv: TriItOutMove) -> String {
        match mv {
            TriItOutMove::Place(p) => self.name(p as usize),
            TriItOutMove::Capture(p) => format!("x{}", self.name(p as usize)),
        }
    }

    fn player_name(&self, player: Player) -> &'static str {
        NAMES[player.index() & 1]
    }

    /// Rows numbered at both ends; an empty point shows its letter, so its name is that letter and
    /// the row's number (`docs/rules/tri-it-out.md` §Board, notation: `c4`); `R`/`B` a counter,
    /// `-` a restricted point. The points a capture may take are named below the board.
    fn board_text(&self) -> String {
        let lattice = self.lattice();
        let mut s = lattice.text_rows(|p| {
            match self.counter(p) {
                Some(0) => 'R',
                Some(_) => 'B',
                None if self.restricted & (1 << p) != 0 => '-',
                None => lattice.letter(p),
            }
            .to_string()
        });
        let [red, blue] = self.counts();
        s += &format!(
            "    R/B: Red/Blue counters ({red}/{blue}); -: restricted; a letter: an empty point, c4 is c in row 4\n"
        );
        if self.capturable != 0 {
            s += &format!("    {} must capture one of {}\n", NAMES[self.mover as usize], self.names(self.capturable));
        }
        s
    }

    fn move_key(&self, mv: TriItOutMove) -> usize {
        match mv {
            TriItOutMove::Place(p) => p as usize,
            TriItOutMove::Capture(p) => self.lattice().len + p as usize,
        }
    }

    fn move_key_space(&self) -> usize {
        2 * self.lattice().len
    }

    /// Uniform among the legal moves: a capture among the capturable counters when one is due,
    /// otherwise a placement among the free points.
    fn random_move(&mut self, rng: &mut Rng, _buf: &mut Vec<TriItOutMove>) -> Option<TriItOutMove> {
        if self.over {
            None
        } else if self.capturable != 0 {
            Some(TriItOutMove::Capture(random_point(rng, self.capturable)))
        } else {
            Some(TriItOutMove::Place(random_point(rng, self.free())))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nth_bit_walks_the_set_bits() {
        let x: u64 = 0b1011_0000_0000_0001_0100_0000_0000_1000_0001;
        let bits: Vec<usize> = Lattice::iter(x).collect();
        for (k, &b) in bits.iter().enumerate() {
            assert_eq!(nth_bit(x, k), b);
        }
        assert_eq!(nth_bit(u64::MAX, 63), 63);
    }

    #[test]
    fn options_read_and_write_kebab_case_ids() {
        let o = TriItOutOptions {
            board: Board::Equiversi24,
            tie: TieRule::LastMoverLoses,
            variant: Variant::AnyMixedTriangle,
        };
        let json = serde_json::to_string(&o).unwrap();
        assert_eq!(json, r#"{"board":"equiversi-2-4","tie":"last-mover-loses","variant":"any-mixed-triangle"}"#);
        assert_eq!(serde_json::from_str::<TriItOutOptions>(&json).unwrap(), o);
        assert_eq!(serde_json::from_str::<TriItOutOptions>("{}").unwrap(), TriItOutOptions::default());
        for b in Board::ALL {
            assert_eq!(Board::from_id(b.id()), Some(b));
            assert_eq!(serde_json::to_string(&b).unwrap(), format!("\"{}\"", b.id()));
        }
    }
}
