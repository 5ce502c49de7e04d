//! A small XML reader for configuration files a reader cuts element by element (PHPUnit's `phpunit.xml`): the
//! root element as a tree of elements, attributes and text, entities decoded, comments, processing instructions
//! and the document type left out. What it cannot read is `None`, and its reader then seals the file whole: a
//! document that is not well formed must never read as fewer settings than it holds.

/// One element: its name, its attributes in document order, its child elements and its text (trimmed, the
/// pieces between the children joined by a space).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Element {
    pub(crate) name: String,
    pub(crate) attributes: Vec<(String, String)>,
    pub(crate) children: Vec<Element>,
    pub(crate) text: String,
}

impl Element {
    /// The value of the attribute `name`.
    pub(crate) fn attribute(&self, name: &str) -> Option<&str> {
        self.attributes.iter().find(|(n, _)| n == name).map(|(_, v)| v.as_str())
    }

    /// The element as one canonical text: attributes sorted, whitespace between elements and around text
    /// dropped, so that re-indenting or reordering attributes moves nothing.
    pub(crate) fn canonical(&self) -> String {
        let mut attributes = self.attributes.clone();
        attributes.sort();
        let mut out = format!("<{}", self.name);
        for (name, value) in &attributes {
            out.push_str(&format!(" {name}={value:?}"));
        }
        out.push('>');
        out.push_str(&format!("{:?}", self.text));
        for child in &self.children {
            out.push_str(&child.canonical());
        }
        out.push_str(&format!("</{}>", self.name));
        out
    }
}

/// The root element of `text`, or `None` where it is not a well-formed document of one root.
pub(crate) fn parse(text: &str) -> Option<Element> {
    let mut reader = Reader { text, at: 0 };
    reader.skip_misc()?;
    let root = reader.element()?;
    reader.skip_misc()?;
    (reader.at == text.len()).then_some(root)
}

struct Reader<'t> {
    text: &'t str,
    at: usize,
}

impl<'t> Reader<'t> {
    fn rest(&self) -> &'t str {
        &self.text[self.at..]
    }

    /// Skips whitespace, comments, processing instructions and a document type; `None` on one left open.
    fn skip_misc(&mut self) -> Option<()> {
        loop {
            let trimmed = self.rest().trim_start();
            self.at = self.text.len() - trimmed.len();
            if trimmed.starts_with("<!--") {
                self.skip_past("-->")?;
            } else if trimmed.starts_with("<?") {
                self.skip_past("?>")?;
            } else if trimmed.starts_with("<!DOCTYPE") {
                // No internal subset: a configuration file has no reason to declare entities.
                if trimmed[..trimmed.find('>')?].contains('[') {
                    return None;
                }
                self.skip_past(">")?;
            } else {
                return Some(());
            }
        }
    }

    fn skip_past(&mut self, end: &str) -> Option<()> {
        let found = self.rest().find(end)?;
        self.at += found + end.len();
        Some(())
    }

    fn name(&mut self) -> Option<String> {
        let len = self
            .rest()
            .find(|c: char| c.is_whitespace() || matches!(c, '>' | '/' | '='))
            .unwrap_or(self.rest().len());
        if len == 0 {
            return None;
        }
        let name = self.rest()[..len].to_string();
        self.at += len;
        Some(name)
    }

    fn skip_space(&mut self) {
        let trimmed = self.rest().trim_start();
        self.at = self.text.len() - trimmed.len();
    }

    /// An element starting at `<`.
    fn element(&mut self) -> Option<Element> {
        self.rest().starts_with('<').then_some(())?;
        self.at += 1;
        let mut element = Element {
            name: self.name()?,
            ..Element::default()
        };
        loop {
            self.skip_space();
            if self.rest().starts_with("/>") {
                self.at += 2;
                return Some(element);
            }
            if self.rest().starts_with('>') {
                self.at += 1;
                break;
            }
            let name = self.name()?;
            self.skip_space();
            self.rest().starts_with('=').then_some(())?;
            self.at += 1;
            self.skip_space();
            let quote = self.rest().chars().next().filter(|q| matches!(q, '"' | '\''))?;
            self.at += 1;
            let len = self.rest().find(quote)?;
            let value = decode(&self.rest()[..len])?;
            self.at += len + 1;
            if element.attribute(&name).is_some() {
                return None;
            }
            element.attributes.push((name, value));
        }
        let mut texts: Vec<String> = Vec::new();
        loop {
            let len = self.rest().find('<')?;
            texts.push(decode(&self.rest()[..len])?);
            self.at += len;
            let rest = self.rest();
            if rest.starts_with("</") {
                self.at += 2;
                (self.name()? == element.name).then_some(())?;
                self.skip_space();
                self.rest().starts_with('>').then_some(())?;
                self.at += 1;
                break;
            } else if rest.starts_with("<!--") {
                self.skip_past("-->")?;
            } else if rest.starts_with("<?") {
                self.skip_past("?>")?;
            } else if let Some(cdata) = rest.strip_prefix("<![CDATA[") {
                let len = cdata.find("]]>")?;
                texts.push(cdata[..len].to_string());
                self.at += "<![CDATA[".len() + len + 3;
            } else if rest.starts_with("<!") {
                return None;
            } else {
                element.children.push(self.element()?);
            }
        }
        element.text = texts
            .iter()
            .map(|t| t.trim())
            .filter(|t| !t.is_empty())
            .collect::<Vec<_>>()
            .join(" ");
        Some(element)
    }
}

