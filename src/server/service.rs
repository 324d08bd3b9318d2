//! The server-authoritative game logic: [`Service`] answers [`ClientMessage`]s for every game of
//! the registry ([`crate::for_each_game`]), checking each move with the same rules code as the
//! app and the command line, and writing it to the [`Store`] before it is acknowledged.
//!
//! The service knows nothing of connections: [`Service::handle`] takes one message and returns a
//! [`Reply`], the messages for the sender and those for everybody following the game. A
//! transport (WebSocket, a test) carries them.
//!
//! Games are replayed from their stored moves through the rules ([`Record::replay`]) and kept in
//! a bounded cache of rooms; the store stays the truth: a write it refuses (another process
//! wrote first) drops the room, so the next message replays the game afresh.
//!
//! Live games keep time ([`super::clock`]): the time source is the caller's
//! ([`Service::handle_at`] takes now in ms since the Unix epoch; [`Service::handle`] reads the
//! system clock), so tests check flags without waiting. A clock that ran out is noticed by
//! [`Service::sweep`] (the transport calls it a few times a second) or by the next message about
//! the game, whichever comes first; either stores the flag and announces the final state.

use std::collections::HashMap;

use rand::TryRngCore as _;
use rand::rngs::OsRng;
use serde_json::Value;

use super::clock::Clocks;
use super::store::{GameSetup, Store, StoreError, StoredGame, now_ms};
use crate::net::protocol::{
    ClientMessage, Clock, ErrorCode, GameResult, Refusal, SeatView, ServerMessage, Snapshot, decode_client,
};
use crate::rules::record::{Record, RecordError};
use crate::rules::{Game, IllegalMove, Outcome, Player};

/// The characters of join codes: digits and capitals without look-alikes (no 0, O, 1, I, L).
pub const CODE_ALPHABET: &[u8] = b"23456789ABCDEFGHJKMNPQRSTUVWXYZ";

/// How many characters a join code has (31⁸ ≈ 8.5 · 10¹¹ codes).
pub const CODE_LENGTH: usize = 8;

/// How many games the service keeps replayed in memory by default ([`Service::with_capacity`]).
pub const DEFAULT_CAPACITY: usize = 4096;

/// What the service answers one message with.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Reply {
    /// For the sender, in order.
    pub messages: Vec<ServerMessage>,
    /// For everybody else following a game (its other seats, its spectators), if anything.
    pub broadcast: Option<Broadcast>,
}

/// Messages for everybody following one game.
#[derive(Clone, Debug, PartialEq)]
pub struct Broadcast {
    /// The game.
    pub game_id: String,
    /// The messages, in order.
    pub messages: Vec<ServerMessage>,
}

impl Reply {
    /// A reply of one error message.
    pub fn refused(refusal: Refusal) -> Reply {
        Reply { messages: vec![refusal.into_message()], broadcast: None }
    }

    /// The refusal, if the reply is one.
    pub fn error(&self) -> Option<(ErrorCode, &str)> {
        match self.messages.as_slice() {
            [ServerMessage::Error { code, message }] => Some((*code, message.as_str())),
            _ => None,
        }
    }
}

/// One game's position with its type erased, for the rooms: the registry's game types behind one
/// interface.
trait Position: Send {
    fn num_players(&self) -> usize;
    fn to_move(&self) -> Option<Player>;
    fn outcome(&self) -> Option<Outcome>;
    fn player_name(&self, player: Player) -> &'static str;
    fn options(&self) -> Value;
    /// Reads and plays a move, returning its text as the rules write it; unchanged on error.
    fn play_text(&mut self, text: &str) -> Result<String, IllegalMove>;
    /// Plays the move the rules force here, if any, returning its text.
    fn play_forced(&mut self) -> Option<String>;
    fn boxed(&self) -> Box<dyn Position>;
}

struct Typed<G: Game>(G);

impl<G: Game> Position for Typed<G> {
    fn num_players(&self) -> usize {
        self.0.num_players()
    }
    fn to_move(&self) -> Option<Player> {
        self.0.to_move()
    }
    fn outcome(&self) -> Option<Outcome> {
        self.0.outcome()
    }
    fn player_name(&self, player: Player) -> &'static str {
        self.0.player_name(player)
    }
    fn options(&self) -> Value {
        serde_json::to_value(self.0.options()).unwrap_or(Value::Null)
    }
    fn play_text(&mut self, text: &str) -> Result<String, IllegalMove> {
        let mv = self.0.parse_move(text)?;
        let text = self.0.move_text(mv);
        self.0.play(mv)?;
        Ok(text)
    }
    fn play_forced(&mut self) -> Option<String> {
        let mv = self.0.forced_move()?;
        let text = self.0.move_text(mv);
        self.0.play(mv).ok()?;
        Some(text)
    }
    fn boxed(&self) -> Box<dyn Position> {
        Box::new(Typed(self.0.clone()))
    }
}

