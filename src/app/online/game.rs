//! The online game on the board ([`OnlineGame`]: the seat held, the server's moves, clocks and
//! who is connected) and what the side panel asks of it ([`OnlineOrder`]), apart from the systems
//! that keep it (`online`), so the panel and the title read it without importing those.

use std::collections::VecDeque;

use bevy::prelude::*;
use web_time::Instant;

use super::link;
use crate::ai::Seat;
use crate::app::flow::{Command, Gate};
use crate::app::settings::OnlineSeat;
use crate::net::protocol::{ClientMessage, GameResult, ServerMessage, Snapshot};
use crate::rules::record::Record;

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
    pub(super) finished: bool,
    /// The person asked for a rematch (the server's answer then opens it).
    pub(super) asked_rematch: bool,
    /// The board shows this game (until then, the server's messages wait).
    pub(super) placed: bool,
    /// The revision of the game in play when this one was put on the board, if one was.
    pub(super) opened_over: Option<u64>,
    /// The ply of the person's move sent and not yet acknowledged.
    pub(super) in_flight: Option<u32>,
    /// The server's messages about this game not yet carried out (one move a frame).
    pub(super) inbox: VecDeque<ServerMessage>,
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
        // Clocks run once the server started them (every seat taken; a rematch's, every player
        // back at its board).
        let started = self.state.as_ref().is_some_and(|s| s.clock_started);
        let running = if !self.over() && started { running } else { None };
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

    /// What the game line refuses while this game is on the board ([`Gate`]): moves once the
    /// server ended it, takebacks and other lines always (the server keeps every move; the
    /// arrows review them), and hints where its creator did not allow them.
    pub fn gate(&self) -> Gate {
        Gate {
            moves: self.ended(),
            takebacks: Some(
                "an online game has no takebacks: the server keeps every move (the arrows review them)".to_string(),
            ),
            hints: (!self.tools_allowed())
                .then(|| "no hints in this online game: its creator did not allow them".to_string()),
        }
    }

    /// Whether `order` may be carried out in this online game ([`OnlineGame::gate`]).
    ///
    /// # Errors
    /// Why not, for the status line.
    pub fn allows(&self, order: &Command) -> Result<(), String> {
        self.gate().allows(order)
    }

    pub(super) fn take_state(&mut self, state: Snapshot) {
        let since = (state.since_ply as usize).min(self.moves.len());
        self.moves.truncate(since);
        self.moves.extend(state.moves.iter().cloned());
        self.online.resize(state.players.len(), false);
        self.clock = state.clock_ms.clone().map(|ms| (ms, Instant::now()));
        self.outcome.clone_from(&state.outcome);
        self.in_flight = None;
        self.state = Some(state);
    }

    pub(super) fn sync_message(&self) -> ClientMessage {
        ClientMessage::Sync { game_id: self.seat.game_id.clone(), since_ply: 0, token: Some(self.seat.token.clone()) }
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
