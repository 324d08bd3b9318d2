//! The AI: when an AI seat is to move, a search runs in the background ([`super::runner`]: on the
//! desktop a task of Bevy's `AsyncComputeTaskPool` that owns the search, the frame only polls it; in
//! the browser, which has no threads, in slices of at most [`AiRunner::Slices`]'s length per frame),
//! as a [`Budgeted`] search, the [`Engine`] keeping it for reuse. "Move now" stops it early; any change of the model (undo, load, new
//! game) stops it and drops its result. A level's budget is the same either way: its time cap counts
//! the time spent searching, so a sliced search is as strong, only slower.
//!
//! On the desktop the search runs on all the machine's cores ([`available_threads`]: one tree per
//! thread, `ai::mcts`), each at a lowered priority. After its move the search is kept, and the next
//! AI turn continues it below the moves played since (tree reuse) when the game went on from it
//! (not after an undo, a load or a new game). When the solver proves the position, the panel says
//! who wins and within how many plies.
//!
//! The same machinery answers a person's **Hint** ([`Command::Hint`], the H key): a search at
//! [`HINT_LEVEL`]'s budget for the person to move, whose best move, win rate and expected line
//! are shown (and drawn on the board) until the position changes. While any search runs, the root
//! moves' simulations are copied out every [`VIEW_EVERY`] ([`AiSearch::root_view`]) for the
//! board's heat map (*Show thinking*).

use std::sync::{Arc, Mutex};
use std::time::Duration;

use bevy::prelude::*;
use web_time::Instant;

use super::flow::Screen;
use super::flow::{Command, MoveIntent, Status, Step};
use super::games::AppGame;
use super::model::Model;
use super::runner::{AiRunner, Background};
use crate::ai::{
    Budgeted, Engine, HINT_LEVEL, Level, Mcts, Proof, RootView, SearchConfig, SearchHandle, Verdict, available_threads,
};
use crate::rules::counted;

/// A found move is held at least this long after the search began, so the previous move's
/// animation is seen before the reply lands.
const MIN_SHOW: Duration = Duration::from_millis(350);

/// How often a running search's root statistics are copied out for the heat map.
pub const VIEW_EVERY: Duration = Duration::from_millis(250);

/// The base of the app's search seeds ([`Engine`] draws each search's from it and the ply).
const SEED: u64 = 0x7121_b0a2d;

/// What a search is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Purpose {
    /// The AI seat's move.
    Play,
    /// A hint for the person to move.
    Hint,
}

/// A hint shown to the person to move: the search's best move in the position it was asked in.
#[derive(Clone, Debug, PartialEq)]
pub struct Hint<M> {
    /// The model revision it holds for (gone once the position changes).
    pub revision: u64,
    /// The move the search prefers.
    pub mv: M,
    /// Its win rate, in `[0, 1]`.
    pub win_rate: f32,
    /// "d4, win rate 62%, expects d4 c3 e5" (and what the solver proved).
    pub text: String,
}

/// True while an AI search runs for the game in play, whatever its type (the page's state reads it).
#[derive(Resource, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct AiThinking(pub bool);

/// The hint shown for the game in play, whatever its type (the page's state reads it): its text.
#[derive(Resource, Clone, Debug, Default, PartialEq, Eq)]
pub struct ShownHint(pub Option<String>);

/// The search in progress, if any, and the last one kept for tree reuse: one resource per game
/// type.
#[derive(Resource)]
pub struct AiSearch<G: AppGame> {
    running: Option<Running<G>>,
    /// The engine: keeps the last finished search (advanced by its own move) for tree reuse; made
    /// at the first search, with the runner's threads.
    engine: Option<Engine<G>>,
    /// What the solver proved at the last AI move: the panel's line, and the number of moves
    /// played when it holds (right after that move).
    verdict: Option<(usize, String)>,
    /// The last hint.
    hint: Option<Hint<G::Move>>,
}

impl<G: AppGame> Default for AiSearch<G> {
    fn default() -> Self {
        AiSearch { running: None, engine: None, verdict: None, hint: None }
    }
}