/// Replays `record` with the game type the registry gives its game id.
fn replay(record: &Record) -> Result<Box<dyn Position>, RecordError> {
    macro_rules! find {
        ($($g:ty),*) => {
            $( if <$g as Game>::IDS.contains(&record.game.as_str()) {
                return record.replay::<$g>().map(|(_, game, _)| Box::new(Typed(game)) as Box<dyn Position>);
            } )*
        };
    }
    crate::for_each_game!(find);
    Err(RecordError::WrongGame { expected: crate::rules::game_ids().join("' or '"), found: record.game.clone() })
}

/// The record of `moves` of a stored game.
fn record_of(setup: &GameSetup, moves: &[String]) -> Record {
    Record::of_texts(&setup.game, setup.options.clone(), moves.to_vec())
}

/// A game in memory: as stored, and its position after every stored move.
struct Room {
    stored: StoredGame,
    position: Box<dyn Position>,
    /// When it was last used, in the service's ticks (for evicting the least recently used).
    used: u64,
    /// A live game's clocks once every seat is taken; none for correspondence.
    clocks: Option<Clocks>,
    /// The seat of each stored move (kept for live games, whose clocks charge it).
    movers: Vec<u8>,
}

impl Room {
    /// A room for a stored game: its position replayed, and its clocks from the stored times.
    fn load(stored: StoredGame) -> Result<Room, Refusal> {
        let game_id = stored.setup.id.clone();
        let unreadable =
            |e: String| Refusal::new(ErrorCode::Storage, format!("the stored game {game_id} does not replay: {e}"));
        let (Some(clock), Some(started_ms)) = (stored.setup.clock, stored.started_ms) else {
            let position = replay(&record_of(&stored.setup, &stored.moves)).map_err(|e| unreadable(e.to_string()))?;
            return Ok(Room { stored, position, used: 0, clocks: None, movers: Vec::new() });
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
        Ok(Room { stored, position, used: 0, clocks: Some(clocks), movers })
    }

    /// The seat to move while the game runs.
    fn seat_to_move(&self) -> Option<u8> {
        if self.result().is_some() { None } else { self.position.to_move().map(|p| p.0) }
    }

    /// When the clock of the seat to move runs out (ms since the epoch), if it runs.
    fn deadline(&self) -> Option<u64> {
        let clocks = self.clocks.as_ref()?;
        Some(clocks.deadline(self.seat_to_move()?))
    }

    /// A live game's clocks at `now_ms`: each seat's time left in ms (everybody's whole time until
    /// the clocks start); none for correspondence.
    fn clock_ms(&self, now_ms: u64) -> Option<Vec<u64>> {
        let clock = self.stored.setup.clock?;
        Some(match &self.clocks {
            Some(clocks) => clocks.left_at(self.seat_to_move(), now_ms),
            None => vec![u64::from(clock.minutes) * 60_000; self.position.num_players()],
        })
    }

    fn seat_of(&self, token: &str) -> Option<u8> {
        self.stored.setup.seats.iter().position(|t| t.as_deref() == Some(token)).and_then(|s| u8::try_from(s).ok())
    }

    /// The result, once the game is over by the rules, a resignation or a flag.
    fn result(&self) -> Option<GameResult> {
        let seats = u8::try_from(self.position.num_players()).unwrap_or(u8::MAX);
        if let Some(resigned) = self.stored.resigned {
            let winners = (0..seats).filter(|&s| s != resigned).collect();
            return Some(GameResult { winners, scores: Vec::new(), resigned: Some(resigned), flagged: None });
        }
        if let Some(flagged) = self.stored.flagged {
            let winners = (0..seats).filter(|&s| s != flagged).collect();
            return Some(GameResult { winners, scores: Vec::new(), resigned: None, flagged: Some(flagged) });
        }
        let outcome = self.position.outcome()?;
        let winners = outcome.winners().iter().map(|p| p.0).collect();
        Some(GameResult {
            winners,
            scores: outcome.scores[..outcome.num_players].to_vec(),
            resigned: None,
            flagged: None,
        })
    }

    /// The refusal of anything but a look at a finished game, saying how it ended.
    fn over(&self) -> Refusal {
        let why = match (self.stored.resigned, self.stored.flagged) {
            (Some(seat), _) => format!(": seat {seat} resigned"),
            (None, Some(seat)) => format!(": seat {seat}'s time ran out"),
            (None, None) => String::new(),
        };
        Refusal::new(ErrorCode::GameOver, format!("the game is over{why}"))
    }

    fn snapshot(&self, since_ply: usize, now_ms: u64) -> Snapshot {
        let setup = &self.stored.setup;
        let since = since_ply.min(self.stored.moves.len());
        let players = (0..self.position.num_players())
            .map(|s| SeatView {
                seat: s as u8,
                name: self.position.player_name(Player(s as u8)).to_string(),
                taken: setup.seats.get(s).is_some_and(Option::is_some),
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
            allow_tools: setup.allow_tools,
            rematch: self.stored.rematch.clone(),
            rematch_of: setup.rematch_of.clone(),
        }
    }
}

/// The refusal for a failed store.
fn storage(e: &StoreError) -> Refusal {
    Refusal::new(ErrorCode::Storage, format!("nothing was saved: {e}"))
}

pub use crate::net::protocol::normalize_code;

/// The server's game logic over a store: see the module's doc.
pub struct Service<S: Store> {
    store: S,
    rooms: HashMap<String, Room>,
    capacity: usize,
    tick: u64,
    /// When the running clock of each live game runs out (ms since the epoch), rooms evicted or
    /// not: what [`Service::sweep`] checks.
    deadlines: HashMap<String, u64>,
}

impl<S: Store> std::fmt::Debug for Service<S> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Service").field("rooms", &self.rooms.len()).field("capacity", &self.capacity).finish()
    }
}

