//! The server-authoritative game logic: [`Service`] answers [`ClientMessage`]s for every game of
//! the registry ([`crate::for_each_game`]), checking each move with the same rules code as the
//! app and the command line, and writing it to the [`Store`] before it is acknowledged.
//!
//! The service knows nothing of connections: [`Service::handle`] takes one message and returns a
//! [`Reply`], the messages for the sender and those for everybody following the game. A
//! transport (WebSocket, a test) carries them.
//!
//! Games are replayed from their stored moves through the rules
//! ([`crate::net::position::replay`]) and kept in a bounded cache of rooms
//! (`rooms`); the store stays the truth: a write it refuses (another process wrote
//! first) drops the room, so the next message replays the game afresh. The messages' handlers are
//! beside this file: creating, joining and rematches in `seating`, moves, resignations
//! and flags in `moves`.
//!
//! Live games keep time ([`super::clock`]): the time source is the caller's
//! ([`Service::handle_at`] takes now in ms since the Unix epoch; [`Service::handle`] reads the
//! system clock), so tests check flags without waiting. A clock that ran out is noticed by
//! [`Service::sweep`] (the transport calls it a few times a second) or by the next message about
//! the game, whichever comes first; either stores the flag and announces the final state.

use std::collections::HashMap;
use std::net::IpAddr;

use super::account_store::AccountId;
use super::limits::{LimitSettings, Limits};
use super::passwords::PasswordJob;
use super::room::{Room, STALE_CODES, storage};
use super::rooms::Rooms;
use super::store::{Store, now_ms};
use serde_json::Value;

use crate::net::protocol::{ClientMessage, Clock, ErrorCode, Refusal, ServerMessage, check_secret, decode_client};

/// How many games the service keeps replayed in memory by default ([`Service::with_capacity`]).
pub const DEFAULT_CAPACITY: usize = 4096;

/// Who sends a message: the account its connection signed in as, and its address (for the limits
/// per address). The default is a guest with no address (a test, a tool): no limit applies.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Caller {
    /// The account signed in, if any.
    pub account: Option<AccountId>,
    /// The connection's address.
    pub addr: Option<IpAddr>,
    /// A guest's client, to whom its request ids belong (`server::requests`): the hash of the
    /// secret its connection said hello with, or a value of the connection's own.
    pub client: Option<[u8; 16]>,
}

/// A bot seated by a `create` with `bots`: for the server's bot runner.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BotSeat {
    /// The game.
    pub game_id: String,
    /// The seat.
    pub seat: u8,
    /// The seat's token.
    pub token: String,
    /// The bot's account name.
    pub bot: String,
}

/// A `seek` message's request.
pub struct Seek {
    /// The kind of game.
    pub game: String,
    /// Its options (`null` for the defaults).
    pub options: Value,
    /// The clock of a live game.
    pub clock: Option<Clock>,
    /// Whether it is rated.
    pub rated: bool,
    /// The client's request id.
    pub request_id: Option<String>,
}

/// What the service answers one message with.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Reply {
    /// For the sender, in order.
    pub messages: Vec<ServerMessage>,
    /// For everybody else following a game (its other seats, its spectators), if anything.
    pub broadcast: Option<Broadcast>,
    /// The slow half of a sign-up or sign-in, to run off the service thread and finish with
    /// [`Service::finish_password`] (then `messages` is empty).
    pub job: Option<PasswordJob>,
    /// The sender's connection signed in as this account (`Some(Some(_))`) or out
    /// (`Some(None)`).
    pub account: Option<Option<AccountId>>,
    /// With `account` signed in: the hash of the session the connection signed in with.
    pub session: Option<String>,
    /// The hash of the session a sign-out ended: every connection signed in with it, here and on
    /// the other instances, is signed out too.
    pub session_ended: Option<String>,
    /// Bots seated, for the bot runner.
    pub bots: Vec<BotSeat>,
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
        Reply { messages: vec![refusal.into_message()], ..Reply::default() }
    }

    /// The refusal, if the reply is one.
    pub fn error(&self) -> Option<(ErrorCode, &str)> {
        match self.messages.as_slice() {
            [ServerMessage::Error { code, message, .. }] => Some((*code, message.as_str())),
            _ => None,
        }
    }
}

/// The server's game logic over a store: see the module's doc.
pub struct Service<S: Store> {
    pub(super) store: S,
    /// The games in memory.
    pub(super) rooms: Rooms,
    /// When the running clock of each live game runs out (ms since the epoch), rooms evicted or
    /// not: what [`Service::sweep`] checks.
    pub(super) deadlines: HashMap<String, u64>,
    /// Account names and whether each is a bot, by account (a cache: names never change).
    pub(super) names: HashMap<AccountId, (String, bool)>,
    /// The limits per address and per player.
    pub(super) limits: Limits,
    /// Whether the lobby's lists changed since [`Service::take_lobby_changed`].
    pub(super) lobby_changed: bool,
    /// The address each guest's open challenge came from (for the open challenges per player).
    pub(super) challenge_addr: HashMap<String, IpAddr>,
    /// The bots the server runs, by account name ([`Service::set_bots`]).
    pub(super) bot_names: Vec<String>,
}

