//! The service's handlers of the lobby (`docs/design.md` §Lobby): open challenges accepted and
//! withdrawn, the lobby's lists ([`LobbyView`]), leaderboards and players' pages.

use super::account_store::AccountId;
use super::limits::limit;
use super::passwords::name_key;
use super::ratings::{NEW_RATING, pool, provisional, shown, view};
use super::requests::{Asked, request_key};
use super::room::{bad_token, storage};
use super::service::{Caller, Reply, Service};
use super::store::Store;
use crate::net::protocol::{ErrorCode, GameListing, GameResult, LobbyView, ProfileView, Refusal, ServerMessage};

/// The most open challenges the lobby lists.
pub const LOBBY_CHALLENGES: usize = 200;

/// The most live games the lobby lists.
pub const LOBBY_LIVE: usize = 50;

/// The most ratings a leaderboard lists.
pub const LEADERBOARD_ROWS: usize = 100;

/// The most games a player's page lists.
pub const PROFILE_GAMES: usize = 100;

impl<S: Store> Service<S> {
    /// Takes the first free seat of open challenge `game_id` for the caller.
    pub(super) fn accept(
        &mut self,
        game_id: &str,
        request_id: Option<String>,
        caller: &Caller,
        now_ms: u64,
    ) -> Result<Reply, Refusal> {
        let key = request_key(request_id.as_deref(), caller, Asked { kind: "accept", target: game_id })?;
        if let Some(reply) = self.retried(key.as_ref(), false, now_ms)? {
            return Ok(reply);
        }
        let room = self.room(game_id)?;
        if !room.stored.setup.lobby || room.stored.ended_ms.is_some() {
            return Err(Refusal::new(ErrorCode::NotOpen, "this game is no open challenge: ask for its join code"));
        }
        self.take_seat(game_id, key, caller, now_ms)
    }

    /// Withdraws the caller's open challenge: the game is removed.
    pub(super) fn withdraw(&mut self, game_id: &str, token: &str) -> Result<Reply, Refusal> {
        let room = self.room(game_id)?;
        room.seat_of(token).ok_or_else(bad_token)?;
        let setup = &room.stored.setup;
        if !setup.lobby || setup.seats.iter().all(Option::is_some) || !room.stored.moves.is_empty() {
            return Err(Refusal::new(ErrorCode::NotOpen, "only an open challenge whose seats are free is withdrawn"));
        }
        let mut snapshot = room.snapshot(0, 0);
        self.store.delete_game(game_id).map_err(|e| storage(&e))?;
        self.rooms.remove(game_id);
        self.deadlines.remove(game_id);
        self.lobby_changed = true;
        // Over and unrated, as the protocol says: a client shows "withdrawn".
        snapshot.to_move = None;
        snapshot.rated = false;
        snapshot.clock_ms = None;
        snapshot.outcome = Some(GameResult { withdrawn: true, ..GameResult::default() });
        Ok(Reply { messages: vec![ServerMessage::State(snapshot)], ..Reply::default() })
    }

    /// Refuses a new open challenge of a player who has [`LimitSettings::open_challenges`]
    /// already (an account's, or a guest address's).
    ///
    /// [`LimitSettings::open_challenges`]: super::limits::LimitSettings::open_challenges
    pub(super) fn check_open_challenges(&mut self, caller: &Caller) -> Result<(), Refusal> {
        let max = self.limits.settings.open_challenges;
        if max == usize::MAX {
            return Ok(());
        }
        let open = self.store.open_games(LOBBY_CHALLENGES).map_err(|e| storage(&e))?;
        let mut mine = 0;
        for id in open {
            let by_caller = match caller.account {
                Some(account) => self.room(&id)?.stored.setup.players.contains(&Some(account)),
                None => caller.addr.is_some() && self.challenge_addr.get(&id) == caller.addr.as_ref(),
            };
            mine += usize::from(by_caller);
        }
        if mine >= max {
            return Err(limit(format!("{max} open challenges a player: withdraw one first")));
        }
        Ok(())
    }

    /// The lobby as it stands, `online` people in it.
    ///
    /// # Errors
    /// A storage refusal.
    pub fn lobby_view(&mut self, online: u32) -> Result<LobbyView, Refusal> {
        let open = self.store.open_games(LOBBY_CHALLENGES).map_err(|e| storage(&e))?;
        let live = self.store.live_games(LOBBY_LIVE).map_err(|e| storage(&e))?;
        let challenges = open.iter().filter_map(|id| self.listing(id).ok()).collect();
        let live = live.iter().filter_map(|id| self.listing(id).ok()).collect();
        Ok(LobbyView { challenges, live, bots: self.bot_names.clone(), online })
    }

