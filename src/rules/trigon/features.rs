//! Move features of Blokus Trigon and their learned weights: the search's PUCT move probabilities
//! (`knowledge.rs`), learned by `triboard learn` from the moves of strong games (softmax
//! regression, as Coulom's Minorization-Maximization learns Go move patterns; our own features,
//! weights and tool).
//!
//! Every placement has exactly one active feature in each of [`GROUPS`] groups (its piece; the
//! attach points it gains; the opponents' attach points it takes; whether it answers an opponent's
//! last placement; the mover's own attach points it uses up; the opponents' pieces it touches along
//! an edge; its distance from the centre by game phase). A move's logit is the sum of its active
//! features' weights, and its probability among the legal moves is the softmax of the logits.
//!
//! The weights in force are the built-in file `weights.json` beside this module (written by
//! `triboard learn`), or a file given with `triboard gtp --weights FILE` ([`install_weights`]).

use std::sync::OnceLock;

use serde_json::{Map, Value, json};

use super::{Cells, PIECES, Trigon, TrigonMove, WORDS};

/// Feature groups: every placement has exactly one active feature in each.
pub const GROUPS: usize = 7;
/// Buckets of each group, in order: piece (22), attach points gained (0–6+), opponents' attach
/// points taken (0–4+), answers an opponent's last placement (no, yes), own attach points used up
/// (1–5+), opponents' cells touched along an edge (0–4+), phase × distance from the centre (pieces
/// placed 0–2, 3–5, 6+ × four distance bands).
const BUCKETS: [usize; GROUPS] = [PIECES, 7, 5, 2, 5, 5, 12];
/// Group names, as the weights file writes them (`"piece 3"`, `"gained 2"`, …).
const GROUP_NAMES: [&str; GROUPS] = ["piece", "gained", "taken", "answers", "uses", "touches", "phase-centre"];
/// The number of features, [`BUCKETS`] summed.
pub const FEATURES: usize = {
    let mut n = 0;
    let mut g = 0;
    while g < GROUPS {
        n += BUCKETS[g];
        g += 1;
    }
    n
};
/// The index of each group's first feature.
const OFFSETS: [usize; GROUPS] = {
    let mut o = [0; GROUPS];
    let mut g = 1;
    while g < GROUPS {
        o[g] = o[g - 1] + BUCKETS[g - 1];
        g += 1;
    }
    o
};

/// A placement's active features: one index into `0..FEATURES` per group.
pub type Active = [u8; GROUPS];

/// The bucket of each group that `active` holds, in the order of the module doc (piece, gained,
/// taken, answers, uses − 1, touches, phase × 4 + band).
pub fn buckets(active: &Active) -> [usize; GROUPS] {
    let mut out = [0; GROUPS];
    for g in 0..GROUPS {
        out[g] = active[g] as usize - OFFSETS[g];
    }
    out
}

/// The name of feature `i` (`0..FEATURES`): its group and bucket, e.g. `"gained 3"`.
pub fn feature_name(i: usize) -> String {
    let g = (0..GROUPS).rev().find(|&g| OFFSETS[g] <= i).expect("offset 0 is group 0");
    format!("{} {}", GROUP_NAMES[g], i - OFFSETS[g])
}

impl Trigon {
    /// The active features of each placement in `moves` (legal in this position, none a pass),
    /// for the colour to move: clears `out` and pushes one [`Active`] per move (`docs/rules/trigon.md`
    /// §Play defines attach points).
    ///
    /// # Panics
    /// If the game is over or a move is a pass.
    pub fn move_features(&self, moves: &[TrigonMove], out: &mut Vec<Active>) {
        out.clear();
        let c = self.colour_to_move().expect("features need a colour to move");
        let t = self.tables;
        let (theirs, answers) = (self.their_attach_points(c), self.answer_points(c));
        let mut their_cells = Cells::default();
        for o in self.opponents(c) {
            for w in 0..WORDS {
                their_cells.0[w] |= self.own[o].0[w];
            }
        }
        let mine = self.corners[c].and_not(&self.forbidden[c]);
        let placed = self.placed(c);
        let phase = if placed < 3 {
            0
        } else if placed < 6 {
            1
        } else {
            2
        };
        for &mv in moves {
            assert!(mv != TrigonMove::PASS, "a pass has no features");
            let k = mv.0 as usize;
            let (w, s) = (&t.windows[k], &t.stamps[k]);
            let (s0, w0) = (s.word as usize, w.word as usize);
            let gained = self.gained(c, k);
            let touches: u32 = (0..5).map(|i| (s.edge[i] & their_cells.0[s0 + i]).count_ones()).sum();
            let (mut taken, mut uses, mut answer) = (0, 0, 0);
            for i in 0..3 {
                taken += (w.bits[i] & theirs.0[w0 + i]).count_ones();
                uses += (w.bits[i] & mine.0[w0 + i]).count_ones();
                answer |= w.bits[i] & answers.0[w0 + i];
            }
            let band = (t.centre[k] as usize * 4 / 256).min(3);
            let buckets = [
                w.piece as usize,
                gained.min(6) as usize,
                taken.min(4) as usize,
                usize::from(answer != 0),
                (uses.max(1) - 1).min(4) as usize,
                touches.min(4) as usize,
                phase * 4 + band,
            ];
            let mut active = [0u8; GROUPS];
            for g in 0..GROUPS {
                active[g] = (OFFSETS[g] + buckets[g]) as u8;
            }
            out.push(active);
        }
    }
}

