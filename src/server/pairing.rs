//! Quick pairing (`docs/design.md` §Lobby): a `seek` takes a seat of the open challenge with the
//! same settings whose player is nearest the seeker's rating, within [`PAIR_WINDOW`] shown
//! points; with none, it posts such a challenge, which the next seeker finds. The pool is the
//! lobby itself: what is waiting is listed there, and any player may also accept it by hand.

use serde_json::Value;

use super::lobby::LOBBY_CHALLENGES;
use super::ratings::{NEW_RATING, pool, shown};
use super::requests::{Asked, request_key};
use super::room::storage;
use super::service::{Caller, Reply, Seek, Service};
use super::store::Store;
use crate::net::position;
use crate::net::protocol::{ErrorCode, NewGame, Refusal};
use crate::rules::record::Record;

/// How far apart, in shown rating points, two seekers may be paired.
pub const PAIR_WINDOW: i32 = 300;

impl<S: Store> Service<S> {
    /// Pairs the caller with the nearest open challenge of the same settings, or posts one.
    pub(super) fn seek(&mut self, seek: Seek, caller: &Caller, now_ms: u64) -> Result<Reply, Refusal> {
        let key = request_key(seek.request_id.as_deref(), caller, Asked { kind: "seek", target: &seek.game })?;
        if let Some(reply) = self.retried(key.as_ref(), false, now_ms)? {
            return Ok(reply);
        }
        if seek.rated && caller.account.is_none() {
            return Err(Refusal::new(ErrorCode::NotSignedIn, "a rated game needs an account: sign in first"));
        }
        let options = Record::of_texts(&seek.game, seek.options.clone(), Vec::new());
        let options = position::replay(&options).map(|p| p.options()).unwrap_or(Value::Null);
        let mine = match caller.account {
            Some(account) => self.store.rating(account, pool(&seek.game)).map_err(|e| storage(&e))?,
            None => None,
        };
        let mine = shown(mine.unwrap_or(NEW_RATING).mu);
        let mut best: Option<(i32, String)> = None;
        for id in self.store.open_games(LOBBY_CHALLENGES).map_err(|e| storage(&e))? {
            let setup = self.room(&id)?.stored.setup.clone();
            let same = setup.game == seek.game
                && setup.options == options
                && setup.clock == seek.clock
                && setup.rated == seek.rated;
            let own = match caller.account {
                Some(account) => setup.players.contains(&Some(account)),
                None => caller.addr.is_some() && self.challenge_addr.get(&id) == caller.addr.as_ref(),
            };
            if !same || own {
                continue;
            }
            let theirs = setup.players.iter().flatten().next().copied();
            let theirs = match theirs {
                Some(account) => self.store.rating(account, pool(&seek.game)).map_err(|e| storage(&e))?,
                None => None,
            };
            let gap = (shown(theirs.unwrap_or(NEW_RATING).mu) - mine).abs();
            if gap <= PAIR_WINDOW && best.as_ref().is_none_or(|(g, _)| gap < *g) {
                best = Some((gap, id));
            }
        }
        match best {
            Some((_, game_id)) => self.take_seat(&game_id, key, caller, now_ms),
            None => {
                let Seek { game, options, clock, rated, request_id } = seek;
                let new = NewGame { options, clock, rated, lobby: true, request_id, ..NewGame::of(&game) };
                self.create_with(new, key, caller, now_ms)
            }
        }
    }
}
