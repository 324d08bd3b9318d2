//! Learning a game's move-feature weights (`rules::features`) from the moves of game records:
//! softmax regression (a conditional logit, as Coulom's Minorization-Maximization learns Go move
//! patterns) with L2 regularisation, fitted by full-batch Adam. Every played move should get a high
//! probability among its position's legal moves. Deterministic: the same records give the same
//! weights. `triboard learn GAME RECORDS…` runs it; every game with features uses it.

use std::ops::Range;

use crate::rules::Knowledge;

/// The positions of some records, as features: for each, its legal moves' active features and the
/// index of the move played.
#[derive(Debug)]
pub struct LearnData {
    /// Features per move (the feature set's groups).
    groups: usize,
    /// Features in the set.
    features: usize,
    /// Every position's moves' active features, `groups` per move, one position after another.
    active: Vec<u16>,
    /// Position `i`'s moves are moves `starts[i]..starts[i + 1]` (each `groups` entries of `active`).
    starts: Vec<usize>,
    /// The played move's index among its position's moves.
    played: Vec<usize>,
    /// The log-probability of the played move under the game's hand-set priors (their values as
    /// the PUCT term's softmax, times `sharpness`), and whether they put it first.
    hand: Vec<(f64, bool)>,
    /// The hand-set priors' softmax sharpness ([`crate::ai::SearchConfig::policy_sharpness`]).
    sharpness: f64,
}

/// One measure of a weight vector over some positions.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Fitness {
    /// Mean log-likelihood of the played moves (nats per position; 0 is perfect).
    pub log_likelihood: f64,
    /// Share of positions whose most probable move (a unique maximum) was played, 0–1.
    pub first: f64,
}

impl LearnData {
    /// Empty data for a game of `groups` groups and `features` features, the hand-set priors read
    /// at softmax sharpness `sharpness`.
    pub fn new(groups: usize, features: usize, sharpness: f32) -> LearnData {
        LearnData {
            groups,
            features,
            active: Vec::new(),
            starts: vec![0],
            played: Vec::new(),
            hand: Vec::new(),
            sharpness: f64::from(sharpness),
        }
    }

    /// The positions held.
    pub fn positions(&self) -> usize {
        self.played.len()
    }

    /// The moves held, over all positions.
    pub fn moves(&self) -> usize {
        self.starts[self.starts.len() - 1]
    }

    /// Adds the positions of one game: from `start`, each of `moves` is played in turn; a position
    /// with at least two legal moves is kept, with its legal moves' features
    /// ([`Knowledge::move_features`]) and the one played.
    ///
    /// # Errors
    /// A move that is not legal where it is played (its ply, from 0).
    pub fn add_game<G: Knowledge>(&mut self, start: &G, moves: &[G::Move]) -> Result<(), String> {
        let mut game = start.clone();
        let (mut legal, mut active, mut priors) = (Vec::new(), Vec::new(), Vec::new());
        for (ply, &mv) in moves.iter().enumerate() {
            game.legal_moves(&mut legal);
            let Some(played) = legal.iter().position(|&m| m == mv) else {
                return Err(format!("ply {ply}: {} is not a legal move", game.move_text(mv)));
            };
            if legal.len() > 1 {
                game.move_features(&legal, &mut active);
                assert_eq!(active.len(), legal.len() * self.groups, "one feature per group and move");
                debug_assert!(active.iter().all(|&f| (f as usize) < self.features));
                game.move_priors(&legal, &mut priors);
                let logits: Vec<f64> = priors.iter().map(|p| f64::from(p.0) * self.sharpness).collect();
                self.hand.push(played_measure(&logits, played));
                self.played.push(played);
                self.active.extend_from_slice(&active);
                self.starts.push(self.starts[self.starts.len() - 1] + legal.len());
            }
            game.play_unchecked(mv);
        }
        Ok(())
    }

