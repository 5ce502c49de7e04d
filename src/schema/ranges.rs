//! The unwritten iterations of a [`super::Track`] (see `checkpoint`) as ranges in the state file and seal (`"1-310"`,
//! `"4-6,9"`): a loop whose tree stays unchanged for hundreds of stops would otherwise list every number on a
//! line of its own in the user-readable state file. A plain list is read too.

use serde::{Deserialize, Deserializer, Serializer};

/// `[1, 2, 3, 7]` → `"1-3,7"` (in the order given; runs of consecutive numbers become ranges).
pub(super) fn compact(numbers: &[u64]) -> String {
    let mut parts: Vec<String> = Vec::new();
    let mut i = 0;
    while i < numbers.len() {
        let start = numbers[i];
        let mut end = start;
        while i + 1 < numbers.len() && numbers[i + 1] == end + 1 {
            i += 1;
            end = numbers[i];
        }
        parts.push(if end == start {
            start.to_string()
        } else {
            format!("{start}-{end}")
        });
        i += 1;
    }
    parts.join(",")
}

/// `"1-3,7"` → `[1, 2, 3, 7]`; a description of the first bad part otherwise.
pub(super) fn expand(text: &str) -> Result<Vec<u64>, String> {
    let mut numbers = Vec::new();
    for part in text.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        let bad = || format!("`{part}` is not an iteration or a range of them (`4-6`)");
        let (start, end): (u64, u64) = match part.split_once('-') {
            Some((a, b)) => (
                a.trim().parse().map_err(|_| bad())?,
                b.trim().parse().map_err(|_| bad())?,
            ),
            None => {
                let n = part.parse().map_err(|_| bad())?;
                (n, n)
            }
        };
        if end < start || end - start > MAX_RANGE {
            return Err(bad());
        }
        numbers.extend(start..=end);
    }
    Ok(numbers)
}

/// The longest range read back: more iterations than any loop runs, few enough that a corrupt file cannot make
/// loopgate allocate without bound.
const MAX_RANGE: u64 = 1_000_000;

/// Writes the numbers as [`compact`] ranges.
pub(super) fn serialize<S: Serializer>(numbers: &[u64], serializer: S) -> Result<S::Ok, S::Error> {
    serializer.serialize_str(&compact(numbers))
}

/// Reads [`compact`] ranges, or a plain list of numbers.
pub(super) fn deserialize<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Vec<u64>, D::Error> {
    #[derive(Deserialize)]
    #[serde(untagged)]
    enum Form {
        Ranges(String),
        List(Vec<u64>),
    }
    match Form::deserialize(deserializer)? {
        Form::Ranges(text) => expand(&text).map_err(serde::de::Error::custom),
        Form::List(list) => Ok(list),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn runs_become_ranges_and_read_back() {
        for numbers in [vec![], vec![5], vec![1, 2, 3, 7], vec![4, 5, 6, 9, 10], vec![3, 1, 2]] {
            assert_eq!(expand(&compact(&numbers)).expect("ranges"), numbers, "{numbers:?}");
        }
        assert_eq!(compact(&(1..=310).collect::<Vec<_>>()), "1-310");
        assert_eq!(compact(&[1, 2, 3, 7]), "1-3,7");
    }

    #[test]
    fn bad_ranges_are_named() {
        assert_eq!(
            expand("1-x").expect_err("bad range"),
            "`1-x` is not an iteration or a range of them (`4-6`)"
        );
        assert!(expand("9-3").is_err());
        assert!(expand("0-99999999999").is_err());
    }
}
