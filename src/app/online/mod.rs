//! Online play's client (`docs/design.md` §Network play): the game server is the referee, the
//! board follows it. [`OnlineGame`] is the online game on the board: the seat held (its token),
//! the server's moves, clocks and who is connected. Its systems read the [`link::Link`] each
//! frame: the opponent's moves are played on the board as [`ServerMove`]s (animated as any move),
//! a board out of step with the server gets the server's game ([`Command::Load`]), and the
//! person's moves go to the server ([`sync::next_to_send`]). After a drop the link reconnects by
//! itself and the game is asked for again (`sync` with the seat's token).
//!
//! The start screen's Play online… window ([`lobby`]) creates, joins and resumes games; the seats
//! held are kept in the settings ([`OnlineSettings`]).
//!
//! [`OnlineSettings`]: super::settings::OnlineSettings

pub mod link;
pub mod lobby;
pub mod sync;

use std::collections::VecDeque;

use bevy::prelude::*;
use web_time::Instant;

use self::link::{Heard, Link};
use self::lobby::Lobby;
use self::sync::{Catch, catch_up, next_to_send, plies};
use super::flow::{Command, ServerMove, Status, Step};
use super::in_play::InPlay;
use super::session::{OpenRecord, OpenSeats};
use super::settings::{OnlineSeat, Settings};
use crate::ai::Seat;
use crate::net::protocol::{ClientMessage, GameResult, ServerMessage, Snapshot};
use crate::rules::record::Record;

pub(super) fn plugin(app: &mut App) {
    // wss:// on the desktop: rustls with ring (a second install, as in tests with two apps, is
    // refused and harmless).
    #[cfg(not(target_arch = "wasm32"))]
    let _ = rustls::crypto::ring::default_provider().install_default();
    app.init_non_send::<Link>()
        .init_resource::<Lobby>()
        .add_message::<OnlineOrder>()
        .add_systems(Update, pump.in_set(Step::Intents))
        .add_systems(Update, carry_out.in_set(Step::Intents).after(pump).run_if(resource_exists::<OnlineGame>))
        .add_systems(Update, send_moves.in_set(Step::View).run_if(resource_exists::<OnlineGame>))
        .add_systems(OnEnter(super::flow::Screen::Menu), leave);
    lobby::plugin(app);
}

/// The online game on the board.
#[derive(Resource, Debug, Clone)]
pub struct OnlineGame {
    /// The seat held: server, game, token.
    pub seat: OnlineSeat,
    /// The server's moves, as stored there.
    pub moves: Vec<String>,
    /// The game as the server last described it (players, clock setting, tools allowed, rematch).
    pub state: Option<Snapshot>,
    /// Which seats have a connected player.
    pub online: Vec<bool>,
    /// Each seat's time left in ms when the server last said it, and when that was heard.
    pub clock: Option<(Vec<u64>, Instant)>,
    /// The server's result once the game is over (a resignation or a flag included).
    pub outcome: Option<GameResult>,
    /// The connection, as the panel says it.
    pub connection: link::LinkState,
    /// The board reached the end of the game by the rules, in step with the server (the server
    /// sends no state for that: its moves say it).
    finished: bool,
    /// The person asked for a rematch (the server's answer then opens it).
    asked_rematch: bool,
    /// The board shows this game (until then, the server's messages wait).
    placed: bool,
    /// The revision of the game in play when this one was put on the board, if one was.
    opened_over: Option<u64>,
    /// The ply of the person's move sent and not yet acknowledged.
    in_flight: Option<u32>,
    /// The server's messages about this game not yet carried out (one move a frame).
    inbox: VecDeque<ServerMessage>,
}

impl OnlineGame {
    /// The game of `seat` as `state` describes it.
    pub fn new(seat: OnlineSeat, state: Snapshot) -> OnlineGame {
        let mut game = OnlineGame {
            seat,
            moves: Vec::new(),
            state: None,
            online: Vec::new(),
            clock: None,
            outcome: None,
            connection: link::LinkState::Connecting,
            finished: false,
            asked_rematch: false,
            placed: false,
            opened_over: None,
            in_flight: None,
            inbox: VecDeque::new(),
        };
        game.take_state(state);
        game
    }

    /// The kind of game (`trike`, …).
    pub fn kind(&self) -> &str {
        self.state.as_ref().map_or(&self.seat.game, |s| &s.game)
    }

