//! The reward of a Trigon playout (`Knowledge::reward_with`, `knowledge.rs`): the rank value with
//! a share for the score margin (form 0), Pentobi's quality-based reward (form 1, the default of
//! `trigon` and `trigon-3`: the result plus bonuses for the score margin, the game's length and
//! the free attach points), and form 2, the same with the bonuses' weights estimated from the
//! search's own playouts as control variates' coefficients (the default of `trigon-2`; `--config
//! reward_form=N` chooses).
//!
//! Form 2 against form 1 in `trigon-2` (`triboard match --engine "tb gtp --game trigon-2 --seconds
//! 0.15 --config reward_form=2" --engine "tb gtp --game trigon-2 --seconds 0.15" --game trigon-2
//! --sprt 0,40 --concurrency 1`, one thread each, on the build with the first frontier playouts),
//! in four stretches (`--seed 48040`, then `48041`, `48042` and `48043`, each with
//! `--sprt-resume` from the pairs before): **H1 accepted after 700 games**, LLR 3.01, Elo **+32.4
//! (+7.4 to +57.6)**, pentanomial [67, 4, 171, 13, 95]. Not tested in `trigon` or `trigon-3`.

use super::{Trigon, WORDS};
use crate::rules::game::{MAX_PLAYERS, Outcome};
use crate::rules::knowledge::RewardStats;

/// The share of a playout's reward that is its score margin (the rest is the rank value).
const MARGIN_SHARE: f32 = 0.15;
/// The slot of [`RewardStats`] holding seat `i`'s margins is `MARGIN_SLOT + i`.
const MARGIN_SLOT: usize = 0;

/// `2 / (1 + e^(-2x)) - 1`: a sigmoid from -1 to 1.
fn sigmoid(x: f64) -> f32 {
    (2.0 / (1.0 + (-2.0 * x).exp()) - 1.0) as f32
}

impl Trigon {
    /// The search's reward: `0.85 · rank + 0.15 · (½ + ½ · sigmoid(z))`, where `z` is the seat's
    /// score margin over the best other seat as a z-score against the margins of the search's
    /// earlier playouts (`stats`, updated here): a quality-based reward (Pepels et al. 2014, as
    /// Pentobi's), so a playout lost by 60 still counts worse than one lost by 40 when every
    /// playout is lost. In `[0, 1]`; a win is always worth more than a loss.
    ///
    /// Screened (`trigon-2`, 0.5 s a move, 40 games): against the former reward, the same shares
    /// with the margin clamped at ±40 points, **25–15** (62.5 %). Not kept: Pentobi's full set of
    /// bonuses (margin 0.3, game length −0.12, free attach points 0.1) added to 0 / ½ / 1 and the
    /// sum mapped onto `[0, 1]` lost 17–22 (compressed values against the exploration term); the
    /// same mapped to a win in `[0.8, 1]` lost 5–10 (stopped), halved 6–20 (stopped). Not kept
    /// either (issue 37): in `trigon-3`, the margin over the *mean* of the other seats (Pentobi's
    /// `get_score_multiplayer`) instead of over the best other, against this build (`match --game
    /// trigon-3 --seconds 0.5`, 80 games in four runs of 20, seats rotated): 43.5 of 80 (54.4 %;
    /// 13–6–1, 10–10, 12–8, 7–11–2), 19.4 pieces placed a seat against 19.1 in the first 40. Nor
    /// a larger margin share with three seats, 0.35 instead of 0.15, so that placing more pieces
    /// counts more beside the rank (`match --game trigon-3 --games 40 --seed 3791`, 0.44 s a move
    /// each): 17–20–3 (46.2 %).
    pub(super) fn margin_reward(&self, outcome: &Outcome, stats: &mut RewardStats) -> [f32; MAX_PLAYERS] {
        if stats.form() >= 1 {
            return self.quality_reward(outcome, stats);
        }
        let n = outcome.num_players;
        let mut reward = [0.0; MAX_PLAYERS];
        for (i, r) in reward.iter_mut().enumerate().take(n) {
            let best_other = (0..n).filter(|&j| j != i).map(|j| outcome.scores[j]).max().unwrap_or(0);
            let margin = (outcome.scores[i] - best_other) as f64;
            let slot = &mut stats.0[MARGIN_SLOT + i];
            slot.add(margin);
            *r = (1.0 - MARGIN_SHARE) * outcome.ranks[i] + MARGIN_SHARE * (0.5 + 0.5 * sigmoid(slot.z(margin)));
        }
        reward
    }
}

