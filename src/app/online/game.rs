//! The online game on the board ([`OnlineGame`]: the seat held — or none, for a spectator — the
//! server's moves, clocks, who is connected, the players' names and ratings) and what the side
//! panel asks of it ([`OnlineOrder`]), apart from the systems that keep it (`online`), so the panel
//! and the title read it without importing those.

use std::collections::VecDeque;

use bevy::prelude::*;
use web_time::Instant;

use super::link;
use crate::ai::Seat;
use crate::app::flow::{Command, Gate};
use crate::app::settings::OnlineSeat;
use crate::net::protocol::{
    ClientMessage, GameResult, LobbyView, RatingChange, ServerMessage, Snapshot, provisional_mark,
};
use crate::rules::record::Record;

/// The online game on the board.
#[derive(Resource, Debug, Clone)]
pub struct OnlineGame {
    /// The seat held: server, game, token (for a spectator, [`OnlineGame::watching`], the server
    /// and game only).
    pub seat: OnlineSeat,
    /// Watched without a seat: every seat is the server's players', no move is the person's.
    pub watching: bool,
    /// Each seat's rating in this game as the lobby last listed it (none for a guest, or when
    /// the lobby did not list the game).
    pub ratings: Vec<Option<i32>>,
    /// Whether each seat's rating is still provisional (shown with a `?`).
    pub provisional: Vec<bool>,
    /// The ratings' changes once a rated game ended (the server's `rated`).
    pub rated: Vec<RatingChange>,
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
            watching: false,
            ratings: Vec::new(),
            provisional: Vec::new(),
            rated: Vec::new(),
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

    /// Game `state` on the server at `server`, watched without a seat.
    pub fn watching(server: &str, state: Snapshot) -> OnlineGame {
        let seat = OnlineSeat {
            server: server.to_string(),
            game_id: state.game_id.clone(),
            game: state.game.clone(),
            ..OnlineSeat::default()
        };
        OnlineGame { watching: true, ..OnlineGame::new(seat, state) }
    }

    /// Whether `seat` is the person's own.
    pub fn mine(&self, seat: u8) -> bool {
        !self.watching && seat == self.seat.seat
    }

    /// Who plays `seat`, as the side panel names them: the account's name with its rating
    /// ("Ann 1536"), "guest" for a player without one, "waiting for a player" while free; the
    /// person's own seat "You" (with the account's name).
    pub fn player_label(&self, seat: u8) -> String {
        let view = self.state.as_ref().and_then(|s| s.players.get(usize::from(seat)));
        let rating = self.ratings.get(usize::from(seat)).copied().flatten();
        let mark = provisional_mark(self.provisional.get(usize::from(seat)) == Some(&true));
        let name = match (view.and_then(|v| v.player.as_deref()), rating) {
            (Some(name), Some(rating)) => Some(format!("{name} {rating}{mark}")),
            (Some(name), None) => Some(name.to_string()),
            (None, _) => None,
        };
        match (self.mine(seat), name) {
            (true, Some(name)) => format!("You ({name})"),
            (true, None) => "You".to_string(),
            (false, Some(name)) => name,
            (false, None) if view.is_some_and(|v| !v.taken) => "waiting for a player".to_string(),
            (false, None) => "guest".to_string(),
        }
    }

    /// Who plays `seat`, in a sentence: "you", the account's name, or "guest".
    pub fn who(&self, seat: u8) -> String {
        if self.mine(seat) {
            return "you".to_string();
        }
        let view = self.state.as_ref().and_then(|s| s.players.get(usize::from(seat)));
        view.and_then(|v| v.player.clone()).unwrap_or_else(|| "guest".to_string())
    }

    /// The kind of game (`trike`, …).
    pub fn kind(&self) -> &str {
        self.state.as_ref().map_or(&self.seat.game, |s| &s.game)
    }

    /// The record of the server's game, each seat named by who plays it (the person's "You").
    pub fn record(&self) -> Record {
        let (game, options) = match &self.state {
            Some(s) => (s.game.clone(), s.options.clone()),
            None => (self.seat.game.clone(), serde_json::Value::Null),
        };
        let mut record = Record::of_texts(&game, options, self.moves.clone());
        record.players = (0..self.seats().len() as u8).map(|s| self.player_label(s)).collect();
        record
    }

    /// The board's seats: the person at their seat, the server's players at the others (at every
    /// one, for a spectator).
    pub fn seats(&self) -> Vec<Seat> {
        let n = self.state.as_ref().map_or(2, |s| s.players.len());
        (0..n).map(|s| if self.mine(s as u8) { Seat::Human } else { Seat::Remote }).collect()
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
        if self.watching {
            let names: Vec<String> = (0..self.seats().len() as u8).map(|s| self.player_label(s)).collect();
            return format!("Watching {}", names.join(" – "));
        }
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
        if self.mine(seat) {
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
        let watching =
            self.watching.then(|| "you are watching this game: its players' moves come from the server".to_string());
        Gate {
            moves: watching.or_else(|| self.ended()),
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

    /// Takes the players' ratings from the lobby's listing of this game, if it lists it.
    pub fn take_listing(&mut self, view: &LobbyView) {
        let listed = view.challenges.iter().chain(&view.live).find(|l| l.game_id == self.seat.game_id);
        if let Some(listing) = listed
            && (self.ratings != listing.ratings || self.provisional != listing.provisional)
        {
            self.ratings.clone_from(&listing.ratings);
            self.provisional.clone_from(&listing.provisional);
        }
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
        let token = (!self.watching).then(|| self.seat.token.clone());
        ClientMessage::Sync { game_id: self.seat.game_id.clone(), since_ply: 0, token }
    }

    /// True once the game has started: every seat has made a move (the server's moves are at
    /// least as many as the seats). Until then the panel offers Cancel in place of Resign (the
    /// same order: the server aborts a game resigned before it started).
    pub fn started(&self) -> bool {
        self.moves.len() >= self.seats().len()
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
