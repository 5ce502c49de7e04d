//! The test-count scanner: any bytes, fed line by line as the verify runner feeds it, agree with the
//! whole-text count.
#![no_main]

use libfuzzer_sys::fuzz_target;
use loopgate::readout::{self, CountScanner};

fuzz_target!(|data: &[u8]| {
    let mut scanner = CountScanner::new();
    for line in data.split(|&b| b == b'\n') {
        scanner.feed_line(line);
    }
    assert_eq!(scanner.finish(), readout::counts(&String::from_utf8_lossy(data)));
});
