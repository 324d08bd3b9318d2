//! The AI: when an AI seat is to move, a search runs — on the desktop on Bevy's
//! `AsyncComputeTaskPool` (the task owns the [`Mcts`]; the frame only polls it), in the browser,
//! which has no threads, in slices of at most [`AiRunner::Slices`]'s length per frame through the
//! search's anytime interface. "Move now" stops it early; any change of the model (undo, load, new
//! game) stops it and drops its result. A level's budget is the same either way: its time cap counts
//! the time spent searching, so a sliced search is as strong, only slower.
//!
//! On the desktop the search runs on all the machine's cores ([`available_threads`]: one tree per
//! thread, `ai::mcts`), each at a lowered priority. After its move the search is kept, and the next
//! AI turn continues it below the moves played since (tree reuse) when the game went on from it
//! (not after an undo, a load or a new game). When the solver proves the position, the panel says
//! who wins and within how many plies.

use std::time::Duration;

use bevy::prelude::*;
use bevy::tasks::futures::check_ready;
use bevy::tasks::{AsyncComputeTaskPool, Task};
use web_time::Instant;

use super::Screen;
use super::games::AppGame;
use super::model::{Model, MoveIntent, Step};
use crate::ai::{Level, Mcts, Proof, SearchConfig, SearchHandle, available_threads};

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

/// A finished search kept for tree reuse, and the moves from the start to its root.
type Kept<G> = (Box<Mcts<G>>, Vec<<G as crate::rules::Game>::Move>);

/// The search in progress, if any, and the last one kept for tree reuse: one resource per game
/// type.
#[derive(Resource)]
pub struct AiSearch<G: AppGame> {
    running: Option<Running<G>>,
    /// The last finished search, advanced by its own move, with the moves from the start to its
    /// root.
    kept: Option<Kept<G>>,
    /// What the solver proved at the last AI move: the panel's line, and the number of moves
    /// played when it holds (right after that move).
    verdict: Option<(usize, String)>,
}

impl<G: AppGame> Default for AiSearch<G> {
    fn default() -> Self {
        AiSearch { running: None, kept: None, verdict: None }
    }
}

/// A finished search: its move (`None`: the game had none) and the search itself, kept for reuse.
type Found<G> = (Option<<G as crate::rules::Game>::Move>, Box<Mcts<G>>);

/// Where a search runs.
enum Work<G: AppGame> {
    Thread(Task<Found<G>>),
    Sliced { mcts: Option<Box<Mcts<G>>>, per_frame: Duration, searched: Duration },
}

struct Running<G: AppGame> {
    work: Work<G>,
    handle: SearchHandle,
    level: Level,
    revision: u64,
    started: Instant,
    /// The moves from the start to the search's root.
    line: Vec<G::Move>,
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

    /// What the solver proved when the AI last moved, while the game is still right after that
    /// move (`moves` is the number of moves played now): e.g. "Solved: Black (AI level 3) wins
    /// within 7 more plies".
    pub fn verdict(&self, moves: usize) -> Option<&str> {
        self.verdict.as_ref().filter(|(at, _)| *at == moves).map(|(_, text)| text.as_str())
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
            if r.found.is_none()
                && let Some((found, mcts)) = r.work.poll(r.level)
            {
                r.found = Some(found);
                let mut line = std::mem::take(&mut r.line);
                let verdict = found.and_then(|_| verdict_text(&mcts, &model));
                let mut mcts = mcts;
                if let Some(mv) = found {
                    mcts.advance(mv);
                    line.push(mv);
                }
                search.verdict = verdict.map(|text| (line.len(), text));
                search.kept = Some((mcts, line));
            }
            let r = search.running.as_mut().expect("still running");
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
    let line = model.moves.clone();
    let mcts = match search.kept.take() {
        // Tree reuse: the game went on from the kept search's root.
        Some((mut mcts, root_line)) if line.starts_with(&root_line) && mcts.root().options() == game.options() => {
            for &mv in &line[root_line.len()..] {
                mcts.advance(mv);
            }
            mcts
        }
        _ => {
            let threads = if *runner == AiRunner::Thread { available_threads() } else { 1 };
            let seed = 0x7121_b0a2d ^ (game.ply() as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15);
            Box::new(Mcts::new(&game, SearchConfig { seed, threads, ..default() }))
        }
    };
    mcts.resume();
    let handle = mcts.handle();
    let work = match *runner {
        AiRunner::Thread => {
            let budget = level.budget();
            let mut mcts = mcts;
            Work::Thread(AsyncComputeTaskPool::get().spawn(async move {
                lower_priority();
                mcts.run(budget);
                (mcts.best_move().or_else(|| first_legal(&game)), mcts)
            }))
        }
        AiRunner::Slices(per_frame) => Work::Sliced { mcts: Some(mcts), per_frame, searched: Duration::ZERO },
    };
    search.running =
        Some(Running { work, handle, level, revision: model.revision, started: Instant::now(), line, found: None });
}

/// The panel's line when the search proved its root: who wins, within how many plies after the
/// AI's move.
fn verdict_text<G: AppGame>(mcts: &Mcts<G>, model: &Model<G>) -> Option<String> {
    let seat = model.game.to_move()?;
    let name = format!("{} ({})", model.game.player_name(seat), model.seats[seat.index()].label());
    Some(match mcts.proof()? {
        Proof::Win(plies) => format!("Solved: {name} wins within {} more plies", plies.saturating_sub(1)),
        Proof::Loss(plies) => format!("Solved: {name} loses, whatever it plays, within {plies} plies"),
    })
}

/// Lowers the calling thread's scheduling priority (Linux: nice 10), so that on a busy machine the
/// threads that draw the frame get the CPU first and the search takes what is left: the window
/// stays smooth while the AI thinks. The pool's threads only ever run searches, so it stays lowered;
/// the search's own threads, started from it, inherit it (Linux keeps a nice value per thread).
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
    fn poll(&mut self, level: Level) -> Option<Found<G>> {
        match self {
            Work::Thread(task) => check_ready(task),
            Work::Sliced { mcts: slot, per_frame, searched } => {
                let mcts = slot.as_mut()?;
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
                if !done {
                    return None;
                }
                let mcts = slot.take()?;
                Some((mcts.best_move().or_else(|| first_legal(mcts.root())), mcts))
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
