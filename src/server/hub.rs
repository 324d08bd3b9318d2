//! Who follows which game and who holds which seat, for the service thread: the broadcasts'
//! addresses and the games' presence (`docs/design.md` §Network play).

use std::collections::{HashMap, HashSet};
use std::net::IpAddr;
use std::sync::Arc;

use tokio::sync::{Notify, mpsc};

use super::account_store::AccountId;
use super::connection::ConnId;
use super::ids::random_bytes;
use crate::net::protocol::{ServerMessage, encode_server};

/// A connection as the service thread knows it.
pub struct Conn {
    /// Where its answers go.
    pub out: mpsc::Sender<String>,
    /// How to close it.
    pub kill: Arc<Notify>,
    /// The games it follows.
    games: HashSet<String>,
    /// The seats it holds: (game, seat).
    seats: HashSet<(String, u8)>,
    /// The account it signed in as.
    pub account: Option<AccountId>,
    /// The hash of the session it signed in with ([`session_hash`]).
    ///
    /// [`session_hash`]: super::passwords::session_hash
    pub session: Option<String>,
    /// Its address.
    pub addr: Option<IpAddr>,
    /// The client its guest requests belong to (`server::requests`): the hash of the secret it
    /// said hello with, else a random value of its own.
    pub client: [u8; 16],
}

/// Who follows which game and who holds which seat.
#[derive(Default)]
pub struct Hub {
    /// Every open connection.
    pub conns: HashMap<ConnId, Conn>,
    followers: HashMap<String, HashSet<ConnId>>,
    holders: HashMap<(String, u8), HashSet<ConnId>>,
    /// The connections in the lobby.
    pub lobby: HashSet<ConnId>,
    /// Whether someone entered or left the lobby since [`Hub::take_lobby_joined`].
    lobby_joined: bool,
    /// The seats held through the other instances sharing the store: instance → game → seats.
    remote: HashMap<String, HashMap<String, Vec<u8>>>,
}

/// Messages waiting for the end of the batch: each to one connection.
pub type Outbox = Vec<(ConnId, String)>;

impl Hub {
    /// Makes `conn` follow `game_id`; true if it did not already.
    pub fn follow(&mut self, conn: ConnId, game_id: &str) -> bool {
        let Some(c) = self.conns.get_mut(&conn) else { return false };
        if !c.games.insert(game_id.to_string()) {
            return false;
        }
        self.followers.entry(game_id.to_string()).or_default().insert(conn);
        true
    }

    /// Makes `conn` hold `seat` of `game_id`; true if the seat was held by no connection before.
    pub fn hold(&mut self, conn: ConnId, game_id: &str, seat: u8) -> bool {
        let Some(c) = self.conns.get_mut(&conn) else { return false };
        let key = (game_id.to_string(), seat);
        if !c.seats.insert(key.clone()) {
            return false;
        }
        let holders = self.holders.entry(key).or_default();
        holders.insert(conn);
        holders.len() == 1
    }

    /// The game's presence message: whether each seat is held, here or through another instance.
    pub fn presence(&self, game_id: &str, seats: usize) -> String {
        let remote = |s: u8| self.remote.values().any(|games| games.get(game_id).is_some_and(|held| held.contains(&s)));
        let online = (0..seats)
            .map(|s| u8::try_from(s).is_ok_and(|s| self.holders.contains_key(&(game_id.to_string(), s)) || remote(s)))
            .collect();
        encode_server(&ServerMessage::Presence { game_id: game_id.to_string(), online })
    }

    /// Queues `text` for every follower of `game_id` but `except`.
    pub fn broadcast(&self, game_id: &str, text: &str, except: Option<ConnId>, outbox: &mut Outbox) {
        if let Some(followers) = self.followers.get(game_id) {
            for &conn in followers {
                if Some(conn) != except {
                    outbox.push((conn, text.to_string()));
                }
            }
        }
    }

    /// The seats of `game_id` held by this instance's connections.
    pub fn local_seats(&self, game_id: &str) -> Vec<u8> {
        let mut seats: Vec<u8> = self.holders.keys().filter(|(g, _)| g == game_id).map(|&(_, s)| s).collect();
        seats.sort_unstable();
        seats
    }

