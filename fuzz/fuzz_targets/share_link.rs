//! A share link's fragment on any text ([`parse_fragment`]): no panic; a record read is linked
//! again ([`fragment`]) to a fragment that reads as what a link keeps of it ([`shared`]).

#![no_main]

use libfuzzer_sys::fuzz_target;
use triboard::net::links::{fragment, parse_fragment, shared};

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    if let Ok(Some(record)) = parse_fragment(&text) {
        let again = fragment(&record);
        assert_eq!(parse_fragment(&again), Ok(Some(shared(&record))), "{again}");
    }
});
