//! *Analyze game* in the app: the search over every position of the game's line
//! ([`crate::ai::Analyzer`]), on a task thread on the desktop (all cores) or in slices of a frame
//! in the browser, with its progress for the panel; cancellable. When it ends, the analysis goes to
//! the model ([`Analysed`]), which keeps it in the record and draws it as the win-rate graph and
//! the mistakes of the move list.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use std::time::Duration;

use bevy::prelude::*;
use bevy::tasks::futures::check_ready;
use bevy::tasks::{AsyncComputeTaskPool, Task};
use web_time::Instant;

use crate::ai::analysis::THRESHOLD;
use crate::ai::{Analyzer, MoveAnalysis, SearchConfig, available_threads, record_analysis};
use crate::app::ai_task::AiRunner;
use crate::app::flow::{Analysed, Step};
use crate::app::games::AppGame;
use crate::app::model::Model;

/// Simulations between two looks at the clock in a slice.
const SLICE_STEP: u64 = 32;
/// Simulations per round on a task thread, between two looks at Cancel.
const THREAD_STEP: u64 = 8_192;

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
    work: Work<G>,
}

enum Work<G: AppGame> {
    Thread { task: Task<Vec<MoveAnalysis<G::Move>>>, fraction: Arc<AtomicU32>, cancel: Arc<AtomicBool> },
    Sliced { analyzer: Box<Analyzer<G>>, per_frame: Duration },
}

impl<G: AppGame> Drop for Job<G> {
    fn drop(&mut self) {
        if let Work::Thread { cancel, .. } = &self.work {
            cancel.store(true, Ordering::Relaxed);
        }
    }
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
        let mut analyzer = Box::new(Analyzer::new(model.start(), &line, simulations, &config, THRESHOLD));
        let work = match runner {
            AiRunner::Thread => {
                let fraction = Arc::new(AtomicU32::new(0));
                let cancel = Arc::new(AtomicBool::new(false));
                let (f, c) = (fraction.clone(), cancel.clone());
                let task = AsyncComputeTaskPool::get().spawn(async move {
                    crate::app::ai_task::lower_priority();
                    while !analyzer.is_done() && !c.load(Ordering::Relaxed) {
                        analyzer.step(THREAD_STEP);
                        f.store(analyzer.fraction().to_bits(), Ordering::Relaxed);
                    }
                    analyzer.into_analysed()
                });
                Work::Thread { task, fraction, cancel }
            }
            AiRunner::Slices(per_frame) => Work::Sliced { analyzer, per_frame },
        };
        self.job = Some(Job { start: model.start().clone(), line, simulations, work });
    }

    /// Stops the analysis in progress; nothing is kept.
    pub fn cancel(&mut self) {
        self.job = None;
    }

    /// `(moves in the line, share done in [0, 1])` while an analysis runs.
    pub fn progress(&self) -> Option<(usize, f32)> {
        let job = self.job.as_ref()?;
        let fraction = match &job.work {
            Work::Thread { fraction, .. } => f32::from_bits(fraction.load(Ordering::Relaxed)),
            Work::Sliced { analyzer, .. } => analyzer.fraction(),
        };
        Some((job.line.len(), fraction))
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
    let finished = match &mut job.work {
        Work::Thread { task, .. } => check_ready(task),
        Work::Sliced { analyzer, per_frame } => {
            let began = Instant::now();
            while !analyzer.is_done() && began.elapsed() < *per_frame {
                analyzer.step(SLICE_STEP);
            }
            analyzer.is_done().then(|| analyzer.take_analysed())
        }
    };
    let Some(analysed) = finished else { return };
    let analysis = record_analysis(&job.start, &analysed, job.simulations, THRESHOLD);
    let line = job.line[..analysed.len()].to_vec();
    done.write(Analysed { analysis, line });
    analyzing.job = None;
}