impl<S: Store> Service<S> {
    /// A service over `store`, keeping up to [`DEFAULT_CAPACITY`] games in memory.
    pub fn new(store: S) -> Service<S> {
        Service::with_capacity(store, DEFAULT_CAPACITY)
    }

    /// A service over `store`, keeping up to `capacity` (at least 1) games in memory.
    pub fn with_capacity(store: S, capacity: usize) -> Service<S> {
        Service { store, rooms: HashMap::new(), capacity: capacity.max(1), tick: 0, deadlines: HashMap::new() }
    }

    /// The store.
    pub fn store(&self) -> &S {
        &self.store
    }

    /// The store, the service dropped.
    pub fn into_store(self) -> S {
        self.store
    }

    /// Answers a message as received: decoded ([`decode_client`]), then [`Service::handle`]d. A
    /// message that cannot be read is answered with its error and changes nothing.
    pub fn handle_text(&mut self, text: &str) -> Reply {
        self.handle_text_at(text, now_ms())
    }

    /// [`Service::handle_text`] at `now_ms` (ms since the Unix epoch).
    pub fn handle_text_at(&mut self, text: &str, now_ms: u64) -> Reply {
        match decode_client(text) {
            Ok(message) => self.handle_at(message, now_ms),
            Err(refusal) => Reply::refused(refusal),
        }
    }

    /// Answers a message now (the system clock): [`Service::handle_at`].
    pub fn handle(&mut self, message: ClientMessage) -> Reply {
        self.handle_at(message, now_ms())
    }

    /// Answers a message arriving at `now_ms` (ms since the Unix epoch). A refused one is answered
    /// with one [`ServerMessage::Error`] and changes nothing; an accepted change is stored before
    /// this returns. A game whose clock ran out by `now_ms` is flagged first: the answer then
    /// starts with the final [`ServerMessage::State`], which is broadcast too.
    pub fn handle_at(&mut self, message: ClientMessage, now_ms: u64) -> Reply {
        if let Err(refusal) = message.check_sizes() {
            return Reply::refused(refusal);
        }
        let flagged = match &message {
            ClientMessage::Move { game_id, .. }
            | ClientMessage::Resign { game_id, .. }
            | ClientMessage::Rematch { game_id, .. }
            | ClientMessage::Watch { game_id }
            | ClientMessage::Sync { game_id, .. } => self.flag_if_due(game_id, now_ms),
            ClientMessage::Create { .. } | ClientMessage::Join { .. } => None,
        };
        let result = match message {
            ClientMessage::Create { game, options, seat, clock, allow_tools } => {
                self.create(&game, options, seat, clock, allow_tools, now_ms)
            }
            ClientMessage::Join { code } => self.join(&code, now_ms),
            ClientMessage::Move { game_id, token, text, ply } => self.play(&game_id, &token, &text, ply, now_ms),
            ClientMessage::Resign { game_id, token } => self.resign(&game_id, &token, now_ms),
            ClientMessage::Rematch { game_id, token } => self.rematch(&game_id, &token, now_ms),
            ClientMessage::Watch { game_id } => self.state(&game_id, 0, now_ms),
            ClientMessage::Sync { game_id, since_ply, .. } => self.state(&game_id, since_ply, now_ms),
        };
        let mut reply = result.unwrap_or_else(Reply::refused);
        if let Some(end) = flagged {
            if !matches!(reply.messages.first(), Some(ServerMessage::State(_))) {
                reply.messages.insert(0, end.messages[0].clone());
            }
            match &mut reply.broadcast {
                Some(b) if b.game_id == end.game_id => {
                    b.messages.splice(0..0, end.messages);
                }
                _ => reply.broadcast = Some(end),
            }
        }
        reply
    }

