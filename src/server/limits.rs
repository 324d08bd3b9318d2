//! Limits per address and per player against a script filling a public server, and against
//! password guessing (`docs/design.md` §Lobby, §Threat model): games and challenges made a minute
//! per address, sign-ups and sign-in attempts a minute per address, a growing delay after wrong
//! passwords for one name *from one address*, open challenges per player. The connections per
//! address are counted by the transport (`connection`). Each limit answers with a
//! [`ErrorCode::Limit`] refusal saying which and when to try again; nothing changes.
//!
//! Nobody can turn a limit on somebody else: wrong passwords slow down only the address they came
//! from, so the right password from an address that did not fail still signs in (no lockout).
//!
//! The events are counted in [`Hits`]: in memory for one server, in the store when several
//! instances share it ([`Store::shared_hits`], PostgreSQL's `limit_hits`), so that a client
//! spreading its attempts over the instances is counted once.
//!
//! [`Store::shared_hits`]: super::store::Store::shared_hits

use std::collections::{HashMap, VecDeque};
use std::net::IpAddr;

use super::store_error::StoreError;
use crate::net::protocol::{ErrorCode, Refusal};

/// The limits' settings; [`LimitSettings::default`] is a public server's, [`LimitSettings::off`] a
/// bench's.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LimitSettings {
    /// Connections open at once from one address (each instance counts its own).
    pub connections_per_address: usize,
    /// Games (and challenges) made a minute from one address.
    pub games_per_minute: usize,
    /// Sign-ups and sign-in attempts a minute from one address.
    pub logins_per_minute: usize,
    /// Wrong passwords for one name from one address before each next attempt waits: after `n`
    /// more, 2ⁿ⁻¹ s (1 s, 2 s, 4 s …) up to [`LimitSettings::max_failure_delay_s`].
    pub free_failures: usize,
    /// The longest wait after wrong passwords, in seconds.
    pub max_failure_delay_s: u64,
    /// Open challenges one player (an account, or a guest's address) may have in the lobby.
    pub open_challenges: usize,
}

impl Default for LimitSettings {
    fn default() -> LimitSettings {
        LimitSettings {
            connections_per_address: 32,
            games_per_minute: 20,
            logins_per_minute: 20,
            free_failures: 3,
            max_failure_delay_s: 900,
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
            free_failures: usize::MAX,
            max_failure_delay_s: 0,
            open_challenges: usize::MAX,
        }
    }

    /// How long a sign-in waits after `failures` wrong passwords in a row, in ms.
    pub fn failure_delay_ms(&self, failures: usize) -> u64 {
        if failures < self.free_failures {
            return 0;
        }
        let doublings = u32::try_from(failures - self.free_failures).unwrap_or(u32::MAX).min(30);
        (1000u64 << doublings).min(self.max_failure_delay_s * 1000)
    }
}

/// One minute, in ms.
pub const MINUTE_MS: u64 = 60_000;

/// How long wrong passwords are remembered after the last one, in ms (an hour): the longest any
/// event is kept.
pub const FAILURE_MEMORY_MS: u64 = 3_600_000;

/// Where the limits' events are counted, by key: in memory ([`MemoryHits`]) or in a store that
/// several instances share.
pub trait Hits {
    /// The times of the events of `key` at or after `since_ms`, oldest first (ms since the epoch).
    ///
    /// # Errors
    /// The store's.
    fn recent(&mut self, key: &str, since_ms: u64) -> Result<Vec<u64>, StoreError>;

    /// Counts an event of `key` at `at_ms`.
    ///
    /// # Errors
    /// The store's.
    fn add(&mut self, key: &str, at_ms: u64) -> Result<(), StoreError>;

    /// Forgets every event of `key`.
    ///
    /// # Errors
    /// The store's.
    fn clear(&mut self, key: &str) -> Result<(), StoreError>;

    /// Forgets every event before `before_ms`.
    ///
    /// # Errors
    /// The store's.
    fn prune(&mut self, before_ms: u64) -> Result<(), StoreError>;
}

/// [`Hits`] in memory: one server's.
#[derive(Debug, Default)]
pub struct MemoryHits {
    events: HashMap<String, VecDeque<u64>>,
}

impl Hits for MemoryHits {
    fn recent(&mut self, key: &str, since_ms: u64) -> Result<Vec<u64>, StoreError> {
        Ok(self
            .events
            .get(key)
            .map(|times| times.iter().copied().filter(|&t| t >= since_ms).collect())
            .unwrap_or_default())
    }

