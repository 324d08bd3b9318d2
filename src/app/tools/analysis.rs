//! *Analyze game* in the app: the search over every position of the game's line
//! ([`crate::ai::Analyzer`]), run by the app's one background runner ([`crate::app::runner`]: a
//! task thread on the desktop, all cores; slices of a frame in the browser), with its progress for
//! the panel; cancellable. When it ends, the analysis goes to
//! the model ([`Analysed`]), which keeps it in the record and draws it as the win-rate graph and
//! the mistakes of the move list.

use bevy::prelude::*;

use crate::ai::analysis::THRESHOLD;
use crate::ai::{Analyzer, SearchConfig, available_threads, record_analysis};
use crate::app::flow::{Analysed, Step};
use crate::app::games::AppGame;
use crate::app::model::Model;
use crate::app::runner::{AiRunner, Background};

/// The analysis in progress, if any: one resource per game type.
#[derive(Resource)]
pub struct Analyzing<G: AppGame> {
    job: Option<Job<G>>,
}

impl<G: AppGame> Default for Analyzing<G> {
    fn default() -> Self {
        Analyzing { job: None }
    }
}

struct Job<G: AppGame> {
    start: G,
    line: Vec<G::Move>,
    simulations: u64,
    work: Background<Analyzer<G>>,
}

impl<G: AppGame> Analyzing<G> {
    /// Starts the analysis of `model`'s whole line (the moves played and those ahead in review),
    /// `simulations` per position, replacing one in progress. The searches' seed is fixed, so the
    /// same line and threads give the same analysis.
    pub fn start(&mut self, model: &Model<G>, simulations: u64, runner: AiRunner) {
        self.job = None;
        let line = model.line();
        let threads = if runner == AiRunner::Thread { available_threads() } else { 1 };
        let config = SearchConfig { seed: 0, threads, ..SearchConfig::default() };
        let analyzer = Analyzer::new(model.start(), &line, simulations, &config, THRESHOLD);
        let work = Background::start(analyzer, runner);
        self.job = Some(Job { start: model.start().clone(), line, simulations, work });
    }

    /// Stops the analysis in progress; nothing is kept.
    pub fn cancel(&mut self) {
        self.job = None;
    }

    /// `(moves in the line, share done in [0, 1])` while an analysis runs.
    pub fn progress(&self) -> Option<(usize, f32)> {
        let job = self.job.as_ref()?;
        Some((job.line.len(), job.work.fraction()))
    }
}

pub(super) fn game_plugin<G: AppGame>(app: &mut App) {
    app.init_resource::<Analyzing<G>>()
        .add_systems(Update, drive::<G>.in_set(Step::Intents))
        .add_systems(Update, stop_without_model::<G>.run_if(not(resource_exists::<Model<G>>)));
}

fn stop_without_model<G: AppGame>(mut analyzing: ResMut<Analyzing<G>>) {
    if analyzing.job.is_some() {
        analyzing.job = None;
    }
}

/// Polls the thread, or runs this frame's slice; a finished analysis goes to the model.
fn drive<G: AppGame>(mut analyzing: ResMut<Analyzing<G>>, mut done: MessageWriter<Analysed<G::Move>>) {
    let Some(job) = analyzing.job.as_mut() else { return };
    let Some(analyzer) = job.work.poll() else { return };
    let analysed = analyzer.into_analysed();
    let analysis = record_analysis(&job.start, &analysed, job.simulations, THRESHOLD);
    let line = job.line[..analysed.len()].to_vec();
    done.write(Analysed { analysis, line });
    analyzing.job = None;
}
