//! Human durations for `--max-duration`: `90s`, `45m`, `8h`, `2d`, combined as `1h30m`; a bare number is seconds.

/// Parses a duration into seconds; the error says what is accepted.
pub(crate) fn parse_secs(text: &str) -> Result<u64, String> {
    let text = text.trim();
    let bad = || format!("`{text}` is not a duration (use e.g. `90s`, `45m`, `8h`, `1h30m`)");
    if text.is_empty() {
        return Err(bad());
    }
    if let Ok(secs) = text.parse::<u64>() {
        return Ok(secs);
    }
    let mut total: u64 = 0;
    let mut number = String::new();
    for c in text.chars() {
        if c.is_ascii_digit() {
            number.push(c);
            continue;
        }
        let unit = match c {
            's' => 1,
            'm' => 60,
            'h' => 3600,
            'd' => 86_400,
            _ => return Err(bad()),
        };
        let value: u64 = number.parse().map_err(|_| bad())?;
        total = value
            .checked_mul(unit)
            .and_then(|v| total.checked_add(v))
            .ok_or_else(bad)?;
        number.clear();
    }
    if number.is_empty() { Ok(total) } else { Err(bad()) }
}

/// Formats seconds compactly: `1h30m`, `45m`, `20s`.
pub(crate) fn format_secs(secs: u64) -> String {
    let (d, h, m, s) = (secs / 86_400, secs % 86_400 / 3600, secs % 3600 / 60, secs % 60);
    let parts = [(d, "d"), (h, "h"), (m, "m"), (s, "s")];
    let text: String = parts
        .iter()
        .filter(|(v, _)| *v > 0)
        .map(|(v, u)| format!("{v}{u}"))
        .collect();
    if text.is_empty() { "0s".to_string() } else { text }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_units_and_combinations() {
        assert_eq!(parse_secs("90"), Ok(90));
        assert_eq!(parse_secs("45m"), Ok(2700));
        assert_eq!(parse_secs("8h"), Ok(28_800));
        assert_eq!(parse_secs("1h30m"), Ok(5400));
        assert_eq!(parse_secs("2d"), Ok(172_800));
    }

    #[test]
    fn rejects_garbage_with_a_hint() {
        for bad in ["", "m", "5x", "1h30", "-5m", "99999999999999999999d"] {
            assert!(parse_secs(bad).expect_err(bad).contains("45m"));
        }
    }

    #[test]
    fn formats_compactly() {
        assert_eq!(format_secs(5400), "1h30m");
        assert_eq!(format_secs(0), "0s");
        assert_eq!(format_secs(61), "1m1s");
    }
}