/// `text` with XML's entities and character references decoded; `None` on one that is not.
fn decode(text: &str) -> Option<String> {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find('&') {
        out.push_str(&rest[..at]);
        let end = rest[at..].find(';')? + at;
        let entity = &rest[at + 1..end];
        let c = match entity {
            "lt" => '<',
            "gt" => '>',
            "amp" => '&',
            "quot" => '"',
            "apos" => '\'',
            _ => {
                let code = if let Some(hex) = entity.strip_prefix("#x") {
                    u32::from_str_radix(hex, 16).ok()?
                } else {
                    entity.strip_prefix('#')?.parse().ok()?
                };
                char::from_u32(code)?
            }
        };
        out.push(c);
        rest = &rest[end + 1..];
    }
    out.push_str(rest);
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_configuration_reads_as_its_tree_and_its_layout_moves_nothing() {
        let one = parse(
            "<?xml version=\"1.0\"?>\n<!-- c -->\n<phpunit a=\"1\" b='x &amp; y'>\n  <testsuites>\n    <testsuite name=\"unit\"><directory suffix=\"Test.php\">tests</directory></testsuite>\n  </testsuites>\n  <php><ini name=\"x\" value=\"1\"/></php>\n</phpunit>\n",
        )
        .expect("well formed");
        assert_eq!(one.attribute("b"), Some("x & y"));
        assert_eq!(one.children[0].children[0].children[0].text, "tests");
        let two = parse("<phpunit b=\"x &amp; y\" a=\"1\"><testsuites><testsuite name=\"unit\">\n<directory suffix=\"Test.php\">\n tests \n</directory></testsuite></testsuites><php><ini value=\"1\" name=\"x\"></ini></php></phpunit>")
            .expect("well formed");
        assert_eq!(one.canonical(), two.canonical());
    }

    #[test]
    fn what_is_not_well_formed_reads_as_nothing() {
        for bad in [
            "<phpunit>",
            "<phpunit></php>",
            "<phpunit a=\"1\" a=\"2\"/>",
            "<phpunit/><other/>",
            "<!DOCTYPE x [<!ENTITY e \"v\">]><phpunit/>",
            "<phpunit a=\"&bogus;\"/>",
        ] {
            assert_eq!(parse(bad), None, "{bad}");
        }
    }
}
