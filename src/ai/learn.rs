//! Learning a game's move-feature weights (`rules::features`) from the moves of game records:
//! softmax regression (a conditional logit, as Coulom's Minorization-Maximization learns Go move
//! patterns) with L2 regularisation, fitted by full-batch Adam. Every played move should get a high
//! probability among its position's legal moves — or, in expert iteration, each position's target
//! distribution (the visit shares of a deep search's root, [`LearnData::add_position`]) should be
//! matched: the loss is the cross-entropy, of which the played move is the one-hot case.
//! Deterministic: the same records give the same weights. `triboard learn GAME RECORDS…` runs it;
//! every game with features uses it.

use std::ops::Range;

use crate::rules::Knowledge;

/// The positions of some records, as features: for each, its legal moves' active features and its
/// target: the move played, or a distribution over the moves.
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
    /// Every position's target as (move index among its moves, probability) pairs, one position
    /// after another: position `i`'s are `targets[target_starts[i]..target_starts[i + 1]]`,
    /// summing to 1, the most probable first.
    targets: Vec<(u32, f64)>,
    /// Where each position's targets start (one more entry than positions).
    target_starts: Vec<usize>,
    /// The target's log-likelihood under the game's hand-set priors (their values as the PUCT
    /// term's softmax, times `sharpness`), and whether they put its most probable move first.
    hand: Vec<(f64, bool)>,
    /// The hand-set priors' softmax sharpness ([`crate::ai::SearchConfig::policy_sharpness`]).
    sharpness: f64,
}

