//! Ratings (`docs/design.md` §Lobby): Weng-Lin (OpenSkill's Bradley-Terry model, the
//! `skillratings` crate) for every game, two to four players ranked by finishing place, kept by
//! the service when a rated game ends ([`Service::settle`]).
//!
//! **One pool per game id** (`trike`, `tri-it-out`, `tricore`, `trisq`, `trigon-2`, `trigon-3`,
//! `trigon`): Trike's board sizes and Tri-It-Out's boards share their game's pool, as
//! boardspace.net rates Trike: the sizes are one game's skill, and splitting would leave every
//! pool provisional on a small server. Trigon's player counts are different games (alliances,
//! other openings), so each has its own.
//!
//! **Places.** The winners share first place; the others follow by score (highest first, equal
//! scores share a place). A seat that resigned or ran out of time is last and the others share
//! first. In a game of three or four where a seat resigned or flagged after every seat moved, it
//! is out and the others play on: it is placed after every seat that stayed, whatever its score,
//! and of two seats out the one that left first is last.
//!
//! **Provisional.** A new rating is μ = 25, σ = 25/3 ≈ 8.33; it is shown with `?` while σ >
//! [`PROVISIONAL_SIGMA`] = 6: a player who wins and loses in turn against an equal passes it after
//! 12 games of two players (the test `a_rating_settles_after_about_a_dozen_games` counts; σ falls
//! slowly after that, to 4 only after 33 games).

use skillratings::MultiTeamOutcome;
use skillratings::weng_lin::{WengLinConfig, WengLinRating, weng_lin_multi_team};

use super::account_store::{Account, RatingRecord, StoredRating};
use super::room::storage;
use super::service::Service;
use super::store::Store;
use crate::net::protocol::{
    GameResult, PROVISIONAL_SIGMA, RATING_SCALE, RatingChange, RatingView, Refusal, ServerMessage,
};

/// A newcomer's rating.
pub const NEW_RATING: StoredRating = StoredRating { mu: 25.0, sigma: 25.0 / 3.0, games: 0 };

/// The rating pool of a game id: the id itself (see the module's doc).
pub fn pool(game: &str) -> &str {
    game
}

/// Each seat's finishing place, 1 the best (see the module's doc): the seats out of a game of
/// three or four ([`GameResult::out`]) after every seat that stayed, the earliest to leave last.
pub fn places(result: &GameResult, seats: usize) -> Vec<usize> {
    let key = |s: usize| {
        let left = result.out.iter().position(|o| usize::from(o.seat) == s);
        let stayed = left.is_none();
        let won = result.winners.contains(&(s as u8));
        let score = result.scores.get(s).copied().unwrap_or(0);
        (stayed, left, won, score)
    };
    (0..seats).map(|s| 1 + (0..seats).filter(|&t| key(t) > key(s)).count()).collect()
}

/// The ratings after a game whose seats had `before` and finished at `places`.
pub fn rate(before: &[StoredRating], places: &[usize]) -> Vec<StoredRating> {
    let teams: Vec<[WengLinRating; 1]> =
        before.iter().map(|r| [WengLinRating { rating: r.mu, uncertainty: r.sigma }]).collect();
    let input: Vec<(&[WengLinRating], MultiTeamOutcome)> =
        teams.iter().zip(places).map(|(t, &p)| (&t[..], MultiTeamOutcome::new(p))).collect();
    let after = weng_lin_multi_team(&input, &WengLinConfig::new());
    before
        .iter()
        .zip(after)
        .map(|(b, a)| StoredRating { mu: a[0].rating, sigma: a[0].uncertainty, games: b.games + 1 })
        .collect()
}

/// A μ or σ as shown: × [`RATING_SCALE`], rounded.
pub fn shown(points: f64) -> i32 {
    (points * RATING_SCALE).round() as i32
}

/// Whether a rating is still provisional.
pub fn provisional(rating: &StoredRating) -> bool {
    rating.sigma > PROVISIONAL_SIGMA
}

/// A stored rating as the wire shows it.
pub fn view(account: &Account, game: &str, rating: &StoredRating) -> RatingView {
    RatingView {
        name: account.name.clone(),
        game: game.to_string(),
        rating: shown(rating.mu),
        deviation: shown(rating.sigma),
        games: rating.games,
        provisional: provisional(rating),
        bot: account.bot,
    }
}

