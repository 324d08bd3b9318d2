//! The server's AI bots at the board (`docs/design.md` §Lobby): one connection of the service
//! thread's hub, like a player's, whose answers come here instead of a socket. A seat given to a
//! bot (a `create` with `bots`, or found again after a restart) is synced with its token, so the
//! bot follows the game; whenever a bot seat is to move, its search runs on a bounded pool of
//! threads ([`BotPool`]) and the move is sent like a player's `move`. A bot plays live games within
//! its clock (a search is capped at a thirtieth of its time left) and correspondence games alike.

use std::collections::{HashMap, HashSet};
use std::sync::mpsc as std_mpsc;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use super::bot_move::{bot_level, bot_move};
use super::connection::{ConnId, Event};
use super::service::BotSeat;
use crate::ai::levels::Level;
use crate::net::position::replay;
use crate::net::protocol::{ClientMessage, ServerMessage, decode_server};
use crate::rules::record::Record;

/// What the bot runner hears.
pub enum BotEvent {
    /// A bot was given a seat.
    Seat(BotSeat),
    /// A message of the hub for the bots' connection.
    Text(String),
    /// A search found a move (none: the game ended meanwhile, or the search failed).
    Found {
        /// The game.
        game_id: String,
        /// The ply searched.
        ply: u32,
        /// The move, if any.
        text: Option<String>,
    },
}

/// A search to run: the game, its level, a cap on its time.
struct Job {
    game_id: String,
    ply: u32,
    record: Record,
    level: Level,
    max_time: Option<Duration>,
}

/// A bot's game as the runner follows it.
struct Followed {
    game: String,
    options: serde_json::Value,
    moves: Vec<String>,
    /// The bot seats of this game: seat → (token, level).
    seats: HashMap<u8, (String, Level)>,
    /// Each seat's time left in a live game, in ms.
    clock_ms: Option<Vec<u64>>,
    /// Whether every seat is taken (moves wait until then).
    full: bool,
}

/// The pool of search threads: `threads` workers taking jobs from one queue.
struct BotPool {
    jobs: std_mpsc::Sender<Job>,
}

impl BotPool {
    fn start(threads: usize, found: std_mpsc::Sender<BotEvent>) -> std::io::Result<BotPool> {
        let (jobs, queue) = std_mpsc::channel::<Job>();
        let queue = Arc::new(Mutex::new(queue));
        for k in 0..threads.max(1) {
            let (queue, found) = (queue.clone(), found.clone());
            std::thread::Builder::new().name(format!("triboard-bot-{k}")).spawn(move || {
                loop {
                    let job = match queue.lock() {
                        Ok(queue) => queue.recv(),
                        Err(_) => return,
                    };
                    let Ok(job) = job else { return };
                    let seed = job.ply.into();
                    let text = bot_move(&job.record, job.level, seed, job.max_time).ok().flatten();
                    if found.send(BotEvent::Found { game_id: job.game_id, ply: job.ply, text }).is_err() {
                        return;
                    }
                }
            })?;
        }
        Ok(BotPool { jobs })
    }
}