/// Reward form 1's weights of the score margin's bonus and of the attach points' (Pentobi's).
const MARGIN_WEIGHT: f32 = 0.3;
const ATTACH_WEIGHT: f32 = 0.1;
/// Reward form 2's slope of the attach points' bonus in [`RewardStats`] (seat `i`'s margin bonus
/// has slope `i`).
const ATTACH_SLOPE: usize = 3;
/// Playouts of a search before reward form 2 trusts its estimated weights (before, form 1's).
const SLOPE_WARM_UP: f64 = 100.0;
/// The largest weight reward form 2 gives a bonus: a guard, not a tuning.
const SLOPE_MAX: f64 = 1.0;

/// The weight of a quality bonus `bonus` (in −1..1) of a playout whose result is `result`: form
/// 1's `fixed`; form 2 (`--config reward_form=2`) estimates it from the search's playouts as a
/// control variate's coefficient, the least-squares slope `Cov(bonus, result) / Var(bonus)`
/// (slope `slot` of `stats`, updated here), in `[0, SLOPE_MAX]`, after [`SLOPE_WARM_UP`] playouts.
fn bonus_weight(stats: &mut RewardStats, slot: usize, bonus: f32, result: f32, fixed: f32) -> f32 {
    if stats.form() != 2 {
        return fixed;
    }
    let slope = &mut stats.2[slot];
    slope.add(bonus as f64, result as f64);
    if slope.count() < SLOPE_WARM_UP {
        return fixed;
    }
    slope.slope().clamp(0.0, SLOPE_MAX) as f32
}

/// Reward form 1's slots of [`RewardStats`]: the game length's, and the attach points'.
const LENGTH_SLOT: usize = 5;
const ATTACH_SLOT: usize = 6;

impl Trigon {
    /// Reward form 1 (`--config reward_form=1`), Pentobi's quality-based reward (its published
    /// form, our code): the result (1, ½, 0; with three seats the rank value) plus `0.3 ·
    /// sigmoid(z)` of the seat's score over the *mean* of the others, minus `0.12 · (result − ½) ·
    /// sigmoid(z)` of the game's length (a short win, a long loss), and with two seats of two
    /// colours `0.1 · sigmoid(z)` of the difference in free attach points; not squeezed into
    /// `[0, 1]` (from about −0.4 to 1.4). With two seats the second's is 1 minus the first's.
    fn quality_reward(&self, outcome: &Outcome, stats: &mut RewardStats) -> [f32; MAX_PLAYERS] {
        let n = outcome.num_players;
        let length = self.ply as f64;
        stats.0[LENGTH_SLOT].add(length);
        let length_z = sigmoid(stats.0[LENGTH_SLOT].z(length));
        let mut reward = [0.0; MAX_PLAYERS];
        let seats = if n == 2 { 1 } else { n };
        for (i, r) in reward.iter_mut().enumerate().take(seats) {
            let others = (0..n).filter(|&j| j != i).map(|j| outcome.scores[j] as f64).sum::<f64>() / (n - 1) as f64;
            let margin = outcome.scores[i] as f64 - others;
            let slot = &mut stats.0[MARGIN_SLOT + i];
            slot.add(margin);
            let result = outcome.ranks[i];
            let bonus = sigmoid(slot.z(margin));
            let weight = bonus_weight(stats, i, bonus, result, MARGIN_WEIGHT);
            *r = result + weight * bonus - 0.12 * (result - 0.5) * length_z;
        }
        if n == 2 {
            if self.colours == 4 {
                let free = |c: usize| {
                    (0..WORDS)
                        .map(|w| (self.corners[c].0[w] & !self.forbidden[c].0[w]).count_ones() as f64)
                        .sum::<f64>()
                };
                let attach = (0..4).map(|c| if c % 2 == 0 { free(c) } else { -free(c) }).sum::<f64>();
                stats.0[ATTACH_SLOT].add(attach);
                let bonus = sigmoid(stats.0[ATTACH_SLOT].z(attach));
                reward[0] += bonus_weight(stats, ATTACH_SLOPE, bonus, outcome.ranks[0], ATTACH_WEIGHT) * bonus;
            }
            reward[1] = 1.0 - reward[0];
        }
        reward
    }
}

