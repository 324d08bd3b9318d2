//! The triangular point lattice shared by Tri-It-Out and TriCore (`docs/rules/tri-it-out.md` §Board,
//! `docs/rules/tricore.md` §Board): counters, cores, rings and discs stand on its points.
//!
//! Points have axial coordinates `(q, r)`; `r` is the row (0 at the top as drawn) and `q` grows to
//! the right along a row. The six unit directions are [`DIRECTIONS`]; a point's neighbour in
//! direction `d` and the opposite direction `d ^ 3`… are tabled per board. A board is given by its
//! row lengths, top to bottom (`[6, 7, 8, 9, 8, 7, 6]` is TriCore's elongated hexagon): while rows
//! grow the board widens to both sides, while they shrink it narrows from both sides, so every
//! hexagon and triangle of the lattice is such a list. Every board here has at most 64 points, so a
//! set of points is one `u64` ([`Points`]).
//!
//! Notation (both rules files): rows `1, 2, …` from the top, points `a, b, …` from the left of each
//! row: `c4`.

/// The most points a lattice board may have: a set of points is one `u64`.
pub const MAX_POINTS: usize = 64;
/// A set of points of one board, bit `p` for point `p`.
pub type Points = u64;
/// Marks "no point" in the tables.
pub const NONE: u8 = u8::MAX;

/// The six unit directions as axial `(dq, dr)`, counter-clockwise from "right"; direction
/// `(d + 3) % 6` is the opposite of `d`.
pub const DIRECTIONS: [(i8, i8); 6] = [(1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1)];

/// The vector `(q, r)` turned by 60° counter-clockwise (as drawn: `x = q + r/2`, `y` up is `-r`).
pub fn rot60(q: i32, r: i32) -> (i32, i32) {
    (q + r, -q)
}

/// The vector `(q, r)` turned by 60° clockwise; the inverse of [`rot60`].
pub fn rot_minus60(q: i32, r: i32) -> (i32, i32) {
    (-r, q + r)
}

/// The precomputed tables of one board. Build it once with [`Lattice::new`] and keep it in a
/// `static` (the games keep one per board in a `OnceLock`).
pub struct Lattice {
    /// Row lengths, top to bottom, in points.
    pub rows: Vec<u8>,
    /// The number of points.
    pub len: usize,
    /// Every point of the board as a set.
    pub all: Points,
    /// Axial `q` of each point.
    pub q: Vec<i8>,
    /// Axial `r` (the row, from 0 at the top) of each point.
    pub r: Vec<i8>,
    /// Position of each point in its row, from 0 at the left.
    pub col: Vec<u8>,
    /// `neighbor[p][d]`: the next point in direction `d` of [`DIRECTIONS`], or [`NONE`].
    pub neighbor: Vec<[u8; 6]>,
    /// The neighbours of each point as a set.
    pub adjacent: Vec<Points>,
    /// Points with fewer than six neighbours: the board's boundary ("peripheral points").
    pub boundary: Points,
    /// The mean of all points' [`Lattice::position`]s.
    centre: (f32, f32),
    first_in_row: Vec<u8>,
    q_of_first: Vec<i8>,
}

// One lattice per board exists and the row list names it; printing the tables would drown a
// state's `Debug` output.
impl std::fmt::Debug for Lattice {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Lattice({:?})", self.rows)
    }
}

