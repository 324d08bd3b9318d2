//! The search: it finds forced wins an exhaustive search confirms, never returns an illegal move,
//! stops when asked, is reproducible from its seed, reuses its tree, and backs up ranks for three
//! seats.

use std::time::{Duration, Instant};

use triboard::ai::{Budget, Level, Mcts, SearchConfig};
use triboard::rules::trike::{Trike, TrikeOptions};
use triboard::rules::{Game, IllegalMove, Knowledge, Outcome, Player, play_moves, rng_from_seed};

fn trike(size: u8, moves: &str) -> Trike {
    let mut g = Trike::new(&TrikeOptions { size }).unwrap();
    play_moves(&mut g, moves).unwrap();
    g
}

/// Exhaustive search: the rank value of every seat under optimal play (each mover maximises its own).
fn solve<G: Game>(g: &G) -> Vec<f32> {
    let Some(p) = g.to_move() else {
        let o = g.outcome().unwrap();
        return o.ranks[..o.num_players].to_vec();
    };
    let mut moves = Vec::new();
    g.legal_moves(&mut moves);
    let mut best: Option<Vec<f32>> = None;
    for mv in moves {
        let mut next = g.clone();
        next.play(mv).unwrap();
        let v = solve(&next);
        if best.as_ref().is_none_or(|b| v[p.index()] > b[p.index()]) {
            best = Some(v);
        }
    }
    best.unwrap()
}

/// The moves of `g` that win for the mover, by exhaustive search.
fn winning_moves<G: Game>(g: &G) -> (Vec<G::Move>, usize) {
    let p = g.to_move().unwrap();
    let mut moves = Vec::new();
    g.legal_moves(&mut moves);
    let total = moves.len();
    let winners = moves
        .into_iter()
        .filter(|&mv| {
            let mut next = g.clone();
            next.play(mv).unwrap();
            solve(&next)[p.index()] == 1.0
        })
        .collect();
    (winners, total)
}

fn search<G: Knowledge>(g: &G, simulations: u64, seed: u64) -> Mcts<G> {
    let mut m = Mcts::new(g, SearchConfig { seed, ..SearchConfig::default() });
    m.run(Budget { simulations, max_time: Duration::from_secs(60) });
    m
}

#[test]
fn finds_forced_wins_that_exhaustive_search_confirms() {
    // Positions from random games on boards of size 4 and 5 where the mover has a forced win but
    // at least one move that loses, so a blind pick can fail.
    let mut rng = rng_from_seed(11);
    let mut buf = Vec::new();
    let mut checked = 0;
    for game in 0..400 {
        if checked == 12 {
            break;
        }
        let size = 4 + (game % 2) as u8;
        let mut g = Trike::new(&TrikeOptions { size }).unwrap();
        let plies = 3 + game % 5;
        for _ in 0..plies {
            match g.random_move(&mut rng, &mut buf) {
                Some(mv) => g.play_unchecked(mv),
                None => break,
            }
        }
        if g.to_move().is_none() {
            continue;
        }
        let (winners, total) = winning_moves(&g);
        if winners.is_empty() || winners.len() == total {
            continue;
        }
        let m = search(&g, 20_000, game as u64);
        let best = m.best_move().unwrap();
        assert!(
            winners.contains(&best),
            "size {size}, position {:?}: the search chose {} but only {:?} win",
            g,
            g.move_text(best),
            winners.iter().map(|&w| g.move_text(w)).collect::<Vec<_>>()
        );
        checked += 1;
    }
    assert_eq!(checked, 12, "too few positions with a forced win and a losing alternative");
}

#[test]
fn never_returns_an_illegal_move() {
    let mut rng = rng_from_seed(5);
    let mut buf = Vec::new();
    for game in 0..40u64 {
        let mut g = Trike::new(&TrikeOptions { size: [3, 5, 7, 13][game as usize % 4] }).unwrap();
        while g.to_move().is_some() {
            let m = search(&g, 200, game);
            let best = m.best_move().expect("a move while the game goes on");
            g.legal_moves(&mut buf);
            assert!(buf.contains(&best));
            for &mv in &m.principal_variation()[..1] {
                assert_eq!(mv, best);
            }
            let wr = m.win_rate().unwrap();
            assert!((0.0..=1.0).contains(&wr));
            g.play(best).unwrap();
            // Alternate with random moves so positions vary.
            if let Some(mv) = g.random_move(&mut rng, &mut buf) {
                g.play(mv).unwrap();
            }
        }
        assert!(search(&g, 100, 0).best_move().is_none(), "no move once the game is over");
    }
}

#[test]
fn stop_from_another_thread_ends_a_long_search() {
    let g = trike(13, "");
    let mut m = Mcts::new(&g, SearchConfig::default());
    let handle = m.handle();
    let stopper = std::thread::spawn(move || {
        std::thread::sleep(Duration::from_millis(100));
        handle.stop();
    });
    let start = Instant::now();
    let ran = m.run(Budget { simulations: u64::MAX, max_time: Duration::from_secs(600) });
    stopper.join().unwrap();
    assert!(start.elapsed() < Duration::from_secs(30), "the search did not stop");
    assert!(ran > 0 && m.handle().simulations() == m.simulations());
    assert!(m.best_move().is_some(), "a stopped search still answers");
    assert_eq!(m.step(1000), 0, "a stopped search runs nothing more");
    m.resume();
    assert_eq!(m.step(128), 128);
}

