//! triboard: five abstract strategy games on triangle-flavoured boards — rules, search, a headless
//! CLI and (with the `app` feature) a Bevy window. See `../shared/design.md` for the layers.

pub mod ai;
pub mod rules;
