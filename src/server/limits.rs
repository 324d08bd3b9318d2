//! Limits per address and per player against a script filling a public server (`docs/design.md`
//! §Lobby): games and challenges made a minute per address, sign-in attempts a minute per address
//! and per name, open challenges per player. The connections per address are counted by the
//! transport (`connection`). Each limit answers with a [`ErrorCode::Limit`] refusal saying which
//! and when to try again; nothing changes.

use std::collections::{HashMap, VecDeque};
use std::net::IpAddr;

use crate::net::protocol::{ErrorCode, Refusal};

/// The limits' settings; [`Limits::default`] is a public server's, [`Limits::off`] a bench's.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LimitSettings {
    /// Connections open at once from one address.
    pub connections_per_address: usize,
    /// Games (and challenges) made a minute from one address.
    pub games_per_minute: usize,
    /// Sign-ups and sign-in attempts a minute from one address.
    pub logins_per_minute: usize,
    /// Sign-in attempts a minute for one name, from anywhere.
    pub logins_per_name_per_minute: usize,
    /// Open challenges one player (an account, or a guest's address) may have in the lobby.
    pub open_challenges: usize,
}

impl Default for LimitSettings {
    fn default() -> LimitSettings {
        LimitSettings {
            connections_per_address: 32,
            games_per_minute: 20,
            logins_per_minute: 20,
            logins_per_name_per_minute: 5,
            open_challenges: 5,
        }
    }
}

impl LimitSettings {
    /// No limits (a bench or a test of something else).
    pub fn off() -> LimitSettings {
        LimitSettings {
            connections_per_address: usize::MAX,
            games_per_minute: usize::MAX,
            logins_per_minute: usize::MAX,
            logins_per_name_per_minute: usize::MAX,
            open_challenges: usize::MAX,
        }
    }
}

/// One minute, in ms.
const MINUTE_MS: u64 = 60_000;

/// Events in the last minute, by key.
#[derive(Debug)]
struct Window<K> {
    events: HashMap<K, VecDeque<u64>>,
}

impl<K> Default for Window<K> {
    fn default() -> Window<K> {
        Window { events: HashMap::new() }
    }
}

impl<K: std::hash::Hash + Eq + Clone> Window<K> {
    /// Counts an event of `key` at `now_ms` unless `max` happened in the minute before: then the
    /// seconds until one is allowed again.
    fn take(&mut self, key: &K, max: usize, now_ms: u64) -> Result<(), u64> {
        let times = self.events.entry(key.clone()).or_default();
        while times.front().is_some_and(|&t| t + MINUTE_MS <= now_ms) {
            times.pop_front();
        }
        if times.len() >= max {
            let first = times.front().copied().unwrap_or(now_ms);
            return Err((first + MINUTE_MS).saturating_sub(now_ms).div_ceil(1000).max(1));
        }
        times.push_back(now_ms);
        Ok(())
    }

    /// Forgets the keys with nothing in the last minute.
    fn prune(&mut self, now_ms: u64) {
        self.events.retain(|_, times| times.back().is_some_and(|&t| t + MINUTE_MS > now_ms));
    }
}

/// The service's counters against its [`LimitSettings`].
#[derive(Debug, Default)]
pub struct Limits {
    /// The settings.
    pub settings: LimitSettings,
    games: Window<IpAddr>,
    logins: Window<IpAddr>,
    names: Window<String>,
}

impl Limits {
    /// Counters for `settings`.
    pub fn new(settings: LimitSettings) -> Limits {
        Limits { settings, ..Limits::default() }
    }

    /// Counts a game or challenge made from `addr` (none: a caller without an address, not
    /// limited).
    ///
    /// # Errors
    /// A [`ErrorCode::Limit`] refusal.
    pub fn game(&mut self, addr: Option<IpAddr>, now_ms: u64) -> Result<(), Refusal> {
        let Some(addr) = addr else { return Ok(()) };
        let max = self.settings.games_per_minute;
        self.games
            .take(&addr, max, now_ms)
            .map_err(|wait| limit(format!("{max} games a minute from one address: try again in {wait} s")))
    }

    /// Counts a sign-up or sign-in attempt from `addr` for the name read as `name_key` (empty for
    /// a sign-up).
    ///
    /// # Errors
    /// A [`ErrorCode::Limit`] refusal.
    pub fn login(&mut self, addr: Option<IpAddr>, name_key: &str, now_ms: u64) -> Result<(), Refusal> {
        if let Some(addr) = addr {
            let max = self.settings.logins_per_minute;
            self.logins.take(&addr, max, now_ms).map_err(|wait| {
                limit(format!("{max} sign-in attempts a minute from one address: try again in {wait} s"))
            })?;
        }
        if !name_key.is_empty() {
            let max = self.settings.logins_per_name_per_minute;
            self.names.take(&name_key.to_string(), max, now_ms).map_err(|wait| {
                limit(format!("{max} sign-in attempts a minute for one name: try again in {wait} s"))
            })?;
        }
        Ok(())
    }

    /// Forgets what is over a minute old.
    pub fn prune(&mut self, now_ms: u64) {
        self.games.prune(now_ms);
        self.logins.prune(now_ms);
        self.names.prune(now_ms);
    }
}

/// A [`ErrorCode::Limit`] refusal.
pub fn limit(why: String) -> Refusal {
    Refusal::new(ErrorCode::Limit, why)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_window_allows_its_count_a_minute() {
        let addr: IpAddr = "10.0.0.1".parse().unwrap();
        let mut limits = Limits::new(LimitSettings { games_per_minute: 2, ..LimitSettings::default() });
        assert!(limits.game(Some(addr), 0).is_ok() && limits.game(Some(addr), 1000).is_ok());
        let refused = limits.game(Some(addr), 2000).unwrap_err();
        assert_eq!(refused.code, ErrorCode::Limit);
        assert!(refused.message.contains("try again in 58 s"), "{}", refused.message);
        assert!(limits.game(Some("10.0.0.2".parse().unwrap()), 2000).is_ok(), "another address");
        assert!(limits.game(None, 2000).is_ok(), "no address, no limit");
        assert!(limits.game(Some(addr), 60_000).is_ok(), "a minute after the first");
        limits.prune(200_000);
        assert!(limits.games.events.is_empty());
    }
}