    /// The seat `token` holds in game `game_id`, if any (for presence).
    pub fn seat_of(&mut self, game_id: &str, token: &str) -> Option<u8> {
        self.room(game_id).ok()?.seat_of(token)
    }

    /// How many seats game `game_id` has, if it exists.
    pub fn seat_count(&mut self, game_id: &str) -> Option<usize> {
        Some(self.room(game_id).ok()?.stored.setup.seats.len())
    }

    /// Flags every live game whose clock ran out by `now_ms` (ms since the Unix epoch), storing the
    /// flag, and returns each one's final [`ServerMessage::State`] for its followers.
    pub fn sweep(&mut self, now_ms: u64) -> Vec<Broadcast> {
        let due: Vec<String> =
            self.deadlines.iter().filter(|&(_, &deadline)| deadline <= now_ms).map(|(id, _)| id.clone()).collect();
        due.into_iter().filter_map(|id| self.flag_if_due(&id, now_ms)).collect()
    }

    /// When the next clock runs out, in ms since the epoch, if a clock runs.
    pub fn next_deadline(&self) -> Option<u64> {
        self.deadlines.values().copied().min()
    }

    /// Finds the live games of the store whose clocks may be running (after a restart), so that
    /// [`Service::sweep`] watches them; returns how many there are.
    ///
    /// # Errors
    /// A storage refusal if the store cannot list them.
    pub fn resume_clocks(&mut self) -> Result<usize, Refusal> {
        let ids = self.store.clocked_games().map_err(|e| storage(&e))?;
        for id in &ids {
            // A game that does not replay is refused when it is used; it does not stop the others.
            let _ = self.room(id);
        }
        Ok(ids.len())
    }

    /// Starts a batch of writes in the store ([`Store::begin_batch`]): the group commit.
    ///
    /// # Errors
    /// A storage refusal.
    pub fn begin_batch(&mut self) -> Result<(), Refusal> {
        self.store.begin_batch().map_err(|e| storage(&e))
    }

    /// Commits the batch ([`Store::commit_batch`]). On an error nothing of the batch was stored:
    /// the games in memory are dropped (they are replayed from the store when next used) and the
    /// answers given meanwhile must not be sent.
    ///
    /// # Errors
    /// A storage refusal, to answer each message of the batch with.
    pub fn commit_batch(&mut self) -> Result<(), Refusal> {
        self.store.commit_batch().map_err(|e| {
            self.rooms.clear();
            self.deadlines.clear();
            let _ = self.resume_clocks();
            storage(&e)
        })
    }

    /// Flags game `game_id` if the clock of its seat to move ran out by `now_ms`: stores the flag
    /// and returns the final state for everybody following the game.
    fn flag_if_due(&mut self, game_id: &str, now_ms: u64) -> Option<Broadcast> {
        let room = self.room(game_id).ok()?;
        let Some(deadline) = room.deadline() else {
            self.deadlines.remove(game_id);
            return None;
        };
        if deadline > now_ms {
            return None;
        }
        let seat = room.seat_to_move()?;
        if let Err(e) = self.store.flag(game_id, seat) {
            self.rooms.remove(game_id);
            if !matches!(e, StoreError::Conflict(_)) {
                return None; // Tried again at the next sweep.
            }
            // Over already in the store (another process): replay it from there.
            self.deadlines.remove(game_id);
            let room = self.room(game_id).ok()?;
            return Some(Broadcast {
                game_id: game_id.to_string(),
                messages: vec![ServerMessage::State(room.snapshot(0, now_ms))],
            });
        }
        let room = self.rooms.get_mut(game_id)?;
        room.stored.flagged = Some(seat);
        if let Some(clocks) = &mut room.clocks {
            clocks.flag(seat, deadline);
        }
        let state = ServerMessage::State(room.snapshot(0, now_ms));
        self.deadlines.remove(game_id);
        Some(Broadcast { game_id: game_id.to_string(), messages: vec![state] })
    }

