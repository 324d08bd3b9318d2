//! The online game on the board ([`OnlineGame`]: the seat held — or none, for a spectator — the
//! server's moves, clocks, who is connected, the players' names and ratings) and what the side
//! panel asks of it ([`OnlineOrder`]), apart from the systems that keep it (`online`), so the panel
//! and the title read it without importing those.

use std::collections::VecDeque;

use bevy::prelude::*;
use web_time::Instant;

use super::link;
use crate::ai::Seat;
use crate::app::flow::{Command, Gate, PlayedPly, Seating};
use crate::app::settings::OnlineSeat;
use crate::net::protocol::{
    ClientMessage, GameResult, LobbyView, RatingChange, ServerMessage, Snapshot, provisional_mark,
};
use crate::rules::record::Record;

/// Who the person is in an online game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Role {
    /// A player: the seat held and its token (the secret that moves for it).
    Player {
        /// The seat, from 0.
        seat: u8,
        /// The seat's token.
        token: String,
    },
    /// A spectator: every seat is the server's players', no move is the person's.
    Watcher,
}

/// Where an online game stands for the client.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    /// Not on the board yet: the server's messages about it wait until the board shows it.
    Opening,
    /// On the board, a seat still free: waiting for a player.
    Waiting,
    /// On the board, every seat taken: the game is on.
    Playing,
    /// Over: the server ended it (a resignation, a flag) or the board reached its end in step
    /// with the server.
    Over,
    /// Over, and the person asked for a rematch (the server's answer opens it).
    RematchAsked,
}

/// The online game on the board.
#[derive(Resource, Debug, Clone)]
pub struct OnlineGame {
    /// The seat held: server, game, token (for a spectator, the server and game only).
    pub seat: OnlineSeat,
    /// Player or spectator.
    pub role: Role,
    /// Where the game stands.
    pub phase: Phase,
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
    /// The person's moves made on this game's board and not yet sent, in order: each goes when
    /// the server's moves reach its ply.
    pub(super) outbox: VecDeque<PlayedPly>,
    /// The ply of the person's move sent and not yet acknowledged.
    pub(super) in_flight: Option<u32>,
    /// The server's messages about this game not yet carried out (one move a frame).
    pub(super) inbox: VecDeque<ServerMessage>,
}

impl OnlineGame {
    /// The game of `seat` as `state` describes it.
    pub fn new(seat: OnlineSeat, state: Snapshot) -> OnlineGame {
        let role = Role::Player { seat: seat.seat, token: seat.token.clone() };
        let mut game = OnlineGame {
            seat,
            role,
            phase: Phase::Opening,
            ratings: Vec::new(),
            provisional: Vec::new(),
            rated: Vec::new(),
            moves: Vec::new(),
            state: None,
            online: Vec::new(),
            clock: None,
            outcome: None,
            connection: link::LinkState::Connecting,
            outbox: VecDeque::new(),
            in_flight: None,
            inbox: VecDeque::new(),
        };
        game.take_state(state);
        game
    }

    /// Game `state` on the server at `server`, watched without a seat.
    pub fn watched(server: &str, state: Snapshot) -> OnlineGame {
        let seat = OnlineSeat {
            server: server.to_string(),
            game_id: state.game_id.clone(),
            game: state.game.clone(),
            ..OnlineSeat::default()
        };
        OnlineGame { role: Role::Watcher, ..OnlineGame::new(seat, state) }
    }

    /// Watched without a seat ([`Role::Watcher`]).
    pub fn watching(&self) -> bool {
        self.role == Role::Watcher
    }

    /// The seat the person plays, if a player.
    pub fn my_seat(&self) -> Option<u8> {
        match self.role {
            Role::Player { seat, .. } => Some(seat),
            Role::Watcher => None,
        }
    }

    /// Whether `seat` is the person's own.
    pub fn mine(&self, seat: u8) -> bool {
        self.my_seat() == Some(seat)
    }

    /// True once the board shows this game.
    pub fn placed(&self) -> bool {
        self.phase != Phase::Opening
    }

    /// The board's seats and this game's id, to open the board with ([`Command::OpenSeated`]).
    pub fn seating(&self) -> Seating {
        Seating { seats: self.seats(), online: Some(self.seat.game_id.clone()) }
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
        matches!(self.phase, Phase::Over | Phase::RematchAsked) || self.outcome.is_some()
    }

