//! A JSON record on any text ([`Record::from_json`]): no panic; a record read is written back
//! ([`Record::to_json`]) to text that reads as the same record, and is replayed by the game it
//! names ([`replay`], what a server's room, the app and the CLI do with it) without a panic.

#![no_main]

use libfuzzer_sys::fuzz_target;
use triboard::net::position::replay;
use triboard::rules::record::Record;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    if let Ok(record) = Record::from_json(&text) {
        let again = record.to_json();
        assert_eq!(Record::from_json(&again).as_ref(), Ok(&record), "{again}");
        let _ = replay(&record);
    }
});