    /// Notes when game `game_id`'s running clock runs out, or that none runs.
    fn track(&mut self, game_id: &str) {
        match self.rooms.get(game_id).and_then(Room::deadline) {
            Some(deadline) => self.deadlines.insert(game_id.to_string(), deadline),
            None => self.deadlines.remove(game_id),
        };
    }

    /// Creates a game: its kind and options checked by the rules, the creator seated.
    fn create(
        &mut self,
        game: &str,
        options: Value,
        seat: u8,
        clock: Option<Clock>,
        allow_tools: bool,
        now_ms: u64,
    ) -> Result<Reply, Refusal> {
        let mut record = record_of(&blank_setup(game), &[]);
        record.options = options;
        let position = replay(&record).map_err(|e| match e {
            RecordError::WrongGame { .. } => Refusal::new(
                ErrorCode::UnknownGameKind,
                format!("'{game}' is not a game triboard knows; it plays {}", crate::rules::game_ids().join(", ")),
            ),
            other => Refusal::new(ErrorCode::BadOptions, other.to_string()),
        })?;
        let seats = position.num_players();
        if usize::from(seat) >= seats {
            return Err(Refusal::new(ErrorCode::BadSeat, format!("{game} has seats 0 to {}, not {seat}", seats - 1)));
        }
        if let Some(clock) = clock {
            clock.check().map_err(|why| Refusal::new(ErrorCode::BadClock, why))?;
        }
        let token = new_token()?;
        let mut setup = GameSetup {
            id: String::new(),
            game: game.to_string(),
            options: position.options(),
            clock,
            allow_tools,
            code: String::new(),
            seats: vec![None; seats],
            rematch_of: None,
        };
        setup.seats[usize::from(seat)] = Some(token.clone());
        self.insert_new(&mut setup, None, now_ms)?;
        let created = ServerMessage::Created { game_id: setup.id.clone(), code: setup.code.clone(), seat, token };
        let room = Room::load(new_game(setup, now_ms))?;
        let state = ServerMessage::State(room.snapshot(0, now_ms));
        let game_id = room.stored.setup.id.clone();
        self.keep(room);
        self.track(&game_id);
        Ok(Reply { messages: vec![created, state], broadcast: None })
    }

    /// Stores a new game (the rematch of `of`, if given) under a fresh id and join code, trying
    /// again if they collide with another game's.
    fn insert_new(&mut self, setup: &mut GameSetup, of: Option<&str>, now_ms: u64) -> Result<(), Refusal> {
        let mut tries = 0;
        loop {
            setup.id = hex(&random_bytes::<8>()?);
            setup.code = new_code()?;
            let result = match of {
                None => self.store.create_game(setup, now_ms),
                Some(of) => self.store.create_rematch(of, setup, now_ms),
            };
            match result {
                Ok(()) => return Ok(()),
                Err(StoreError::Conflict(_)) if tries < 3 => tries += 1,
                Err(e) => return Err(storage(&e)),
            }
        }
    }

    /// Seats a newcomer in the first free seat of the game with join code `code`.
    fn join(&mut self, code: &str, now_ms: u64) -> Result<Reply, Refusal> {
        let code = normalize_code(code);
        let game_id = self.store.game_of_code(&code).map_err(|e| storage(&e))?;
        let game_id =
            game_id.ok_or_else(|| Refusal::new(ErrorCode::UnknownCode, format!("no game has the code {code}")))?;
        let room = self.room(&game_id)?;
        if room.result().is_some() {
            return Err(room.over());
        }
        let Some(seat) = room.stored.setup.seats.iter().position(Option::is_none) else {
            return Err(Refusal::new(ErrorCode::GameFull, "every seat of the game is taken"));
        };
        let seat = seat as u8;
        let token = new_token()?;
        if let Err(e) = self.store.add_seat(&game_id, seat, &token, now_ms) {
            self.rooms.remove(&game_id);
            return Err(match e {
                StoreError::Conflict(_) => Refusal::new(ErrorCode::GameFull, "the seat was taken meanwhile: try again"),
                e => storage(&e),
            });
        }
        let room = self.room(&game_id)?;
        room.stored.setup.seats[usize::from(seat)] = Some(token.clone());
        if room.stored.setup.seats.iter().all(Option::is_some) {
            // The last seat: the clocks start.
            room.stored.started_ms = Some(now_ms);
            room.clocks = room.stored.setup.clock.map(|c| Clocks::start(c, room.stored.setup.seats.len(), now_ms));
        }
        let state = room.snapshot(0, now_ms);
        self.track(&game_id);
        let joined = ServerMessage::Joined { game_id: game_id.clone(), seat, token };
        Ok(Reply {
            messages: vec![joined, ServerMessage::State(state.clone())],
            broadcast: Some(Broadcast { game_id, messages: vec![ServerMessage::State(state)] }),
        })
    }

