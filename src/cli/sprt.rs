//! The sequential probability ratio test of `triboard match --sprt ELO0,ELO1`, as engine developers
//! run it (fishtest, cutechess-cli): results are gathered in *units* — a pair of games with the
//! colours swapped when two engines play, one full rotation of the seats otherwise — and after each
//! unit the log-likelihood ratio of H1 (engine A is `ELO1` stronger than the field) against H0 (it is
//! `ELO0` stronger) is compared with the bounds `ln(β/(1−α))` and `ln((1−β)/α)`.
//!
//! The model is the generalized SPRT of fishtest (M. Van den Bergh, "A practical introduction to
//! the GSPRT"): each unit has a score `x` in `[0, 1]` (A's mean result over the unit's games, a game
//! scored against every other engine pairwise by the mean score a seat); under a hypothesis with logistic Elo `e`, the
//! expected score is `s(e) = 1 / (1 + 10^(−e/400))`, and the unit scores' distribution is the one
//! nearest to the observed frequencies with that mean (the maximum-likelihood distribution under
//! the constraint). The LLR is `N · Σ p̂ᵢ · ln(p₁ᵢ / p₀ᵢ)`. Outcomes not seen yet at the ends of the
//! scale (a pair lost twice, won twice) get a count of 10⁻³, so that the constrained estimate exists
//! from the first unit on. With two engines the units are game pairs, counted pentanomially (pair
//! score 0, ½, 1, 1½, 2): the pairs remove most of the first-move advantage from the variance.
//!
//! The Elo estimate is `−400 · log10(1/x̄ − 1)` of the mean unit score, with its 95 % interval from
//! the unit scores' variance (normal approximation), both in logistic Elo.

use std::collections::BTreeMap;

use serde_json::{Value, json};

/// The count given to an unseen outcome at either end of the scale.
const PSEUDO_COUNT: f64 = 1e-3;
/// z of a two-sided 95 % interval.
const Z95: f64 = 1.959_963_984_540_054;

/// What the test concluded.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// The LLR crossed the upper bound: A is at least `ELO1` stronger (as far as α allows).
    H1,
    /// The LLR crossed the lower bound: A is at most `ELO0` stronger.
    H0,
}

/// The hypotheses and error rates of a test: `--sprt ELO0,ELO1 --alpha A --beta B`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SprtBounds {
    /// H0's Elo difference (A over the field), logistic Elo.
    pub elo0: f64,
    /// H1's, greater than `elo0`.
    pub elo1: f64,
    /// The chance of accepting H1 when H0 holds.
    pub alpha: f64,
    /// The chance of accepting H0 when H1 holds.
    pub beta: f64,
}

impl SprtBounds {
    /// Parses `ELO0,ELO1` (e.g. `0,20`).
    ///
    /// # Errors
    /// Not two finite numbers, `ELO1 ≤ ELO0`, or `alpha`/`beta` outside `(0, 0.5)`.
    pub fn parse(text: &str, alpha: f64, beta: f64) -> Result<SprtBounds, String> {
        let parts: Vec<&str> = text.split(',').map(str::trim).collect();
        let numbers: Vec<f64> = parts.iter().filter_map(|p| p.parse::<f64>().ok().filter(|v| v.is_finite())).collect();
        let [elo0, elo1] = numbers[..] else {
            return Err(format!("--sprt takes ELO0,ELO1 (two numbers, e.g. 0,20), not '{text}'"));
        };
        if parts.len() != 2 || elo1 <= elo0 {
            return Err(format!("--sprt {text}: ELO1 must be greater than ELO0"));
        }
        for (name, v) in [("alpha", alpha), ("beta", beta)] {
            if !(v > 0.0 && v < 0.5) {
                return Err(format!("--{name} must be between 0 and 0.5, not {v}"));
            }
        }
        Ok(SprtBounds { elo0, elo1, alpha, beta })
    }

    /// The LLR's lower bound, `ln(β / (1 − α))`: at or below it H0 is accepted.
    pub fn lower(&self) -> f64 {
        (self.beta / (1.0 - self.alpha)).ln()
    }

