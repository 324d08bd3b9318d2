//! Several `triboard serve` instances sharing one PostgreSQL store (`docs/design.md` §Several
//! instances): what one tells the others through the store's `NOTIFY` ([`Store::publish`]) and
//! what it does with what it hears.
//!
//! The store is the one truth; an instance's games in memory are a cache. Each instance tells the
//! others, as [`Note`]s:
//! - a game it changed ([`Note::Game`]): the others forget their copy (the next message replays
//!   it from the store), note when its clock runs out, and send its followers the same messages
//!   the instance sent its own (or, if they are too long for one `NOTIFY`, the game's state);
//! - the seats of a game its connections hold ([`Note::Held`]), so that a game's presence counts
//!   the players connected to every instance;
//! - that the lobby's lists changed ([`Note::Lobby`]);
//! - that it is alive ([`Note::Alive`], every [`ALIVE_MS`] ms): an instance not heard for
//!   [`GONE_MS`] ms is gone (killed), and the seats it held are no longer present;
//! - that it started ([`Note::Hello`]): the others tell it the seats they hold;
//! - that a session was signed out ([`Note::SessionEnded`]): the others sign out their
//!   connections signed in with it.
//!
//! Notes published inside the service thread's batch are sent by PostgreSQL at its commit, so
//! another instance hears of a move only once it is stored, and never of a batch rolled back.

use std::collections::HashMap;
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};

use super::postgres_listen::Heard;
use super::store::{MAX_PUBLISH_BYTES, Store, StoreError};

/// How often an instance says it is alive, in ms.
pub const ALIVE_MS: u64 = 1000;

/// After how long without a word an instance is taken as gone, in ms.
pub const GONE_MS: u64 = 5000;

/// What one instance tells the others: see the module's doc.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "note", rename_all = "snake_case")]
pub enum Note {
    /// Game `game` changed (stored): its running clock's deadline (ms since the epoch) and the
    /// messages its followers got, encoded; `resync` if they were too long to send, so the game's
    /// state goes instead.
    Game {
        /// The instance.
        from: String,
        /// The game.
        game: String,
        /// When its running clock runs out, if one runs.
        deadline: Option<u64>,
        /// When the change was stored, in ms since the epoch (0: not said).
        at_ms: u64,
        /// The messages for its followers, as sent on the wire.
        messages: Vec<String>,
        /// Whether the messages were left out (too long).
        resync: bool,
    },
    /// The seats of game `game` that connections to instance `from` hold.
    Held {
        /// The instance.
        from: String,
        /// The game.
        game: String,
        /// The seats held there.
        seats: Vec<u8>,
    },
    /// The lobby's lists changed.
    Lobby {
        /// The instance.
        from: String,
    },
    /// The instance is alive.
    Alive {
        /// The instance.
        from: String,
    },
    /// The instance started: tell it the seats you hold.
    Hello {
        /// The instance.
        from: String,
    },
    /// A session was signed out ([`ClientMessage::Logout`]): every connection signed in with it
    /// is signed out too.
    ///
    /// [`ClientMessage::Logout`]: crate::net::protocol::ClientMessage::Logout
    SessionEnded {
        /// The instance.
        from: String,
        /// The session's hash, as stored ([`session_hash`](super::passwords::session_hash)).
        session: String,
    },
}

impl Note {
    /// The instance that sent it.
    pub fn from(&self) -> &str {
        match self {
            Note::Game { from, .. }
            | Note::Held { from, .. }
            | Note::Lobby { from }
            | Note::Alive { from }
            | Note::Hello { from }
            | Note::SessionEnded { from, .. } => from,
        }
    }
}

/// This instance among those sharing the store: its name, the notes it has to publish at the end
/// of the batch, who it heard from and when.
#[derive(Debug)]
pub struct Cluster {
    /// Whether other instances may share the store (else nothing is published).
    pub shared: bool,
    /// This instance's name (random, 16 hex digits).
    pub me: String,
    /// What to publish at the end of the batch.
    pending: Vec<Note>,
    /// When each other instance was last heard from.
    seen: HashMap<String, Instant>,
    /// When this one last said it is alive.
    said_alive: Option<Instant>,
    /// Whether this instance leads (sweeps the clocks).
    pub leader: bool,
}

impl Cluster {
    /// This instance, sharing the store with others if `shared`; it says hello first.
    pub fn new(shared: bool) -> Cluster {
        let me = super::ids::new_token().map_or_else(|_| format!("{:016x}", rand::random::<u64>()), |t| t[..16].into());
        let pending = if shared { vec![Note::Hello { from: me.clone() }] } else { Vec::new() };
        Cluster { shared, me, pending, seen: HashMap::new(), said_alive: None, leader: false }
    }

