//! `triboard learn GAME RECORD… [--out FILE]`: learns a game's move-feature weights
//! (`rules::features`, each game's in its rules module) from the moves of game records, by
//! softmax regression (`ai::learn`). The last `--holdout` share of the records is kept out of the
//! fit and measures it: mean log-likelihood and how often the most probable move is the one
//! played, beside the same for the game's hand-set priors and for a uniform choice.
//!
//! The data are records of strong play: `triboard match --record DIR` games between Pentobi
//! engines (Trigon), or `triboard selfplay GAME --record DIR` games at a deep budget. With
//! `--search SIMS` (expert iteration) the target of every `--every`-th position is not the move
//! played but the root visit shares of our own search of SIMS simulations there, with the weights
//! in force (the built-in ones, or `--weights FILE`).

use std::io::Write;
use std::path::{Path, PathBuf};

use clap::Args;
use serde_json::{Value, json};

use super::error::CliError;
use super::games::{GameTask, with_game};
use super::records::read_record_file;
use std::time::Duration;

use crate::ai::learn::{Fitness, LearnData};
use crate::ai::{Budget, Mcts, SearchConfig};
use crate::rules::Knowledge;
use crate::rules::features::Weights;

/// Arguments of `triboard learn`.
#[derive(Args, Debug, Clone)]
pub struct LearnArgs {
    #[arg(help = super::games::game_id_help())]
    pub game: String,
    /// Records of that game (`.json`, or Pentobi's `.blksgf` for Trigon), or directories of them.
    #[arg(required = true)]
    pub records: Vec<PathBuf>,
    /// Where to write the weights file (`--weights FILE` of `gtp`, `selfplay` and `match` reads it).
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
    /// Expert iteration: each position's target is the root visit shares of a search of this
    /// many simulations (one tree per `--threads`), not the move played.
    #[arg(long, value_name = "SIMS")]
    pub search: Option<u64>,
    /// With `--search`: search every this many plies of each record (1: every position).
    #[arg(long, default_value_t = 1, value_name = "PLIES")]
    pub every: usize,
    /// With `--search`: the search's threads, the simulations shared among them.
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
    /// Multiplies the weights written to `--out` (a game that divides its logits by a temperature,
    /// as Trigon's prior-led search by 2, gets the fitted distribution back with that factor).
    #[arg(long, default_value_t = 1.0)]
    pub scale: f64,
    /// The move weights the searches use (`--search`), instead of the built-in ones.
    #[arg(long, value_name = "FILE")]
    pub weights: Option<PathBuf>,
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

/// Reads one record of game `G`: its start and moves.
fn read_record<G: Knowledge>(path: &Path) -> Result<(G, Vec<G::Move>), CliError> {
    let (record, _) = read_record_file(path)?;
    let (start, _, moves) = record.replay::<G>().map_err(|e| CliError::failure(format!("{}: {e}", path.display())))?;
    Ok((start, moves))
}

/// Runs `triboard learn`.
///
/// # Errors
/// Bad options or a game without move features (usage); an unreadable or illegal record, no
/// positions, an unwritable output file (failures, naming the file).
pub fn run(args: &LearnArgs, out: &mut dyn Write) -> Result<Value, CliError> {
    if !(0.0..1.0).contains(&args.holdout) {
        return Err(CliError::usage("--holdout must be at least 0 and below 1"));
    }
    if !(args.l2 >= 0.0 && args.l2.is_finite()) {
        return Err(CliError::usage("--l2 must be a non-negative number"));
    }
    if !(args.scale > 0.0 && args.scale.is_finite()) {
        return Err(CliError::usage("--scale must be a positive number"));
    }
    if args.every == 0 || args.threads == 0 || args.search == Some(0) {
        return Err(CliError::usage("--search, --every and --threads must be at least 1"));
    }
    with_game(&args.game, Learn { args, out })?
}

/// `learn` with the game type chosen.
struct Learn<'a> {
    args: &'a LearnArgs,
    out: &'a mut dyn Write,
}