#[cfg(test)]
mod tests {
    use super::super::{TrigonOptions, Variant};
    use super::*;
    use crate::rules::game::Game as _;
    use crate::rules::knowledge::RunningSlope;

    /// The estimated weights are `trigon-2`'s default, where their SPRT was run; the other
    /// variants keep Pentobi's fixed ones.
    #[test]
    fn form_2_is_the_default_of_trigon_2_only() {
        use crate::rules::knowledge::Knowledge as _;
        let form = |variant| Trigon::new(&TrigonOptions { variant }).unwrap().reward_form();
        assert_eq!((form(Variant::Two), form(Variant::Three), form(Variant::Four)), (2, 1, 1));
    }

    #[test]
    fn a_running_slope_is_the_covariance_over_the_variance() {
        let mut s = RunningSlope::default();
        assert_eq!(s.slope(), 0.0);
        for k in 0..50 {
            let x = k as f64 / 10.0;
            s.add(x, 0.5 * x + 0.2);
        }
        assert!((s.slope() - 0.5).abs() < 1e-9, "{}", s.slope());
        let mut flat = RunningSlope::default();
        (0..10).for_each(|k| flat.add(1.0, k as f64));
        assert_eq!((flat.slope(), flat.count()), (0.0, 10.0));
    }

    /// Form 2 weights the margin's bonus by the slope of the results on it over the search's
    /// playouts (here wins exactly when the margin is positive: a slope near 0.6), where form 1
    /// weights it 0.3; before the warm-up both give 0.3.
    #[test]
    fn form_2_weights_the_margin_bonus_by_the_playouts_slope() {
        let g = Trigon::new(&TrigonOptions { variant: Variant::Two }).unwrap();
        let (mut fixed, mut estimated) = (RewardStats::with_form(1), RewardStats::with_form(2));
        let mut early = None;
        for k in 0..400 {
            let outcome = Outcome::from_scores(&[150 + (k % 81) - 40, 150]);
            let (r1, r2) = (g.margin_reward(&outcome, &mut fixed), g.margin_reward(&outcome, &mut estimated));
            if k == 50 {
                early = Some((r1[0], r2[0]));
            }
        }
        let (r1, r2) = early.unwrap();
        assert!((r1 - r2).abs() < 1e-6, "before the warm-up: {r1} against {r2}");
        let outcome = Outcome::from_scores(&[170, 150]);
        let (r1, r2) = (g.margin_reward(&outcome, &mut fixed)[0], g.margin_reward(&outcome, &mut estimated)[0]);
        let bonus = (r1 - 1.0) / MARGIN_WEIGHT;
        let slope = estimated.2[0].slope() as f32;
        assert!(bonus > 0.3, "a win by 20 gets a bonus: {bonus}");
        assert!((0.45..0.9).contains(&slope), "slope {slope}");
        assert!((r2 - 1.0 - slope * bonus).abs() < 1e-4, "{r2} against 1 + {slope} · {bonus}");
        assert_eq!(estimated.2[0].count(), 401.0);
    }
}