    /// The record of the server's game, the person's seat named "You" (the others are the
    /// board's online players).
    pub fn record(&self) -> Record {
        let (game, options) = match &self.state {
            Some(s) => (s.game.clone(), s.options.clone()),
            None => (self.seat.game.clone(), serde_json::Value::Null),
        };
        let mut record = Record::of_texts(&game, options, self.moves.clone());
        record.players =
            self.seats().iter().map(|s| if *s == Seat::Human { "You".to_string() } else { s.label() }).collect();
        record
    }

    /// The board's seats: the person at their seat, the server's players at the others.
    pub fn seats(&self) -> Vec<Seat> {
        let n = self.state.as_ref().map_or(2, |s| s.players.len());
        (0..n).map(|s| if s == usize::from(self.seat.seat) { Seat::Human } else { Seat::Remote }).collect()
    }

    /// Whether the creator allowed hints, Show thinking and analysis during the game.
    pub fn tools_allowed(&self) -> bool {
        self.state.as_ref().is_some_and(|s| s.allow_tools) || self.over()
    }

    /// True once the game is over: the server said so (a resignation, a flag), or the board
    /// reached its end in step with the server.
    pub fn over(&self) -> bool {
        self.outcome.is_some() || self.finished
    }

    /// Each seat's time left now, in ms: `running`'s (the seat to move on the board) counted down
    /// since the server said it.
    pub fn clocks_now(&self, running: Option<u8>) -> Option<Vec<u64>> {
        let (left, heard) = self.clock.as_ref()?;
        // Clocks start once every seat is taken.
        let running = if !self.over() && self.full() { running } else { None };
        let spent = heard.elapsed().as_millis() as u64;
        Some(
            left.iter()
                .enumerate()
                .map(|(s, &ms)| if Some(s as u8) == running { ms.saturating_sub(spent) } else { ms })
                .collect(),
        )
    }

    /// True once every seat of the game is taken.
    pub fn full(&self) -> bool {
        self.state.as_ref().is_some_and(|s| s.players.iter().all(|p| p.taken))
    }

    /// What the status line says when the game is put on the board.
    pub fn greeting(&self) -> String {
        let seat = self
            .state
            .as_ref()
            .and_then(|s| s.players.get(usize::from(self.seat.seat)))
            .map_or_else(|| format!("seat {}", self.seat.seat + 1), |p| p.name.clone());
        if self.full() {
            format!("Online game: you play {seat}")
        } else {
            format!("Online game: you play {seat}; send the invitation to your opponent")
        }
    }

    /// Why no more moves are taken when the server ended the game (a resignation, a flag); `None`
    /// while it runs, or when the rules ended it (the board knows that itself).
    pub fn ended(&self) -> Option<String> {
        let outcome = self.outcome.as_ref()?;
        let seat = outcome.resigned.map(|s| (s, "resigned")).or(outcome.flagged.map(|s| (s, "ran out of time")))?;
        Some(format!("the game is over: {} {}", self.seat_label(seat.0), seat.1))
    }

    /// "you" for the person's seat, else the seat's name.
    pub fn seat_label(&self, seat: u8) -> String {
        if seat == self.seat.seat {
            return "you".to_string();
        }
        self.state
            .as_ref()
            .and_then(|s| s.players.get(usize::from(seat)))
            .map_or_else(|| format!("seat {}", seat + 1), |p| p.name.clone())
    }

    /// Whether `order` may be carried out in an online game: no takebacks and no other line while
    /// it runs, and hints only where the creator allowed them.
    ///
    /// # Errors
    /// Why not, for the status line.
    pub fn allows(&self, order: &Command) -> Result<(), String> {
        let running = !self.over() && self.state.as_ref().is_some_and(|s| s.to_move.is_some());
        match order {
            Command::Undo | Command::Redo | Command::PlayFromHere | Command::SwitchLine(_) if running => {
                Err("an online game has no takebacks: the server keeps every move".to_string())
            }
            Command::Hint if !self.tools_allowed() => {
                Err("no hints in this online game: its creator did not allow them".to_string())
            }
            _ => Ok(()),
        }
    }

    fn take_state(&mut self, state: Snapshot) {
        let since = (state.since_ply as usize).min(self.moves.len());
        self.moves.truncate(since);
        self.moves.extend(state.moves.iter().cloned());
        self.online.resize(state.players.len(), false);
        self.clock = state.clock_ms.clone().map(|ms| (ms, Instant::now()));
        self.outcome.clone_from(&state.outcome);
        self.in_flight = None;
        self.state = Some(state);
    }

    fn sync_message(&self) -> ClientMessage {
        ClientMessage::Sync { game_id: self.seat.game_id.clone(), since_ply: 0, token: Some(self.seat.token.clone()) }
    }
}