    fn add(&mut self, key: &str, at_ms: u64) -> Result<(), StoreError> {
        self.events.entry(key.to_string()).or_default().push_back(at_ms);
        Ok(())
    }

    fn clear(&mut self, key: &str) -> Result<(), StoreError> {
        self.events.remove(key);
        Ok(())
    }

    fn prune(&mut self, before_ms: u64) -> Result<(), StoreError> {
        self.events.retain(|_, times| {
            while times.front().is_some_and(|&t| t < before_ms) {
                times.pop_front();
            }
            !times.is_empty()
        });
        Ok(())
    }
}

/// The service's counters against its [`LimitSettings`].
#[derive(Debug, Default)]
pub struct Limits {
    /// The settings.
    pub settings: LimitSettings,
    /// The events, when the store shares none.
    memory: MemoryHits,
    /// When the shared events were last pruned, in ms since the epoch.
    shared_pruned_ms: u64,
}

/// A storage failure while counting, as a refusal (nothing was counted).
fn failed(e: &StoreError) -> Refusal {
    Refusal::new(ErrorCode::Storage, format!("the limits could not be checked: {e}"))
}

impl Limits {
    /// Counters for `settings`.
    pub fn new(settings: LimitSettings) -> Limits {
        Limits { settings, ..Limits::default() }
    }

    /// Counts an event of `key` at `now_ms` in `shared`, or in memory without it, unless `max`
    /// happened in the minute before: then the seconds until one is allowed again.
    fn take(
        &mut self,
        shared: Option<&mut dyn Hits>,
        key: &str,
        max: usize,
        now_ms: u64,
    ) -> Result<Result<(), u64>, Refusal> {
        if max == usize::MAX {
            return Ok(Ok(()));
        }
        let hits: &mut dyn Hits = match shared {
            Some(shared) => shared,
            None => &mut self.memory,
        };
        let times = hits.recent(key, (now_ms + 1).saturating_sub(MINUTE_MS)).map_err(|e| failed(&e))?;
        if times.len() >= max {
            let first = times.first().copied().unwrap_or(now_ms);
            return Ok(Err((first + MINUTE_MS).saturating_sub(now_ms).div_ceil(1000).max(1)));
        }
        hits.add(key, now_ms).map_err(|e| failed(&e))?;
        Ok(Ok(()))
    }

    /// Counts a game or challenge made from `addr` (none: a caller without an address, not
    /// limited), in `shared` if the store shares its counts.
    ///
    /// # Errors
    /// A [`ErrorCode::Limit`] refusal; a storage refusal.
    pub fn game(&mut self, shared: Option<&mut dyn Hits>, addr: Option<IpAddr>, now_ms: u64) -> Result<(), Refusal> {
        let Some(addr) = addr else { return Ok(()) };
        let max = self.settings.games_per_minute;
        self.take(shared, &format!("games {addr}"), max, now_ms)?
            .map_err(|wait| limit(format!("{max} games a minute from one address: try again in {wait} s")))
    }

    /// Counts a sign-up or sign-in attempt from `addr` for the name read as `name_key` (empty for
    /// a sign-up): refused while the address is over its attempts a minute, or while the name's
    /// wrong passwords from this address ([`Limits::login_failed`]) make it wait.
    ///
    /// # Errors
    /// A [`ErrorCode::Limit`] refusal; a storage refusal.
    pub fn login(
        &mut self,
        mut shared: Option<&mut dyn Hits>,
        addr: Option<IpAddr>,
        name_key: &str,
        now_ms: u64,
    ) -> Result<(), Refusal> {
        if !name_key.is_empty() {
            let hits: &mut dyn Hits = match shared.as_deref_mut() {
                Some(shared) => shared,
                None => &mut self.memory,
            };
            let failures = hits.recent(&failure_key(name_key, addr), now_ms.saturating_sub(FAILURE_MEMORY_MS));
            let failures = failures.map_err(|e| failed(&e))?;
            let delay = self.settings.failure_delay_ms(failures.len());
            let until = failures.last().map_or(0, |&last| last + delay);
            if delay > 0 && now_ms < until {
                let wait = (until - now_ms).div_ceil(1000).max(1);
                return Err(limit(format!(
                    "{} wrong passwords for this name from this address: try again in {wait} s",
                    failures.len()
                )));
            }
        }
        if let Some(addr) = addr {
            let max = self.settings.logins_per_minute;
            self.take(shared, &format!("logins {addr}"), max, now_ms)?.map_err(|wait| {
                limit(format!("{max} sign-in attempts a minute from one address: try again in {wait} s"))
            })?;
        }
        Ok(())
    }

