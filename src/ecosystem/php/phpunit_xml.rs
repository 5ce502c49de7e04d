//! PHPUnit's configuration file, read as what it does to the test side (`closure::parts::Scope::PhpunitXml`).
//!
//! Nearly everything in `phpunit.xml` is the test side (see `closure::php`), so the file is sealed as a whole but
//! for the attributes of its root `<phpunit>` element that only change what PHPUnit prints ([`FREE`]): turning
//! colours on or asking for the details of skipped tests changes neither what runs nor what counts, and loopgate
//! reads PHPUnit's own JUnit report, not its output. Comments, the order of the root's attributes and how white
//! space is laid out (a reformatted file) do not count either. A file without a `<phpunit>` element is sealed byte for byte.

/// The root's attributes that only change what PHPUnit prints (PHPUnit 9 to 11). Not `printerClass` (a printer
/// of the project's own is code), nor the cache settings (`executionOrder="defects"` reads them).
const FREE: &[&str] = &[
    "colors",
    "columns",
    "testdox",
    "verbose",
    "displayDetailsOnIncompleteTests",
    "displayDetailsOnSkippedTests",
    "displayDetailsOnTestsThatTriggerDeprecations",
    "displayDetailsOnTestsThatTriggerErrors",
    "displayDetailsOnTestsThatTriggerNotices",
    "displayDetailsOnTestsThatTriggerWarnings",
    "displayDetailsOnPhpunitDeprecations",
];

/// The text of `phpunit.xml` that is sealed: without comments, its root's free attributes cut out and the rest
/// in order of name, every run of white space one space. `None` where there is no `<phpunit>` start tag to read
/// (the caller seals the bytes).
pub(crate) fn sealed_text(text: &str) -> Option<String> {
    let text = without_comments(text);
    let start = find_root(&text)?;
    let end = start + tag_end(&text[start..])?;
    let tag = &text[start + "<phpunit".len()..end];
    let (attributes, closing) = match tag.strip_suffix('/') {
        Some(open) => (open, "/>"),
        None => (tag, ">"),
    };
    let mut kept: Vec<(String, String)> = attributes_of(attributes)?
        .into_iter()
        .filter(|(name, _)| !FREE.contains(&name.as_str()))
        .collect();
    kept.sort();
    let root: String = kept.iter().map(|(name, value)| format!(" {name}={value}")).collect();
    let sealed = format!("{}<phpunit{root}{closing}{}", &text[..start], &text[end + 1..]);
    Some(sealed.split_whitespace().collect::<Vec<_>>().join(" "))
}

fn without_comments(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find("<!--") {
        out.push_str(&rest[..at]);
        rest = rest[at..].find("-->").map_or("", |end| &rest[at + end + 3..]);
    }
    out.push_str(rest);
    out
}

/// Where the `<phpunit` start tag begins (not `<phpunitx`).
fn find_root(text: &str) -> Option<usize> {
    let mut from = 0;
    while let Some(at) = text[from..].find("<phpunit") {
        let at = from + at;
        let next = text[at + "<phpunit".len()..].chars().next()?;
        if next.is_whitespace() || next == '>' || next == '/' {
            return Some(at);
        }
        from = at + 1;
    }
    None
}

/// The offset of the `>` that ends the tag starting `tag`, outside quoted values.
fn tag_end(tag: &str) -> Option<usize> {
    let mut quote = None;
    for (at, c) in tag.char_indices() {
        match (quote, c) {
            (None, '"' | '\'') => quote = Some(c),
            (Some(q), _) if c == q => quote = None,
            (None, '>') => return Some(at),
            _ => {}
        }
    }
    None
}

/// `name="value"` pairs of a start tag's inside, each value with its quotes; `None` where it does not read as
/// attributes (then the file is sealed byte for byte).
fn attributes_of(inside: &str) -> Option<Vec<(String, String)>> {
    let mut out = Vec::new();
    let mut rest = inside.trim_start();
    while !rest.is_empty() {
        let eq = rest.find('=')?;
        let name = rest[..eq].trim();
        if name.is_empty() || name.contains(char::is_whitespace) {
            return None;
        }
        let value = rest[eq + 1..].trim_start();
        let quote = value.chars().next().filter(|c| *c == '"' || *c == '\'')?;
        let close = value[1..].find(quote)? + 1;
        out.push((name.to_string(), value[..=close].to_string()));
        rest = value[close + 1..].trim_start();
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    const CONFIG: &str = "<?xml version=\"1.0\"?>\n<phpunit bootstrap=\"src/Calc.php\" colors=\"false\">\n  <testsuites>\n    <testsuite name=\"unit\">\n      <directory>tests</directory>\n    </testsuite>\n  </testsuites>\n</phpunit>\n";

    /// Colours, the details shown, comments and the attributes' order leave the sealed text as it was; the
    /// bootstrap, a printer class, the suites do not.
    #[test]
    fn only_what_phpunit_prints_is_free() {
        let base = sealed_text(CONFIG);
        assert!(base.is_some());
        for honest in [
            CONFIG.replace("colors=\"false\"", "colors=\"true\""),
            CONFIG.replace(
                "<phpunit bootstrap=\"src/Calc.php\" colors=\"false\">",
                "<!-- ours -->\n<phpunit colors='true'\n         displayDetailsOnSkippedTests=\"true\" bootstrap=\"src/Calc.php\">",
            ),
        ] {
            assert_eq!(sealed_text(&honest), base, "{honest}");
        }
        for gaming in [
            CONFIG.replace("src/Calc.php", "tests/patch.php"),
            CONFIG.replace("colors=\"false\"", "colors=\"false\" printerClass=\"Calc\\\\Printer\""),
            CONFIG.replace("<directory>tests</directory>", "<directory>tests/none</directory>"),
        ] {
            assert_ne!(sealed_text(&gaming), base, "{gaming}");
        }
        assert_eq!(sealed_text("<phpunitx a=\"1\"/>"), None);
        assert_eq!(sealed_text("<phpunit a=1>"), None);
    }
}