    /// The LLR's upper bound, `ln((1 − β) / α)`: at or above it H1 is accepted.
    pub fn upper(&self) -> f64 {
        ((1.0 - self.beta) / self.alpha).ln()
    }
}

/// The expected score of a logistic Elo difference.
pub fn score_of_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// The logistic Elo difference of an expected score in `(0, 1)` (clamped a little inside).
pub fn elo_of_score(score: f64) -> f64 {
    let s = score.clamp(1e-6, 1.0 - 1e-6);
    -400.0 * (1.0 / s - 1.0).log10()
}

/// The running test: the unit scores seen so far, by value.
#[derive(Clone, Debug)]
pub struct Sprt {
    bounds: SprtBounds,
    /// Games a unit holds (2: a pair).
    unit_games: usize,
    /// Unit score (in multiples of 1/`SCALE`) → how many units had it.
    counts: BTreeMap<u64, u64>,
    games: usize,
}

/// Unit scores are kept as integers in units of 1/SCALE (exact for halves, thirds, quarters, …).
const SCALE: f64 = 7_560.0;

impl Sprt {
    /// A new test whose units hold `unit_games` games (at least 1).
    pub fn new(bounds: SprtBounds, unit_games: usize) -> Sprt {
        Sprt { bounds, unit_games: unit_games.max(1), counts: BTreeMap::new(), games: 0 }
    }

    /// Games a unit holds.
    pub fn unit_games(&self) -> usize {
        self.unit_games
    }

    /// Adds one finished unit: engine A's score in each of its games, each in `[0, 1]`.
    ///
    /// # Panics
    /// If `scores` does not hold exactly one unit's games.
    pub fn add_unit(&mut self, scores: &[f64]) {
        assert_eq!(scores.len(), self.unit_games, "a unit holds {} games", self.unit_games);
        let mean = scores.iter().sum::<f64>() / scores.len() as f64;
        *self.counts.entry((mean.clamp(0.0, 1.0) * SCALE).round() as u64).or_default() += 1;
        self.games += scores.len();
    }

    /// Continues a test stopped before it decided (a session's end, a crash): adds the pairs of
    /// its earlier runs, `counts[k]` pairs that scored `k/2` for A (the pentanomial counts its
    /// report gave), as if they had just been played. Run on with another seed: the same seed
    /// replays the same openings.
    ///
    /// # Errors
    /// The test's units are not game pairs (more than two engines).
    pub fn resume_pairs(&mut self, counts: [u64; 5]) -> Result<(), String> {
        if self.unit_games != 2 {
            return Err("--sprt-resume takes pentanomial counts: two engines only".to_string());
        }
        for (k, &c) in counts.iter().enumerate() {
            if c > 0 {
                *self.counts.entry((k as f64 / 4.0 * SCALE).round() as u64).or_default() += c;
                self.games += 2 * c as usize;
            }
        }
        Ok(())
    }

    /// Units added.
    pub fn units(&self) -> u64 {
        self.counts.values().sum()
    }

    /// Games in the units added.
    pub fn games(&self) -> usize {
        self.games
    }

    /// The observed unit scores and their frequencies, with the pseudo-counts at 0 and 1.
    fn distribution(&self) -> (Vec<f64>, Vec<f64>) {
        let mut counts: BTreeMap<u64, f64> = self.counts.iter().map(|(&k, &n)| (k, n as f64)).collect();
        for end in [0, SCALE as u64] {
            counts.entry(end).or_insert(PSEUDO_COUNT);
        }
        let total: f64 = counts.values().sum();
        (counts.keys().map(|&k| k as f64 / SCALE).collect(), counts.values().map(|n| n / total).collect())
    }

    /// The log-likelihood ratio of H1 against H0 so far (0 before any unit).
    pub fn llr(&self) -> f64 {
        let n = self.units();
        if n == 0 {
            return 0.0;
        }
        let (values, freqs) = self.distribution();
        let p0 = constrained_mle(&values, &freqs, score_of_elo(self.bounds.elo0));
        let p1 = constrained_mle(&values, &freqs, score_of_elo(self.bounds.elo1));
        n as f64 * freqs.iter().zip(p0.iter().zip(&p1)).map(|(f, (a, b))| f * (b / a).ln()).sum::<f64>()
    }

