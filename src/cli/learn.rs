//! `triboard learn RECORD… [--out FILE]`: learns the weights of Blokus Trigon's move features
//! (`rules::trigon::features`) from the moves of game records — softmax regression with L2
//! regularisation, fitted by full-batch Adam: every played placement should get a high probability
//! among its position's legal placements. The last `--holdout` share of the records is kept out of
//! the fit and measures it: mean log-likelihood and how often the most probable move is the one
//! played, beside the same for the hand-set priors (`knowledge.rs`) and for a uniform choice.
//!
//! The data are records of strong play, such as `triboard match --record DIR` games between
//! Pentobi engines or `triboard selfplay --record DIR` games at high levels.

use std::io::Write;
use std::path::{Path, PathBuf};

use clap::Args;
use serde_json::{Value, json};

use super::CliError;
use crate::rules::trigon::features::{Active, FEATURES, Weights, feature_name};
use crate::rules::trigon::{Trigon, TrigonMove};
use crate::rules::{Game, Knowledge};

/// Arguments of `triboard learn`.
#[derive(Args, Debug, Clone)]
pub struct LearnArgs {
    /// Trigon records (`.json` or Pentobi's `.blksgf`), or directories of them.
    #[arg(required = true)]
    pub records: Vec<PathBuf>,
    /// Where to write the weights file (`triboard gtp --weights FILE` reads it).
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
    /// Passes of the optimiser over the data.
    #[arg(long, default_value_t = 400)]
    pub iterations: usize,
    /// L2 regularisation, per weight.
    #[arg(long, default_value_t = 1e-3)]
    pub l2: f64,
    /// The share of the records (the last ones) kept out of the fit to measure it.
    #[arg(long, default_value_t = 0.2)]
    pub holdout: f64,
}

/// The positions of the records: for each, its legal placements' features and the one played.
#[derive(Default)]
struct Data {
    /// Every position's moves' features, one after another.
    active: Vec<Active>,
    /// Position `i`'s moves are `active[starts[i]..starts[i + 1]]`.
    starts: Vec<usize>,
    /// The played move's index among its position's moves.
    played: Vec<usize>,
    /// The hand-set priors put the played move first.
    hand_first: Vec<bool>,
}

impl Data {
    fn positions(&self) -> usize {
        self.played.len()
    }

    /// Adds the positions of one record, whose moves are checked by replaying them.
    fn add(&mut self, start: &Trigon, moves: &[TrigonMove]) {
        if self.starts.is_empty() {
            self.starts.push(0);
        }
        let mut game = start.clone();
        let (mut legal, mut active, mut priors) = (Vec::new(), Vec::new(), Vec::new());
        for &mv in moves {
            game.legal_moves(&mut legal);
            if mv != TrigonMove::PASS && legal.len() > 1 {
                let played = legal.iter().position(|&m| m == mv).expect("a replayed move is legal");
                game.move_features(&legal, &mut active);
                game.move_priors(&legal, &mut priors);
                let best = priors.iter().map(|p| p.0).fold(f32::NEG_INFINITY, f32::max);
                let first = priors.iter().position(|p| p.0 == best);
                self.hand_first.push(first == Some(played));
                self.played.push(played);
                self.active.extend_from_slice(&active);
                self.starts.push(self.active.len());
            }
            game.play_unchecked(mv);
        }
    }

    /// Mean log-likelihood of the played moves over positions `range` under `w`, its gradient (if
    /// `grad`), and the share of positions whose most probable move was played.
    fn evaluate(
        &self,
        w: &[f64; FEATURES],
        range: std::ops::Range<usize>,
        mut grad: Option<&mut [f64; FEATURES]>,
    ) -> (f64, f64) {
        let (mut loglik, mut first) = (0.0, 0usize);
        let n = range.len().max(1) as f64;
        let mut logits = Vec::new();
        for i in range {
            let moves = &self.active[self.starts[i]..self.starts[i + 1]];
            logits.clear();
            logits.extend(moves.iter().map(|a| a.iter().map(|&f| w[f as usize]).sum::<f64>()));
            let top = logits.iter().copied().fold(f64::NEG_INFINITY, f64::max);
            let sum: f64 = logits.iter().map(|l| (l - top).exp()).sum();
            let played = self.played[i];
            loglik += logits[played] - top - sum.ln();
            if logits[played] == top && logits.iter().filter(|&&l| l == top).count() == 1 {
                first += 1;
            }
            if let Some(g) = grad.as_deref_mut() {
                for (a, l) in moves.iter().zip(&logits) {
                    let p = (l - top).exp() / sum / n;
                    for &f in a {
                        g[f as usize] -= p;
                    }
                }
                for &f in &moves[played] {
                    g[f as usize] += 1.0 / n;
                }
            }
        }
        (loglik / n, first as f64 / n)
    }

    /// The uniform choice's mean log-likelihood over `range`.
    fn uniform(&self, range: std::ops::Range<usize>) -> f64 {
        let n = range.len().max(1) as f64;
        -range.map(|i| ((self.starts[i + 1] - self.starts[i]) as f64).ln()).sum::<f64>() / n
    }

    /// The share of positions in `range` where the hand-set priors put the played move first.
    fn hand(&self, range: std::ops::Range<usize>) -> f64 {
        let n = range.len().max(1) as f64;
        self.hand_first[range].iter().filter(|&&b| b).count() as f64 / n
    }
}

