//! Move features and their learned weights, the same machinery for every game that has them: a
//! game names its feature groups ([`FeatureSet`]), gives every legal move exactly one active
//! feature per group ([`Knowledge::move_features`](super::Knowledge::move_features)), and a move's
//! logit is the sum of its active features' weights ([`Weights::logit`]); the softmax of the
//! logits over the legal moves is the search's move probability (prior-led selection or the PUCT
//! term). `triboard learn GAME RECORDS…` fits the weights to the moves of game records
//! (`ai::learn`) and writes a weights file ([`Weights::to_json`]); a game keeps its built-in file
//! in a [`WeightsCell`], which `--weights FILE` may replace before the first search.

use std::sync::OnceLock;

use serde_json::{Map, Value, json};

/// A game's move features: one-hot groups, each with its buckets. Feature `i` of the whole set is
/// bucket `i - offset(g)` of the group `g` whose range holds `i`.
#[derive(Debug)]
pub struct FeatureSet {
    /// The game the weights file is for (its `"format"` is `"triboard GAME move weights"`).
    pub game: &'static str,
    /// Each group's name and number of buckets, in order.
    pub groups: &'static [(&'static str, usize)],
}

impl FeatureSet {
    /// The number of features, all groups' buckets together.
    pub const fn len(&self) -> usize {
        let mut n = 0;
        let mut g = 0;
        while g < self.groups.len() {
            n += self.groups[g].1;
            g += 1;
        }
        n
    }

    /// True if the set has no feature.
    pub const fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The index of group `g`'s first feature.
    ///
    /// # Panics
    /// If `g` is not a group.
    pub const fn offset(&self, g: usize) -> usize {
        let mut n = 0;
        let mut k = 0;
        while k < g {
            n += self.groups[k].1;
            k += 1;
        }
        assert!(g < self.groups.len(), "no such feature group");
        n
    }

    /// The index of bucket `bucket` of group `g`, the bucket capped at the group's last (a count's
    /// last bucket means "or more").
    #[inline]
    pub fn feature(&self, g: usize, bucket: usize) -> u16 {
        (self.offset(g) + bucket.min(self.groups[g].1 - 1)) as u16
    }

    /// The name of feature `i`: its group and bucket, e.g. `"gained 3"`.
    ///
    /// # Panics
    /// If `i` is not a feature.
    pub fn name(&self, i: usize) -> String {
        let mut start = 0;
        for &(group, buckets) in self.groups {
            if i < start + buckets {
                return format!("{group} {}", i - start);
            }
            start += buckets;
        }
        panic!("feature {i} is not one of the {} of {}", self.len(), self.game)
    }

    /// The format name a weights file of this set carries.
    pub fn format(&self) -> String {
        format!("triboard {} move weights", self.game)
    }
}

/// A weight per feature of a [`FeatureSet`]: a move's logit is the sum of its active features'
/// weights.
#[derive(Clone, Debug, PartialEq)]
pub struct Weights(pub Vec<f32>);

impl Weights {
    /// All weights 0 for `set`: every legal move equally likely.
    pub fn zero(set: &FeatureSet) -> Weights {
        Weights(vec![0.0; set.len()])
    }

    /// A move's logit: its active features' weights summed (`active` holds feature indices).
    #[inline]
    pub fn logit<I: Copy + Into<usize>>(&self, active: &[I]) -> f32 {
        active.iter().map(|&f| self.0[f.into()]).sum()
    }

    /// Reads a weights file of `set`: a JSON object with `"format": "triboard GAME move weights"`,
    /// `"version": 1` and `"weights"`, an object giving every feature's name a finite number
    /// (other fields, such as `"trained"`, are kept for people and ignored).
    ///
    /// # Errors
    /// Not JSON, another format or version, a feature missing, unknown or not a finite number:
    /// the reason, naming the field.
    pub fn from_json(set: &FeatureSet, text: &str) -> Result<Weights, String> {
        let value: Value = serde_json::from_str(text).map_err(|e| format!("not JSON: {e}"))?;
        let object = value.as_object().ok_or("not a JSON object")?;
        let format = set.format();
        if object.get("format").and_then(Value::as_str) != Some(format.as_str()) {
            return Err(format!("\"format\" is not \"{format}\""));
        }
        if object.get("version").and_then(Value::as_u64) != Some(1) {
            return Err("\"version\" is not 1".to_string());
        }
        let weights = object.get("weights").and_then(Value::as_object).ok_or("no \"weights\" object")?;
        let mut out = Weights::zero(set);
        for (i, w) in out.0.iter_mut().enumerate() {
            let name = set.name(i);
            let v = weights.get(&name).ok_or_else(|| format!("weights: \"{name}\" is missing"))?;
            match v.as_f64() {
                Some(x) if x.is_finite() && x.abs() < 1e6 => *w = x as f32,
                _ => return Err(format!("weights: \"{name}\" is not a finite number: {v}")),
            }
        }
        if weights.len() != set.len() {
            let unknown = weights.keys().find(|k| !(0..set.len()).any(|i| set.name(i) == **k));
            return Err(format!("weights: \"{}\" is not a feature", unknown.map_or("?", |k| k.as_str())));
        }
        Ok(out)
    }