    /// The fitness of weights `w` over positions `range`, and (if `grad`) the gradient of the mean
    /// log-likelihood added to `grad`.
    pub fn evaluate(&self, w: &[f64], range: Range<usize>, mut grad: Option<&mut [f64]>) -> Fitness {
        let (mut loglik, mut first) = (0.0, 0usize);
        let n = range.len().max(1) as f64;
        let g = self.groups;
        let mut logits = Vec::new();
        for i in range {
            let moves = &self.active[self.starts[i] * g..self.starts[i + 1] * g];
            logits.clear();
            logits.extend(moves.chunks(g).map(|a| a.iter().map(|&f| w[f as usize]).sum::<f64>()));
            let played = self.played[i];
            let (ll, top) = played_measure(&logits, played);
            loglik += ll;
            first += top as usize;
            if let Some(grad) = grad.as_deref_mut() {
                let max = logits.iter().copied().fold(f64::NEG_INFINITY, f64::max);
                let sum: f64 = logits.iter().map(|l| (l - max).exp()).sum();
                for (a, l) in moves.chunks(g).zip(&logits) {
                    let p = (l - max).exp() / sum / n;
                    for &f in a {
                        grad[f as usize] -= p;
                    }
                }
                for &f in &moves[played * g..(played + 1) * g] {
                    grad[f as usize] += 1.0 / n;
                }
            }
        }
        Fitness { log_likelihood: loglik / n, first: first as f64 / n }
    }

    /// A uniform choice's fitness over `range` (its `first` is 0: no move is most probable).
    pub fn uniform(&self, range: Range<usize>) -> Fitness {
        let n = range.len().max(1) as f64;
        let ll = -range.map(|i| ((self.starts[i + 1] - self.starts[i]) as f64).ln()).sum::<f64>() / n;
        Fitness { log_likelihood: ll, first: 0.0 }
    }

    /// The hand-set priors' fitness over `range` (their values times the sharpness as logits).
    pub fn hand(&self, range: Range<usize>) -> Fitness {
        let n = range.len().max(1) as f64;
        let hand = &self.hand[range];
        Fitness {
            log_likelihood: hand.iter().map(|h| h.0).sum::<f64>() / n,
            first: hand.iter().filter(|h| h.1).count() as f64 / n,
        }
    }

    /// Fits the weights to positions `fit`: `iterations` full-batch Adam steps (rate 0.05) on the
    /// mean log-likelihood less `l2` times half the squared weights, from all weights 0. Calls
    /// `progress(step, fitness before the step)` on steps 1, every 100th and the last.
    pub fn fit(
        &self,
        fit: Range<usize>,
        iterations: usize,
        l2: f64,
        progress: &mut dyn FnMut(usize, Fitness),
    ) -> Vec<f64> {
        let k = self.features;
        let mut w = vec![0.0f64; k];
        let (mut m, mut v) = (vec![0.0f64; k], vec![0.0f64; k]);
        let (rate, beta1, beta2) = (0.05, 0.9f64, 0.999f64);
        let mut grad = vec![0.0f64; k];
        for step in 1..=iterations {
            grad.fill(0.0);
            let fitness = self.evaluate(&w, fit.clone(), Some(&mut grad));
            let (c1, c2) = (1.0 - beta1.powi(step as i32), 1.0 - beta2.powi(step as i32));
            for f in 0..k {
                let g = grad[f] - l2 * w[f];
                m[f] = beta1 * m[f] + (1.0 - beta1) * g;
                v[f] = beta2 * v[f] + (1.0 - beta2) * g * g;
                w[f] += rate * (m[f] / c1) / ((v[f] / c2).sqrt() + 1e-8);
            }
            if step == 1 || step % 100 == 0 || step == iterations {
                progress(step, fitness);
            }
        }
        w
    }
}

/// The log-probability of move `played` under the softmax of `logits`, and whether it is the
/// unique most probable.
fn played_measure(logits: &[f64], played: usize) -> (f64, bool) {
    let max = logits.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let sum: f64 = logits.iter().map(|l| (l - max).exp()).sum();
    let top = logits[played] == max && logits.iter().filter(|&&l| l == max).count() == 1;
    (logits[played] - max - sum.ln(), top)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn played_measure_is_the_softmax_log_probability() {
        let (ll, top) = played_measure(&[0.0, 0.0], 1);
        assert!((ll - 0.5f64.ln()).abs() < 1e-12);
        assert!(!top, "a tie has no unique maximum");
        let (ll, top) = played_measure(&[1.0, 0.0, -1.0], 0);
        let expected = 1.0 - (1.0f64.exp() + 1.0 + (-1.0f64).exp()).ln();
        assert!((ll - expected).abs() < 1e-12 && top);
    }
}