/// Reads the link: the lobby's answers go to the lobby, the game's to the [`OnlineGame`], which
/// carries out at most one server move a frame (so forced moves the board plays by itself are
/// seen before the server's copy of them).
#[allow(clippy::too_many_arguments)]
fn pump(
    mut commands: Commands,
    mut link: NonSendMut<Link>,
    mut lobby: ResMut<Lobby>,
    mut settings: ResMut<Settings>,
    game: Option<ResMut<OnlineGame>>,
    in_play: Res<InPlay>,
    mut status: ResMut<Status>,
    (mut served, mut orders): (MessageWriter<ServerMove>, MessageWriter<Command>),
) {
    let mut game = game;
    // A game the lobby put on the board this frame: the rest of this frame's messages about it
    // wait in its inbox.
    let mut fresh: Option<OnlineGame> = None;
    for heard in link.poll() {
        match heard {
            Heard::Opened => {
                if let Some(game) = game.as_deref_mut() {
                    let sync = game.sync_message();
                    link.send(&sync);
                }
                lobby.on_open(&mut link, &settings);
            }
            Heard::Unreadable(why) => *status = Status::error(format!("the server said something unreadable: {why}")),
            Heard::Message(message) => {
                let message = *message;
                let id = about(&message).map(str::to_string);
                let error = matches!(message, ServerMessage::Error { .. }) && !lobby.waiting();
                if let Some(fresh) = fresh.as_mut().filter(|g| id.as_deref() == Some(g.seat.game_id.as_str())) {
                    fresh.inbox.push_back(message);
                } else if let Some(game) =
                    game.as_deref_mut().filter(|g| error || id.as_deref() == Some(g.seat.game_id.as_str()))
                {
                    game.inbox.push_back(message);
                } else if let Some((seat, state)) = lobby.hear(message, link.url(), &mut settings) {
                    fresh = Some(start(&mut commands, seat, state, &in_play, &mut link, &mut lobby));
                }
            }
        }
    }
    if let Some(fresh) = fresh {
        commands.insert_resource(fresh);
        return;
    }
    let Some(mut game) = game else { return };
    if game.connection != *link.state() {
        game.connection = link.state().clone();
    }
    if !game.placed {
        // Until the board shows this game (opened from the start screen, or over the last one),
        // the server's messages wait.
        match &in_play.0 {
            Some(s) if Some(s.revision) != game.opened_over && s.remote && s.record.game == game.kind() => {
                game.placed = true;
                *status = Status::info(game.greeting());
            }
            _ => return,
        }
    }
    let local: &[String] = in_play.0.as_ref().map_or(&[], |s| &s.record.moves);
    if !game.finished
        && in_play.0.as_ref().is_some_and(|s| s.over && s.shown == s.record.moves.len())
        && catch_up(local, &game.moves) == Catch::InStep
    {
        game.finished = true;
    }
    // Read through `Deref` first: an empty inbox leaves the game unchanged, so `send_moves`
    // works only when the board or the game changed.
    if game.inbox.is_empty() {
        return;
    }
    while let Some(message) = game.inbox.pop_front() {
        match message {
            ServerMessage::State(state) => {
                let was_full = game.full();
                game.take_state(state);
                if !was_full && game.full() {
                    *status = Status::info("Your opponent has joined: the game is on");
                }
            }
            ServerMessage::Moved { ply, text, clock_ms, .. } => {
                let ply = ply as usize;
                if ply > game.moves.len() {
                    // A gap: ask for the whole game.
                    let sync = game.sync_message();
                    link.send(&sync);
                    continue;
                }
                if ply == game.moves.len() {
                    game.moves.push(text);
                }
                if game.in_flight.is_some_and(|f| f as usize <= ply) {
                    game.in_flight = None;
                }
                if let Some(ms) = clock_ms {
                    game.clock = Some((ms, Instant::now()));
                }
            }
            ServerMessage::Presence { online, .. } => game.online = online,
            ServerMessage::Rematched { game_id, .. } if game.asked_rematch => {
                // The server moves every seat's token on by one seat (the message's seat is the
                // asker's, who may be the other player).
                let seats = game.online.len().max(1) as u8;
                let seat = (game.seat.seat + 1) % seats;
                let next = OnlineSeat { game_id, seat, code: String::new(), ..game.seat.clone() };
                lobby.resume(next, &mut link, &mut settings);
            }
            ServerMessage::Rematched { game_id, .. } => {
                // The other player asked: Rematch (now "Play the rematch") joins it.
                if let Some(state) = &mut game.state {
                    state.rematch = Some(game_id);
                }
                *status = Status::info("Your opponent asks for a rematch: press Play the rematch");
            }
            ServerMessage::Error { message, .. } => {
                *status = Status::error(format!("the server refused: {message}"));
                game.in_flight = None;
                let sync = game.sync_message();
                link.send(&sync);
            }
            ServerMessage::Created { .. } | ServerMessage::Joined { .. } => {}
        }
        // One move a frame: the board plays it (and any move it forces) before the next is read.
        match catch_up(local, &game.moves) {
            Catch::Play(text) => {
                served.write(ServerMove(text));
                break;
            }
            Catch::Reload if game.inbox.is_empty() => {
                orders.write(Command::Load(game.record()));
                break;
            }
            _ => {}
        }
    }
}