    /// The verdict once the LLR has crossed a bound, else `None`.
    pub fn verdict(&self) -> Option<Verdict> {
        let llr = self.llr();
        if llr >= self.bounds.upper() {
            Some(Verdict::H1)
        } else if llr <= self.bounds.lower() {
            Some(Verdict::H0)
        } else {
            None
        }
    }

    /// The mean unit score (½ before any unit) and its standard error.
    fn mean_and_error(&self) -> (f64, f64) {
        let n = self.units() as f64;
        if n == 0.0 {
            return (0.5, 0.5);
        }
        let value = |k: u64| k as f64 / SCALE;
        let mean = self.counts.iter().map(|(&k, &c)| value(k) * c as f64).sum::<f64>() / n;
        let var = self.counts.iter().map(|(&k, &c)| (value(k) - mean).powi(2) * c as f64).sum::<f64>() / n;
        (mean, (var / n).sqrt())
    }

    /// The Elo estimate of A over the field and its 95 % interval, logistic Elo.
    pub fn elo(&self) -> (f64, f64, f64) {
        let (mean, error) = self.mean_and_error();
        (elo_of_score(mean), elo_of_score(mean - Z95 * error), elo_of_score(mean + Z95 * error))
    }

    /// With game pairs, the pentanomial counts: pairs that scored 0, ½, 1, 1½ and 2 for A.
    pub fn pentanomial(&self) -> Option<[u64; 5]> {
        (self.unit_games == 2).then(|| {
            let mut out = [0; 5];
            for (&k, &c) in &self.counts {
                out[((k as f64 / SCALE) * 4.0).round() as usize] += c;
            }
            out
        })
    }

    /// One line for the report: the LLR, its bounds, the Elo estimate and the counts.
    pub fn line(&self) -> String {
        let b = self.bounds;
        let (elo, low, high) = self.elo();
        let verdict = match self.verdict() {
            Some(Verdict::H1) => "H1 accepted".to_string(),
            Some(Verdict::H0) => "H0 accepted".to_string(),
            None => "undecided".to_string(),
        };
        let counts = match self.pentanomial() {
            Some(p) => format!("pairs {} (pentanomial {p:?})", self.units()),
            None => format!("units of {} games: {}", self.unit_games, self.units()),
        };
        format!(
            "SPRT [{}, {}] α={} β={}: {verdict} after {} games; LLR {:.2} ({:.2}, {:.2}); Elo {elo:+.1} ({low:+.1} to {high:+.1}); {counts}",
            b.elo0,
            b.elo1,
            b.alpha,
            b.beta,
            self.games,
            self.llr(),
            b.lower(),
            b.upper()
        )
    }

    /// The JSON object `match --json` carries under `sprt`.
    pub fn json(&self) -> Value {
        let b = self.bounds;
        let (elo, low, high) = self.elo();
        json!({
            "elo0": b.elo0,
            "elo1": b.elo1,
            "alpha": b.alpha,
            "beta": b.beta,
            "llr": self.llr(),
            "lower": b.lower(),
            "upper": b.upper(),
            "verdict": self.verdict().map(|v| match v { Verdict::H1 => "H1", Verdict::H0 => "H0" }),
            "games": self.games,
            "units": self.units(),
            "unit_games": self.unit_games,
            "elo": elo,
            "elo_ci95_low": low,
            "elo_ci95_high": high,
            "pentanomial": self.pentanomial(),
        })
    }
}

/// The distribution over `values` nearest (maximum likelihood) to the frequencies `freqs` whose
/// mean is `s`: `pᵢ = p̂ᵢ / (1 + λ(aᵢ − s))` with `λ` the root of `Σ p̂ᵢ(aᵢ − s)/(1 + λ(aᵢ − s))`,
/// found by bisection. `s` must lie strictly between the smallest and the largest value.
fn constrained_mle(values: &[f64], freqs: &[f64], s: f64) -> Vec<f64> {
    let (min, max) = values.iter().fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), &v| (a.min(v), b.max(v)));
    // The denominators stay positive for λ in (−1/(max − s), 1/(s − min)).
    let (mut lo, mut hi) = (-1.0 / (max - s), 1.0 / (s - min));
    let f = |l: f64| values.iter().zip(freqs).map(|(a, p)| p * (a - s) / (1.0 + l * (a - s))).sum::<f64>();
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if f(mid) > 0.0 {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    let l = 0.5 * (lo + hi);
    values.iter().zip(freqs).map(|(a, p)| p / (1.0 + l * (a - s))).collect()
}

