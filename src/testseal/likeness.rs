//! How alike two versions of a file are, kept small enough to seal beside every import: a MinHash of the file's
//! shingles — each run of three tokens (words, and each other character that is not white space) — [`SLOTS`]
//! values, whose share of equal slots estimates the Jaccard similarity of the two sets of shingles. Tokens, not
//! lines: a fix that changes one operator of a two-line module keeps most of its shingles, and reformatting
//! keeps them all.
//!
//! Why: a renamed file of the code under test is followed only where the new file is that code renamed
//! (`testseal::renamed`), as git's rename detection tells a rename from a new file — and a test pointed at a
//! module the agent wrote, with the code it loaded kept elsewhere under another name, is no rename. Storing the
//! sealed file's text for every import of every test file would make the seal as big as the code.

/// Values in a likeness: the estimate's standard error is about `sqrt(J(1-J)/SLOTS)`, 0.09 at J = 0.5.
const SLOTS: usize = 32;

/// A likeness of `text`, as hex; `None` for a text with no token.
pub(crate) fn of(text: &str) -> Option<String> {
    let tokens = tokens(text);
    if tokens.is_empty() {
        return None;
    }
    let mut slots = [u32::MAX; SLOTS];
    for shingle in tokens.windows(3.min(tokens.len())) {
        let hash = fnv1a(shingle);
        for (k, slot) in slots.iter_mut().enumerate() {
            let mixed = (hash ^ SEEDS[k]).wrapping_mul(0x9E37_79B9_7F4A_7C15).rotate_left(29);
            *slot = (*slot).min((mixed >> 32) as u32);
        }
    }
    Some(slots.iter().map(|slot| format!("{slot:08x}")).collect())
}

/// FNV-1a over the shingle's tokens, a separator between them: fixed across builds and platforms, and cheap
/// (a file's every run of three tokens is hashed once at setup per import).
fn fnv1a(tokens: &[&str]) -> u64 {
    let mut hash = 0xcbf2_9ce4_8422_2325_u64;
    for (n, token) in tokens.iter().enumerate() {
        let separator: &[u8] = if n == 0 { b"" } else { b"\x1f" };
        for byte in separator.iter().chain(token.as_bytes()) {
            hash = (hash ^ u64::from(*byte)).wrapping_mul(0x0100_0000_01b3);
        }
    }
    hash
}

/// The tokens of `text`: each run of letters, digits and `_`, and each other character but white space.
fn tokens(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut word: Option<usize> = None;
    for (at, c) in text.char_indices() {
        let in_word = c.is_alphanumeric() || c == '_';
        match (word, in_word) {
            (None, true) => word = Some(at),
            (Some(start), false) => {
                out.push(&text[start..at]);
                word = None;
            }
            _ => {}
        }
        if !in_word && !c.is_whitespace() {
            out.push(&text[at..at + c.len_utf8()]);
        }
    }
    if let Some(start) = word {
        out.push(&text[start..]);
    }
    out
}

/// The estimated share of shingles two likenesses have in common (0 to 1); 0 where either is unreadable.
pub(crate) fn similarity(a: &str, b: &str) -> f64 {
    match (slots(a), slots(b)) {
        (Some(a), Some(b)) => a.iter().zip(&b).filter(|(x, y)| x == y).count() as f64 / SLOTS as f64,
        _ => 0.0,
    }
}

/// The slots of a likeness; `None` where it is no likeness.
fn slots(text: &str) -> Option<Vec<&str>> {
    (text.len() == SLOTS * 8 && text.is_ascii()).then(|| (0..SLOTS).map(|k| &text[k * 8..k * 8 + 8]).collect())
}

/// Fixed seeds, one per slot (the digits of pi, eight bytes at a time): a likeness sealed by one build must
/// compare with one taken by the next.
const SEEDS: [u64; SLOTS] = [
    0x243F_6A88_85A3_08D3,
    0x1319_8A2E_0370_7344,
    0xA409_3822_299F_31D0,
    0x082E_FA98_EC4E_6C89,
    0x4528_21E6_38D0_1377,
    0xBE54_66CF_34E9_0C6C,
    0xC0AC_29B7_C97C_50DD,
    0x3F84_D5B5_B547_0917,
    0x9216_D5D9_8979_FB1B,
    0xD131_0BA6_98DF_B5AC,
    0x2FFD_72DB_D01A_DFB7,
    0xB8E1_AFED_6A26_7E96,
    0xBA7C_9045_F12C_7F99,
    0x24A1_9947_B391_6CF7,
    0x0801_F2E2_858E_FC16,
    0x6369_20D8_7157_4E69,
    0xA458_FEA3_F493_3D7E,
    0x0D95_748F_728E_B658,
    0x718B_CD58_8215_4AEE,
    0x7B54_A41D_C25A_59B5,
    0x9C30_D539_2AF2_6013,
    0xC5D1_B023_2860_85F0,
    0xCA41_7918_B8DB_38EF,
    0x8E79_DCB0_603A_180E,
    0x6C9E_0E8B_B01E_8A3E,
    0xD715_77C1_BD31_4B27,
    0x78AF_2FDA_5560_5C60,
    0xE655_25F3_AA55_AB94,
    0x5748_9862_63E8_1440,
    0x55CA_396A_2AAB_10B6,
    0xB4CC_5C34_1141_E8CE,
    0xA154_86AF_7C72_E993,
];

#[cfg(test)]
mod tests {
    use super::{of, similarity};

    #[test]
    fn the_same_code_is_alike_and_a_small_edit_keeps_most() {
        let code = "exports.add = (a, b) => a - b;\nexports.mul = (a, b) => a * b;\n";
        let same = of(code).expect("tokens");
        let reflowed = "exports.add = (a, b) =>\n  a - b;\n\nexports.mul = (a, b) => a * b;";
        assert_eq!(similarity(&same, &of(reflowed).expect("tokens")), 1.0);
        let fixed = of(&code.replace("a - b", "a + b")).expect("tokens");
        assert!(similarity(&same, &fixed) >= 0.5, "{}", similarity(&same, &fixed));
        let fake = of("exports.add = () => 3;\nexports.mul = () => 6;\n").expect("tokens");
        assert!(similarity(&same, &fake) < 0.5, "{}", similarity(&same, &fake));
        assert_eq!(of("\n  \n"), None);
        assert_eq!(similarity("nonsense", &same), 0.0);
    }
}
