//! A fixed-size bitboard over board cells or points: `W` words of 64 bits, indexed `0..64·W`.

/// A set of cell indices `0..64·W`, stored as `W` little-endian words.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct BitSet<const W: usize>(pub [u64; W]);

impl<const W: usize> Default for BitSet<W> {
    fn default() -> Self {
        BitSet([0; W])
    }
}

impl<const W: usize> BitSet<W> {
    /// The empty set.
    pub const EMPTY: BitSet<W> = BitSet([0; W]);
    /// How many indices the set can hold.
    pub const CAPACITY: usize = 64 * W;

    /// True if `i` is in the set. Panics if `i >= 64·W`.
    #[inline(always)]
    pub fn contains(&self, i: usize) -> bool {
        self.0[i >> 6] >> (i & 63) & 1 != 0
    }
    /// Adds `i`.
    #[inline(always)]
    pub fn insert(&mut self, i: usize) {
        self.0[i >> 6] |= 1 << (i & 63);
    }
    /// Removes `i`.
    #[inline(always)]
    pub fn remove(&mut self, i: usize) {
        self.0[i >> 6] &= !(1 << (i & 63));
    }
    /// How many indices are in the set.
    #[inline(always)]
    pub fn count(&self) -> u32 {
        self.0.iter().map(|w| w.count_ones()).sum()
    }
    /// True if the set is empty.
    #[inline(always)]
    pub fn is_empty(&self) -> bool {
        self.0.iter().all(|&w| w == 0)
    }
    /// True if the two sets share an index (one pass over the words, no early exit).
    #[inline(always)]
    pub fn intersects(&self, other: &Self) -> bool {
        let mut any = 0;
        for k in 0..W {
            any |= self.0[k] & other.0[k];
        }
        any != 0
    }
    /// The intersection.
    #[inline(always)]
    pub fn and(&self, other: &Self) -> Self {
        let mut r = *self;
        for k in 0..W {
            r.0[k] &= other.0[k];
        }
        r
    }
    /// The union.
    #[inline(always)]
    pub fn or(&self, other: &Self) -> Self {
        let mut r = *self;
        for k in 0..W {
            r.0[k] |= other.0[k];
        }
        r
    }
    /// The indices of `self` that are not in `other`.
    #[inline(always)]
    pub fn and_not(&self, other: &Self) -> Self {
        let mut r = *self;
        for k in 0..W {
            r.0[k] &= !other.0[k];
        }
        r
    }
    /// The smallest index in the set.
    #[inline(always)]
    pub fn first(&self) -> Option<usize> {
        (0..W).find(|&k| self.0[k] != 0).map(|k| k * 64 + self.0[k].trailing_zeros() as usize)
    }
    /// The largest index in the set.
    #[inline(always)]
    pub fn last(&self) -> Option<usize> {
        (0..W).rev().find(|&k| self.0[k] != 0).map(|k| k * 64 + 63 - self.0[k].leading_zeros() as usize)
    }
    /// The indices in ascending order.
    pub fn iter(&self) -> impl Iterator<Item = usize> + '_ {
        (0..W).flat_map(move |k| {
            let mut w = self.0[k];
            std::iter::from_fn(move || {
                if w == 0 {
                    return None;
                }
                let b = w.trailing_zeros() as usize;
                w &= w - 1;
                Some(k * 64 + b)
            })
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn first_last_iter_agree() {
        let mut s = BitSet::<3>::EMPTY;
        for i in [0, 63, 64, 130, 191] {
            s.insert(i);
        }
        assert_eq!(s.first(), Some(0));
        assert_eq!(s.last(), Some(191));
        assert_eq!(s.iter().collect::<Vec<_>>(), vec![0, 63, 64, 130, 191]);
        s.remove(0);
        s.remove(191);
        assert_eq!((s.first(), s.last(), s.count()), (Some(63), Some(130), 3));
        assert!(BitSet::<3>::EMPTY.first().is_none());
    }
}