    /// Plays a move for the seat of `token`, and the moves the rules then force, after storing
    /// them all in one write.
    fn play(&mut self, game_id: &str, token: &str, text: &str, ply: u32, now_ms: u64) -> Result<Reply, Refusal> {
        let room = self.room(game_id)?;
        let seat = room.seat_of(token).ok_or_else(bad_token)?;
        let played = room.stored.moves.len();
        let ply_at = usize::try_from(ply).unwrap_or(usize::MAX);
        if ply_at < played {
            return retry(room, seat, text, ply_at);
        }
        if ply_at > played {
            return Err(Refusal::new(
                ErrorCode::PlyAhead,
                format!("the game has {played} moves, so the next is at ply {played}, not {ply}"),
            ));
        }
        if room.result().is_some() {
            return Err(room.over());
        }
        if let Some(free) = room.stored.setup.seats.iter().position(Option::is_none) {
            return Err(Refusal::new(ErrorCode::NotStarted, format!("seat {free} is still free: wait for it to join")));
        }
        let to_move = room.position.to_move().ok_or_else(|| Refusal::new(ErrorCode::GameOver, "the game is over"))?;
        if to_move.0 != seat {
            let name = room.position.player_name(to_move);
            return Err(Refusal::new(ErrorCode::NotYourTurn, format!("it is {name}'s turn (seat {})", to_move.0)));
        }
        let mut next = room.position.boxed();
        let first =
            next.play_text(text).map_err(|e| Refusal::new(ErrorCode::IllegalMove, format!("{text}: {}", e.reason)))?;
        let mut moves = vec![(seat, first)];
        // Trigon's passes: the server plays what the rules force, as the app and the referees do.
        while next.outcome().is_none() && moves.len() < 4096 {
            let Some(mover) = next.to_move() else { break };
            let Some(forced) = next.play_forced() else { break };
            moves.push((mover.0, forced));
        }
        let texts: Vec<String> = moves.iter().map(|(_, t)| t.clone()).collect();
        if let Err(e) = self.store.append_moves(game_id, ply, &texts, now_ms) {
            // The store is the truth: replay the game from it next time.
            self.rooms.remove(game_id);
            return Err(match e {
                StoreError::Conflict(why) => {
                    Refusal::new(ErrorCode::StalePly, format!("the game changed meanwhile ({why}): sync and try again"))
                }
                e => storage(&e),
            });
        }
        let room = self.room(game_id)?;
        room.stored.moves.extend(texts);
        room.stored.move_ms.extend(std::iter::repeat_n(now_ms, moves.len()));
        room.position = next;
        let mut messages = Vec::with_capacity(moves.len());
        for (k, (seat, text)) in moves.into_iter().enumerate() {
            room.movers.push(seat);
            let clock_ms = room.clocks.as_mut().map(|clocks| {
                clocks.play(seat, now_ms);
                clocks.left_at(None, now_ms)
            });
            messages.push(ServerMessage::Moved {
                game_id: game_id.to_string(),
                ply: ply + k as u32,
                text,
                seat,
                clock_ms,
            });
        }
        self.track(game_id);
        Ok(Reply { messages: messages.clone(), broadcast: Some(Broadcast { game_id: game_id.to_string(), messages }) })
    }

    /// Ends the game by the resignation of the seat of `token`.
    fn resign(&mut self, game_id: &str, token: &str, now_ms: u64) -> Result<Reply, Refusal> {
        let room = self.room(game_id)?;
        let seat = room.seat_of(token).ok_or_else(bad_token)?;
        if room.result().is_some() {
            return Err(room.over());
        }
        if let Err(e) = self.store.resign(game_id, seat) {
            self.rooms.remove(game_id);
            return Err(match e {
                StoreError::Conflict(why) => Refusal::new(ErrorCode::GameOver, format!("the game is over: {why}")),
                e => storage(&e),
            });
        }
        let room = self.room(game_id)?;
        room.stored.resigned = Some(seat);
        let state = ServerMessage::State(room.snapshot(0, now_ms));
        self.track(game_id);
        Ok(Reply {
            messages: vec![state.clone()],
            broadcast: Some(Broadcast { game_id: game_id.to_string(), messages: vec![state] }),
        })
    }