struct Running<G: AppGame> {
    work: Background<Budgeted<G>>,
    handle: SearchHandle,
    level: Level,
    revision: u64,
    started: Instant,
    /// The moves from the start to the search's root.
    line: Vec<G::Move>,
    found: Option<Option<G::Move>>,
    purpose: Purpose,
    /// The root's statistics, copied out every [`VIEW_EVERY`].
    view: Arc<Mutex<RootView<G::Move>>>,
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
        // A thread's share as of its last round, or, counted live, the time it has had.
        let by_time = match &r.work {
            Background::Thread { .. } => r.started.elapsed().as_secs_f32() / budget.max_time.as_secs_f32(),
            Background::Sliced { .. } => 0.0,
        };
        Some((r.level, sims, by_sims.max(by_time).max(r.work.fraction()).min(1.0)))
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

    /// What the running search is for, if one runs.
    pub fn purpose(&self) -> Option<Purpose> {
        self.running.as_ref().map(|r| r.purpose)
    }

    /// The running search's root moves as last copied out (refreshed every [`VIEW_EVERY`]);
    /// `None` while no search runs.
    pub fn root_view(&self) -> Option<RootView<G::Move>> {
        let r = self.running.as_ref()?;
        Some(r.view.lock().map(|v| v.clone()).unwrap_or_default())
    }

    /// The hint for the position of revision `revision`, if one was found there.
    pub fn hint(&self, revision: u64) -> Option<&Hint<G::Move>> {
        self.hint.as_ref().filter(|h| h.revision == revision)
    }

    /// Starts a search at `level`'s budget for `purpose` in `model`'s position, the engine's kept
    /// search continued where the game went on from it.
    fn start(&mut self, model: &Model<G>, level: Level, purpose: Purpose, runner: AiRunner) {
        let game = model.game();
        let line = model.moves().to_vec();
        let threads = if runner == AiRunner::Thread { available_threads() } else { 1 };
        let engine = self.engine.get_or_insert_with(|| Engine::new(SearchConfig { seed: SEED, threads, ..default() }));
        let mcts = engine.search_for(game, &line, game.ply() as u64);
        let handle = mcts.handle();
        let view = Arc::new(Mutex::new(mcts.root_children()));
        let work = Background::start(Budgeted::new(mcts, level.budget()).with_view(view.clone(), VIEW_EVERY), runner);
        let revision = model.revision();
        let started = Instant::now();
        self.running = Some(Running { work, handle, level, revision, started, line, found: None, purpose, view });
    }

