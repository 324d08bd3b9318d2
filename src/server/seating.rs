//! The service's handlers that make games and seat players: a new game, a join by code, a
//! rematch (`docs/design.md` §Network play).

use serde_json::Value;

use super::clock::Clocks;
use super::ids::{new_code, new_game_id, new_token};
use super::requests::{Asked, request_key};
use super::room::{Room, bad_token, record_of, storage};
use super::service::{BotSeat, Broadcast, Caller, Reply, Service};
use super::store::{GameSetup, NewSeat, RequestKey, Store, StoreError, StoredGame};
use crate::net::position;
use crate::net::protocol::{DAYS_PER_MOVE, ErrorCode, NewGame, Refusal, ServerMessage, normalize_code};
use crate::rules::record::RecordError;

impl<S: Store> Service<S> {
    /// Creates a game: its kind and options checked by the rules, the creator seated, and the
    /// bots asked for.
    pub(super) fn create(&mut self, new: NewGame, caller: &Caller, now_ms: u64) -> Result<Reply, Refusal> {
        let key = request_key(new.request_id.as_deref(), caller, Asked { kind: "create", target: &new.game })?;
        self.create_with(new, key, caller, now_ms)
    }

    /// [`Service::create`] with the request's key worked out (a `seek`'s, when it posts one).
    pub(super) fn create_with(
        &mut self,
        new: NewGame,
        key: Option<RequestKey>,
        caller: &Caller,
        now_ms: u64,
    ) -> Result<Reply, Refusal> {
        if let Some(reply) = self.retried(key.as_ref(), true, now_ms)? {
            return Ok(reply);
        }
        let game = new.game.as_str();
        let mut record = record_of(&blank_setup(game), &[]);
        record.options = new.options;
        let position = position::replay(&record).map_err(|e| match e {
            RecordError::WrongGame { .. } => Refusal::new(
                ErrorCode::UnknownGameKind,
                format!("'{game}' is not a game triboard knows; it plays {}", crate::rules::game_ids().join(", ")),
            ),
            other => Refusal::new(ErrorCode::BadOptions, other.to_string()),
        })?;
        let seats = position.num_players();
        let seat = new.seat;
        if usize::from(seat) >= seats {
            return Err(Refusal::new(ErrorCode::BadSeat, format!("{game} has seats 0 to {}, not {seat}", seats - 1)));
        }
        if let Some(clock) = new.clock {
            clock.check().map_err(|why| Refusal::new(ErrorCode::BadClock, why))?;
        }
        if let Some(days) = new.days_per_move {
            check_days(days, new.clock.is_some()).map_err(|why| Refusal::new(ErrorCode::BadClock, why))?;
        }
        if new.rated && caller.account.is_none() {
            return Err(Refusal::new(ErrorCode::NotSignedIn, "a rated game needs an account: sign in first"));
        }
        if new.bots.len() >= seats {
            return Err(Refusal::new(ErrorCode::BadSeat, format!("{game} has {seats} seats: one is yours")));
        }
        let mut distinct = new.bots.clone();
        distinct.sort();
        distinct.dedup();
        if new.rated && distinct.len() < new.bots.len() {
            return Err(Refusal::new(ErrorCode::BadSeat, "a rated game seats each bot once"));
        }
        if let Some(unknown) = new.bots.iter().find(|b| !self.bot_names.contains(b)) {
            return Err(Refusal::new(ErrorCode::UnknownPlayer, format!("no bot is called '{unknown}'")));
        }
        if new.lobby {
            self.check_open_challenges(caller)?;
        }
        // Counted last: a refused request does not count.
        self.limits.game(self.store.shared_hits(), caller.addr, now_ms)?;
        let token = new_token()?;
        let mut setup = GameSetup {
            id: String::new(),
            game: game.to_string(),
            options: position.options(),
            clock: new.clock,
            days_per_move: new.days_per_move,
            allow_tools: new.allow_tools,
            code: String::new(),
            seats: vec![None; seats],
            rematch_of: None,
            players: vec![None; seats],
            rated: new.rated,
            lobby: new.lobby,
            request: key.map(|key| (seat, key)),
        };
        setup.seats[usize::from(seat)] = Some(token.clone());
        setup.players[usize::from(seat)] = caller.account;
        let free = (0..seats).filter(|&s| s != usize::from(seat));
        let mut bots = Vec::new();
        for (s, bot) in free.zip(&new.bots) {
            setup.seats[s] = Some(new_token()?);
            setup.players[s] = Some(self.ensure_bot(bot, now_ms)?);
            bots.push((s as u8, bot.clone()));
        }
        self.insert_new(&mut setup, None, now_ms)?;
        if let (true, None, Some(addr)) = (new.lobby, caller.account, caller.addr) {
            self.challenge_addr.insert(setup.id.clone(), addr);
        }
        self.lobby_changed |= new.lobby || setup.seats.iter().all(Option::is_some);
        let bots = bots
            .into_iter()
            .map(|(s, bot)| BotSeat {
                game_id: setup.id.clone(),
                seat: s,
                token: setup.seats[usize::from(s)].clone().unwrap_or_default(),
                bot,
            })
            .collect();
        let created = ServerMessage::Created { game_id: setup.id.clone(), code: setup.code.clone(), seat, token };
        let mut room = Room::load(new_game(setup, now_ms))?;
        room.names = self.seat_names(&room.stored.setup.players);
        let state = ServerMessage::State(room.snapshot(0, now_ms));
        let game_id = room.stored.setup.id.clone();
        self.rooms.keep(room);
        self.track(&game_id);
        Ok(Reply { messages: vec![created, state], bots, ..Reply::default() })
    }

