//! A JavaScript configuration file that only exports a literal, read as the data it is (`.mocharc.js` holding
//! `module.exports = { parallel: true, jobs: 2 };`).
//!
//! A runner's configuration in JavaScript is code: loading it runs it in the runner's process, and mocha loads its
//! `.mocharc.js` into the very process that then runs the tests, so a line beside the export could patch `assert`
//! for every test. Sealed whole, though, an everyday `.mocharc.js` that only sets options was rejected where the same
//! options in `.mocharc.json` are judged key by key (`closure::parts`, `Scope::JsonBut`). So a module whose only
//! statement is the export of a literal — objects, arrays, strings, numbers, `true`, `false`, `null`, comments and
//! `'use strict'` around them — reads as the JSON it denotes, and anything else (a call, a `require`, a spread, a
//! getter, a template, an identifier, a computed or `__proto__` key, a second statement) is no literal: the file is
//! judged by its bytes, as before. A literal runs nothing when it is loaded, so what it denotes is all it does.

use serde_json::{Map, Number, Value};

/// The extensions of a JavaScript or TypeScript module: a configuration file of one of these is read as the
/// literal it exports and no other way (`closure::parts::file_digests`).
pub(crate) const MODULE_EXTS: &[&str] = &["js", "cjs", "mjs", "ts", "cts", "mts"];

/// The value `bytes` exports, where the module is `module.exports = LITERAL;` or `export default LITERAL;` and
/// nothing else (directives and comments aside), and the literal is an object; `None` for anything else.
pub(crate) fn exported(bytes: &[u8]) -> Option<Value> {
    let text = std::str::from_utf8(bytes).ok()?;
    let mut p = Parser {
        s: text.as_bytes(),
        i: 0,
    };
    p.skip();
    while p.directive() {}
    if !(p.words(&["module", ".", "exports", "="]) || p.words(&["export", "default"])) {
        return None;
    }
    let value = p.value(0)?;
    p.skip();
    p.eat(b';');
    p.skip();
    (p.i == p.s.len() && value.is_object()).then_some(value)
}

/// How deeply literals may nest before the file is taken for code rather than data.
const MAX_DEPTH: usize = 64;

struct Parser<'a> {
    s: &'a [u8],
    i: usize,
}

impl Parser<'_> {
    /// Skips white space and comments.
    fn skip(&mut self) {
        loop {
            while self.s.get(self.i).is_some_and(u8::is_ascii_whitespace) {
                self.i += 1;
            }
            if self.s[self.i..].starts_with(b"//") {
                while self.s.get(self.i).is_some_and(|&c| c != b'\n') {
                    self.i += 1;
                }
            } else if self.s[self.i..].starts_with(b"/*") {
                match self.s[self.i + 2..].windows(2).position(|w| w == b"*/") {
                    Some(end) => self.i += end + 4,
                    None => self.i = self.s.len(),
                }
            } else {
                return;
            }
        }
    }

    fn eat(&mut self, c: u8) -> bool {
        let here = self.s.get(self.i) == Some(&c);
        self.i += usize::from(here);
        here
    }

    /// A `'use strict';` directive (either quote, the semicolon optional), and what follows it skipped.
    fn directive(&mut self) -> bool {
        for quoted in [&b"'use strict'"[..], b"\"use strict\""] {
            if self.s[self.i..].starts_with(quoted) {
                self.i += quoted.len();
                self.skip();
                self.eat(b';');
                self.skip();
                return true;
            }
        }
        false
    }

    /// The tokens `words` in order, white space and comments between them; nothing is consumed unless all match.
    fn words(&mut self, words: &[&str]) -> bool {
        let start = self.i;
        for word in words {
            self.skip();
            let ident = word.bytes().all(ident_byte);
            if !self.s[self.i..].starts_with(word.as_bytes())
                || (ident && self.s.get(self.i + word.len()).copied().is_some_and(ident_byte))
            {
                self.i = start;
                return false;
            }
            self.i += word.len();
        }
        true
    }

    fn value(&mut self, depth: usize) -> Option<Value> {
        if depth > MAX_DEPTH {
            return None;
        }
        self.skip();
        match *self.s.get(self.i)? {
            b'{' => self.object(depth),
            b'[' => self.array(depth),
            b'\'' | b'"' => self.string().map(Value::String),
            b'-' | b'0'..=b'9' | b'.' => self.number(),
            _ => {
                let word = self.ident()?;
                match word.as_str() {
                    "true" => Some(Value::Bool(true)),
                    "false" => Some(Value::Bool(false)),
                    "null" => Some(Value::Null),
                    _ => None,
                }
            }
        }
    }

    fn object(&mut self, depth: usize) -> Option<Value> {
        self.i += 1;
        let mut map = Map::new();
        loop {
            self.skip();
            if self.eat(b'}') {
                return Some(Value::Object(map));
            }
            let key = match self.s.get(self.i)? {
                b'\'' | b'"' => self.string()?,
                _ => self.ident()?,
            };
            // `__proto__: {…}` sets the object's prototype rather than a key of it.
            if key == "__proto__" {
                return None;
            }
            self.skip();
            if !self.eat(b':') {
                return None;
            }
            let value = self.value(depth + 1)?;
            map.insert(key, value);
            self.skip();
            if !self.eat(b',') {
                self.skip();
                return self.eat(b'}').then_some(Value::Object(map));
            }
        }
    }

    fn array(&mut self, depth: usize) -> Option<Value> {
        self.i += 1;
        let mut items = Vec::new();
        loop {
            self.skip();
            if self.eat(b']') {
                return Some(Value::Array(items));
            }
            items.push(self.value(depth + 1)?);
            self.skip();
            if !self.eat(b',') {
                self.skip();
                return self.eat(b']').then_some(Value::Array(items));
            }
        }
    }

    /// An identifier of ASCII letters, digits, `_` and `$`, not starting with a digit.
    fn ident(&mut self) -> Option<String> {
        let start = self.i;
        while self.s.get(self.i).copied().is_some_and(ident_byte) {
            self.i += 1;
        }
        let word = std::str::from_utf8(&self.s[start..self.i]).ok()?;
        (!word.is_empty() && !word.as_bytes()[0].is_ascii_digit()).then(|| word.to_string())
    }

    /// A quoted string with the escapes JSON has (and `\'`); any other escape, or a line break, is no literal here.
    fn string(&mut self) -> Option<String> {
        let quote = self.s[self.i];
        self.i += 1;
        let mut out = String::new();
        loop {
            let c = *self.s.get(self.i)?;
            self.i += 1;
            match c {
                _ if c == quote => return Some(out),
                b'\n' | b'\r' => return None,
                b'\\' => {
                    let e = *self.s.get(self.i)?;
                    self.i += 1;
                    out.push(match e {
                        b'n' => '\n',
                        b't' => '\t',
                        b'r' => '\r',
                        b'\\' | b'\'' | b'"' | b'/' => char::from(e),
                        b'u' => {
                            let hex = std::str::from_utf8(self.s.get(self.i..self.i + 4)?).ok()?;
                            self.i += 4;
                            char::from_u32(u32::from_str_radix(hex, 16).ok()?)?
                        }
                        _ => return None,
                    });
                }
                _ => {
                    // A UTF-8 sequence, copied whole.
                    let start = self.i - 1;
                    let len = match c {
                        0xC0..=0xDF => 2,
                        0xE0..=0xEF => 3,
                        0xF0..=0xF7 => 4,
                        _ => 1,
                    };
                    self.i = start + len;
                    out.push_str(std::str::from_utf8(self.s.get(start..self.i)?).ok()?);
                }
            }
        }
    }

    /// A decimal number, as JSON writes one (a leading `.` and a trailing one too); hexadecimal, `_` separators
    /// and `Infinity` are no literal here.
    fn number(&mut self) -> Option<Value> {
        let start = self.i;
        self.eat(b'-');
        while self
            .s
            .get(self.i)
            .is_some_and(|c| c.is_ascii_digit() || matches!(c, b'.' | b'e' | b'E' | b'+' | b'-'))
        {
            self.i += 1;
        }
        if self.s.get(self.i).copied().is_some_and(ident_byte) {
            return None;
        }
        let text = std::str::from_utf8(&self.s[start..self.i]).ok()?;
        let text = text.strip_suffix('.').unwrap_or(text);
        let normal = match text.strip_prefix('-') {
            Some(rest) if rest.starts_with('.') => format!("-0{rest}"),
            None if text.starts_with('.') => format!("0{text}"),
            _ => text.to_string(),
        };
        if let Ok(n) = normal.parse::<i64>() {
            return Some(Value::Number(n.into()));
        }
        let f: f64 = normal.parse().ok()?;
        Number::from_f64(f).map(Value::Number)
    }
}