    /// The rematch of a finished game, made on the first request, with every token one seat on.
    fn rematch(&mut self, game_id: &str, token: &str, now_ms: u64) -> Result<Reply, Refusal> {
        let room = self.room(game_id)?;
        room.seat_of(token).ok_or_else(bad_token)?;
        if room.result().is_none() {
            return Err(Refusal::new(ErrorCode::NotOver, "a rematch waits for the end of the game"));
        }
        let new_id = match room.stored.rematch.clone() {
            Some(id) => id,
            None => {
                let old = room.stored.setup.clone();
                let n = old.seats.len();
                let seats = (0..n).map(|s| old.seats[(s + n - 1) % n].clone()).collect();
                let mut setup = GameSetup { seats, rematch_of: Some(game_id.to_string()), ..old };
                replay(&record_of(&setup, &[])).map_err(|e| storage(&StoreError::Failed(e.to_string())))?;
                match self.insert_new(&mut setup, Some(game_id), now_ms) {
                    Ok(()) => {
                        let id = setup.id.clone();
                        self.keep(Room::load(new_game(setup, now_ms))?);
                        self.track(&id);
                        if let Some(old) = self.rooms.get_mut(game_id) {
                            old.stored.rematch = Some(id.clone());
                        }
                        id
                    }
                    Err(refusal) => {
                        // Another process may have made it meanwhile: the store says.
                        self.rooms.remove(game_id);
                        self.room(game_id)?.stored.rematch.clone().ok_or(refusal)?
                    }
                }
            }
        };
        let room = self.room(&new_id)?;
        let seat = room.seat_of(token).ok_or_else(bad_token)?;
        let rematched = ServerMessage::Rematched { game_id: new_id, rematch_of: game_id.to_string(), seat };
        Ok(Reply {
            messages: vec![rematched.clone()],
            broadcast: Some(Broadcast { game_id: game_id.to_string(), messages: vec![rematched] }),
        })
    }

    /// The game as it stands, its moves from `since_ply` on.
    fn state(&mut self, game_id: &str, since_ply: u32, now_ms: u64) -> Result<Reply, Refusal> {
        let room = self.room(game_id)?;
        let played = room.stored.moves.len();
        let since = usize::try_from(since_ply).unwrap_or(usize::MAX);
        if since > played {
            return Err(Refusal::new(
                ErrorCode::PlyAhead,
                format!("the game has {played} moves, fewer than {since_ply}"),
            ));
        }
        Ok(Reply { messages: vec![ServerMessage::State(room.snapshot(since, now_ms))], broadcast: None })
    }

    /// The room of a game, replayed from the store if it is not in memory.
    fn room(&mut self, game_id: &str) -> Result<&mut Room, Refusal> {
        self.tick += 1;
        if !self.rooms.contains_key(game_id) {
            let stored = self.store.load_game(game_id).map_err(|e| storage(&e))?;
            let stored =
                stored.ok_or_else(|| Refusal::new(ErrorCode::UnknownGame, format!("no game has the id {game_id}")))?;
            let room = Room::load(stored)?;
            match room.deadline() {
                Some(deadline) => self.deadlines.insert(game_id.to_string(), deadline),
                None => self.deadlines.remove(game_id),
            };
            self.keep(room);
        }
        let tick = self.tick;
        let room = self
            .rooms
            .get_mut(game_id)
            .ok_or_else(|| Refusal::new(ErrorCode::Storage, format!("the game {game_id} could not be kept")))?;
        room.used = tick;
        Ok(room)
    }

    /// Keeps a room in memory, evicting the least recently used one if the cache is full.
    fn keep(&mut self, mut room: Room) {
        if self.rooms.len() >= self.capacity && !self.rooms.contains_key(&room.stored.setup.id) {
            let oldest = self.rooms.iter().min_by_key(|(_, r)| r.used).map(|(id, _)| id.clone());
            if let Some(oldest) = oldest {
                self.rooms.remove(&oldest);
            }
        }
        self.tick += 1;
        room.used = self.tick;
        self.rooms.insert(room.stored.setup.id.clone(), room);
    }
}