impl<S: Store> std::fmt::Debug for Service<S> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Service").field("rooms", &self.rooms.len()).field("capacity", &self.rooms.capacity()).finish()
    }
}

impl<S: Store> Service<S> {
    /// A service over `store`, keeping up to [`DEFAULT_CAPACITY`] games in memory.
    pub fn new(store: S) -> Service<S> {
        Service::with_capacity(store, DEFAULT_CAPACITY)
    }

    /// A service over `store`, keeping up to `capacity` (at least 1) games in memory.
    pub fn with_capacity(store: S, capacity: usize) -> Service<S> {
        Service {
            store,
            rooms: Rooms::new(capacity),
            deadlines: HashMap::new(),
            names: HashMap::new(),
            limits: Limits::new(LimitSettings::off()),
            lobby_changed: false,
            challenge_addr: HashMap::new(),
            bot_names: Vec::new(),
        }
    }

    /// Sets the limits per address and per player (none by default: a test's or a tool's service).
    pub fn set_limits(&mut self, settings: LimitSettings) {
        self.limits = Limits::new(settings);
    }

    /// Makes (or finds) the accounts of the bots the server runs, by name, and offers them in the
    /// lobby; returns the seats they hold in games still running (after a restart), for the bot
    /// runner.
    ///
    /// # Errors
    /// A storage refusal.
    pub fn set_bots(&mut self, names: &[String]) -> Result<Vec<BotSeat>, Refusal> {
        let mut held = Vec::new();
        for name in names {
            let account = self.ensure_bot(name, now_ms())?;
            for (game_id, seat, token) in self.store.running_seats(account).map_err(|e| storage(&e))? {
                held.push(BotSeat { game_id, seat, token, bot: name.clone() });
            }
        }
        self.bot_names = names.to_vec();
        Ok(held)
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

    /// Answers a message from a guest with no address arriving at `now_ms`: [`Service::handle_as`].
    pub fn handle_at(&mut self, message: ClientMessage, now_ms: u64) -> Reply {
        self.handle_as(message, &Caller::default(), now_ms)
    }

    /// Answers a message of `caller` at `now_ms` whole: a sign-up's or sign-in's password job is
    /// run here, on this thread ([`Service::handle_for`] leaves it to the caller).
    pub fn handle_as(&mut self, message: ClientMessage, caller: &Caller, now_ms: u64) -> Reply {
        let mut reply = self.handle_for(message, caller, now_ms);
        if let Some(job) = reply.job.take() {
            reply = self.finish_password(job.run(), now_ms);
        }
        reply
    }

    /// Answers a message of `caller` arriving at `now_ms` (ms since the Unix epoch). A refused one
    /// is answered with one [`ServerMessage::Error`] and changes nothing; an accepted change is
    /// stored before this returns. A game whose clock ran out by `now_ms` is flagged first: the
    /// answer then starts with the final [`ServerMessage::State`], which is broadcast too. A game
    /// that ended with the message is settled ([`Service::settle`]): its rating changes follow.
    /// A sign-up or sign-in returns its [`Reply::job`] unfinished.
    pub fn handle_for(&mut self, message: ClientMessage, caller: &Caller, now_ms: u64) -> Reply {
        if let Err(refusal) = message.check_sizes() {
            return Reply::refused(refusal);
        }
        // Several servers share the store: a game in memory may be stale, so a refusal about a
        // game is checked once more against the store (`docs/design.md` §Several instances).
        let names_game = message.game_id().is_some() || matches!(message, ClientMessage::Join { .. });
        let again = (self.store.shared() && names_game).then(|| message.clone());
        // A refusal names the game and the request it answers (protocol version 3).
        let (game, request) = (message.game_id().map(str::to_string), message.request_id().map(str::to_string));
        let mut reply = self.handle_once(message, caller, now_ms);
        if let Some(message) = again
            && reply.error().is_some_and(|(code, _)| STALE_CODES.contains(&code))
        {
            if let Some(game_id) = message.game_id() {
                self.rooms.remove(game_id);
            }
            reply = self.handle_once(message, caller, now_ms);
        }
        if let [ServerMessage::Error { game_id, request_id, .. }] = reply.messages.as_mut_slice() {
            (*game_id, *request_id) = (game, request);
        }
        reply
    }

    /// [`Service::handle_for`] once, with the games in memory as they are.
    fn handle_once(&mut self, message: ClientMessage, caller: &Caller, now_ms: u64) -> Reply {
        let flagged = message.game_id().and_then(|game_id| self.flag_if_due(game_id, now_ms));
        let settle_id = message.game_id().map(str::to_string);
        let result = match message {
            ClientMessage::Create(new) => self.create(new, caller, now_ms),
            ClientMessage::Join { code, request_id } => self.join(&code, request_id, caller, now_ms),
            ClientMessage::Accept { game_id, request_id } => self.accept(&game_id, request_id, caller, now_ms),
            ClientMessage::Seek { game, options, clock, rated, request_id } => {
                self.seek(Seek { game, options, clock, rated, request_id }, caller, now_ms)
            }
            ClientMessage::Withdraw { game_id, token } => self.withdraw(&game_id, &token),
            ClientMessage::Move { game_id, token, text, ply } => self.play(&game_id, &token, &text, ply, now_ms),
            ClientMessage::Resign { game_id, token } => self.resign(&game_id, &token, now_ms),
            ClientMessage::Rematch { game_id, token } => self.rematch(&game_id, &token, now_ms),
            ClientMessage::Watch { game_id } => self.state(&game_id, 0, now_ms),
            ClientMessage::Sync { game_id, since_ply, token } => self.sync(&game_id, since_ply, token, now_ms),
            ClientMessage::Signup { name, password, claim } => self.signup(name, password, claim, caller, now_ms),
            ClientMessage::Login { name, password, claim } => self.login(&name, password, claim, caller, now_ms),
            ClientMessage::Resume { session, claim } => self.resume(&session, &claim),
            ClientMessage::Logout { session } => self.logout(&session),
            ClientMessage::Lobby {} => {
                self.lobby_view(0).map(|view| Reply { messages: vec![ServerMessage::Lobby(view)], ..Reply::default() })
            }
            ClientMessage::Leaderboard { game } => self.leaderboard(&game),
            ClientMessage::Profile { name } => self.profile(&name),
            // The transport keeps the connection's client (`batch`); here only its form counts.
            ClientMessage::Hello { client } => check_secret("client secret", &client).map(|()| Reply::default()),
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
        if let Some(game_id) = settle_id.filter(|_| reply.error().is_none())
            && let Ok(Some(rated)) = self.settle(&game_id, now_ms)
        {
            reply.messages.push(rated.clone());
            match &mut reply.broadcast {
                Some(b) if b.game_id == game_id => b.messages.push(rated),
                _ => reply.broadcast = Some(Broadcast { game_id, messages: vec![rated] }),
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
        self.limits.prune(self.store.shared_hits(), now_ms);
        let mut ended = Vec::new();
        for id in due {
            if let Some(mut end) = self.flag_if_due(&id, now_ms) {
                if let Ok(Some(rated)) = self.settle(&id, now_ms) {
                    end.messages.push(rated);
                }
                ended.push(end);
            }
        }
        ended
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

    /// The game as it stands, its moves from `since_ply` on.
    pub(super) fn state(&mut self, game_id: &str, since_ply: u32, now_ms: u64) -> Result<Reply, Refusal> {
        let room = self.room(game_id)?;
        let played = room.stored.moves.len();
        let since = usize::try_from(since_ply).unwrap_or(usize::MAX);
        if since > played {
            return Err(Refusal::new(
                ErrorCode::PlyAhead,
                format!("the game has {played} moves, fewer than {since_ply}"),
            ));
        }
        Ok(Reply { messages: vec![ServerMessage::State(room.snapshot(since, now_ms))], ..Reply::default() })
    }

    /// Notes when game `game_id`'s running clock runs out, or that none runs.
    pub(super) fn track(&mut self, game_id: &str) {
        match self.rooms.get(game_id).and_then(Room::deadline) {
            Some(deadline) => self.deadlines.insert(game_id.to_string(), deadline),
            None => self.deadlines.remove(game_id),
        };
    }

    /// The names of the accounts of `players` (a name that cannot be read shows as none).
    pub(super) fn seat_names(&mut self, players: &[Option<AccountId>]) -> Vec<Option<String>> {
        players.iter().map(|p| p.and_then(|a| self.account_name(a).ok())).collect()
    }

    /// The room of a game, replayed from the store if it is not in memory.
    pub(super) fn room(&mut self, game_id: &str) -> Result<&mut Room, Refusal> {
        if !self.rooms.contains(game_id) {
            let stored = self.store.load_game(game_id).map_err(|e| storage(&e))?;
            let stored =
                stored.ok_or_else(|| Refusal::new(ErrorCode::UnknownGame, format!("no game has the id {game_id}")))?;
            let mut room = Room::load(stored)?;
            room.names = self.seat_names(&room.stored.setup.players);
            match room.deadline() {
                Some(deadline) => self.deadlines.insert(game_id.to_string(), deadline),
                None => self.deadlines.remove(game_id),
            };
            self.rooms.keep(room);
        }
        self.rooms
            .touch(game_id)
            .ok_or_else(|| Refusal::new(ErrorCode::Storage, format!("the game {game_id} could not be kept")))
    }
}
