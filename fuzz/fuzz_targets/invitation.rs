//! An invitation or a typed server address on any text ([`read_invitation`], [`server_url`]):
//! no panic; an address read is its own WebSocket address, and the invitation link of a code on
//! it ([`join_link`]) reads back as that code and that address.

#![no_main]

use libfuzzer_sys::fuzz_target;
use triboard::net::links::{join_link, read_invitation, server_url};

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let _ = read_invitation(&text);
    if let Ok(url) = server_url(&text) {
        assert_eq!(server_url(&url).as_ref(), Ok(&url), "{text:?}");
        // A join code as the server makes them: letters and digits.
        let code: String = text.chars().filter(char::is_ascii_alphanumeric).take(12).collect();
        if !code.is_empty() {
            let link = join_link(&url, &code);
            assert_eq!(read_invitation(&link), Ok((code, Some(url))), "{link}");
        }
    }
});