fn ident_byte(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_' || c == b'$'
}

#[cfg(test)]
mod tests {
    use super::exported;
    use serde_json::json;

    #[test]
    fn an_exported_object_literal_reads_as_its_data() {
        let text = "'use strict';\n// mocha's options\nmodule.exports = {\n  parallel: true, /* two */ jobs: 2,\n  \
                    'spec': [\"test/**/*.spec.js\"], timeout: 1.5e3, slow: -.5, reporter: 'dot',\n  nested: {a: null},\n};\n";
        assert_eq!(
            exported(text.as_bytes()),
            Some(
                json!({"parallel": true, "jobs": 2, "spec": ["test/**/*.spec.js"], "timeout": 1500.0,
                        "slow": -0.5, "reporter": "dot", "nested": {"a": null}})
            )
        );
        assert_eq!(exported(b"export default {jobs: 2}"), Some(json!({"jobs": 2})));
        assert_eq!(
            exported(b"module . exports={'a\\u0041\\'': \"\xc3\xa9\"}"),
            Some(json!({"aA'": "é"}))
        );
    }

    #[test]
    fn anything_that_runs_code_is_no_literal() {
        for code in [
            "require('./patch');\nmodule.exports = {parallel: true};",
            "module.exports = {parallel: true};\nrequire('./patch');",
            "module.exports = {require: require('./patch')};",
            "module.exports = {...require('./base')};",
            "module.exports = {get parallel() { return true; }};",
            "module.exports = {[key]: true};",
            "module.exports = {__proto__: {spec: 'x'}};",
            "module.exports = {spec: `${dir}/x`};",
            "module.exports = {jobs: os.cpus().length};",
            "module.exports = {jobs: 0x10};",
            "module.exports = {timeout: Infinity};",
            "module.exports = {a: 'b' + 'c'};",
            "module.exports = [1, 2];",
            "module.exports.parallel = true;",
            "exports = {parallel: true};",
            "module.exports = {a: 1}; module.exports = {a: 2};",
            "module.exports = {a: 'line\nbreak'};",
            "module.exports = {a: '\\x41'};",
            "module.exportsX = {a: 1};",
            "module.exports = {a: 1",
            "{\"a\": 1}",
        ] {
            assert_eq!(exported(code.as_bytes()), None, "{code}");
        }
        let deep = format!("module.exports = {}{}", "[".repeat(100), "]".repeat(100));
        assert_eq!(exported(deep.as_bytes()), None);
    }
}