/// The record files named by `paths` (directories expanded to their `.json` and `.blksgf` files,
/// sorted).
fn record_files(paths: &[PathBuf]) -> Result<Vec<PathBuf>, CliError> {
    let mut files = Vec::new();
    for path in paths {
        if path.is_dir() {
            let entries = std::fs::read_dir(path)
                .map_err(|e| CliError::failure(format!("cannot read {}: {e}", path.display())))?;
            let mut found: Vec<PathBuf> = entries
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.extension().is_some_and(|x| x == "json" || x == "blksgf"))
                .collect();
            found.sort();
            files.extend(found);
        } else {
            files.push(path.clone());
        }
    }
    Ok(files)
}

/// Reads one Trigon record: its start and moves.
fn read_record(path: &Path) -> Result<(Trigon, Vec<TrigonMove>), CliError> {
    let (record, _) = super::read_record_file(path)?;
    let (start, _, moves) =
        record.replay::<Trigon>().map_err(|e| CliError::failure(format!("{}: {e}", path.display())))?;
    Ok((start, moves))
}

/// Runs `triboard learn`.
///
/// # Errors
/// Bad options (usage); an unreadable or illegal record, no positions, an unwritable output file
/// (failures, naming the file).
pub fn run(args: &LearnArgs, out: &mut dyn Write) -> Result<Value, CliError> {
    if !(0.0..1.0).contains(&args.holdout) {
        return Err(CliError::usage("--holdout must be at least 0 and below 1"));
    }
    if !(args.l2 >= 0.0 && args.l2.is_finite()) {
        return Err(CliError::usage("--l2 must be a non-negative number"));
    }
    let files = record_files(&args.records)?;
    let held_out_files = (files.len() as f64 * args.holdout).round() as usize;
    let fit_files = files.len() - held_out_files;
    let mut data = Data::default();
    let mut split = 0;
    for (k, file) in files.iter().enumerate() {
        if k == fit_files {
            split = data.positions();
        }
        let (start, moves) = read_record(file)?;
        data.add(&start, &moves);
    }
    if held_out_files == 0 {
        split = data.positions();
    }
    if split == 0 {
        return Err(CliError::failure("the records hold no position with a choice to learn from"));
    }
    let (fit, test) = (0..split, split..data.positions());
    writeln!(
        out,
        "{} records, {} positions ({} moves) to fit, {} positions held out",
        fit_files,
        split,
        data.starts[split],
        test.len()
    )?;
    // Full-batch Adam on the mean log-likelihood minus the L2 penalty.
    let mut w = [0.0f64; FEATURES];
    let (mut m, mut v) = ([0.0f64; FEATURES], [0.0f64; FEATURES]);
    let (rate, beta1, beta2) = (0.05, 0.9, 0.999);
    for step in 1..=args.iterations {
        let mut grad = [0.0f64; FEATURES];
        let (loglik, first) = data.evaluate(&w, fit.clone(), Some(&mut grad));
        for f in 0..FEATURES {
            let g = grad[f] - args.l2 * w[f];
            m[f] = beta1 * m[f] + (1.0 - beta1) * g;
            v[f] = beta2 * v[f] + (1.0 - beta2) * g * g;
            let (mh, vh) = (m[f] / (1.0 - beta1.powi(step as i32)), v[f] / (1.0 - beta2.powi(step as i32)));
            w[f] += rate * mh / (vh.sqrt() + 1e-8);
        }
        if step == 1 || step % 100 == 0 || step == args.iterations {
            writeln!(
                out,
                "iteration {step}: log-likelihood {loglik:.4}, most probable move played {:.1} %",
                first * 100.0
            )?;
        }
    }
    let (fit_ll, fit_first) = data.evaluate(&w, fit.clone(), None);
    let (test_ll, test_first) = data.evaluate(&w, test.clone(), None);
    let measures = json!({
        "records": files.len(),
        "positions": data.positions(),
        "fit": { "log_likelihood": fit_ll, "first": fit_first, "hand_first": data.hand(fit.clone()), "uniform_log_likelihood": data.uniform(fit) },
        "held_out": { "positions": test.len(), "log_likelihood": test_ll, "first": test_first, "hand_first": data.hand(test.clone()), "uniform_log_likelihood": data.uniform(test.clone()) },
    });
    if !test.is_empty() {
        writeln!(
            out,
            "held out: log-likelihood {test_ll:.4} (uniform {:.4}); the most probable move was played in {:.1} % (hand-set priors {:.1} %)",
            data.uniform(test.clone()),
            test_first * 100.0,
            data.hand(test) * 100.0
        )?;
    }
    let mut weights = Weights::zero();
    for (x, y) in weights.0.iter_mut().zip(&w) {
        *x = *y as f32;
    }
    let mut strongest: Vec<usize> = (0..FEATURES).collect();
    strongest.sort_by(|&a, &b| w[b].abs().total_cmp(&w[a].abs()));
    let top: Vec<String> = strongest.iter().take(8).map(|&f| format!("{} {:+.2}", feature_name(f), w[f])).collect();
    writeln!(out, "strongest weights: {}", top.join(", "))?;
    if let Some(path) = &args.out {
        std::fs::write(path, weights.to_json(measures.clone()) + "\n")
            .map_err(|e| CliError::failure(format!("cannot write {}: {e}", path.display())))?;
        writeln!(out, "weights written to {}", path.display())?;
    }
    Ok(measures)
}
