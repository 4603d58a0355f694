//! `TrackedDeal::from_json` on arbitrary text (the seed corpus holds real records of every
//! preset, which libFuzzer mutates byte by byte): a deal or a named `ZhipaiError`, never a
//! panic, a hang or an oversized allocation. A record that loads writes back a record that
//! loads to the same state and the same text.
#![no_main]

use libfuzzer_sys::fuzz_target;
use zhipai_core::record::TrackedDeal;
use zhipai_fuzz::snapshot;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    match TrackedDeal::from_json(text) {
        Ok(deal) => {
            let json = deal.to_json();
            let again = TrackedDeal::from_json(&json).unwrap_or_else(|e| panic!("{e}\n{json}"));
            assert_eq!(again.to_json(), json);
            assert_eq!(snapshot(&*again.state), snapshot(&*deal.state));
        }
        Err(e) => assert!(!e.to_string().is_empty()),
    }
});
