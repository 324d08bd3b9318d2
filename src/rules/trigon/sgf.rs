//! Pentobi's SGF dialect for Blokus Trigon records (`.blksgf`, `rules/trigon.md` §Records).