    /// Stores a new game (the rematch of `of`, if given) under a fresh id and join code, trying
    /// again if they collide with another game's.
    pub(super) fn insert_new(&mut self, setup: &mut GameSetup, of: Option<&str>, now_ms: u64) -> Result<(), Refusal> {
        let mut tries = 0;
        loop {
            setup.id = new_game_id()?;
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
    pub(super) fn join(
        &mut self,
        code: &str,
        request_id: Option<String>,
        caller: &Caller,
        now_ms: u64,
    ) -> Result<Reply, Refusal> {
        let code = normalize_code(code);
        let key = request_key(request_id.as_deref(), caller, Asked { kind: "join", target: &code })?;
        if let Some(reply) = self.retried(key.as_ref(), false, now_ms)? {
            return Ok(reply);
        }
        let game_id = self.store.game_of_code(&code).map_err(|e| storage(&e))?;
        let game_id =
            game_id.ok_or_else(|| Refusal::new(ErrorCode::UnknownCode, format!("no game has the code {code}")))?;
        self.take_seat(&game_id, key, caller, now_ms)
    }

    /// Seats the caller in the first free seat of game `game_id` (a join or an accept), keeping
    /// its request's `key` for a retry.
    pub(super) fn take_seat(
        &mut self,
        game_id: &str,
        key: Option<RequestKey>,
        caller: &Caller,
        now_ms: u64,
    ) -> Result<Reply, Refusal> {
        let room = self.room(game_id)?;
        if room.result().is_some() {
            return Err(room.over());
        }
        let setup = &room.stored.setup;
        let Some(seat) = setup.seats.iter().position(Option::is_none) else {
            return Err(Refusal::new(ErrorCode::GameFull, "every seat of the game is taken"));
        };
        if setup.rated && caller.account.is_none() {
            return Err(Refusal::new(ErrorCode::NotSignedIn, "this game is rated: sign in to take a seat"));
        }
        if setup.rated && caller.account.is_some() && setup.players.contains(&caller.account) {
            return Err(Refusal::new(ErrorCode::BadSeat, "you hold a seat of this rated game already"));
        }
        let lobby = setup.lobby;
        let seat = seat as u8;
        let token = new_token()?;
        let new = NewSeat { seat, token: &token, account: caller.account, request: key.as_ref() };
        if let Err(e) = self.store.add_seat(game_id, new, now_ms) {
            self.rooms.remove(game_id);
            return Err(match e {
                StoreError::Conflict(_) => Refusal::new(ErrorCode::GameFull, "the seat was taken meanwhile: try again"),
                e => storage(&e),
            });
        }
        let name = match caller.account {
            Some(account) => Some(self.account_name(account)?),
            None => None,
        };
        let room = self.room(game_id)?;
        room.stored.setup.seats[usize::from(seat)] = Some(token.clone());
        room.stored.setup.players[usize::from(seat)] = caller.account;
        room.names.resize(room.stored.setup.seats.len(), None);
        room.names[usize::from(seat)] = name;
        let full = room.stored.setup.seats.iter().all(Option::is_some);
        if full {
            // The last seat: the clocks start.
            room.stored.started_ms = Some(now_ms);
            room.clocks = room.stored.setup.clock.map(|c| Clocks::start(c, room.stored.setup.seats.len(), now_ms));
        }
        let state = room.snapshot(0, now_ms);
        self.track(game_id);
        self.lobby_changed |= lobby || full;
        let joined = ServerMessage::Joined { game_id: game_id.to_string(), seat, token };
        Ok(Reply {
            messages: vec![joined, ServerMessage::State(state.clone())],
            broadcast: Some(Broadcast { game_id: game_id.to_string(), messages: vec![ServerMessage::State(state)] }),
            ..Reply::default()
        })
    }

    /// The game as it stands from `since_ply` on; with a seat's `token`, its player came to the
    /// board ([`Service::arrive`]), which may start a rematch's clocks.
    pub(super) fn sync(
        &mut self,
        game_id: &str,
        since_ply: u32,
        token: Option<String>,
        now_ms: u64,
    ) -> Result<Reply, Refusal> {
        let arrived = match token {
            Some(token) => self.arrive(game_id, &token, now_ms)?,
            None => None,
        };
        let mut reply = self.state(game_id, since_ply, now_ms)?;
        reply.broadcast = arrived;
        Ok(reply)
    }

    /// The holder of `token` came to game `game_id`'s board (a sync with its token): in a rematch
    /// whose clocks wait, once every seat's player came, they start at `now_ms` — returned as the
    /// game's new state for its followers.
    pub(super) fn arrive(&mut self, game_id: &str, token: &str, now_ms: u64) -> Result<Option<Broadcast>, Refusal> {
        let room = self.room(game_id)?;
        let Some(clock) = room.stored.setup.clock.filter(|_| room.clocks.is_none() && room.result().is_none()) else {
            return Ok(None);
        };
        let Some(seat) = room.seat_of(token) else { return Ok(None) };
        let seats = room.stored.setup.seats.len();
        room.arrived.resize(seats, false);
        room.arrived[usize::from(seat)] = true;
        if !room.arrived.iter().all(|&a| a) || room.stored.setup.seats.iter().any(Option::is_none) {
            return Ok(None);
        }
        if let Err(e) = self.store.start_clocks(game_id, now_ms) {
            self.rooms.remove(game_id);
            return Err(storage(&e));
        }
        let room = self.room(game_id)?;
        room.stored.started_ms = Some(now_ms);
        room.clocks = Some(Clocks::start(clock, seats, now_ms));
        let state = room.snapshot(0, now_ms);
        self.track(game_id);
        Ok(Some(Broadcast { game_id: game_id.to_string(), messages: vec![ServerMessage::State(state)] }))
    }

    /// The rematch of a finished game, made on the first request, with every token one seat on.
    pub(super) fn rematch(&mut self, game_id: &str, token: &str, now_ms: u64) -> Result<Reply, Refusal> {
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
                // Each account moves on with its token; the rematch is no open challenge, and the
                // creator's request was the first game's.
                let players = (0..n).map(|s| old.players.get((s + n - 1) % n).copied().flatten()).collect();
                let mut setup = GameSetup {
                    seats,
                    players,
                    rematch_of: Some(game_id.to_string()),
                    lobby: false,
                    request: None,
                    ..old
                };
                position::replay(&record_of(&setup, &[])).map_err(|e| storage(&StoreError::Failed(e.to_string())))?;
                match self.insert_new(&mut setup, Some(game_id), now_ms) {
                    Ok(()) => {
                        let id = setup.id.clone();
                        let names = self.seat_names(&setup.players);
                        let mut room = Room::load(new_game(setup, now_ms))?;
                        room.names = names;
                        self.rooms.keep(room);
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
            ..Reply::default()
        })
    }
}

/// A new game as stored at `now_ms`, with no moves: started if every seat is taken and it is no
/// rematch (a rematch's clocks wait for its players: [`Service::arrive`]).
fn new_game(setup: GameSetup, now_ms: u64) -> StoredGame {
    let started_ms = setup.starts_at_creation().then_some(now_ms);
    StoredGame {
        setup,
        moves: Vec::new(),
        resigned: None,
        rematch: None,
        move_ms: Vec::new(),
        started_ms,
        flagged: None,
        created_ms: now_ms,
        ended_ms: None,
        outs: Vec::new(),
    }
}

/// Checks a correspondence game's days per move: one of [`DAYS_PER_MOVE`], and no live clock.
fn check_days(days: u32, clock: bool) -> Result<(), String> {
    if clock {
        return Err("a game has a live clock or days per move, not both".into());
    }
    if !DAYS_PER_MOVE.contains(&days) {
        return Err(format!("{days} days a move is not one of 1, 3 or 7"));
    }
    Ok(())
}

/// A setup with only the kind of game, to replay a start position from.
fn blank_setup(game: &str) -> GameSetup {
    GameSetup {
        id: String::new(),
        game: game.to_string(),
        options: Value::Null,
        clock: None,
        days_per_move: None,
        allow_tools: false,
        code: String::new(),
        seats: Vec::new(),
        rematch_of: None,
        players: Vec::new(),
        rated: false,
        lobby: false,
        request: None,
    }
}