impl<S: Store> Service<S> {
    /// Once game `game_id` is over, records when it ended and, if it is rated, not aborted and every
    /// seat is an account's, rates it: returns the [`ServerMessage::Rated`] for its followers. Nothing for a
    /// game still running or settled before.
    ///
    /// # Errors
    /// A storage refusal (the end is then recorded on a later call).
    pub(super) fn settle(&mut self, game_id: &str, now_ms: u64) -> Result<Option<ServerMessage>, Refusal> {
        let room = self.room(game_id)?;
        if room.stored.ended_ms.is_some() {
            return Ok(None);
        }
        let Some(result) = room.result() else { return Ok(None) };
        let setup = room.stored.setup.clone();
        self.store.end_game(game_id, now_ms).map_err(|e| storage(&e))?;
        self.room(game_id)?.stored.ended_ms = Some(now_ms);
        self.lobby_changed = true;
        let accounts: Option<Vec<_>> = setup.players.iter().copied().collect();
        // An aborted game is nobody's loss: unrated.
        let rated = setup.rated && !result.aborted;
        let Some(accounts) = accounts.filter(|a| rated && a.len() == setup.seats.len()) else {
            return Ok(None);
        };
        let pool = pool(&setup.game);
        let mut before = Vec::with_capacity(accounts.len());
        for &account in &accounts {
            before.push(self.store.rating(account, pool).map_err(|e| storage(&e))?.unwrap_or(NEW_RATING));
        }
        let after = rate(&before, &places(&result, accounts.len()));
        let records: Vec<RatingRecord> = (0..accounts.len())
            .map(|s| RatingRecord { seat: s as u8, account: accounts[s], before: before[s], after: after[s] })
            .collect();
        self.store.record_ratings(game_id, pool, &records).map_err(|e| storage(&e))?;
        let mut changes = Vec::with_capacity(records.len());
        for r in &records {
            changes.push(RatingChange {
                seat: r.seat,
                name: self.account_name(r.account)?,
                before: shown(r.before.mu),
                after: shown(r.after.mu),
                provisional: provisional(&r.after),
            });
        }
        Ok(Some(ServerMessage::Rated { game_id: game_id.to_string(), changes }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::net::protocol::{OutHow, SeatOut};

    fn result(winners: &[u8], scores: &[i32]) -> GameResult {
        GameResult { winners: winners.to_vec(), scores: scores.to_vec(), ..GameResult::default() }
    }

    #[test]
    fn places_follow_winners_then_scores() {
        assert_eq!(places(&result(&[1], &[]), 2), [2, 1]);
        assert_eq!(places(&result(&[2], &[40, 55, 60]), 3), [3, 2, 1]);
        assert_eq!(places(&result(&[0, 2], &[60, 20, 60, 20]), 4), [1, 3, 1, 3]);
        assert_eq!(places(&result(&[0, 2], &[]), 3), [1, 3, 1], "a resignation: the others share first");
        let out = |seat, ply| SeatOut { seat, ply, how: OutHow::Resigned };
        let left = GameResult { out: vec![out(2, 9), out(0, 12)], ..result(&[1], &[80, 40, 90, 60]) };
        assert_eq!(places(&left, 4), [3, 1, 4, 2], "out last, whatever their score, the earlier lower");
    }

    #[test]
    fn a_win_raises_and_a_loss_lowers_and_three_players_are_ranked() {
        let after = rate(&[NEW_RATING, NEW_RATING], &[1, 2]);
        assert!(after[0].mu > 25.0 && after[1].mu < 25.0 && after[0].sigma < NEW_RATING.sigma);
        assert_eq!((after[0].games, after[1].games), (1, 1));
        let three = rate(&[NEW_RATING; 3], &[2, 1, 3]);
        assert!(three[1].mu > three[0].mu && three[0].mu > three[2].mu, "{three:?}");
    }

    #[test]
    fn a_rating_settles_after_about_a_dozen_games() {
        let (mut a, mut b) = (NEW_RATING, NEW_RATING);
        let mut settled_at = None;
        for game in 1..=40 {
            let places = if game % 2 == 0 { [1, 2] } else { [2, 1] };
            let after = rate(&[a, b], &places);
            (a, b) = (after[0], after[1]);
            if settled_at.is_none() && !provisional(&a) {
                settled_at = Some(game);
            }
        }
        assert_eq!(settled_at, Some(12), "σ {}", a.sigma);
    }
}
