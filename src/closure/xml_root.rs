//! An XML configuration file sealed whole but for some attributes of its root element
//! (`closure::parts::Scope::XmlRootBut`): a runner whose configuration is nearly all test side names the root and
//! the attributes that only change what it prints (PHPUnit's `colors`, in `src/ecosystem/php/closure.rs`).
//! Comments, the order of the root's attributes and how white space is laid out (a reformatted file) do not
//! count either. A file without the root's start tag is sealed byte for byte.

/// The text of the file that is sealed: without comments, the `root` start tag's `free` attributes cut out and
/// the rest in order of name, every run of white space one space. `None` where there is no `<root` start tag to
/// read (the caller seals the bytes).
pub(crate) fn sealed_text(text: &str, root: &str, free: &[String]) -> Option<String> {
    let text = without_comments(text);
    let open = format!("<{root}");
    let start = find_root(&text, &open)?;
    let end = start + tag_end(&text[start..])?;
    let tag = &text[start + open.len()..end];
    let (attributes, closing) = match tag.strip_suffix('/') {
        Some(open) => (open, "/>"),
        None => (tag, ">"),
    };
    let mut kept: Vec<(String, String)> = attributes_of(attributes)?
        .into_iter()
        .filter(|(name, _)| !free.contains(name))
        .collect();
    kept.sort();
    let attributes: String = kept.iter().map(|(name, value)| format!(" {name}={value}")).collect();
    let sealed = format!("{}{open}{attributes}{closing}{}", &text[..start], &text[end + 1..]);
    Some(sealed.split_whitespace().collect::<Vec<_>>().join(" "))
}

/// `text` without its XML comments (`<!-- … -->`; an unclosed one runs to the end).
pub(super) fn without_comments(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find("<!--") {
        out.push_str(&rest[..at]);
        rest = rest[at..].find("-->").map_or("", |end| &rest[at + end + 3..]);
    }
    out.push_str(rest);
    out
}

/// Where the start tag `open` (`<phpunit`) begins (not `<phpunitx`).
fn find_root(text: &str, open: &str) -> Option<usize> {
    let mut from = 0;
    while let Some(at) = text[from..].find(open) {
        let at = from + at;
        let next = text[at + open.len()..].chars().next()?;
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

    fn sealed(text: &str) -> Option<String> {
        let free = ["colors", "displayDetailsOnSkippedTests"].map(str::to_string);
        sealed_text(text, "phpunit", &free)
    }

    /// The free attributes, comments, the attributes' order and the layout leave the sealed text as it was; any
    /// other attribute (a bootstrap, a printer class) and anything below the root do not.
    #[test]
    fn only_the_roots_free_attributes_are_free() {
        let base = sealed(CONFIG);
        assert!(base.is_some());
        for honest in [
            CONFIG.replace("colors=\"false\"", "colors=\"true\""),
            CONFIG.replace(
                "<phpunit bootstrap=\"src/Calc.php\" colors=\"false\">",
                "<!-- ours -->\n<phpunit colors='true'\n         displayDetailsOnSkippedTests=\"true\" bootstrap=\"src/Calc.php\">",
            ),
        ] {
            assert_eq!(sealed(&honest), base, "{honest}");
        }
        for gaming in [
            CONFIG.replace("src/Calc.php", "tests/patch.php"),
            CONFIG.replace("colors=\"false\"", "colors=\"false\" printerClass=\"Calc\\\\Printer\""),
            CONFIG.replace("<directory>tests</directory>", "<directory>tests/none</directory>"),
        ] {
            assert_ne!(sealed(&gaming), base, "{gaming}");
        }
        assert_eq!(sealed("<phpunitx a=\"1\"/>"), None);
        assert_eq!(sealed("<phpunit a=1>"), None);
    }
}
