//! The end of a simulation in the tree ([`super::Tree`]): the reward backed up along the path with
//! RAVE (Silver's separate AMAF statistics, or Pentobi's folded into one mean by weight,
//! [`crate::ai::SearchConfig::folded_rave`]), MCTS-Solver's proofs climbing the path (a pruned node
//! widened before it is called lost), and the endgame solver's proofs at a small root.

use super::{Blend, Tree};
use crate::ai::settings::Proof;
use crate::rules::Knowledge;

impl<G: Knowledge> Tree<G> {
    /// Lets the proof of the simulation's last node climb its path: a proven win makes its
    /// parent's position won for its mover; a proven loss does once all its siblings are losses
    /// too (after widening a pruned node to every legal move).
    pub(super) fn prove_up(&mut self) {
        let mut i = self.path.len() - 1;
        while i >= 1 {
            let child = self.path[i];
            let (proof, seat, depth) = {
                let n = &self.nodes[child as usize];
                (n.proof, n.mover, n.depth)
            };
            if proof == 0 {
                return;
            }
            let parent = self.path[i - 1];
            let (won, plies) = if proof > 0 {
                (true, depth + 1)
            } else {
                if self.children(parent).any(|c| self.nodes[c as usize].proof >= 0) || self.widen(i - 1) {
                    return;
                }
                let longest = self.children(parent).map(|c| self.nodes[c as usize].depth).max().unwrap_or(0);
                (false, longest + 1)
            };
            if parent == 0 {
                self.root_proof = Some(if won { Proof::Win(plies) } else { Proof::Loss(plies) });
                return;
            }
            let p = &mut self.nodes[parent as usize];
            if p.proof != 0 {
                return;
            }
            p.proof = if (p.mover == seat) == won { 1 } else { -1 };
            p.depth = plies;
            i -= 1;
        }
    }

    /// Before node `path[at]` is called lost: if the knowledge pruned its moves, adds the legal
    /// moves it lacks as new children. True if it added any (the node is then not lost yet), or if
    /// the arena is too full to tell.
    fn widen(&mut self, at: usize) -> bool {
        if !self.config.knowledge {
            return false;
        }
        let node = self.path[at];
        let mut state = self.root.clone();
        for &n in &self.path[1..=at] {
            state.play_unchecked(self.nodes[n as usize].mv);
        }
        let Some(player) = state.to_move() else { return false };
        state.legal_moves(&mut self.moves);
        let children = self.children(node);
        if self.moves.len() == children.len() {
            return false;
        }
        if self.nodes.len() + self.moves.len() > self.config.max_nodes {
            return true;
        }
        let first = self.nodes.len() as u32;
        for c in children {
            let n = self.nodes[c as usize];
            self.nodes.push(n);
        }
        let keys = self.root.move_key_space();
        let how = self.blend();
        for k in 0..self.moves.len() {
            let mv = self.moves[k];
            if self.nodes[first as usize..].iter().any(|n| n.mv == mv) {
                continue;
            }
            let mut child =
                self.new_node(mv, player.0, (player.0 as usize * keys + state.move_key(mv)) as u32, (0.0, 0.0));
            child.refresh(how);
            self.nodes.push(child);
        }
        let count = (self.nodes.len() as u32 - first) as u16;
        let n = &mut self.nodes[node as usize];
        n.first_child = first;
        n.n_children = count;
        true
    }

