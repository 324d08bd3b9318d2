//! A game in memory ([`Room`]): as stored, with its position replayed through the rules and a
//! live game's clocks; what it answers about itself (its result, its snapshot, its refusals).

use super::clock::{Clocks, DAY_MS};
use super::store::{GameSetup, StoreError, StoredGame};
use crate::net::position::{Position, replay};
use crate::net::protocol::{ErrorCode, GameResult, Refusal, SeatView, Snapshot};
use crate::rules::Player;
use crate::rules::record::Record;

/// The record of `moves` of a stored game.
pub fn record_of(setup: &GameSetup, moves: &[String]) -> Record {
    Record::of_texts(&setup.game, setup.options.clone(), moves.to_vec())
}

/// A game in memory: as stored, and its position after every stored move.
pub struct Room {
    /// The game as stored.
    pub stored: StoredGame,
    /// Its position after every stored move.
    pub position: Box<dyn Position>,
    /// When it was last used, in the service's ticks (for evicting the least recently used).
    pub used: u64,
    /// A live game's clocks once every seat is taken; none for correspondence.
    pub clocks: Option<Clocks>,
    /// The seat of each stored move (a live game's clocks charge it; whether every seat moved
    /// tells an aborted game).
    pub movers: Vec<u8>,
    /// The seats whose player came to this rematch's board (synced with its token) while its
    /// clocks waited; kept in memory only (after a restart, the clients' syncs come again).
    pub arrived: Vec<bool>,
    /// Each seat's account name (none for a free seat or a guest), as the service read them.
    pub names: Vec<Option<String>>,
}

impl Room {
    /// A room for a stored game: its position replayed, and its clocks from the stored times.
    pub fn load(stored: StoredGame) -> Result<Room, Refusal> {
        let game_id = stored.setup.id.clone();
        let unreadable =
            |e: String| Refusal::new(ErrorCode::Storage, format!("the stored game {game_id} does not replay: {e}"));
        // Step by step, to know each move's seat.
        let mut position = replay(&record_of(&stored.setup, &[])).map_err(|e| unreadable(e.to_string()))?;
        let mut movers = Vec::with_capacity(stored.moves.len());
        for text in &stored.moves {
            let mover = position.to_move().ok_or_else(|| unreadable(format!("a move after the end, {text}")))?;
            position.play_text(text).map_err(|e| unreadable(format!("{text}: {}", e.reason)))?;
            movers.push(mover.0);
        }
        let (Some(clock), Some(started_ms)) = (stored.setup.clock, stored.started_ms) else {
            return Ok(Room {
                stored,
                position,
                used: 0,
                clocks: None,
                movers,
                arrived: Vec::new(),
                names: Vec::new(),
            });
        };
        let mut clocks = Clocks::replay(clock, position.num_players(), started_ms, &movers, &stored.move_ms);
        if let Some(seat) = stored.flagged {
            clocks.flag(seat, stored.move_ms.last().copied().unwrap_or(started_ms));
        }
        Ok(Room { stored, position, used: 0, clocks: Some(clocks), movers, arrived: Vec::new(), names: Vec::new() })
    }

    /// The seat to move while the game runs.
    pub fn seat_to_move(&self) -> Option<u8> {
        if self.result().is_some() { None } else { self.position.to_move().map(|p| p.0) }
    }

    /// When the clock of the seat to move runs out (ms since the epoch), if it runs: a live
    /// game's clock, or a correspondence game's days per move from its turn's start (the last
    /// move, or the moment every seat was taken).
    pub fn deadline(&self) -> Option<u64> {
        let seat = self.seat_to_move()?;
        if let Some(clocks) = &self.clocks {
            return Some(clocks.deadline(seat));
        }
        let days = self.stored.setup.days_per_move?;
        // A rematch (its seats the players' from the start) counts from its making.
        let full = self.stored.setup.seats.iter().all(Option::is_some);
        let made = full.then_some(self.stored.created_ms);
        let since = self.stored.move_ms.last().copied().or(self.stored.started_ms).or(made)?;
        Some(since.saturating_add(u64::from(days).saturating_mul(DAY_MS)))
    }

    /// Whether `seat` left this game of three or four while it goes on ([`Room::result`]).
    pub fn is_out(&self, seat: u8) -> bool {
        self.stored.outs.iter().any(|o| o.seat == seat)
    }

    /// Whether a resignation or a flag of a seat takes only that seat out, the others playing on:
    /// a game of three or four seats that every seat has moved in.
    pub fn plays_on(&self) -> bool {
        self.position.num_players() > 2 && self.every_seat_moved()
    }

    /// A live game's clocks at `now_ms`: each seat's time left in ms (everybody's whole time until
    /// the clocks start); none for correspondence.
    pub fn clock_ms(&self, now_ms: u64) -> Option<Vec<u64>> {
        let clock = self.stored.setup.clock?;
        Some(match &self.clocks {
            Some(clocks) => clocks.left_at(self.seat_to_move(), now_ms),
            None => vec![u64::from(clock.minutes) * 60_000; self.position.num_players()],
        })
    }