/// Engine `a`'s score in one game against the other engines, each met pairwise by their mean
/// scores a seat (1 ahead, ½ level, 0 behind), averaged over them; an engine that forfeited is
/// behind every other. With two engines of one seat each it is the game's result for `a`.
pub fn pairwise_score(a: usize, engine_scores: &[f64], forfeit: Option<usize>) -> f64 {
    let others: Vec<usize> = (0..engine_scores.len()).filter(|&e| e != a).collect();
    let versus = |e: usize| match forfeit {
        Some(f) if f == a => 0.0,
        Some(f) if f == e => 1.0,
        _ => match engine_scores[a].partial_cmp(&engine_scores[e]) {
            Some(std::cmp::Ordering::Greater) => 1.0,
            Some(std::cmp::Ordering::Less) => 0.0,
            _ => 0.5,
        },
    };
    others.iter().map(|&e| versus(e)).sum::<f64>() / others.len().max(1) as f64
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{Rng, rng_from_seed};
    use rand::Rng as _;

    /// A seeded stub pairing of known strength: engine A wins each game with the probability of
    /// `elo`, with `draws` of the games drawn; plays units until the test decides (or 20,000 games).
    fn run_stub(elo: f64, draws: f64, bounds: SprtBounds, seed: u64) -> (Option<Verdict>, Sprt) {
        let mut rng: Rng = rng_from_seed(seed);
        let mut test = Sprt::new(bounds, 2);
        let s = score_of_elo(elo);
        // P(win) + ½ P(draw) = s.
        let win = s - draws / 2.0;
        while test.verdict().is_none() && test.games() < 20_000 {
            let mut game = || {
                let r: f64 = rng.random();
                if r < win {
                    1.0
                } else if r < win + draws {
                    0.5
                } else {
                    0.0
                }
            };
            let unit = [game(), game()];
            test.add_unit(&unit);
        }
        (test.verdict(), test)
    }

    fn bounds(elo0: f64, elo1: f64) -> SprtBounds {
        SprtBounds { elo0, elo1, alpha: 0.05, beta: 0.05 }
    }

    #[test]
    fn bounds_are_wald_s() {
        let b = bounds(0.0, 20.0);
        assert!((b.upper() - 2.944).abs() < 1e-3 && (b.lower() + 2.944).abs() < 1e-3);
        assert!(SprtBounds::parse("0,20", 0.05, 0.05).is_ok());
        assert!(SprtBounds::parse("20,0", 0.05, 0.05).unwrap_err().contains("greater"));
        assert!(SprtBounds::parse("0", 0.05, 0.05).unwrap_err().contains("two numbers"));
        assert!(SprtBounds::parse("0,x", 0.05, 0.05).is_err());
        assert!(SprtBounds::parse("0,20", 0.6, 0.05).unwrap_err().contains("alpha"));
    }

    #[test]
    fn elo_and_score_are_inverse() {
        for e in [-300.0, -20.0, 0.0, 35.5, 400.0] {
            assert!((elo_of_score(score_of_elo(e)) - e).abs() < 1e-9);
        }
        assert!((score_of_elo(400.0) - 10.0 / 11.0).abs() < 1e-12);
    }

    #[test]
    fn a_stub_well_above_elo1_accepts_h1_and_one_below_elo0_accepts_h0() {
        for seed in 1..=5 {
            let (v, t) = run_stub(80.0, 0.1, bounds(0.0, 20.0), seed);
            assert_eq!(v, Some(Verdict::H1), "seed {seed}: {}", t.line());
            let (elo, low, high) = t.elo();
            assert!(low < elo && elo < high && high > 20.0, "{}", t.line());
            let (v, t) = run_stub(-40.0, 0.1, bounds(0.0, 20.0), seed);
            assert_eq!(v, Some(Verdict::H0), "seed {seed}: {}", t.line());
        }
    }

    /// The error rates hold: at exactly ELO0, H1 is accepted in about α of the tests, at ELO1 H0
    /// in about β (100 seeded tests each; allowing for the sampling error of 100 trials).
    #[test]
    fn the_error_rates_are_about_alpha_and_beta() {
        let b = SprtBounds { elo0: 0.0, elo1: 40.0, alpha: 0.05, beta: 0.05 };
        let wrong_h1 = (0..100).filter(|&s| run_stub(0.0, 0.2, b, 1000 + s).0 == Some(Verdict::H1)).count();
        let wrong_h0 = (0..100).filter(|&s| run_stub(40.0, 0.2, b, 2000 + s).0 == Some(Verdict::H0)).count();
        assert!(wrong_h1 <= 12, "H1 accepted at ELO0 in {wrong_h1} of 100");
        assert!(wrong_h0 <= 12, "H0 accepted at ELO1 in {wrong_h0} of 100");
        // And the test is not trivially conservative: it decides, and mostly right.
        let right = (0..100).filter(|&s| run_stub(40.0, 0.2, b, 3000 + s).0 == Some(Verdict::H1)).count();
        assert!(right >= 80, "H1 accepted at ELO1 in only {right} of 100");
    }

    #[test]
    fn pentanomial_counts_pairs_and_the_llr_moves_with_the_results() {
        let mut t = Sprt::new(bounds(0.0, 20.0), 2);
        assert_eq!(t.llr(), 0.0);
        for unit in [[1.0, 1.0], [1.0, 0.5], [0.0, 1.0], [0.5, 0.5], [0.0, 0.0], [1.0, 1.0]] {
            t.add_unit(&unit);
        }
        assert_eq!(t.pentanomial(), Some([1, 0, 2, 1, 2]));
        assert_eq!((t.units(), t.games()), (6, 12));
        let before = t.llr();
        assert!(before > 0.0, "more won than lost: {before}");
        t.add_unit(&[0.0, 0.0]);
        t.add_unit(&[0.0, 0.0]);
        assert!(t.llr() < before);
        let j = t.json();
        assert_eq!(j["pentanomial"], json!([3, 0, 2, 1, 2]));
        assert_eq!(j["units"], 8);
        assert!(j["verdict"].is_null());
    }

    #[test]
    fn a_resumed_test_goes_on_from_its_earlier_pairs() {
        let mut played = Sprt::new(bounds(0.0, 40.0), 2);
        for unit in [[1.0, 1.0], [1.0, 0.5], [0.0, 1.0], [0.5, 0.5], [0.0, 0.0], [1.0, 1.0], [0.5, 1.0]] {
            played.add_unit(&unit);
        }
        let mut resumed = Sprt::new(bounds(0.0, 40.0), 2);
        resumed.resume_pairs(played.pentanomial().unwrap()).unwrap();
        assert_eq!((resumed.units(), resumed.games()), (7, 14));
        assert!((resumed.llr() - played.llr()).abs() < 1e-12);
        assert_eq!(resumed.elo(), played.elo());
        resumed.add_unit(&[1.0, 1.0]);
        assert!(resumed.llr() > played.llr());
        assert_eq!(resumed.pentanomial(), Some([1, 0, 2, 2, 3]));
        let mut rotation = Sprt::new(bounds(0.0, 40.0), 3);
        assert!(rotation.resume_pairs([1, 0, 0, 0, 1]).is_err());
    }

    #[test]
    fn pairwise_scores_meet_each_other_engine() {
        assert_eq!(pairwise_score(0, &[50.0, 40.0], None), 1.0);
        assert_eq!(pairwise_score(1, &[50.0, 40.0], None), 0.0);
        assert_eq!(pairwise_score(0, &[40.0, 40.0], None), 0.5);
        assert_eq!(pairwise_score(0, &[60.0, 70.0, 50.0], None), 0.5);
        assert_eq!(pairwise_score(0, &[60.0, 70.0, 50.0], Some(1)), 1.0);
        assert_eq!(pairwise_score(1, &[60.0, 70.0, 50.0], Some(1)), 0.0);
    }
}
