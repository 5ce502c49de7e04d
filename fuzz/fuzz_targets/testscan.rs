//! The test-file scanner: any text in any language yields units, markers and a signature, never a panic or a
//! hang; a file compared with itself gives no finding; findings render on one line.
#![no_main]

use libfuzzer_sys::fuzz_target;
use loopgate::messages::finding;
use loopgate::schema::Speech;
use loopgate::testsig::{FileSig, Lang, compare, deleted_file, markers, parse};

fuzz_target!(|data: &[u8]| {
    let Some((&selector, rest)) = data.split_first() else { return };
    let lang = [Lang::Python, Lang::JavaScript, Lang::Rust, Lang::Go][usize::from(selector % 4)];
    let Ok(text) = std::str::from_utf8(rest) else { return };
    // The first half is the old version, the whole text the new one.
    let cut = (0..=text.len() / 2).rev().find(|&at| text.is_char_boundary(at)).unwrap_or(0);
    let old = &text[..cut];
    let _ = parse(lang, text);
    let _ = markers(lang, text);
    let sig = if selector & 4 == 0 { FileSig::of(lang, old) } else { FileSig::inline(lang, old) };
    for finding in compare(&sig, text, lang).iter().chain(deleted_file(&sig).iter()) {
        for speech in [Speech::En, Speech::Zh] {
            assert!(!finding::line(speech, "f", finding).contains('\n'));
        }
    }
    let own = if selector & 4 == 0 { FileSig::of(lang, text) } else { FileSig::inline(lang, text) };
    assert!(compare(&own, text, lang).is_empty(), "a file compared with itself gave findings");
});