impl Lattice {
    /// The board with these row lengths (top to bottom, in points).
    ///
    /// # Panics
    /// If there are more than [`MAX_POINTS`] points, or a row is empty or differs from the one
    /// before by more than one point (not a convex board of the lattice).
    pub fn new(rows: &[u8]) -> Lattice {
        let len: usize = rows.iter().map(|&n| n as usize).sum();
        assert!(len <= MAX_POINTS, "at most {MAX_POINTS} points");
        let mut lattice = Lattice {
            rows: rows.to_vec(),
            len,
            all: if len == 64 { u64::MAX } else { (1u64 << len) - 1 },
            q: Vec::with_capacity(len),
            r: Vec::with_capacity(len),
            col: Vec::with_capacity(len),
            neighbor: vec![[NONE; 6]; len],
            adjacent: vec![0; len],
            boundary: 0,
            centre: (0.0, 0.0),
            first_in_row: Vec::with_capacity(rows.len()),
            q_of_first: Vec::with_capacity(rows.len()),
        };
        let mut q0 = 0i8;
        for (r, &n) in rows.iter().enumerate() {
            assert!(n > 0, "rows are not empty");
            if r > 0 {
                let before = rows[r - 1];
                assert!(before.abs_diff(n) <= 1, "neighbouring rows differ by at most one point");
                // A longer row reaches half a step further left, which is one `q` less.
                if n > before {
                    q0 -= 1;
                }
            }
            lattice.first_in_row.push(lattice.q.len() as u8);
            lattice.q_of_first.push(q0);
            for c in 0..n {
                lattice.q.push(q0 + c as i8);
                lattice.r.push(r as i8);
                lattice.col.push(c);
            }
        }
        for p in 0..len {
            for (d, &(dq, dr)) in DIRECTIONS.iter().enumerate() {
                if let Some(n) = lattice.at(lattice.q[p] as i32 + dq as i32, lattice.r[p] as i32 + dr as i32) {
                    lattice.neighbor[p][d] = n as u8;
                    lattice.adjacent[p] |= 1 << n;
                }
            }
            if lattice.adjacent[p].count_ones() < 6 {
                lattice.boundary |= 1 << p;
            }
        }
        let (mut x, mut y) = (0.0, 0.0);
        for p in 0..len {
            let (px, py) = lattice.position(p);
            x += px;
            y += py;
        }
        lattice.centre = (x / len as f32, y / len as f32);
        lattice
    }

    /// The point at axial `(q, r)`, if it is on the board.
    pub fn at(&self, q: i32, r: i32) -> Option<usize> {
        let row = usize::try_from(r).ok()?;
        let n = *self.rows.get(row)? as i32;
        let c = q - self.q_of_first[row] as i32;
        (0..n).contains(&c).then(|| self.first_in_row[row] as usize + c as usize)
    }

    /// The point `steps` unit steps from `p` in direction `d`, if it is on the board.
    pub fn step(&self, p: usize, d: usize, steps: i32) -> Option<usize> {
        let (dq, dr) = DIRECTIONS[d];
        self.at(self.q[p] as i32 + steps * dq as i32, self.r[p] as i32 + steps * dr as i32)
    }

    /// The point's name: its letter in the row from the left, then its row from the top (`c4`).
    pub fn name(&self, p: usize) -> String {
        format!("{}{}", self.letter(p), self.r[p] + 1)
    }

    /// The letter of the point's name: its place in its row from the left, `a` first (the `c` of
    /// `c4`; `docs/rules/tri-it-out.md` §Board, `docs/rules/tricore.md` §Board).
    pub fn letter(&self, p: usize) -> char {
        (b'a' + self.col[p]) as char
    }

    /// The board as text for the terminal, one line per row (`triboard play`): the row's number
    /// (`docs/rules/tri-it-out.md` §Board, notation), then each point's cell, `cell(p)`: one or
    /// three characters (the same for every point), the middle one on the point. A half step is two
    /// characters, so a row's points are four apart and the rows interleave as the lattice does, on
    /// every board. A game puts the point's [`Lattice::letter`] in the middle of the cells it wants
    /// named, so a point's name is that letter and the number of its line. Each line ends with its
    /// row's number again, in one column two spaces right of the widest row, then `\n`.
    pub fn text_rows(&self, mut cell: impl FnMut(usize) -> String) -> String {
        // Half steps from the left: 2q + r, shifted so that the leftmost point is at 0.
        let x = |p: usize| 2 * self.q[p] as i32 + self.r[p] as i32;
        let left = (0..self.len).map(x).min().unwrap_or(0);
        let mut lines = Vec::with_capacity(self.rows.len());
        let mut p = 0;
        for (r, &n) in self.rows.iter().enumerate() {
            let mut line = format!("{:>3} ", r + 1);
            for _ in 0..n {
                let start = 4 + 2 * (x(p) - left) as usize;
                while line.chars().count() < start {
                    line.push(' ');
                }
                line += &cell(p);
                p += 1;
            }
            lines.push(line.trim_end().to_string());
        }
        // The row's number again at its right end, in one column.
        let width = lines.iter().map(|l| l.chars().count()).max().unwrap_or(0);
        let mut out = String::new();
        for (r, line) in lines.iter().enumerate() {
            let pad = width - line.chars().count();
            out += &format!("{line}{}  {}\n", " ".repeat(pad), r + 1);
        }
        out
    }