    /// Every game with a seat held by this instance's connections.
    pub fn held_games(&self) -> Vec<String> {
        let mut games: Vec<String> = self.holders.keys().map(|(g, _)| g.clone()).collect();
        games.sort();
        games.dedup();
        games
    }

    /// Every game some connection of this instance follows.
    pub fn followed_games(&self) -> Vec<String> {
        self.followers.keys().cloned().collect()
    }

    /// Notes the seats of `game_id` held through instance `from`; returns whether that changed.
    pub fn set_remote(&mut self, from: &str, game_id: &str, seats: Vec<u8>) -> bool {
        let games = self.remote.entry(from.to_string()).or_default();
        if seats.is_empty() {
            games.remove(game_id).is_some()
        } else {
            games.insert(game_id.to_string(), seats.clone()) != Some(seats)
        }
    }

    /// Forgets the seats held through instance `from` (gone); returns their games.
    pub fn drop_remote(&mut self, from: &str) -> Vec<String> {
        self.remote.remove(from).map(|games| games.into_keys().collect()).unwrap_or_default()
    }

    /// Puts `conn` in the lobby: it gets the lobby at the end of the batch, and whenever it
    /// changes.
    pub fn enter_lobby(&mut self, conn: ConnId) {
        if self.conns.contains_key(&conn) {
            self.lobby.insert(conn);
            self.lobby_joined = true;
        }
    }

    /// The people connected to this instance: its network connections (not the bots' runner,
    /// which has no address) counted once per client (an app that reconnected, or holds a second
    /// connection, is one person). The lobby's `online`.
    pub fn people(&self) -> usize {
        let people = self.conns.values().filter(|c| c.addr.is_some()).map(|c| c.client);
        people.collect::<std::collections::HashSet<_>>().len()
    }

    /// Notes that a connection opened or said who it is: the lobby's count of people changes.
    pub fn people_changed(&mut self) {
        self.lobby_joined = true;
    }

    /// Whether someone entered or left the lobby, or connected or left, since last asked.
    pub fn take_lobby_joined(&mut self) -> bool {
        std::mem::take(&mut self.lobby_joined)
    }

    /// Signs out every connection signed in with the session whose hash is `session` but
    /// `except`: each is a guest from now on, and is told so.
    pub fn end_session(&mut self, session: &str, except: Option<ConnId>, outbox: &mut Outbox) {
        for (&id, c) in &mut self.conns {
            if c.session.as_deref() == Some(session) {
                c.account = None;
                c.session = None;
                if Some(id) != except {
                    outbox.push((id, encode_server(&ServerMessage::SignedOut {})));
                }
            }
        }
    }

    /// The hashes of the sessions this instance's connections are signed in with.
    pub fn sessions(&self) -> Vec<String> {
        let mut sessions: Vec<String> = self.conns.values().filter_map(|c| c.session.clone()).collect();
        sessions.sort();
        sessions.dedup();
        sessions
    }

    /// Forgets a connection; returns the games where a seat lost its last holder.
    pub fn close(&mut self, conn: ConnId) -> Vec<String> {
        let Some(c) = self.conns.remove(&conn) else { return Vec::new() };
        self.lobby.remove(&conn);
        self.lobby_joined = true;
        for game in &c.games {
            if let Some(followers) = self.followers.get_mut(game) {
                followers.remove(&conn);
                if followers.is_empty() {
                    self.followers.remove(game);
                }
            }
        }
        let mut changed = Vec::new();
        for key in c.seats {
            if let Some(holders) = self.holders.get_mut(&key) {
                holders.remove(&conn);
                if holders.is_empty() {
                    self.holders.remove(&key);
                    changed.push(key.0);
                }
            }
        }
        changed.sort();
        changed.dedup();
        changed
    }
}

impl Conn {
    /// A guest's connection that follows no game and holds no seat yet, a client of its own.
    pub fn new(out: mpsc::Sender<String>, kill: Arc<Notify>, addr: Option<IpAddr>, conn: ConnId) -> Conn {
        // Should the system's generator fail, the connection's number still sets it apart here.
        let client = random_bytes::<16>().unwrap_or_else(|_| u128::from(conn).to_le_bytes());
        Conn { out, kill, games: HashSet::new(), seats: HashSet::new(), account: None, session: None, addr, client }
    }
}