    /// Counts a wrong password for the name read as `name_key` from `addr` at `now_ms`.
    ///
    /// # Errors
    /// A storage refusal.
    pub fn login_failed(
        &mut self,
        shared: Option<&mut dyn Hits>,
        addr: Option<IpAddr>,
        name_key: &str,
        now_ms: u64,
    ) -> Result<(), Refusal> {
        let hits: &mut dyn Hits = match shared {
            Some(shared) => shared,
            None => &mut self.memory,
        };
        hits.add(&failure_key(name_key, addr), now_ms).map_err(|e| failed(&e))
    }

    /// Forgets the wrong passwords for `name_key` from `addr`: the right one was given.
    ///
    /// # Errors
    /// A storage refusal.
    pub fn login_succeeded(
        &mut self,
        shared: Option<&mut dyn Hits>,
        addr: Option<IpAddr>,
        name_key: &str,
    ) -> Result<(), Refusal> {
        let hits: &mut dyn Hits = match shared {
            Some(shared) => shared,
            None => &mut self.memory,
        };
        hits.clear(&failure_key(name_key, addr)).map_err(|e| failed(&e))
    }

    /// Forgets what is older than any limit looks back (in memory; and in `shared`, when given:
    /// the leading instance's sweep).
    pub fn prune(&mut self, shared: Option<&mut dyn Hits>, now_ms: u64) {
        let before = now_ms.saturating_sub(FAILURE_MEMORY_MS);
        let _ = self.memory.prune(before);
        if let Some(shared) = shared.filter(|_| now_ms >= self.shared_pruned_ms + MINUTE_MS) {
            // Once a minute; a failed prune is tried again at the next.
            self.shared_pruned_ms = now_ms;
            let _ = shared.prune(before);
        }
    }
}

/// The key of the wrong passwords for `name_key` from `addr` (a caller without an address: a
/// test or a tool).
fn failure_key(name_key: &str, addr: Option<IpAddr>) -> String {
    match addr {
        Some(addr) => format!("failed {addr} {name_key}"),
        None => format!("failed - {name_key}"),
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
        assert!(limits.game(None, Some(addr), 0).is_ok() && limits.game(None, Some(addr), 1000).is_ok());
        let refused = limits.game(None, Some(addr), 2000).unwrap_err();
        assert_eq!(refused.code, ErrorCode::Limit);
        assert!(refused.message.contains("try again in 58 s"), "{}", refused.message);
        assert!(limits.game(None, Some("10.0.0.2".parse().unwrap()), 2000).is_ok(), "another address");
        assert!(limits.game(None, None, 2000).is_ok(), "no address, no limit");
        assert!(limits.game(None, Some(addr), 60_000).is_ok(), "a minute after the first");
        limits.prune(None, 60_000 + FAILURE_MEMORY_MS + 1);
        assert!(limits.memory.events.is_empty());
    }

    #[test]
    fn wrong_passwords_slow_down_their_address_only_and_the_right_one_clears_them() {
        let (thief, owner): (IpAddr, IpAddr) = ("10.0.0.6".parse().unwrap(), "10.0.0.7".parse().unwrap());
        let mut limits = Limits::new(LimitSettings::default());
        for at in 0..3 {
            assert!(limits.login(None, Some(thief), "eve", at).is_ok(), "three free wrong passwords");
            limits.login_failed(None, Some(thief), "eve", at).unwrap();
        }
        let refused = limits.login(None, Some(thief), "eve", 3).unwrap_err();
        assert!(
            refused.message.contains("3 wrong passwords") && refused.message.contains("1 s"),
            "{}",
            refused.message
        );
        assert!(limits.login(None, Some(owner), "eve", 3).is_ok(), "the owner's address is not slowed down");
        assert!(limits.login(None, Some(thief), "eve", 1002).is_ok(), "a second after the last");
        limits.login_failed(None, Some(thief), "eve", 1002).unwrap();
        let refused = limits.login(None, Some(thief), "eve", 2500).unwrap_err();
        assert!(refused.message.contains("try again in 1 s"), "2 s after the fourth: {}", refused.message);
        assert_eq!(LimitSettings::default().failure_delay_ms(40), 900_000, "at most 15 minutes");
        limits.login_succeeded(None, Some(thief), "eve").unwrap();
        assert!(limits.login(None, Some(thief), "eve", 2500).is_ok(), "the right password clears the count");
    }
}