    /// The phase a placed game is in by what the server said: over with an outcome, else waiting
    /// for a player or on (a rematch asked stays asked).
    pub(super) fn follow_state(&mut self) {
        self.phase = match self.phase {
            Phase::Opening | Phase::RematchAsked => self.phase,
            Phase::Over if self.outcome.is_none() => Phase::Over,
            _ if self.outcome.is_some() => Phase::Over,
            _ if self.full() => Phase::Playing,
            _ => Phase::Waiting,
        };
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
        if self.watching() {
            let names: Vec<String> = (0..self.seats().len() as u8).map(|s| self.player_label(s)).collect();
            return format!("Watching {}", names.join(" – "));
        }
        let seat = self
            .state
            .as_ref()
            .and_then(|s| s.players.get(usize::from(self.seat.seat)))
            .map_or_else(|| format!("seat {}", self.seat.seat + 1), |p| p.name.clone());
        match self.state.as_ref().and_then(|s| waiting_words(&s.players)) {
            Some(waiting) => format!("Online game: you play {seat}; {waiting}"),
            None => format!("Online game: you play {seat}"),
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
            self.watching().then(|| "you are watching this game: its players' moves come from the server".to_string());
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
        // A game ended now (a resignation) keeps the clocks as they were last shown, not the value
        // stored at the last move, which would set the running clock back.
        let running = self.state.as_ref().and_then(|s| s.to_move);
        let shown = (self.outcome.is_none() && state.outcome.is_some()).then(|| self.clocks_now(running)).flatten();
        self.clock = state.clock_ms.clone().map(|ms| match &shown {
            Some(shown) if shown.len() == ms.len() => {
                (ms.iter().zip(shown).map(|(a, b)| *a.min(b)).collect(), Instant::now())
            }
            _ => (ms, Instant::now()),
        });
        self.outcome.clone_from(&state.outcome);
        self.in_flight = None;
        self.state = Some(state);
        self.follow_state();
    }

    pub(super) fn sync_message(&self) -> ClientMessage {
        let token = match &self.role {
            Role::Player { token, .. } => Some(token.clone()),
            Role::Watcher => None,
        };
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

/// What a seated player is told while seats are free: in a two-player game (whose creator alone
/// waits) to send the invitation to the opponent; with more seats, to whoever holds one (the
/// creator or a player who accepted), how many more players the game waits for. `None` once
/// every seat is taken.
fn waiting_words(players: &[crate::net::protocol::SeatView]) -> Option<String> {
    match (players.iter().filter(|p| !p.taken).count(), players.len()) {
        (0, _) => None,
        (_, 2) => Some("send the invitation to your opponent".to_string()),
        (free, _) => Some(format!(
            "waiting for {} to join (the invitation's code is in the panel)",
            crate::rules::counted(free, "more player", "more players")
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn state(outcome: serde_json::Value) -> Snapshot {
        serde_json::from_value(serde_json::json!({
            "game_id": "g", "game": "trike", "options": {"size": 7}, "since_ply": 0, "ply": 1, "moves": ["d7"],
            "players": [{"seat": 0, "name": "Black", "taken": true}, {"seat": 1, "name": "White", "taken": true}],
            "to_move": 1, "outcome": outcome, "clock": {"minutes": 1, "increment_s": 0},
            "clock_ms": [60000, 60000], "clock_started": true, "allow_tools": false, "rated": false,
        }))
        .expect("a snapshot")
    }

    #[test]
    fn a_resignation_keeps_the_running_clock_where_it_was_shown() {
        let seat = OnlineSeat { game_id: "g".into(), game: "trike".into(), seat: 0, ..OnlineSeat::default() };
        let mut game = OnlineGame::new(seat, state(serde_json::Value::Null));
        game.phase = Phase::Playing;
        std::thread::sleep(std::time::Duration::from_millis(30));
        let shown = game.clocks_now(Some(1)).unwrap();
        assert!(shown[1] < 60000 && shown[0] == 60000, "{shown:?}");
        // The server's final state carries the clocks stored at the last move.
        game.take_state(state(serde_json::json!({"winners": [0], "scores": [1, 0], "resigned": 1})));
        assert!(game.over());
        let after = game.clocks_now(Some(1)).unwrap();
        assert!(after[1] <= shown[1] && after[0] == 60000, "not set back: {after:?} after {shown:?}");
    }

    fn seats(taken: &[bool]) -> Vec<crate::net::protocol::SeatView> {
        let view =
            |(s, &taken)| crate::net::protocol::SeatView { seat: s as u8, name: String::new(), taken, player: None };
        taken.iter().enumerate().map(view).collect()
    }

    #[test]
    fn only_a_two_player_game_speaks_of_an_opponent() {
        let two = super::waiting_words(&seats(&[true, false]));
        assert_eq!(two.as_deref(), Some("send the invitation to your opponent"));
        // A player who accepted a four-player game waits for the others, and sends nothing.
        let four = super::waiting_words(&seats(&[true, true, false, false])).expect("seats free");
        assert!(four.contains("waiting for 2 more players") && !four.contains("opponent"), "{four}");
        let three = super::waiting_words(&seats(&[true, true, false])).expect("a seat free");
        assert!(three.contains("1 more player "), "{three}");
        assert_eq!(super::waiting_words(&seats(&[true, true, true])), None);
    }
}
