//! The store's part for accounts, ratings and the lobby ([`Accounts`], a supertrait of
//! [`Store`](super::store::Store)): what `server::accounts`, `server::ratings` and
//! `server::lobby` keep (`docs/design.md` §Lobby). Like the games, every write is one
//! transaction (or part of the transport's batch).

use super::store_error::StoreError;

/// An account's number in the store.
pub type AccountId = i64;

/// A seat taken with a request id ([`Accounts::seat_of_request`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SeatOfRequest {
    /// The game.
    pub game_id: String,
    /// The seat.
    pub seat: u8,
    /// Its token.
    pub token: String,
    /// Who asked and for what (`RequestKey::of`); none for a seat stored before requests were
    /// bound to their requester, which no retry matches.
    pub of: Option<String>,
}

/// An account as stored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Account {
    /// Its number.
    pub id: AccountId,
    /// Its name, as it was made.
    pub name: String,
    /// The password's Argon2id hash, in the PHC string form (`$argon2id$v=19$…`).
    pub password_hash: String,
    /// Whether it is a bot.
    pub bot: bool,
    /// When it was made, in ms since the Unix epoch.
    pub created_ms: u64,
}

/// A Weng-Lin rating as stored: mean and deviation in Weng-Lin's points (a newcomer's are 25 and
/// 25/3), and how many rated games made it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct StoredRating {
    /// The mean skill, μ.
    pub mu: f64,
    /// Its uncertainty, σ.
    pub sigma: f64,
    /// Rated games played.
    pub games: u32,
}

/// One seat's rating before and after a rated game.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RatingRecord {
    /// The seat.
    pub seat: u8,
    /// Its account.
    pub account: AccountId,
    /// The rating before the game (`games` as before).
    pub before: StoredRating,
    /// The rating after it.
    pub after: StoredRating,
}

/// Accounts, sessions, ratings and the lists of games: see the module's doc.
pub trait Accounts {
    /// Stores a new account made at `at_ms`; `name_key` is the name as compared
    /// (`server::accounts::name_key`), unique.
    ///
    /// # Errors
    /// [`StoreError::Conflict`] if an account has this `name_key`.
    fn create_account(
        &mut self,
        name: &str,
        name_key: &str,
        password_hash: &str,
        bot: bool,
        at_ms: u64,
    ) -> Result<AccountId, StoreError>;

    /// The account whose name reads as `name_key`, if any.
    ///
    /// # Errors
    /// [`StoreError::Failed`].
    fn account_by_key(&self, name_key: &str) -> Result<Option<Account>, StoreError>;

    /// The account with this number, if any.
    ///
    /// # Errors
    /// [`StoreError::Failed`].
    fn account_by_id(&self, id: AccountId) -> Result<Option<Account>, StoreError>;

    /// Replaces an account's password hash (a bot's, when the server starts with a new one).
    ///
    /// # Errors
    /// [`StoreError::NotFound`]; [`StoreError::Failed`].
    fn set_password(&mut self, id: AccountId, password_hash: &str) -> Result<(), StoreError>;

    /// Stores a session: the hash of its token (never the token) and its account.
    ///
    /// # Errors
    /// [`StoreError::Failed`].
    fn create_session(&mut self, hash: &str, account: AccountId, at_ms: u64) -> Result<(), StoreError>;

    /// The account of the session whose token hashes to `hash`, if it exists.
    ///
    /// # Errors
    /// [`StoreError::Failed`].
    fn session_account(&self, hash: &str) -> Result<Option<AccountId>, StoreError>;

    /// Ends a session (signing out); nothing happens if it does not exist.
    ///
    /// # Errors
    /// [`StoreError::Failed`].
    fn delete_session(&mut self, hash: &str) -> Result<(), StoreError>;

