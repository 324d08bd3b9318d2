//! Pentobi's SGF dialect on any text ([`sgf::read`]): no panic; a record read replays as Trigon,
//! and is written ([`sgf::write`]) to SGF that reads as the same record.

#![no_main]

use libfuzzer_sys::fuzz_target;
use triboard::rules::trigon::{Trigon, sgf};

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    if let Ok(record) = sgf::read(&text) {
        assert!(record.replay::<Trigon>().is_ok(), "a record read from SGF replays: {record:?}");
        let again = sgf::write(&record).expect("a record read from SGF is written back");
        assert_eq!(sgf::read(&again).as_ref(), Ok(&record), "{again}");
    }
});