    /// The point a name such as `c4` denotes, if it is on the board.
    pub fn parse(&self, text: &str) -> Option<usize> {
        let mut chars = text.chars();
        let letter = chars.next()?;
        if !letter.is_ascii_lowercase() {
            return None;
        }
        let digits = chars.as_str();
        if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) || digits.starts_with('0') {
            return None;
        }
        let row: usize = digits.parse().ok()?;
        let col = (letter as u8 - b'a') as usize;
        (row >= 1 && row <= self.rows.len() && col < self.rows[row - 1] as usize)
            .then(|| self.first_in_row[row - 1] as usize + col)
    }

    /// Where a point is drawn, with unit spacing between neighbours: `x` to the right, `y` down
    /// (row 0 at `y = 0`). The board's centre is at [`Lattice::centre`].
    pub fn position(&self, p: usize) -> (f32, f32) {
        (self.q[p] as f32 + self.r[p] as f32 / 2.0, self.r[p] as f32 * 3f32.sqrt() / 2.0)
    }

    /// The mean of all points' [`Lattice::position`]s (computed once, with the tables).
    pub fn centre(&self) -> (f32, f32) {
        self.centre
    }

    /// The squared Euclidean distance between two points, in squared unit spacings (an integer on
    /// this lattice: `dq² + dq·dr + dr²`).
    pub fn distance2(&self, a: usize, b: usize) -> i32 {
        let dq = self.q[b] as i32 - self.q[a] as i32;
        let dr = self.r[b] as i32 - self.r[a] as i32;
        dq * dq + dq * dr + dr * dr
    }

    /// The points of a set, lowest first.
    pub fn iter(points: Points) -> impl Iterator<Item = usize> {
        let mut rest = points;
        std::iter::from_fn(move || {
            (rest != 0).then(|| {
                let p = rest.trailing_zeros() as usize;
                rest &= rest - 1;
                p
            })
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hexagon_of_side_three() {
        let l = Lattice::new(&[3, 4, 5, 4, 3]);
        assert_eq!(l.len, 19);
        assert_eq!((0..l.len).filter(|&p| l.adjacent[p].count_ones() == 6).count(), 7);
        assert_eq!(l.boundary.count_ones(), 12);
        for p in 0..l.len {
            assert_eq!(l.parse(&l.name(p)), Some(p));
            for d in 0..6 {
                let n = l.neighbor[p][d];
                if n != NONE {
                    assert_eq!(l.neighbor[n as usize][(d + 3) % 6], p as u8);
                    assert_eq!(l.distance2(p, n as usize), 1);
                }
            }
        }
        assert_eq!(l.parse("c3"), Some(3 + 4 + 2));
        assert_eq!(l.parse("e2"), None);
        assert_eq!(l.parse("a0"), None);
    }

    #[test]
    fn rotations_are_inverse_and_keep_length() {
        for (q, r) in [(1, 0), (2, -1), (3, 5), (-4, 1)] {
            let (a, b) = rot60(q, r);
            assert_eq!(rot_minus60(a, b), (q, r));
            assert_eq!(a * a + a * b + b * b, q * q + q * r + r * r);
            let mut v = (q, r);
            for _ in 0..6 {
                v = rot60(v.0, v.1);
            }
            assert_eq!(v, (q, r));
        }
    }
}
