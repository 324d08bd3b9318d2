//! What the service offers the instances sharing its store (`server::cluster`,
//! `docs/design.md` §Several instances): forgetting a game another instance changed, the clock
//! deadlines the leader sweeps, the store to publish through and to take the lead with, and a
//! game's whole state for followers whose notes were lost.

use super::service::Service;
use super::store::Store;
use crate::net::protocol::{ErrorCode, Refusal, ServerMessage};

impl<S: Store> Service<S> {
    /// Plays another instance's moves of game `game_id` on its copy in memory, as stored at
    /// `at_ms` (ms since the epoch): `moves` are (ply, seat, text) in order. Nothing happens if
    /// the game is not in memory; if they do not follow from the copy, or end the game, the copy
    /// is forgotten instead (replayed from the store when next used). This saves replaying the
    /// whole game for the next move each time the other instance played.
    pub fn apply_remote(&mut self, game_id: &str, moves: &[(u32, u8, String)], at_ms: u64) {
        let Some(room) = self.rooms.get_mut(game_id) else { return };
        let follows = || {
            let mut next = room.position.boxed();
            for (k, (ply, seat, text)) in moves.iter().enumerate() {
                let at = room.stored.moves.len() + k;
                let ok = usize::try_from(*ply).is_ok_and(|p| p == at)
                    && next.to_move().is_some_and(|p| p.0 == *seat)
                    && next.play_text(text).is_ok_and(|played| played == *text);
                if !ok {
                    return None;
                }
            }
            next.outcome().is_none().then_some(next)
        };
        let Some(next) = follows().filter(|_| at_ms > 0 && room.stored.started_ms.is_some()) else {
            self.rooms.remove(game_id);
            return;
        };
        room.position = next;
        for (_, seat, text) in moves {
            room.stored.moves.push(text.clone());
            room.stored.move_ms.push(at_ms);
            room.movers.push(*seat);
            if let Some(clocks) = &mut room.clocks {
                clocks.play(*seat, at_ms);
            }
        }
        self.track(game_id);
    }

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

    /// Forgets the limits' old entries in memory (a server that is not the leader, which does not
    /// sweep; the leader prunes the shared ones).
    pub fn prune(&mut self, now_ms: u64) {
        self.limits.prune(None, now_ms);
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
