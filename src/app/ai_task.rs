//! The AI: when an AI seat is to move, a search runs — on the desktop on Bevy's
//! `AsyncComputeTaskPool` (the task owns the [`Mcts`]; the frame only polls it), in the browser,
//! which has no threads, in slices of at most [`AiRunner::Slices`]'s length per frame through the
//! search's anytime interface. "Move now" stops it early; any change of the model (undo, load, new
//! game) stops it and drops its result. A level's budget is the same either way: its time cap counts
//! the time spent searching, so a sliced search is as strong, only slower.

use std::time::Duration;

use bevy::prelude::*;
use bevy::tasks::futures::check_ready;
use bevy::tasks::{AsyncComputeTaskPool, Task};
use web_time::Instant;

use super::Screen;
use super::games::AppGame;
use super::model::{Model, MoveIntent, Step};
use crate::ai::{Level, Mcts, SearchConfig, SearchHandle};

/// A found move is held at least this long after the search began, so the previous move's
/// animation is seen before the reply lands.
const MIN_SHOW: Duration = Duration::from_millis(350);

/// How the search runs.
#[derive(Resource, Clone, Copy, Debug, PartialEq, Eq)]
pub enum AiRunner {
    /// On a task thread (the desktop).
    Thread,
    /// In the frame, at most this long per frame (the browser).
    Slices(Duration),
}

impl Default for AiRunner {
    /// Threads where there are threads; 8 ms slices in the browser.
    fn default() -> Self {
        if cfg!(target_arch = "wasm32") { AiRunner::Slices(Duration::from_millis(8)) } else { AiRunner::Thread }
    }
}

/// True while an AI search runs for the game in play, whatever its type (the page's state reads it).
#[derive(Resource, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct AiThinking(pub bool);

/// The search in progress, if any: one resource per game type.
#[derive(Resource)]
pub struct AiSearch<G: AppGame> {
    running: Option<Running<G>>,
}

impl<G: AppGame> Default for AiSearch<G> {
    fn default() -> Self {
        AiSearch { running: None }
    }
}

/// Where a search runs.
enum Work<G: AppGame> {
    Thread(Task<Option<G::Move>>),
    Sliced { mcts: Box<Mcts<G>>, per_frame: Duration, searched: Duration },
}

struct Running<G: AppGame> {
    work: Work<G>,
    handle: SearchHandle,
    level: Level,
    revision: u64,
    started: Instant,
    found: Option<Option<G::Move>>,
}

// Dropping a search (undo, new game, quitting) stops its thread's work too, not only the task.
impl<G: AppGame> Drop for Running<G> {
    fn drop(&mut self) {
        self.handle.stop();
    }
}

impl<G: AppGame> AiSearch<G> {
    /// `(level, simulations done, fraction of the budget used)` while a search runs. The fraction
    /// is the larger of the simulation and the time share.
    pub fn progress(&self) -> Option<(Level, u64, f32)> {
        let r = self.running.as_ref()?;
        let budget = r.level.budget();
        let sims = r.handle.simulations();
        let by_sims = sims as f32 / budget.simulations as f32;
        let searched = match &r.work {
            Work::Thread(_) => r.started.elapsed(),
            Work::Sliced { searched, .. } => *searched,
        };
        let by_time = searched.as_secs_f32() / budget.max_time.as_secs_f32();
        Some((r.level, sims, by_sims.max(by_time).min(1.0)))
    }

    /// True while a search runs.
    pub fn is_thinking(&self) -> bool {
        self.running.is_some()
    }

    /// "Move now": the search stops and its best move so far is played.
    pub fn move_now(&self) {
        if let Some(r) = &self.running {
            r.handle.stop();
        }
    }
}

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<AiRunner>()
        .init_resource::<AiThinking>()
        .add_systems(OnExit(Screen::Playing), |mut thinking: ResMut<AiThinking>| thinking.0 = false);
}

/// The AI's systems for one game type (called by the registry for every game).
pub(super) fn game_plugin<G: AppGame>(app: &mut App) {
    app.init_resource::<AiSearch<G>>()
        .add_systems(Update, drive::<G>.in_set(Step::Intents))
        .add_systems(
            Update,
            (|search: Res<AiSearch<G>>, mut thinking: ResMut<AiThinking>| {
                thinking.set_if_neq(AiThinking(search.is_thinking()));
            })
            .after(Step::View)
            .run_if(resource_exists::<Model<G>>),
        )
        .add_systems(Update, cancel_stale::<G>.in_set(Step::View))
        .add_systems(Update, cancel_without_model::<G>.run_if(not(resource_exists::<Model<G>>)));
}