/// The game a server message is about.
fn about(message: &ServerMessage) -> Option<&str> {
    match message {
        ServerMessage::State(s) => Some(&s.game_id),
        ServerMessage::Moved { game_id, .. }
        | ServerMessage::Presence { game_id, .. }
        | ServerMessage::Created { game_id, .. }
        | ServerMessage::Joined { game_id, .. } => Some(game_id),
        ServerMessage::Rematched { rematch_of, .. } => Some(rematch_of),
        ServerMessage::Error { .. } => None,
    }
}

/// Puts the online game of `seat`, as `state` describes it, on the board (from the start screen
/// or over the game in play); returns it, for the caller to insert.
fn start(
    commands: &mut Commands,
    seat: OnlineSeat,
    state: Snapshot,
    in_play: &InPlay,
    link: &mut Link,
    lobby: &mut Lobby,
) -> OnlineGame {
    let mut game = OnlineGame::new(seat, state);
    game.opened_over = in_play.0.as_ref().map(|s| s.revision);
    commands.insert_resource(OpenRecord(game.record()));
    commands.insert_resource(OpenSeats(game.seats()));
    // Present at the seat from now on (the server counts a connection that named its token).
    link.send(&game.sync_message());
    lobby.open = false;
    game
}

/// Sends the person's next move to the server once the board has it.
fn send_moves(mut game: ResMut<OnlineGame>, in_play: Res<InPlay>, mut link: NonSendMut<Link>) {
    if !game.placed || (!in_play.is_changed() && !game.is_changed()) {
        return;
    }
    let Some(summary) = &in_play.0 else { return };
    if catch_up(&summary.record.moves, &game.moves) != Catch::Ahead || game.outcome.is_some() {
        return;
    }
    let Some(plies) = plies(&summary.record) else { return };
    if let Some((ply, text)) =
        next_to_send(&summary.record.moves, &plies, game.moves.len(), game.seat.seat, game.in_flight)
    {
        link.send(&ClientMessage::Move {
            game_id: game.seat.game_id.clone(),
            token: game.seat.token.clone(),
            text,
            ply,
        });
        game.in_flight = Some(ply);
    }
}

/// Back on the start screen, the online game is left (it goes on on the server: Play online…
/// resumes it from "Your games"); Resume does not bring back a board that lost its server.
fn leave(mut commands: Commands, mut suspended: ResMut<super::session::Suspended>) {
    commands.remove_resource::<OnlineGame>();
    if suspended.game.as_ref().is_some_and(|g| g.setup.seats.contains(&Seat::Remote)) {
        suspended.game = None;
    }
}

/// The window title of the game in play: "Your move · " before it when the person's seat is to
/// move in an online game.
pub fn title(summary: &super::in_play::Summary, online: Option<&OnlineGame>) -> String {
    match online {
        Some(game) if game.outcome.is_none() && summary.person_to_move && !summary.over => {
            format!("Your move · {}", summary.title)
        }
        _ => summary.title.clone(),
    }
}

/// What the side panel asks of the online game.
#[derive(Message, Clone, Copy, Debug, PartialEq, Eq)]
pub enum OnlineOrder {
    /// Resign the game (the other seats win).
    Resign,
    /// A rematch of the finished game, seats moved on by one; the other player's Rematch joins it.
    Rematch,
}

/// Sends the panel's orders to the server.
fn carry_out(
    mut orders: MessageReader<OnlineOrder>,
    mut game: ResMut<OnlineGame>,
    mut link: NonSendMut<Link>,
    mut status: ResMut<Status>,
) {
    for order in orders.read() {
        let (game_id, token) = (game.seat.game_id.clone(), game.seat.token.clone());
        match order {
            OnlineOrder::Resign => {
                link.send(&ClientMessage::Resign { game_id, token });
                *status = Status::info("Resigning…");
            }
            OnlineOrder::Rematch => {
                game.asked_rematch = true;
                link.send(&ClientMessage::Rematch { game_id, token });
                *status = Status::info("Asking for a rematch…");
            }
        }
    }
}
