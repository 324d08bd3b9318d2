//! The protocol's decoders on any text: a client message as the server reads it and a server
//! message as the app reads it. Neither may panic, and what either reads is written back
//! ([`encode_client`], [`encode_server`]) to text that reads as the same message.

#![no_main]

use libfuzzer_sys::fuzz_target;
use triboard::net::protocol::{decode_client, decode_server, encode_client, encode_server};

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    if let Ok(message) = decode_client(&text) {
        let again = encode_client(&message);
        assert_eq!(decode_client(&again).as_ref(), Ok(&message), "{again}");
    }
    if let Ok(message) = decode_server(&text) {
        let again = encode_server(&message);
        assert_eq!(decode_server(&again).as_ref(), Ok(&message), "{again}");
    }
});