    /// The weights file's text (see [`Weights::from_json`]), with `trained` (what they were learned
    /// from, for people) kept beside them.
    pub fn to_json(&self, set: &FeatureSet, trained: Value) -> String {
        let weights: Map<String, Value> =
            (0..set.len()).map(|i| (set.name(i), json!((self.0[i] * 1e4).round() / 1e4))).collect();
        let text = json!({ "format": set.format(), "version": 1, "trained": trained, "weights": weights });
        serde_json::to_string_pretty(&text).expect("JSON values serialise")
    }
}

/// A game's weights in force: the built-in file, unless other weights were installed before the
/// first use ([`WeightsCell::install`]).
pub struct WeightsCell {
    set: &'static FeatureSet,
    builtin: &'static str,
    cell: OnceLock<Weights>,
}

impl WeightsCell {
    /// The cell of `set`'s weights, whose built-in file is `builtin` (a weights file's text).
    pub const fn new(set: &'static FeatureSet, builtin: &'static str) -> WeightsCell {
        WeightsCell { set, builtin, cell: OnceLock::new() }
    }

    /// The weights in force (installed or built in).
    ///
    /// # Panics
    /// If the built-in file does not load (each game's tests check it does).
    pub fn get(&self) -> &Weights {
        self.cell.get_or_init(|| Weights::from_json(self.set, self.builtin).expect("the built-in weights load"))
    }

    /// Puts `w` in force for the rest of the process, before any search has read the weights.
    ///
    /// # Errors
    /// If weights are already in force (a search has run, or they were installed before), or `w`
    /// has the wrong number of weights.
    pub fn install(&self, w: Weights) -> Result<(), String> {
        if w.0.len() != self.set.len() {
            return Err(format!("{} weights given, {} expected", w.0.len(), self.set.len()));
        }
        self.cell.set(w).map_err(|_| "the move weights are already in use".to_string())
    }

    /// The feature set the weights are for.
    pub fn set(&self) -> &'static FeatureSet {
        self.set
    }

    /// The built-in weights file's text.
    pub fn builtin(&self) -> &'static str {
        self.builtin
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    static SET: FeatureSet = FeatureSet { game: "test", groups: &[("a", 2), ("b", 3)] };

    #[test]
    fn names_offsets_and_caps() {
        assert_eq!(SET.len(), 5);
        assert_eq!(SET.offset(1), 2);
        assert_eq!(SET.name(3), "b 1");
        assert_eq!(SET.feature(1, 9), 4);
        assert_eq!(SET.feature(0, 1), 1);
    }

    #[test]
    fn round_trip_and_refusals() {
        let w = Weights(vec![0.5, -1.0, 0.0, 2.25, 0.125]);
        let text = w.to_json(&SET, json!({"games": 3}));
        assert_eq!(Weights::from_json(&SET, &text), Ok(w.clone()));
        assert_eq!(w.logit(&[1u16, 3]), 1.25);
        let missing = text.replace("\"b 2\"", "\"b 7\"");
        assert_eq!(Weights::from_json(&SET, &missing), Err("weights: \"b 2\" is missing".into()));
        let bad = text.replace("2.25", "\"x\"");
        assert!(Weights::from_json(&SET, &bad).unwrap_err().contains("\"b 1\" is not a finite number"));
        let other = text.replace("triboard test", "triboard trike");
        assert!(Weights::from_json(&SET, &other).unwrap_err().contains("\"format\""));
        let extra = text.replacen("\"weights\": {", "\"weights\": {\"c 0\": 1.0,", 1);
        assert_eq!(Weights::from_json(&SET, &extra), Err("weights: \"c 0\" is not a feature".into()));
    }
}
