//! The service's handlers of accounts (`docs/design.md` §Lobby): signing up, in, back in (a
//! session) and out, and claiming the seats a client held before it signed in. The slow half of
//! a sign-up or sign-in ([`PasswordJob`]) is returned in the [`Reply`] for the caller to run off
//! the service thread and hand back to [`Service::finish_password`].

use super::account_store::AccountId;
use super::ids::new_token;
use super::passwords::{PasswordDone, PasswordJob, check_name, check_password, name_key, session_hash};
use super::room::storage;
use super::service::{Caller, Reply, Service};
use super::store::{Store, StoreError};
use crate::net::protocol::{ErrorCode, Refusal, ServerMessage};

impl<S: Store> Service<S> {
    /// A sign-up: the name checked and free, the password's length; its hash is the job.
    pub(super) fn signup(
        &mut self,
        name: String,
        password: String,
        claim: Vec<String>,
        caller: &Caller,
        now_ms: u64,
    ) -> Result<Reply, Refusal> {
        self.limits.login(self.store.shared_hits(), caller.addr, "", now_ms)?;
        check_name(&name)?;
        check_password(&password)?;
        self.name_free(&name)?;
        Ok(Reply { job: Some(PasswordJob::Hash { name, password, claim }), ..Reply::default() })
    }

    /// A sign-in: the account found; checking the password is the job.
    pub(super) fn login(
        &mut self,
        name: &str,
        password: String,
        claim: Vec<String>,
        caller: &Caller,
        now_ms: u64,
    ) -> Result<Reply, Refusal> {
        let key = name_key(name);
        self.limits.login(self.store.shared_hits(), caller.addr, &key, now_ms)?;
        let account = self.store.account_by_key(&key).map_err(|e| storage(&e))?;
        let Some(account) = account else {
            self.limits.login_failed(self.store.shared_hits(), caller.addr, &key, now_ms)?;
            return Err(bad_login());
        };
        let from = (key, caller.addr);
        let job = PasswordJob::Verify { account: account.id, password, hash: account.password_hash, claim, from };
        Ok(Reply { job: Some(job), ..Reply::default() })
    }

    /// Finishes a sign-up or sign-in whose [`PasswordJob`] ran: the account made or the password
    /// matched, a session made, the claimed seats taken.
    pub fn finish_password(&mut self, done: PasswordDone, now_ms: u64) -> Reply {
        let signed = match done {
            PasswordDone::Hashed { name, hash, claim } => hash.and_then(|hash| {
                let made = self.store.create_account(&name, &name_key(&name), &hash, false, now_ms);
                let account = made.map_err(|e| match e {
                    StoreError::Conflict(_) => taken(&name),
                    e => storage(&e),
                })?;
                self.sign_in(account, &claim, now_ms)
            }),
            PasswordDone::Verified { account, matched: true, claim, from: (key, addr) } => self
                .limits
                .login_succeeded(self.store.shared_hits(), addr, &key)
                .and_then(|()| self.sign_in(account, &claim, now_ms)),
            PasswordDone::Verified { matched: false, from: (key, addr), .. } => {
                let counted = self.limits.login_failed(self.store.shared_hits(), addr, &key, now_ms);
                counted.and_then(|()| Err(bad_login()))
            }
        };
        signed.unwrap_or_else(Reply::refused)
    }

    /// Signs in again with a session token.
    pub(super) fn resume(&mut self, session: &str, claim: &[String]) -> Result<Reply, Refusal> {
        let hash = session_hash(session);
        let account = self.store.session_account(&hash).map_err(|e| storage(&e))?;
        let account = account.ok_or_else(|| Refusal::new(ErrorCode::BadSession, "the session ended: sign in again"))?;
        let claimed = self.claim(account, claim)?;
        let name = self.account_name(account)?;
        let signed_in = ServerMessage::SignedIn { name, session: session.to_string(), claimed };
        Ok(Reply { messages: vec![signed_in], account: Some(Some(account)), session: Some(hash), ..Reply::default() })
    }