    /// Adds the playout's rank values along the path, and to the AMAF statistics of the siblings
    /// whose move the same seat played later in the simulation.
    pub(super) fn backup(&mut self, ranks: &[f32]) {
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 {
            self.amaf_mark.fill(0);
            self.stamp = 1;
        }
        let keys = self.root.move_key_space();
        self.nodes[0].visits += 1;
        for (sum, r) in self.seat_value.iter_mut().zip(ranks) {
            *sum += *r as f64;
        }
        self.seat_count += 1.0;
        // Walk the moves backwards: after marking move i, the marks hold every (seat, move) from
        // ply i to the end, which is what the children of path[i] compare against (folded: from
        // ply i + 1, the played child left out, as Pentobi).
        let how = self.blend();
        let folded = how.folded;
        let plies = self.trace.len();
        for i in (0..plies).rev() {
            let (seat, key) = self.trace[i];
            let mark = seat as usize * keys + key as usize;
            if !folded {
                self.amaf_mark[mark] = self.stamp;
            }
            if i + 1 < self.path.len() {
                let child = self.path[i + 1] as usize;
                let n = &mut self.nodes[child];
                n.visits += 1;
                n.value += ranks[n.mover as usize];
                n.refresh(how);
                let parent = self.path[i];
                if folded {
                    self.fold_rave(parent, i, plies, ranks);
                } else {
                    for c in self.children(parent) {
                        let ch = &self.nodes[c as usize];
                        if self.amaf_mark[ch.amaf_index as usize] == self.stamp {
                            let reward = ranks[ch.mover as usize];
                            let ch = &mut self.nodes[c as usize];
                            ch.amaf_visits += 1.0;
                            ch.amaf_value += reward;
                            ch.refresh(how);
                        }
                    }
                }
            }
            if folded {
                self.amaf_mark[mark] = self.stamp;
                self.amaf_first[mark] = i as u32;
            }
        }
    }

    /// Pentobi's RAVE, folded into the children's means of `parent` (the node before ply `ply`
    /// of a simulation of `plies` plies): a child whose move its seat played later, first at ply
    /// `f`, gets the reward with weight `rave_weight · (1 − (f − ply)/(plies − ply))`, unless the
    /// parent has more than `rave_parent_max` simulations or the child a value count over
    /// `rave_child_max`.
    fn fold_rave(&mut self, parent: u32, ply: usize, plies: usize, ranks: &[f32]) {
        let cfg = &self.config;
        if self.nodes[parent as usize].visits as f32 > cfg.rave_parent_max {
            return;
        }
        let (weight, child_max, how) = (cfg.rave_weight, cfg.rave_child_max, self.blend());
        let distance = 1.0 / (plies - ply) as f32;
        for c in self.children(parent) {
            let ch = &self.nodes[c as usize];
            let at = ch.amaf_index as usize;
            if self.amaf_mark[at] != self.stamp || ch.visits as f32 + ch.amaf_visits > child_max {
                continue;
            }
            let w = weight * (1.0 - (self.amaf_first[at] as usize - ply) as f32 * distance);
            let reward = ranks[ch.mover as usize];
            let ch = &mut self.nodes[c as usize];
            ch.amaf_visits += w;
            ch.amaf_value += w * reward;
            ch.refresh(how);
        }
    }

    /// How nodes blend their statistics under this tree's settings.
    pub(super) fn blend(&self) -> Blend {
        Blend {
            rave_bias: self.config.rave_bias,
            first_play_urgency: self.config.first_play_urgency,
            folded: self.folded,
        }
    }
}

impl<G: Knowledge> Tree<G> {
    /// The endgame solver's turn ([`super::endgame`]), when due at a small root: the root moves it
    /// proved become proven children, and a proven root ends the search.
    pub(super) fn try_endgame(&mut self) {
        if !self.solver || self.root_proof.is_some() || !self.endgame.due(&self.root, self.simulations) {
            return;
        }
        let handle = self.handle.clone();
        let mut order: Vec<(u32, G::Move)> =
            self.children(0).map(|c| (self.nodes[c as usize].visits, self.nodes[c as usize].mv)).collect();
        order.sort_by_key(|&(visits, _)| std::cmp::Reverse(visits));
        let order: Vec<G::Move> = order.into_iter().map(|(_, mv)| mv).collect();
        let value = self.endgame.try_root(&self.root, &order, self.simulations, &|| handle.is_stopped());
        for c in self.children(0) {
            let n = &self.nodes[c as usize];
            if n.proof != 0 {
                continue;
            }
            if let Some(v) = self.endgame.after(&self.root, n.mv).filter(|v| v.value != 0) {
                let n = &mut self.nodes[c as usize];
                (n.proof, n.depth) = (v.value, v.plies);
            }
        }
        let won =
            self.children(0).filter(|&c| self.nodes[c as usize].proof > 0).map(|c| self.nodes[c as usize].depth).min();
        self.root_proof = match (value, won) {
            (Some(v), Some(depth)) if v.value > 0 => Some(Proof::Win(depth + 1)),
            (Some(v), _) if v.value < 0 => Some(Proof::Loss(v.plies)),
            _ => None,
        };
    }
}
