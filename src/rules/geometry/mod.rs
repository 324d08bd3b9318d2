//! Board geometries shared by the games, each with its tables precomputed once per board size.

pub mod lattice;
pub mod polyiamond;
pub mod triangle;
pub mod trigon;
pub mod trisq;