/// A weight per feature: a move's logit is the sum of its active features' weights.
#[derive(Clone, Debug, PartialEq)]
pub struct Weights(pub [f32; FEATURES]);

/// The format name a weights file carries.
const FORMAT: &str = "triboard trigon move weights";

impl Weights {
    /// All weights 0: every legal move equally likely.
    pub fn zero() -> Weights {
        Weights([0.0; FEATURES])
    }

    /// A move's logit: its active features' weights summed.
    #[inline]
    pub fn logit(&self, active: &Active) -> f32 {
        active.iter().map(|&f| self.0[f as usize]).sum()
    }

    /// Reads a weights file: a JSON object with `"format": "triboard trigon move weights"`,
    /// `"version": 1` and `"weights"`, an object giving every feature's name a finite number
    /// (other fields, such as `"trained"`, are kept for people and ignored).
    ///
    /// # Errors
    /// Not JSON, another format or version, a feature missing, unknown or not a finite number:
    /// the reason, naming the field.
    pub fn from_json(text: &str) -> Result<Weights, String> {
        let value: Value = serde_json::from_str(text).map_err(|e| format!("not JSON: {e}"))?;
        let object = value.as_object().ok_or("not a JSON object")?;
        if object.get("format").and_then(Value::as_str) != Some(FORMAT) {
            return Err(format!("\"format\" is not \"{FORMAT}\""));
        }
        if object.get("version").and_then(Value::as_u64) != Some(1) {
            return Err("\"version\" is not 1".to_string());
        }
        let weights = object.get("weights").and_then(Value::as_object).ok_or("no \"weights\" object")?;
        let mut out = Weights::zero();
        for (i, w) in out.0.iter_mut().enumerate() {
            let name = feature_name(i);
            let v = weights.get(&name).ok_or_else(|| format!("weights: \"{name}\" is missing"))?;
            match v.as_f64() {
                Some(x) if x.is_finite() && x.abs() < 1e6 => *w = x as f32,
                _ => return Err(format!("weights: \"{name}\" is not a finite number: {v}")),
            }
        }
        if let Some(unknown) = weights.keys().find(|k| !(0..FEATURES).any(|i| feature_name(i) == **k)) {
            return Err(format!("weights: \"{unknown}\" is not a feature"));
        }
        Ok(out)
    }

    /// The weights file's text (see [`Weights::from_json`]), with `trained` (what they were learned
    /// from, for people) kept beside them.
    pub fn to_json(&self, trained: Value) -> String {
        let weights: Map<String, Value> =
            (0..FEATURES).map(|i| (feature_name(i), json!((self.0[i] * 1e4).round() / 1e4))).collect();
        let text = json!({ "format": FORMAT, "version": 1, "trained": trained, "weights": weights });
        serde_json::to_string_pretty(&text).expect("JSON values serialise")
    }
}

/// The weights installed by [`install_weights`], else the built-in ones.
static WEIGHTS: OnceLock<Weights> = OnceLock::new();

/// The built-in weights file, written by `triboard learn`.
pub const BUILTIN_WEIGHTS: &str = include_str!("weights.json");

/// The weights in force (installed or built in).
///
/// # Panics
/// If the built-in file does not load (a test checks it does).
pub fn weights() -> &'static Weights {
    WEIGHTS.get_or_init(|| Weights::from_json(BUILTIN_WEIGHTS).expect("the built-in weights load"))
}

/// Puts `w` in force for the rest of the process, before any search has read the weights.
///
/// # Errors
/// If weights are already in force (a search has run, or they were installed before).
pub fn install_weights(w: Weights) -> Result<(), String> {
    WEIGHTS.set(w).map_err(|_| "the move weights are already in use".to_string())
}