fn cancel_without_model<G: AppGame>(mut search: ResMut<AiSearch<G>>) {
    if let Some(r) = search.running.take() {
        r.handle.stop();
    }
}

/// Undo, load or a new game while thinking: stop the search in the frame the model changed.
fn cancel_stale<G: AppGame>(model: Option<Res<Model<G>>>, mut search: ResMut<AiSearch<G>>) {
    if let (Some(model), Some(r)) = (model, &search.running)
        && r.revision != model.revision
    {
        r.handle.stop();
        search.running = None;
    }
}

/// Starts, polls (or runs a slice of), cancels and finishes the search.
fn drive<G: AppGame>(
    model: Option<Res<Model<G>>>,
    runner: Res<AiRunner>,
    mut search: ResMut<AiSearch<G>>,
    mut intents: MessageWriter<MoveIntent<G::Move>>,
) {
    let Some(model) = model else { return };
    if let Some(r) = &mut search.running {
        if r.revision != model.revision {
            // Undo, load or a new game while thinking: cancel and forget the result.
            r.handle.stop();
            search.running = None;
        } else {
            if r.found.is_none() {
                r.found = r.work.poll(r.level);
            }
            if let Some(found) = r.found
                && r.started.elapsed() >= MIN_SHOW
            {
                if let Some(mv) = found {
                    intents.write(MoveIntent { mv, from_ai: true });
                }
                search.running = None;
            }
            return;
        }
    }
    let Some(level) = model.ai_to_move() else { return };
    let game = model.game.clone();
    let config =
        SearchConfig { seed: 0x7121_b0a2d ^ (game.ply() as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15), ..default() };
    let mut mcts = Mcts::new(&game, config);
    let handle = mcts.handle();
    let work = match *runner {
        AiRunner::Thread => {
            let budget = level.budget();
            Work::Thread(AsyncComputeTaskPool::get().spawn(async move {
                lower_priority();
                mcts.run(budget);
                mcts.best_move().or_else(|| first_legal(&game))
            }))
        }
        AiRunner::Slices(per_frame) => Work::Sliced { mcts: Box::new(mcts), per_frame, searched: Duration::ZERO },
    };
    search.running =
        Some(Running { work, handle, level, revision: model.revision, started: Instant::now(), found: None });
}

/// Lowers the calling thread's scheduling priority (Linux: nice 10), so that on a busy machine the
/// threads that draw the frame get the CPU first and the search takes what is left: the window
/// stays smooth while the AI thinks. The pool's threads only ever run searches, so it stays lowered.
fn lower_priority() {
    #[cfg(target_os = "linux")]
    // SAFETY: setpriority only reads its arguments; it changes the scheduling of this thread.
    unsafe {
        libc::setpriority(libc::PRIO_PROCESS, libc::gettid() as libc::id_t, 10);
    }
}

/// Simulations between two looks at the clock in a slice (well under a millisecond).
const SLICE_STEP: u64 = 32;

impl<G: AppGame> Work<G> {
    /// The search's move once it is done (`Some(None)`: the game had no move); a sliced search
    /// first runs its slice for this frame.
    fn poll(&mut self, level: Level) -> Option<Option<G::Move>> {
        match self {
            Work::Thread(task) => check_ready(task),
            Work::Sliced { mcts, per_frame, searched } => {
                let budget = level.budget();
                let start = Instant::now();
                let left = budget.max_time.saturating_sub(*searched).min(*per_frame);
                // A step that runs nothing: stopped, or nothing to search.
                let mut halted = false;
                while !halted && mcts.simulations() < budget.simulations && start.elapsed() < left {
                    halted = mcts.step(SLICE_STEP.min(budget.simulations - mcts.simulations())) == 0;
                }
                *searched += start.elapsed();
                let done = halted || mcts.simulations() >= budget.simulations || *searched >= budget.max_time;
                done.then(|| mcts.best_move().or_else(|| first_legal(mcts.root())))
            }
        }
    }
}

/// A legal move for a search stopped before its first simulation.
fn first_legal<G: AppGame>(game: &G) -> Option<G::Move> {
    let mut moves = Vec::new();
    game.legal_moves(&mut moves);
    moves.first().copied()
}