/// One measure of a weight vector over some positions.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Fitness {
    /// Mean log-likelihood of the played moves, or of the target distributions (the negated
    /// cross-entropy: nats per position; 0 is perfect for played moves).
    pub log_likelihood: f64,
    /// Share of positions whose most probable move (a unique maximum) was played (or is the
    /// target's most probable), 0–1.
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
            targets: Vec::new(),
            target_starts: vec![0],
            hand: Vec::new(),
            sharpness: f64::from(sharpness),
        }
    }

    /// The positions held.
    pub fn positions(&self) -> usize {
        self.target_starts.len() - 1
    }

    /// The moves held, over all positions.
    pub fn moves(&self) -> usize {
        self.starts[self.starts.len() - 1]
    }

    /// Adds the positions of one game: from `start`, each of `moves` is played in turn; a position
    /// with at least two legal moves is kept, with its legal moves' features
    /// ([`Knowledge::move_features`]) and the one played as its target.
    ///
    /// # Errors
    /// A move that is not legal where it is played (its ply, from 0).
    pub fn add_game<G: Knowledge>(&mut self, start: &G, moves: &[G::Move]) -> Result<(), String> {
        self.add_game_with(start, moves, |_, _, _, played| Some(vec![(played as u32, 1.0)]))
    }

    /// Adds the positions of one game with the targets `target` gives: from `start`, each of
    /// `moves` is played in turn, and at each position with at least two legal moves
    /// `target(ply, position, legal moves, index of the move played)` returns its target shares
    /// ([`LearnData::add_position`]), or `None` to skip it — the move played (`add_game`), or a
    /// deep search's root visits (expert iteration).
    ///
    /// # Errors
    /// A move that is not legal where it is played (its ply, from 0); the positions before it
    /// stay added.
    pub fn add_game_with<G: Knowledge>(
        &mut self,
        start: &G,
        moves: &[G::Move],
        mut target: impl FnMut(usize, &G, &[G::Move], usize) -> Option<Vec<(u32, f64)>>,
    ) -> Result<(), String> {
        let mut game = start.clone();
        let mut legal = Vec::new();
        for (ply, &mv) in moves.iter().enumerate() {
            game.legal_moves(&mut legal);
            let Some(played) = legal.iter().position(|&m| m == mv) else {
                return Err(format!("ply {ply}: {} is not a legal move", game.move_text(mv)));
            };
            if legal.len() > 1
                && let Some(shares) = target(ply, &game, &legal, played)
            {
                self.add_position(&game, &legal, &shares);
            }
            game.play_unchecked(mv);
        }
        Ok(())
    }

    /// Adds one position, `state` with legal moves `legal`, whose target is `shares`: (index in
    /// `legal`, weight ≥ 0) pairs, normalised here (a deep search's root visits). A position with
    /// fewer than two legal moves or no positive weight is skipped; returns whether it was added.
    ///
    /// # Panics
    /// If an index is not one of `legal`'s.
    pub fn add_position<G: Knowledge>(&mut self, state: &G, legal: &[G::Move], shares: &[(u32, f64)]) -> bool {
        let total: f64 = shares.iter().map(|s| s.1.max(0.0)).sum();
        if legal.len() < 2 || total <= 0.0 {
            return false;
        }
        assert!(shares.iter().all(|s| (s.0 as usize) < legal.len()), "a target outside the legal moves");
        let mut target: Vec<(u32, f64)> = shares.iter().filter(|s| s.1 > 0.0).map(|s| (s.0, s.1 / total)).collect();
        target.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
        self.push(state, legal, &target);
        true
    }

    /// Adds a position with its normalised target (the most probable first).
    fn push<G: Knowledge>(&mut self, game: &G, legal: &[G::Move], target: &[(u32, f64)]) {
        let (mut active, mut priors) = (Vec::new(), Vec::new());
        game.move_features(legal, &mut active);
        assert_eq!(active.len(), legal.len() * self.groups, "one feature per group and move");
        debug_assert!(active.iter().all(|&f| (f as usize) < self.features));
        game.move_priors(legal, &mut priors);
        let logits: Vec<f64> = priors.iter().map(|p| f64::from(p.0) * self.sharpness).collect();
        self.hand.push(target_measure(&logits, target));
        self.targets.extend_from_slice(target);
        self.target_starts.push(self.targets.len());
        self.active.extend_from_slice(&active);
        self.starts.push(self.starts[self.starts.len() - 1] + legal.len());
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
            let target = &self.targets[self.target_starts[i]..self.target_starts[i + 1]];
            let (ll, top) = target_measure(&logits, target);
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
                for &(m, t) in target {
                    for &f in &moves[m as usize * g..(m as usize + 1) * g] {
                        grad[f as usize] += t / n;
                    }
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

/// The log-likelihood `Σ t·log p` of a target (the most probable first) under the softmax `p` of
/// `logits`, and whether the target's first move is the unique most probable.
fn target_measure(logits: &[f64], target: &[(u32, f64)]) -> (f64, bool) {
    let max = logits.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let log_sum = max + logits.iter().map(|l| (l - max).exp()).sum::<f64>().ln();
    let ll = target.iter().map(|&(m, t)| t * (logits[m as usize] - log_sum)).sum();
    let first = target[0].0 as usize;
    let top = logits[first] == max && logits.iter().filter(|&&l| l == max).count() == 1;
    (ll, top)
}

/// The log-probability of move `played` under the softmax of `logits`, and whether it is the
/// unique most probable.
#[cfg(test)]
fn played_measure(logits: &[f64], played: usize) -> (f64, bool) {
    target_measure(logits, &[(played as u32, 1.0)])
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

    #[test]
    fn a_target_distribution_measures_its_cross_entropy() {
        let logits = [1.0, 0.0, -1.0];
        let (a, _) = played_measure(&logits, 0);
        let (b, _) = played_measure(&logits, 1);
        let (ll, top) = target_measure(&logits, &[(0, 0.75), (1, 0.25)]);
        assert!((ll - (0.75 * a + 0.25 * b)).abs() < 1e-12 && top);
        let (_, top) = target_measure(&logits, &[(1, 0.6), (0, 0.4)]);
        assert!(!top, "the target's first move is not the most probable");
    }
}
