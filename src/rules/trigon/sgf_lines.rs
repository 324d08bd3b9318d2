//! A game's lines as one tree, as SGF keeps them (`sgf`): the main line and its variations, each a
//! whole line of moves from the start ([`Record::variations`]), merged where they share their
//! first moves. The writer walks it to nest SGF's variations; the reader orders what it read by
//! it, so a file read, written and read again gives the same record.
//!
//! [`Record::variations`]: crate::rules::record::Record::variations

/// A node: its children (move, node) in the order the lines first took them, and whether a line
/// ends here.
#[derive(Debug)]
pub(super) struct Fork<T> {
    pub(super) children: Vec<(T, usize)>,
    pub(super) ends: bool,
}

/// The tree of `lines`, the root at index 0; the first line's children come first at every node.
pub(super) fn tree_of<T: Clone + PartialEq>(lines: &[Vec<T>]) -> Vec<Fork<T>> {
    let mut tree = vec![Fork { children: Vec::new(), ends: false }];
    for line in lines {
        let mut at = 0;
        for mv in line {
            at = match tree[at].children.iter().find(|(m, _)| m == mv) {
                Some((_, next)) => *next,
                None => {
                    tree.push(Fork { children: Vec::new(), ends: false });
                    let next = tree.len() - 1;
                    tree[at].children.push((mv.clone(), next));
                    next
                }
            };
        }
        tree[at].ends = true;
    }
    tree
}

/// The lines read from a file (the main line first), as the record keeps them: the main line,
/// then the variations that add something — not a line the main line or another line holds
/// whole (a line of comments only, a copy) — in the order [`tree_of`] walks them.
pub(super) fn kept_lines<T: Clone + Ord>(lines: Vec<Vec<T>>) -> (Vec<T>, Vec<Vec<T>>) {
    // Sorted, a line held whole by another is held by the line after it.
    let mut order: Vec<usize> = (0..lines.len()).collect();
    order.sort_by(|&a, &b| lines[a].cmp(&lines[b]).then(a.cmp(&b)));
    let mut keep = vec![true; lines.len()];
    for pair in order.windows(2) {
        let (a, b) = (pair[0], pair[1]);
        if lines[b].starts_with(&lines[a]) {
            match (a, lines[a].len() == lines[b].len()) {
                // The main line stays; a copy of it goes.
                (0, true) => keep[b] = false,
                (0, false) => {}
                _ => keep[a] = false,
            }
        }
    }
    let kept: Vec<Vec<T>> = lines.into_iter().zip(keep).filter(|(_, k)| *k).map(|(line, _)| line).collect();
    let mut walked = walk(&tree_of(&kept)).into_iter();
    let main = walked.next().unwrap_or_default();
    (main, walked.collect())
}

/// Every line of `tree` that ends at a node, in the order a depth-first walk (first child first)
/// reaches their ends.
fn walk<T: Clone>(tree: &[Fork<T>]) -> Vec<Vec<T>> {
    let mut out = Vec::new();
    // Without recursion: (node, the moves to it).
    let mut stack = vec![(0, Vec::new())];
    while let Some((at, line)) = stack.pop() {
        if tree[at].ends {
            out.push(line.clone());
        }
        for (mv, next) in tree[at].children.iter().rev() {
            let mut longer = line.clone();
            longer.push(mv.clone());
            stack.push((*next, longer));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(texts: &[&str]) -> Vec<Vec<char>> {
        texts.iter().map(|t| t.chars().collect()).collect()
    }

    #[test]
    fn lines_held_whole_by_others_go_and_the_rest_follow_the_tree() {
        // Read in the file's order: the main line "ab", then "c", then "ad" (a second node for
        // "a"), a copy of "c", "a" (held by the main line) and "cx" (which holds "c").
        let (main, variations) = kept_lines(lines(&["ab", "c", "ad", "c", "a", "cx"]));
        assert_eq!(main, ['a', 'b']);
        assert_eq!(variations, lines(&["ad", "cx"]));
        // A main line another line goes on from stays the main line.
        let (main, variations) = kept_lines(lines(&["a", "ab", "a"]));
        assert_eq!((main, variations), (vec!['a'], lines(&["ab"])));
        // Ordered so, the lines give the same tree again.
        let again = kept_lines([vec![vec!['a', 'b']], lines(&["ad", "cx"])].concat());
        assert_eq!(again, (vec!['a', 'b'], lines(&["ad", "cx"])));
    }
}
