//! What the service offers the instances sharing its store (`server::cluster`,
//! `docs/design.md` §Several instances): forgetting a game another instance changed, the clock
//! deadlines the leader sweeps, the store to publish through and to take the lead with, and a
//! game's whole state for followers whose notes were lost.

use super::service::Service;
use super::store::Store;
use crate::net::protocol::{ErrorCode, Refusal, ServerMessage};

impl<S: Store> Service<S> {
    /// Forgets game `game_id` in memory (another server sharing the store changed it): the next
    /// message about it replays it from the store.
    pub fn forget(&mut self, game_id: &str) {
        self.rooms.remove(game_id);
    }

    /// When the running clock of game `game_id` runs out, in ms since the epoch, as this service
    /// knows it.
    pub fn deadline_of(&self, game_id: &str) -> Option<u64> {
        self.deadlines.get(game_id).copied()
    }

    /// Notes when the running clock of game `game_id` runs out (ms since the epoch), or that none
    /// runs: another server's move, for this one's sweeps.
    pub fn set_deadline(&mut self, game_id: &str, deadline: Option<u64>) {
        match deadline {
            Some(deadline) => self.deadlines.insert(game_id.to_string(), deadline),
            None => self.deadlines.remove(game_id),
        };
    }

    /// Forgets the limits' old entries (a server that is not the leader, which does not sweep).
    pub fn prune(&mut self, now_ms: u64) {
        self.limits.prune(now_ms);
    }

    /// The store, to publish to the servers sharing it or to take the lead.
    pub fn store_mut(&mut self) -> &mut S {
        &mut self.store
    }

    /// The game as it stands now, its moves from the first, for everybody following it: what a
    /// server sends after another server's change it cannot forward whole.
    ///
    /// # Errors
    /// The game cannot be loaded.
    pub fn snapshot(&mut self, game_id: &str, now_ms: u64) -> Result<ServerMessage, Refusal> {
        let mut reply = self.state(game_id, 0, now_ms)?;
        reply.messages.pop().ok_or_else(|| Refusal::new(ErrorCode::Storage, "no state"))
    }
}