/// Runs the bots until the service thread is gone: `conn` is their connection in the hub, `events`
/// the service thread's inbox, `inbox` what the runner hears, `threads` the search threads.
///
/// # Errors
/// The search threads cannot start.
pub fn run_bots(
    conn: ConnId,
    events: std_mpsc::Sender<Event>,
    inbox: std_mpsc::Receiver<BotEvent>,
    found: std_mpsc::Sender<BotEvent>,
    threads: usize,
) -> std::io::Result<()> {
    let pool = BotPool::start(threads, found)?;
    let mut games: HashMap<String, Followed> = HashMap::new();
    let mut asked: HashSet<(String, u32)> = HashSet::new();
    let send = |message: ClientMessage| events.send(Event::Message { conn, message }).is_ok();
    while let Ok(event) = inbox.recv() {
        let game_id = match event {
            BotEvent::Seat(seat) => {
                let Some(level) = bot_level(&seat.bot) else { continue };
                let sync = ClientMessage::Sync {
                    game_id: seat.game_id.clone(),
                    since_ply: 0,
                    token: Some(seat.token.clone()),
                };
                let followed = games.entry(seat.game_id.clone()).or_insert_with(|| Followed {
                    game: String::new(),
                    options: serde_json::Value::Null,
                    moves: Vec::new(),
                    seats: HashMap::new(),
                    clock_ms: None,
                    full: false,
                });
                followed.seats.insert(seat.seat, (seat.token, level));
                if !send(sync) {
                    break;
                }
                continue;
            }
            BotEvent::Found { game_id, ply, text } => {
                asked.remove(&(game_id.clone(), ply));
                let Some(g) = games.get(&game_id) else { continue };
                let Some(text) = text.filter(|_| g.moves.len() == ply as usize) else { continue };
                let Some(seat) = to_move(g) else { continue };
                let Some((token, _)) = g.seats.get(&seat) else { continue };
                if !send(ClientMessage::Move { game_id, token: token.clone(), text, ply }) {
                    break;
                }
                continue;
            }
            BotEvent::Text(text) => match decode_server(&text) {
                Ok(ServerMessage::State(state)) => {
                    let Some(g) = games.get_mut(&state.game_id) else { continue };
                    if state.outcome.is_some() {
                        games.remove(&state.game_id);
                        continue;
                    }
                    g.game = state.game.clone();
                    g.options = state.options.clone();
                    g.moves.truncate(state.since_ply as usize);
                    g.moves.extend(state.moves.iter().cloned());
                    g.clock_ms = state.clock_ms.clone();
                    g.full = state.players.iter().all(|p| p.taken);
                    state.game_id
                }
                Ok(ServerMessage::Moved { game_id, ply, text, clock_ms, .. }) => {
                    let Some(g) = games.get_mut(&game_id) else { continue };
                    if ply as usize == g.moves.len() {
                        g.moves.push(text);
                        g.clock_ms = clock_ms;
                    } else if ply as usize > g.moves.len() {
                        let since_ply = g.moves.len() as u32;
                        send(ClientMessage::Sync { game_id: game_id.clone(), since_ply, token: None });
                        continue;
                    }
                    game_id
                }
                Ok(ServerMessage::Error { .. }) => {
                    // A refused move (the game moved on meanwhile): every game is asked for again.
                    asked.clear();
                    for (game_id, g) in &games {
                        let since_ply = g.moves.len() as u32;
                        send(ClientMessage::Sync { game_id: game_id.clone(), since_ply, token: None });
                    }
                    continue;
                }
                _ => continue,
            },
        };
        // Whatever changed: is a bot of this game to move? (A game over is forgotten.)
        let Some(g) = games.get(&game_id) else { continue };
        let Some(seat) = to_move(g) else {
            if over(g) {
                games.remove(&game_id);
            }
            continue;
        };
        let Some(&(_, level)) = g.seats.get(&seat) else { continue };
        let ply = g.moves.len() as u32;
        if !asked.insert((game_id.clone(), ply)) {
            continue;
        }
        let max_time =
            g.clock_ms.as_ref().and_then(|c| c.get(usize::from(seat))).map(|&ms| Duration::from_millis(ms / 30));
        let record = Record::of_texts(&g.game, g.options.clone(), g.moves.clone());
        if pool.jobs.send(Job { game_id, ply, record, level, max_time }).is_err() {
            break;
        }
    }
    Ok(())
}

/// Whether a followed game is over by its rules.
fn over(g: &Followed) -> bool {
    let record = Record::of_texts(&g.game, g.options.clone(), g.moves.clone());
    !g.game.is_empty() && replay(&record).ok().is_some_and(|p| p.outcome().is_some())
}

/// The seat to move in a followed game (none before its state came, or once it is over).
fn to_move(g: &Followed) -> Option<u8> {
    if g.game.is_empty() || !g.full {
        return None;
    }
    let record = Record::of_texts(&g.game, g.options.clone(), g.moves.clone());
    replay(&record).ok()?.to_move().map(|p| p.0)
}