    /// Gives seat `seat` of game `game_id` to `account` if it is held by no account yet; returns
    /// whether it did.
    ///
    /// # Errors
    /// [`StoreError::Failed`].
    fn claim_seat(&mut self, game_id: &str, seat: u8, account: AccountId) -> Result<bool, StoreError>;

    /// The seat taken with the request id whose hash is `id` ([`RequestKey::id`]): its game,
    /// seat, token and the request it was taken for ([`RequestKey::of`]; none for a seat stored
    /// before requests were bound).
    ///
    /// [`RequestKey::id`]: super::store::RequestKey::id
    /// [`RequestKey::of`]: super::store::RequestKey::of
    ///
    /// # Errors
    /// [`StoreError::Failed`].
    fn seat_of_request(&self, id: &str) -> Result<Option<SeatOfRequest>, StoreError>;

    /// An account's rating in pool `pool` (a game id), if it played a rated game there.
    ///
    /// # Errors
    /// [`StoreError::Failed`].
    fn rating(&self, account: AccountId, pool: &str) -> Result<Option<StoredRating>, StoreError>;

    /// Stores the ratings a rated game gave, all or none, and each seat's change.
    ///
    /// # Errors
    /// [`StoreError::Conflict`] if the game's ratings were stored already; [`StoreError::Failed`].
    fn record_ratings(&mut self, game_id: &str, pool: &str, records: &[RatingRecord]) -> Result<(), StoreError>;

    /// The rating changes a rated game gave, by seat; empty if it gave none (yet).
    ///
    /// # Errors
    /// [`StoreError::Failed`].
    fn rating_changes(&self, game_id: &str) -> Result<Vec<RatingRecord>, StoreError>;

    /// Up to `limit` ratings of pool `pool` with their accounts, highest μ first.
    ///
    /// # Errors
    /// [`StoreError::Failed`].
    fn leaderboard(&self, pool: &str, limit: usize) -> Result<Vec<(Account, StoredRating)>, StoreError>;

    /// Every rating of an account, by pool.
    ///
    /// # Errors
    /// [`StoreError::Failed`].
    fn ratings_of(&self, account: AccountId) -> Result<Vec<(String, StoredRating)>, StoreError>;

    /// Records that game `game_id` ended at `at_ms` (once: a later call changes nothing).
    ///
    /// # Errors
    /// [`StoreError::NotFound`]; [`StoreError::Failed`].
    fn end_game(&mut self, game_id: &str, at_ms: u64) -> Result<(), StoreError>;

    /// Removes a game with no moves (a challenge withdrawn), its seats with it.
    ///
    /// # Errors
    /// [`StoreError::NotFound`]; [`StoreError::Conflict`] if it has moves or a rematch.
    fn delete_game(&mut self, game_id: &str) -> Result<(), StoreError>;

    /// The open challenges: lobby games not ended with a free seat, oldest first, at most
    /// `limit`.
    ///
    /// # Errors
    /// [`StoreError::Failed`].
    fn open_games(&self, limit: usize) -> Result<Vec<String>, StoreError>;

    /// Games whose seats are all taken and that have not ended, newest first, at most `limit`.
    ///
    /// # Errors
    /// [`StoreError::Failed`].
    fn live_games(&self, limit: usize) -> Result<Vec<String>, StoreError>;

    /// The games where `account` holds a seat, newest first, at most `limit`.
    ///
    /// # Errors
    /// [`StoreError::Failed`].
    fn games_of_account(&self, account: AccountId, limit: usize) -> Result<Vec<String>, StoreError>;

    /// The seats `account` holds in games that have not ended: game, seat, token.
    ///
    /// # Errors
    /// [`StoreError::Failed`].
    fn running_seats(&self, account: AccountId) -> Result<Vec<(String, u8, String)>, StoreError>;

    /// The bot accounts, in the order they were made.
    ///
    /// # Errors
    /// [`StoreError::Failed`].
    fn bots(&self) -> Result<Vec<Account>, StoreError>;
}