    /// Tells the others that game `game` changed: its deadline and its followers' messages.
    pub fn game(&mut self, game: &str, deadline: Option<u64>, at_ms: u64, messages: Vec<String>) {
        if !self.shared {
            return;
        }
        let mut note =
            Note::Game { from: self.me.clone(), game: game.into(), deadline, at_ms, messages, resync: false };
        if serde_json::to_string(&note).map_or(true, |text| text.len() > MAX_PUBLISH_BYTES)
            && let Note::Game { messages, resync, .. } = &mut note
        {
            messages.clear();
            *resync = true;
        }
        // Two changes of one game in a batch: the later note keeps the earlier's messages.
        if let Some(Note::Game { messages: before, resync: was, deadline: d, at_ms: t, .. }) =
            self.pending.iter_mut().find(|n| matches!(n, Note::Game { game: g, .. } if g == game))
            && let Note::Game { messages, resync, deadline: now, at_ms, .. } = note
        {
            before.extend(messages);
            *was |= resync;
            *d = now;
            *t = at_ms;
            return;
        }
        self.pending.push(note);
    }

    /// Tells the others which seats of `game` this instance's connections hold.
    pub fn held(&mut self, game: &str, seats: Vec<u8>) {
        if self.shared {
            self.pending.retain(|n| !matches!(n, Note::Held { game: g, .. } if g == game));
            self.pending.push(Note::Held { from: self.me.clone(), game: game.into(), seats });
        }
    }

    /// Tells the others that the session whose hash is `session` ended.
    pub fn session_ended(&mut self, session: &str) {
        if self.shared {
            self.pending.push(Note::SessionEnded { from: self.me.clone(), session: session.into() });
        }
    }

    /// Says hello again (after the listener reconnected: the others' seats may have changed
    /// unheard), so that the others tell the seats they hold.
    pub fn hello(&mut self) {
        if self.shared {
            self.pending.push(Note::Hello { from: self.me.clone() });
        }
    }

    /// Tells the others that the lobby's lists changed.
    pub fn lobby(&mut self) {
        if self.shared && !self.pending.iter().any(|n| matches!(n, Note::Lobby { .. })) {
            self.pending.push(Note::Lobby { from: self.me.clone() });
        }
    }

    /// Publishes what is pending through `store` (inside its batch, if one is open), with an
    /// [`Note::Alive`] every [`ALIVE_MS`] ms. A note that cannot be published is dropped: the
    /// others still replay the game from the store when next asked about it.
    pub fn flush<S: Store>(&mut self, store: &mut S) {
        if !self.shared {
            return;
        }
        if self.said_alive.is_none_or(|t| t.elapsed() >= Duration::from_millis(ALIVE_MS)) {
            self.said_alive = Some(Instant::now());
            self.pending.push(Note::Alive { from: self.me.clone() });
        }
        let texts: Vec<String> = self.pending.drain(..).filter_map(|note| serde_json::to_string(&note).ok()).collect();
        let _ = store.publish_all(&texts);
    }

    /// Reads a note heard from the store; `None` for this instance's own notes and for what is
    /// not a note. Notes that another instance is alive.
    pub fn hear(&mut self, text: &str) -> Option<Note> {
        let note: Note = serde_json::from_str(text).ok()?;
        if note.from() == self.me {
            return None;
        }
        self.seen.insert(note.from().to_string(), Instant::now());
        Some(note)
    }

    /// The instances not heard from for [`GONE_MS`] ms, forgotten.
    pub fn gone(&mut self) -> Vec<String> {
        let gone: Vec<String> = self
            .seen
            .iter()
            .filter(|(_, t)| t.elapsed() >= Duration::from_millis(GONE_MS))
            .map(|(from, _)| from.clone())
            .collect();
        for from in &gone {
            self.seen.remove(from);
        }
        gone
    }
}

/// Listens on the PostgreSQL store at `url` for the other instances' notes, handing each to `on`
/// (`None` after a reconnection, when notes may have been missed) until `on` returns false.
/// Listening has begun when this returns.
///
/// # Errors
/// The store cannot be reached.
pub fn listen(url: &str, mut on: impl FnMut(Option<String>) -> bool + Send + 'static) -> Result<(), StoreError> {
    super::postgres_listen::listen(url, move |heard| match heard {
        Heard::Payload(text) => on(Some(text)),
        Heard::Reconnected => on(None),
    })
    .map(drop)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn notes_of_one_game_in_a_batch_are_one_and_a_long_one_asks_for_a_resync() {
        let mut c = Cluster::new(true);
        c.pending.clear();
        c.game("g", Some(5), 1, vec!["a".into()]);
        c.game("g", Some(9), 1, vec!["b".into()]);
        c.game("h", None, 1, vec!["x".repeat(MAX_PUBLISH_BYTES)]);
        assert_eq!(c.pending.len(), 2);
        assert!(
            matches!(&c.pending[0], Note::Game { messages, deadline: Some(9), resync: false, .. } if messages == &["a", "b"])
        );
        assert!(matches!(&c.pending[1], Note::Game { messages, resync: true, .. } if messages.is_empty()));
        let text = serde_json::to_string(&c.pending[0]).unwrap();
        assert_eq!(c.hear(&text), None, "its own note");
        let mut other = Cluster::new(true);
        assert_eq!(other.hear(&text), Some(c.pending[0].clone()));
        assert!(other.gone().is_empty());
        assert_eq!(other.hear("not a note"), None);
    }
}