#[test]
fn the_same_seed_gives_the_same_search() {
    let g = trike(7, "d4 d7 d5");
    let a = search(&g, 3000, 42);
    let b = search(&g, 3000, 42);
    assert_eq!(a.root_children(), b.root_children());
    assert_eq!(a.principal_variation(), b.principal_variation());
}

#[test]
fn advance_keeps_the_subtree_of_the_move_played() {
    let g = trike(7, "d4");
    let mut m = search(&g, 5000, 3);
    let best = m.best_move().unwrap();
    let kept = m.root_children().iter().find(|c| c.mv == best).unwrap().visits as u64;
    m.advance(best);
    assert_eq!(m.simulations(), kept);
    let mut expected = g.clone();
    expected.play(best).unwrap();
    assert_eq!(m.root(), &expected);
    m.step(500);
    let mut legal = Vec::new();
    expected.legal_moves(&mut legal);
    let second = m.best_move().unwrap();
    assert!(legal.contains(&second));
    // A second advance rebuilds the tree in the arena the first one left (the spare): the
    // subtree is kept just the same.
    let kept = m.root_children().iter().find(|c| c.mv == second).unwrap().visits as u64;
    m.advance(second);
    assert_eq!(m.simulations(), kept);
    expected.play(second).unwrap();
    assert_eq!(m.root(), &expected);
    m.step(500);
    expected.legal_moves(&mut legal);
    assert!(legal.contains(&m.best_move().unwrap()));
}

#[test]
fn levels_are_budgets_within_their_time_caps() {
    assert!(Level::new(0).is_err() && Level::new(7).is_err());
    let budgets: Vec<Budget> = (1..=6).map(|n| Level::new(n).unwrap().budget()).collect();
    assert!(budgets.windows(2).all(|w| w[1].simulations > w[0].simulations));
    assert!(budgets[0].max_time <= Duration::from_millis(500));
    assert!(budgets[5].max_time <= Duration::from_secs(10));
}

/// A three-seat race: seats add 1 or 2 to a counter in turn; whoever makes it exactly `TARGET` wins.
#[derive(Clone, Debug, PartialEq)]
struct Race {
    total: u8,
    ply: usize,
}

const TARGET: u8 = 10;

impl Game for Race {
    type Move = u8;
    type Options = ();
    const IDS: &'static [&'static str] = &["race"];
    fn id(&self) -> &'static str {
        "race"
    }
    fn new(_: &()) -> Result<Self, String> {
        Ok(Race { total: 0, ply: 0 })
    }
    fn options(&self) -> &() {
        &()
    }
    fn num_players(&self) -> usize {
        3
    }
    fn to_move(&self) -> Option<Player> {
        (self.total < TARGET).then_some(Player((self.ply % 3) as u8))
    }
    fn ply(&self) -> usize {
        self.ply
    }
    fn legal_moves(&self, out: &mut Vec<u8>) {
        out.clear();
        out.extend((1..=2).filter(|k| self.total + k <= TARGET));
        if self.total >= TARGET {
            out.clear();
        }
    }
    fn play(&mut self, mv: u8) -> Result<(), IllegalMove> {
        if !(1..=2).contains(&mv) || self.total + mv > TARGET {
            return Err(IllegalMove::new("add 1 or 2 without passing the target"));
        }
        self.play_unchecked(mv);
        Ok(())
    }
    fn play_unchecked(&mut self, mv: u8) {
        self.total += mv;
        self.ply += 1;
    }
    fn outcome(&self) -> Option<Outcome> {
        (self.total == TARGET).then(|| {
            let winner = (self.ply - 1) % 3;
            let scores: Vec<i32> = (0..3).map(|s| (s == winner) as i32).collect();
            Outcome::from_scores(&scores)
        })
    }
    fn parse_move(&self, text: &str) -> Result<u8, IllegalMove> {
        text.parse().map_err(|_| IllegalMove::new("a number"))
    }
    fn notation(&self) -> &'static str {
        "a number of steps"
    }
    fn move_text(&self, mv: u8) -> String {
        mv.to_string()
    }
    fn player_name(&self, p: Player) -> &'static str {
        ["A", "B", "C"][p.index()]
    }
    fn board_text(&self) -> String {
        self.total.to_string()
    }
    fn move_key(&self, mv: u8) -> usize {
        mv as usize
    }
    fn move_key_space(&self) -> usize {
        3
    }
}

impl Knowledge for Race {}

#[test]
fn three_seats_each_maximise_their_own_rank() {
    // At 8, adding 2 wins at once; at 9 only 1 is legal; at 7 adding 1 leaves 8 for the next seat,
    // who would win, while adding 2 leaves 9: the next seat must make 10 and win, so both lose for
    // the mover, and exhaustive search tells which the search must prefer among equals.
    for total in [8u8, 6, 5] {
        let g = Race { total, ply: 4 };
        let (winners, _) = winning_moves(&g);
        let m = search(&g, 4000, 1);
        if !winners.is_empty() {
            assert!(winners.contains(&m.best_move().unwrap()), "at {total}: {:?}", m.root_children());
        }
    }
    let g = Race { total: 8, ply: 4 };
    assert_eq!(search(&g, 500, 9).best_move(), Some(2));
    let ranks = solve(&Race { total: 0, ply: 0 });
    assert_eq!(ranks.iter().filter(|&&r| r == 1.0).count(), 1);
}