    /// Takes in the running search once done: a hint is kept and the search ends; a move is held
    /// for [`MIN_SHOW`] ([`Running::found`]), with what the solver proved. The engine keeps the
    /// search (after its move).
    fn finish(&mut self, mcts: Box<Mcts<G>>, model: &Model<G>) {
        let r = self.running.as_mut().expect("a search was running");
        let found = mcts.best_move().or_else(|| first_legal(mcts.root()));
        r.found = Some(found);
        let line = std::mem::take(&mut r.line);
        let engine = self.engine.as_mut().expect("a search ran, so its engine exists");
        if r.purpose == Purpose::Hint {
            let revision = r.revision;
            self.hint = found.map(|mv| hint_of(&mcts, mv, revision));
            engine.keep(mcts, line);
            self.running = None;
            return;
        }
        let verdict = found.and_then(|_| verdict_text(&mcts, model));
        let plies = line.len() + usize::from(found.is_some());
        self.verdict = verdict.map(|text| (plies, text));
        match found {
            Some(mv) => engine.keep_after(mcts, line, mv),
            None => engine.keep(mcts, line),
        }
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
        .init_resource::<ShownHint>()
        .add_systems(OnExit(Screen::Playing), |mut thinking: ResMut<AiThinking>| thinking.0 = false);
}

/// The AI's systems for one game type (called by the registry for every game).
pub(super) fn game_plugin<G: AppGame>(app: &mut App) {
    app.init_resource::<AiSearch<G>>()
        .add_systems(Update, drive::<G>.in_set(Step::Intents))
        .add_systems(
            Update,
            (|search: Res<AiSearch<G>>,
              model: Res<Model<G>>,
              mut thinking: ResMut<AiThinking>,
              mut hint: ResMut<ShownHint>| {
                thinking.set_if_neq(AiThinking(search.is_thinking()));
                hint.set_if_neq(ShownHint(search.hint(model.revision()).map(|h| h.text.clone())));
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
        && r.revision != model.revision()
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
    mut orders: MessageReader<Command>,
    mut status: ResMut<Status>,
) {
    let asked = orders.read().filter(|o| matches!(o, Command::Hint)).count() > 0;
    let Some(model) = model else { return };
    let search = &mut *search;
    if let Some(r) = &mut search.running {
        if r.revision != model.revision() {
            // Undo, load or a new game while thinking: cancel and forget the result.
            r.handle.stop();
            search.running = None;
        } else {
            if r.found.is_none()
                && let Some(done) = r.work.poll()
            {
                search.finish(done.into_search(), &model);
                // The hint's "searching" line, still on the status, says what was found.
                if let Some(hint) = search.hint(model.revision())
                    && let Some(asked) = status.text.strip_suffix(": searching")
                    && asked.starts_with("A hint for ")
                {
                    *status = Status::info(format!("{asked}: {}", hint.text));
                }
            }
            // A move found is sent once it has been held for MIN_SHOW (a hint has ended already).
            if let Some(r) = &search.running
                && let Some(found) = r.found
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
    let (level, purpose) = match model.ai_to_move() {
        Some(level) => (level, Purpose::Play),
        None if asked && model.person_may_move().is_ok() => {
            (Level::new(HINT_LEVEL).expect("the hint's level exists"), Purpose::Hint)
        }
        None => return,
    };
    search.start(&model, level, purpose, *runner);
}

/// The hint of a finished search whose best move is `mv`, its moves written as the move list
/// writes them (Trigon's with their piece, "I6 r15"): "I6 r15, win rate 62%; then L5 c3, P6
/// d4" (commas: the panel's font has no arrow), the replies the search expects after it (five at most), and what the solver proved.
fn hint_of<G: AppGame>(mcts: &Mcts<G>, mv: G::Move, revision: u64) -> Hint<G::Move> {
    let verdict = Verdict { best: Some(mv), ..Verdict::of(mcts) };
    let root = mcts.root();
    let mut text = format!("{}, {}", G::list_text(root, mv), verdict.win_rate_text());
    if verdict.principal_variation.first() == Some(&mv) {
        let mut replay = root.clone();
        let mut then = Vec::new();
        for &m in verdict.principal_variation.iter().take(6) {
            if replay.to_move().is_none() {
                break;
            }
            then.push(G::list_text(&replay, m));
            replay.play_unchecked(m);
        }
        if then.len() > 1 {
            text += &format!("; then {}", then[1..].join(", "));
        }
    }
    if let Some(proof) = verdict.proof_text() {
        text += &format!(" ({proof})");
    }
    Hint { revision, mv, win_rate: verdict.win_rate.unwrap_or(0.5), text }
}

/// The panel's line when the search proved its root: who wins, within how many plies after the
/// AI's move.
fn verdict_text<G: AppGame>(mcts: &Mcts<G>, model: &Model<G>) -> Option<String> {
    let seat = model.game().to_move()?;
    let name = format!("{} ({})", model.game().player_name(seat), model.seat_name(seat.index()));
    Some(match mcts.proof()? {
        Proof::Win(plies) => {
            format!(
                "Solved: {name} wins within {}",
                counted(usize::from(plies.saturating_sub(1)), "more ply", "more plies")
            )
        }
        Proof::Loss(plies) => {
            format!("Solved: {name} loses, whatever it plays, within {}", counted(plies.into(), "ply", "plies"))
        }
    })
}

/// A legal move for a search stopped before its first simulation.
fn first_legal<G: AppGame>(game: &G) -> Option<G::Move> {
    let mut moves = Vec::new();
    game.legal_moves(&mut moves);
    moves.first().copied()
}