    /// The seat `token` holds, if any.
    pub fn seat_of(&self, token: &str) -> Option<u8> {
        self.stored.setup.seats.iter().position(|t| t.as_deref() == Some(token)).and_then(|s| u8::try_from(s).ok())
    }

    /// Whether every seat has made a move (a swap is a move; a game ended before is aborted).
    pub fn every_seat_moved(&self) -> bool {
        (0..self.position.num_players()).all(|s| self.movers.iter().any(|&m| usize::from(m) == s))
    }

    /// The result, once the game is over by the rules, a resignation or a flag. A resignation or a
    /// flag before every seat has moved aborts the game: no winners ([`GameResult::aborted`]).
    pub fn result(&self) -> Option<GameResult> {
        let seats = u8::try_from(self.position.num_players()).unwrap_or(u8::MAX);
        let (resigned, flagged) = (self.stored.resigned, self.stored.flagged);
        if let Some(loser) = resigned.or(flagged) {
            let aborted = !self.every_seat_moved();
            let winners = if aborted { Vec::new() } else { (0..seats).filter(|&s| s != loser).collect() };
            let flagged = if resigned.is_some() { None } else { flagged };
            return Some(GameResult { winners, resigned, flagged, aborted, ..GameResult::default() });
        }
        let outcome = self.position.outcome()?;
        let scores = outcome.scores[..outcome.num_players].to_vec();
        let out = self.stored.outs.clone();
        if out.is_empty() {
            let winners = outcome.winners().iter().map(|p| p.0).collect();
            return Some(GameResult { winners, scores, ..GameResult::default() });
        }
        // The seats that stayed to the end share the best of their scores (if every one left,
        // the last to leave wins, as its place says: `ratings::places`).
        let stayed: Vec<u8> = (0..seats).filter(|&s| !self.is_out(s)).collect();
        let contenders = if stayed.is_empty() { out.last().map(|o| vec![o.seat]).unwrap_or_default() } else { stayed };
        let best = contenders.iter().map(|&s| scores[usize::from(s)]).max();
        let winners = contenders.into_iter().filter(|&s| Some(scores[usize::from(s)]) == best).collect();
        Some(GameResult { winners, scores, out, ..GameResult::default() })
    }

    /// The refusal of anything but a look at a finished game, saying how it ended.
    pub fn over(&self) -> Refusal {
        let aborted = if self.every_seat_moved() { "" } else { ", aborted before every seat moved" };
        let why = match (self.stored.resigned, self.stored.flagged) {
            (Some(seat), _) => format!(": seat {seat} resigned{aborted}"),
            (None, Some(seat)) => format!(": seat {seat}'s time ran out{aborted}"),
            (None, None) => String::new(),
        };
        Refusal::new(ErrorCode::GameOver, format!("the game is over{why}"))
    }

    /// The game as it stands at `now_ms`, its moves from `since_ply` on.
    pub fn snapshot(&self, since_ply: usize, now_ms: u64) -> Snapshot {
        let setup = &self.stored.setup;
        let since = since_ply.min(self.stored.moves.len());
        let players = (0..self.position.num_players())
            .map(|s| SeatView {
                seat: s as u8,
                name: self.position.player_name(Player(s as u8)).to_string(),
                taken: setup.seats.get(s).is_some_and(Option::is_some),
                player: self.names.get(s).cloned().flatten(),
            })
            .collect();
        let outcome = self.result();
        Snapshot {
            game_id: setup.id.clone(),
            game: setup.game.clone(),
            options: setup.options.clone(),
            since_ply: since as u32,
            moves: self.stored.moves[since..].to_vec(),
            ply: self.stored.moves.len() as u32,
            players,
            to_move: if outcome.is_some() { None } else { self.position.to_move().map(|p| p.0) },
            outcome,
            out: self.stored.outs.clone(),
            clock: setup.clock,
            days_per_move: setup.days_per_move,
            deadline_ms: if setup.clocks_run() { None } else { self.deadline() },
            clock_ms: self.clock_ms(now_ms),
            clock_started: self.clocks.is_some(),
            allow_tools: setup.allow_tools,
            rated: setup.rated,
            rematch: self.stored.rematch.clone(),
            rematch_of: setup.rematch_of.clone(),
        }
    }
}

/// The refusal for a failed store.
pub fn storage(e: &StoreError) -> Refusal {
    Refusal::new(ErrorCode::Storage, format!("nothing was saved: {e}"))
}

/// The refusal of a token that holds no seat of the game.
pub fn bad_token() -> Refusal {
    Refusal::new(ErrorCode::BadToken, "this token holds no seat of the game")
}

/// The refusals that a game in memory gone stale could give (another server sharing the store
/// played meanwhile): with a shared store they are checked against the store once more.
pub const STALE_CODES: [ErrorCode; 7] = [
    ErrorCode::GameFull,
    ErrorCode::PlyAhead,
    ErrorCode::StalePly,
    ErrorCode::NotYourTurn,
    ErrorCode::NotStarted,
    ErrorCode::GameOver,
    ErrorCode::BadToken,
];