    /// Signs out: the session is deleted, and every connection signed in with it is signed out
    /// ([`Reply::session_ended`]), here and on the other instances.
    pub(super) fn logout(&mut self, session: &str) -> Result<Reply, Refusal> {
        let hash = session_hash(session);
        self.store.delete_session(&hash).map_err(|e| storage(&e))?;
        Ok(Reply {
            messages: vec![ServerMessage::SignedOut {}],
            account: Some(None),
            session_ended: Some(hash),
            ..Reply::default()
        })
    }

    /// A new session for `account`, the claimed seats its.
    fn sign_in(&mut self, account: AccountId, claim: &[String], now_ms: u64) -> Result<Reply, Refusal> {
        let session = new_token()?;
        let hash = session_hash(&session);
        self.store.create_session(&hash, account, now_ms).map_err(|e| storage(&e))?;
        let claimed = self.claim(account, claim)?;
        let name = self.account_name(account)?;
        let signed_in = ServerMessage::SignedIn { name, session, claimed };
        Ok(Reply { messages: vec![signed_in], account: Some(Some(account)), session: Some(hash), ..Reply::default() })
    }

    /// Gives `account` every seat held by the tokens of `claim` that no account holds; returns
    /// how many. A game already rated or over keeps its seats as they were.
    fn claim(&mut self, account: AccountId, claim: &[String]) -> Result<u32, Refusal> {
        let mut claimed = 0;
        for token in claim {
            for game_id in self.store.games_of_token(token).map_err(|e| storage(&e))? {
                let room = self.room(&game_id)?;
                let Some(seat) = room.seat_of(token) else { continue };
                if room.stored.ended_ms.is_some() || room.stored.setup.players[usize::from(seat)].is_some() {
                    continue;
                }
                if self.store.claim_seat(&game_id, seat, account).map_err(|e| storage(&e))? {
                    let name = self.account_name(account)?;
                    let room = self.room(&game_id)?;
                    room.stored.setup.players[usize::from(seat)] = Some(account);
                    room.names.resize(room.stored.setup.seats.len(), None);
                    room.names[usize::from(seat)] = Some(name);
                    claimed += 1;
                }
            }
        }
        Ok(claimed)
    }

    /// Refuses a name that reads like an account's.
    fn name_free(&self, name: &str) -> Result<(), Refusal> {
        match self.store.account_by_key(&name_key(name)).map_err(|e| storage(&e))? {
            Some(_) => Err(taken(name)),
            None => Ok(()),
        }
    }

    /// An account's name (cached).
    pub(super) fn account_name(&mut self, account: AccountId) -> Result<String, Refusal> {
        if let Some((name, _)) = self.names.get(&account) {
            return Ok(name.clone());
        }
        let found = self.store.account_by_id(account).map_err(|e| storage(&e))?;
        let found = found.ok_or_else(|| Refusal::new(ErrorCode::UnknownPlayer, format!("no account {account}")))?;
        self.names.insert(account, (found.name.clone(), found.bot));
        Ok(found.name)
    }

    /// Makes the bot account `name` (an AI level the server runs), or finds it; its password is
    /// random and thrown away (nobody signs in as it).
    ///
    /// # Errors
    /// A storage refusal.
    pub fn ensure_bot(&mut self, name: &str, now_ms: u64) -> Result<AccountId, Refusal> {
        let key = name_key(name);
        if let Some(account) = self.store.account_by_key(&key).map_err(|e| storage(&e))? {
            return Ok(account.id);
        }
        let hash = format!("!bot:{}", new_token()?);
        match self.store.create_account(name, &key, &hash, true, now_ms) {
            // Another instance sharing the store made it at the same moment.
            Err(StoreError::Conflict(why)) => match self.store.account_by_key(&key).map_err(|e| storage(&e))? {
                Some(account) => Ok(account.id),
                None => Err(storage(&StoreError::Conflict(why))),
            },
            made => made.map_err(|e| storage(&e)),
        }
    }
}

/// The refusal of a name taken.
fn taken(name: &str) -> Refusal {
    Refusal::new(ErrorCode::NameTaken, format!("'{name}' or a name that reads like it has an account"))
}

/// The refusal of a name and password that match no account.
fn bad_login() -> Refusal {
    Refusal::new(ErrorCode::BadLogin, "no account has this name and password")
}