impl GameTask for Learn<'_> {
    type Output = Result<Value, CliError>;

    fn run<G: Knowledge>(self, id: &str) -> Self::Output {
        let (args, out) = (self.args, self.out);
        let cell =
            G::feature_weights().ok_or_else(|| CliError::usage(format!("{id} has no move features to learn")))?;
        if let Some(path) = &args.weights {
            super::ai_flags::install_weights::<G>(path)?;
        }
        let set = cell.set();
        let files = record_files(&args.records)?;
        let held_out_files = (files.len() as f64 * args.holdout).round() as usize;
        let fit_files = files.len() - held_out_files;
        let mut data = LearnData::new(set.groups.len(), set.len(), SearchConfig::default().policy_sharpness);
        let mut split = 0;
        for (k, file) in files.iter().enumerate() {
            if k == fit_files {
                split = data.positions();
            }
            let (start, moves) = read_record::<G>(file)?;
            match args.search {
                None => data.add_game(&start, &moves),
                Some(sims) => searched_targets(&mut data, &start, &moves, sims, args),
            }
            .map_err(|e| CliError::failure(format!("{}: {e}", file.display())))?;
            if args.search.is_some() {
                writeln!(out, "{}: {} positions searched so far", file.display(), data.positions())?;
            }
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
            "{fit_files} records, {split} positions ({} moves) to fit, {} positions held out",
            data.moves(),
            test.len()
        )?;
        let mut lines = Vec::new();
        let w = data.fit(fit.clone(), args.iterations, args.l2, &mut |step, f| {
            lines.push(format!(
                "iteration {step}: log-likelihood {:.4}, most probable move played {:.1} %",
                f.log_likelihood,
                f.first * 100.0
            ));
        });
        for line in lines {
            writeln!(out, "{line}")?;
        }
        let measure = |f: Fitness| json!({ "log_likelihood": f.log_likelihood, "first": f.first });
        let part = |range: std::ops::Range<usize>| {
            json!({
                "positions": range.len(),
                "learned": measure(data.evaluate(&w, range.clone(), None)),
                "hand": measure(data.hand(range.clone())),
                "uniform": measure(data.uniform(range)),
            })
        };
        let mut measures =
            json!({ "game": id, "records": files.len(), "fit": part(fit), "held_out": part(test.clone()) });
        if let Some(sims) = args.search {
            measures["search"] = json!({ "simulations": sims, "every": args.every, "scale": args.scale });
        }
        if !test.is_empty() {
            let (learned, hand, uniform) =
                (data.evaluate(&w, test.clone(), None), data.hand(test.clone()), data.uniform(test));
            writeln!(
                out,
                "held out: log-likelihood {:.4} (hand-set priors {:.4}, uniform {:.4}); the most probable move was played in {:.1} % (hand-set priors {:.1} %)",
                learned.log_likelihood,
                hand.log_likelihood,
                uniform.log_likelihood,
                learned.first * 100.0,
                hand.first * 100.0
            )?;
        }
        let weights = Weights(w.iter().map(|&x| (x * args.scale) as f32).collect());
        let mut strongest: Vec<usize> = (0..set.len()).collect();
        strongest.sort_by(|&a, &b| w[b].abs().total_cmp(&w[a].abs()));
        let top: Vec<String> = strongest.iter().take(8).map(|&f| format!("{} {:+.2}", set.name(f), w[f])).collect();
        writeln!(out, "strongest weights: {}", top.join(", "))?;
        if let Some(path) = &args.out {
            std::fs::write(path, weights.to_json(set, measures.clone()) + "\n")
                .map_err(|e| CliError::failure(format!("cannot write {}: {e}", path.display())))?;
            writeln!(out, "weights written to {}", path.display())?;
        }
        Ok(measures)
    }
}

/// Expert iteration's targets for one record: from `start`, every `args.every`-th position of
/// `moves` with a choice gets the root visit shares of a search of `sims` simulations.
///
/// # Errors
/// A move that is not legal where it is played (its ply).
fn searched_targets<G: Knowledge>(
    data: &mut LearnData,
    start: &G,
    moves: &[G::Move],
    sims: u64,
    args: &LearnArgs,
) -> Result<(), String> {
    data.add_game_with(start, moves, |ply, game, legal, _| {
        if ply % args.every != 0 {
            return None;
        }
        let config = SearchConfig { threads: args.threads, seed: 0x5eed ^ ply as u64, ..SearchConfig::default() };
        let mut search = Mcts::new(game, config);
        search.run(Budget { simulations: sims, max_time: Duration::from_secs(3600) });
        let shares = search
            .root_children()
            .iter()
            .filter_map(|c| legal.iter().position(|&m| m == c.mv).map(|i| (i as u32, f64::from(c.visits))))
            .collect();
        Some(shares)
    })
}
