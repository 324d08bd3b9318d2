//! Exhaustive search of small two-seat positions: the oracle that MCTS-Solver
//! ([`super::Mcts::proof`]) and the levels are checked against (`triboard check-solver`, the tests).
//! Plain negamax over the rules (a multi-step turn keeps the value's side), cut off at the first
//! winning move, with a cap on the positions visited so a large position is refused rather than
//! searched for ever.

use crate::rules::Game;

/// The value of a position for the seat to move under perfect play by both seats.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Solved {
    /// The seat to move loses.
    Loss,
    /// Neither seat can force a win.
    Draw,
    /// The seat to move wins.
    Win,
}

impl Solved {
    fn flip(self) -> Solved {
        match self {
            Solved::Win => Solved::Loss,
            Solved::Loss => Solved::Win,
            Solved::Draw => Solved::Draw,
        }
    }
}

/// The value of `g` for its seat to move, visiting at most `*budget` positions (decremented).
/// `None` if the budget ran out or the game is over or has other than two seats.
pub fn solve<G: Game>(g: &G, budget: &mut u64) -> Option<Solved> {
    if g.num_players() != 2 {
        return None;
    }
    let p = g.to_move()?;
    let mut moves = Vec::new();
    g.legal_moves(&mut moves);
    let mut best = Solved::Loss;
    for mv in moves {
        let mut next = g.clone();
        next.play_unchecked(mv);
        let v = value_for(&next, p.0, budget)?;
        if v > best {
            best = v;
            if best == Solved::Win {
                break;
            }
        }
    }
    Some(best)
}

/// The value of `g` for seat `seat` (whoever is to move).
fn value_for<G: Game>(g: &G, seat: u8, budget: &mut u64) -> Option<Solved> {
    *budget = budget.checked_sub(1)?;
    match g.to_move() {
        None => {
            let rank = g.outcome().expect("a game with no seat to move is over").ranks[seat as usize];
            Some(if rank == 1.0 {
                Solved::Win
            } else if rank == 0.0 {
                Solved::Loss
            } else {
                Solved::Draw
            })
        }
        Some(p) if p.0 == seat => solve(g, budget),
        Some(_) => solve(g, budget).map(Solved::flip),
    }
}

/// Every legal move of `g` with the value it leaves for the seat to move now, within `*budget`
/// positions. `None` as for [`solve`].
pub fn move_values<G: Game>(g: &G, budget: &mut u64) -> Option<Vec<(G::Move, Solved)>> {
    let p = g.to_move()?;
    if g.num_players() != 2 {
        return None;
    }
    let mut moves = Vec::new();
    g.legal_moves(&mut moves);
    moves
        .into_iter()
        .map(|mv| {
            let mut next = g.clone();
            next.play_unchecked(mv);
            value_for(&next, p.0, budget).map(|v| (mv, v))
        })
        .collect()
}
