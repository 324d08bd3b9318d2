//! A game in memory ([`Room`]): as stored, with its position replayed through the rules and a
//! live game's clocks; what it answers about itself (its result, its snapshot, its refusals).

use super::clock::Clocks;
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
    /// The seat of each stored move (kept for live games, whose clocks charge it).
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
        let (Some(clock), Some(started_ms)) = (stored.setup.clock, stored.started_ms) else {
            let position = replay(&record_of(&stored.setup, &stored.moves)).map_err(|e| unreadable(e.to_string()))?;
            return Ok(Room {
                stored,
                position,
                used: 0,
                clocks: None,
                movers: Vec::new(),
                arrived: Vec::new(),
                names: Vec::new(),
            });
        };
        // Step by step, to know each move's seat.
        let mut position = replay(&record_of(&stored.setup, &[])).map_err(|e| unreadable(e.to_string()))?;
        let mut movers = Vec::with_capacity(stored.moves.len());
        for text in &stored.moves {
            let mover = position.to_move().ok_or_else(|| unreadable(format!("a move after the end, {text}")))?;
            position.play_text(text).map_err(|e| unreadable(format!("{text}: {}", e.reason)))?;
            movers.push(mover.0);
        }
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

    /// When the clock of the seat to move runs out (ms since the epoch), if it runs.
    pub fn deadline(&self) -> Option<u64> {
        let clocks = self.clocks.as_ref()?;
        Some(clocks.deadline(self.seat_to_move()?))
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

    /// The result, once the game is over by the rules, a resignation or a flag.
    pub fn result(&self) -> Option<GameResult> {
        let seats = u8::try_from(self.position.num_players()).unwrap_or(u8::MAX);
        if let Some(resigned) = self.stored.resigned {
            let winners = (0..seats).filter(|&s| s != resigned).collect();
            return Some(GameResult {
                winners,
                scores: Vec::new(),
                resigned: Some(resigned),
                flagged: None,
                withdrawn: false,
            });
        }
        if let Some(flagged) = self.stored.flagged {
            let winners = (0..seats).filter(|&s| s != flagged).collect();
            return Some(GameResult {
                winners,
                scores: Vec::new(),
                resigned: None,
                flagged: Some(flagged),
                withdrawn: false,
            });
        }
        let outcome = self.position.outcome()?;
        let winners = outcome.winners().iter().map(|p| p.0).collect();
        Some(GameResult {
            winners,
            scores: outcome.scores[..outcome.num_players].to_vec(),
            resigned: None,
            flagged: None,
            withdrawn: false,
        })
    }

    /// The refusal of anything but a look at a finished game, saying how it ended.
    pub fn over(&self) -> Refusal {
        let why = match (self.stored.resigned, self.stored.flagged) {
            (Some(seat), _) => format!(": seat {seat} resigned"),
            (None, Some(seat)) => format!(": seat {seat}'s time ran out"),
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
            clock: setup.clock,
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