    /// Whether the lobby changed since this was last asked.
    pub fn take_lobby_changed(&mut self) -> bool {
        std::mem::take(&mut self.lobby_changed)
    }

    /// The best ratings of `game`.
    pub(super) fn leaderboard(&mut self, game: &str) -> Result<Reply, Refusal> {
        if !crate::rules::game_ids().contains(&game) {
            return Err(Refusal::new(ErrorCode::UnknownGameKind, format!("'{game}' is not a game triboard knows")));
        }
        let rows = self.store.leaderboard(pool(game), LEADERBOARD_ROWS).map_err(|e| storage(&e))?;
        let mut rows: Vec<_> = rows.iter().map(|(account, rating)| view(account, game, rating)).collect();
        rows.sort_by_key(|r| (r.provisional, -r.rating));
        Ok(Reply { messages: vec![ServerMessage::Leaderboard { game: game.to_string(), rows }], ..Reply::default() })
    }

    /// A player's page.
    pub(super) fn profile(&mut self, name: &str) -> Result<Reply, Refusal> {
        let account = self.store.account_by_key(&name_key(name)).map_err(|e| storage(&e))?;
        let account =
            account.ok_or_else(|| Refusal::new(ErrorCode::UnknownPlayer, format!("no account is called '{name}'")))?;
        let ratings = self.store.ratings_of(account.id).map_err(|e| storage(&e))?;
        let ratings = ratings.iter().map(|(game, rating)| view(&account, game, rating)).collect();
        let ids = self.store.games_of_account(account.id, PROFILE_GAMES).map_err(|e| storage(&e))?;
        let games = ids.iter().filter_map(|id| self.listing_as_played(id).ok()).collect();
        let profile =
            ProfileView { name: account.name, bot: account.bot, created_ms: account.created_ms, ratings, games };
        Ok(Reply { messages: vec![ServerMessage::Profile(profile)], ..Reply::default() })
    }

    /// A game as a player's page lists it: a rated game that ended with each seat's rating as it
    /// stood when the game was played (before its change), not as it stands today.
    fn listing_as_played(&mut self, game_id: &str) -> Result<GameListing, Refusal> {
        let mut listing = self.listing(game_id)?;
        for change in self.store.rating_changes(game_id).map_err(|e| storage(&e))? {
            let seat = usize::from(change.seat);
            if seat < listing.ratings.len() && seat < listing.provisional.len() {
                listing.ratings[seat] = Some(shown(change.before.mu));
                listing.provisional[seat] = provisional(&change.before);
            }
        }
        Ok(listing)
    }

    /// A game as the lists show it.
    pub(super) fn listing(&mut self, game_id: &str) -> Result<GameListing, Refusal> {
        let room = self.room(game_id)?;
        let setup = room.stored.setup.clone();
        let result = room.result();
        let aborted = result.as_ref().is_some_and(|r| r.aborted);
        let winners = result.map(|r| r.winners).unwrap_or_default();
        let ply = room.stored.moves.len() as u32;
        let (to_move, deadline_ms) = (room.seat_to_move(), room.deadline().filter(|_| setup.clock.is_none()));
        let created_ms = room.stored.created_ms;
        let mut players = Vec::with_capacity(setup.seats.len());
        let mut ratings = Vec::with_capacity(setup.seats.len());
        let mut provisional = Vec::with_capacity(setup.seats.len());
        for (token, account) in setup.seats.iter().zip(&setup.players) {
            let (player, rating) = match (token, account) {
                (None, _) => (None, None),
                (Some(_), None) => (Some("guest".to_string()), None),
                (Some(_), Some(account)) => {
                    (Some(self.account_name(*account)?), Some(self.shown_rating(*account, &setup.game)?))
                }
            };
            players.push(player);
            ratings.push(rating.map(|(shown, _)| shown));
            provisional.push(rating.is_some_and(|(_, provisional)| provisional));
        }
        Ok(GameListing {
            game_id: game_id.to_string(),
            game: setup.game.clone(),
            options: setup.options.clone(),
            clock: setup.clock,
            days_per_move: setup.days_per_move,
            to_move,
            deadline_ms,
            rated: setup.rated,
            players,
            ratings,
            provisional,
            ply,
            winners,
            aborted,
            created_ms,
        })
    }

    /// An account's rating in `game` as shown, and whether it is provisional: an account that has
    /// not played the game yet shows the rating it starts from (1500?).
    fn shown_rating(&self, account: AccountId, game: &str) -> Result<(i32, bool), Refusal> {
        let rating = self.store.rating(account, pool(game)).map_err(|e| storage(&e))?.unwrap_or(NEW_RATING);
        Ok((shown(rating.mu), provisional(&rating)))
    }
}