/// The answer to a move sent again for a ply already played: the same [`ServerMessage::Moved`]s
/// as the first time if it is the move stored there, by the same seat, else a stale-ply error.
fn retry(room: &Room, seat: u8, text: &str, ply: usize) -> Result<Reply, Refusal> {
    let stored = &room.stored.moves;
    let stale = || {
        Refusal::new(
            ErrorCode::StalePly,
            format!("ply {ply} was played already ({}); the game has {} moves: sync", stored[ply], stored.len()),
        )
    };
    let mut position = replay(&record_of(&room.stored.setup, &stored[..ply]))
        .map_err(|e| Refusal::new(ErrorCode::Storage, format!("the stored game does not replay: {e}")))?;
    if position.to_move().map(|p| p.0) != Some(seat) {
        return Err(stale());
    }
    match position.play_text(text) {
        Ok(played) if played == stored[ply] => {}
        _ => return Err(stale()),
    }
    let game_id = &room.stored.setup.id;
    // The clocks as each first answer had them: replayed to just after its move.
    let clock_after = |k: usize| {
        let (clock, started_ms) = (room.stored.setup.clock?, room.stored.started_ms?);
        let n = room.position.num_players();
        let end = (k + 1).min(room.movers.len());
        let clocks = Clocks::replay(clock, n, started_ms, &room.movers[..end], &room.stored.move_ms[..end]);
        Some(clocks.left_at(None, 0))
    };
    let mut messages = vec![ServerMessage::Moved {
        game_id: game_id.clone(),
        ply: ply as u32,
        text: stored[ply].clone(),
        seat,
        clock_ms: clock_after(ply),
    }];
    // The forced moves the server played after it, as the first answer had them.
    for (k, text) in stored.iter().enumerate().skip(ply + 1) {
        let Some(mover) = position.to_move() else { break };
        let mut next = position.boxed();
        match next.play_forced() {
            Some(forced) if forced == *text => {
                messages.push(ServerMessage::Moved {
                    game_id: game_id.clone(),
                    ply: k as u32,
                    text: forced,
                    seat: mover.0,
                    clock_ms: clock_after(k),
                });
                position = next;
            }
            _ => break,
        }
    }
    Ok(Reply { messages, broadcast: None })
}

fn bad_token() -> Refusal {
    Refusal::new(ErrorCode::BadToken, "this token holds no seat of the game")
}

/// A new game as stored at `now_ms`, with no moves: started if every seat is taken.
fn new_game(setup: GameSetup, now_ms: u64) -> StoredGame {
    let started_ms = setup.seats.iter().all(Option::is_some).then_some(now_ms);
    StoredGame {
        setup,
        moves: Vec::new(),
        resigned: None,
        rematch: None,
        move_ms: Vec::new(),
        started_ms,
        flagged: None,
    }
}

/// A setup with only the kind of game, to replay a start position from.
fn blank_setup(game: &str) -> GameSetup {
    GameSetup {
        id: String::new(),
        game: game.to_string(),
        options: Value::Null,
        clock: None,
        allow_tools: false,
        code: String::new(),
        seats: Vec::new(),
        rematch_of: None,
    }
}

/// `N` bytes from the operating system's generator.
fn random_bytes<const N: usize>() -> Result<[u8; N], Refusal> {
    let mut bytes = [0u8; N];
    OsRng
        .try_fill_bytes(&mut bytes)
        .map_err(|e| Refusal::new(ErrorCode::Storage, format!("no randomness from the system: {e}")))?;
    Ok(bytes)
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// A seat token: 128 random bits from the operating system, as 32 hex digits.
pub fn new_token() -> Result<String, Refusal> {
    Ok(hex(&random_bytes::<16>()?))
}

/// A join code: [`CODE_LENGTH`] characters of [`CODE_ALPHABET`], uniformly drawn from the
/// operating system's generator.
pub fn new_code() -> Result<String, Refusal> {
    let n = CODE_ALPHABET.len();
    // Bytes at or past the largest multiple of the alphabet's size are drawn again (no bias).
    let limit = 256 - 256 % n;
    let mut code = String::with_capacity(CODE_LENGTH);
    while code.len() < CODE_LENGTH {
        for b in random_bytes::<16>()? {
            if usize::from(b) < limit && code.len() < CODE_LENGTH {
                code.push(char::from(CODE_ALPHABET[usize::from(b) % n]));
            }
        }
    }
    Ok(code)
}
