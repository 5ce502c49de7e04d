//! The tokenizers on the literals that trip naive scanners.

use crate::testsig::Lang;
use crate::testsig::lex::{TokKind, lex};

/// The texts of the string-like tokens of `text`.
fn strings(lang: Lang, text: &str) -> Vec<String> {
    let lx = lex(lang, text);
    (0..lx.toks.len())
        .filter(|&i| lx.kind(i) == Some(TokKind::Str))
        .map(|i| lx.s(i).to_string())
        .collect()
}

/// The identifiers of `text` (what markers and units are found on).
fn words(lang: Lang, text: &str) -> Vec<String> {
    let lx = lex(lang, text);
    (0..lx.toks.len())
        .filter(|&i| lx.kind(i) == Some(TokKind::Ident))
        .map(|i| lx.s(i).to_string())
        .collect()
}

#[test]
fn string_literals_per_language() {
    let table: &[(Lang, &str, &[&str])] = &[
        (Lang::Python, r#"x = 'it''s' + "a#b""#, &["'it'", "'s'", "\"a#b\""]),
        (
            Lang::Python,
            "s = \"\"\"a \"quoted\" ''' b\"\"\"\n",
            &["\"\"\"a \"quoted\" ''' b\"\"\""],
        ),
        (Lang::Python, r#"p = rb'\'' + Rb"\"""#, &[r#"rb'\''"#, r#"Rb"\"""#]),
        (
            Lang::Python,
            r#"f = f"{x["a"]} and {y!r:>{w}}""#,
            &[r#"f"{x["a"]} and {y!r:>{w}}""#],
        ),
        (
            Lang::Python,
            "f = f'{{not a field}}' + f'''{\n'x'\n}'''",
            &["f'{{not a field}}'", "f'''{\n'x'\n}'''"],
        ),
        (Lang::Python, "bad = 'unterminated\nnext = 1", &["'unterminated"]),
        (
            Lang::JavaScript,
            "const t = `a ${`b ${c}`} d` + 'x'",
            &["`a ${`b ${c}`} d`", "'x'"],
        ),
        (
            Lang::JavaScript,
            "const t = `${ { a: '}' }.a }`",
            &["`${ { a: '}' }.a }`"],
        ),
        (
            Lang::JavaScript,
            "const r = /[/]\\/x/g; const d = a / b / c",
            &["/[/]\\/x/g"],
        ),
        (Lang::JavaScript, "if (x) return /re/.test(s)", &["/re/"]),
        (
            Lang::Rust,
            r###"let s = r#"a "quoted" b"#;"###,
            &[r###"r#"a "quoted" b"#"###],
        ),
        (
            Lang::Rust,
            r#"let b = b"bytes\"" ; let c = b'\''; let d = c"cstr";"#,
            &[r#"b"bytes\"""#, r"b'\''", r#"c"cstr""#],
        ),
        (Lang::Rust, "let m = \"multi\nline\";", &["\"multi\nline\""]),
        (Lang::Rust, "fn f<'a>(x: &'a u8) -> char { 'é' }", &["'é'"]),
        (
            Lang::Go,
            "s := `raw\n\"text\"` + \"x\\\"y\"",
            &["`raw\n\"text\"`", "\"x\\\"y\""],
        ),
        (Lang::Go, r"r := '\''", &[r"'\''"]),
    ];
    for (lang, text, want) in table {
        assert_eq!(strings(*lang, text), *want, "{lang:?}: {text}");
    }
}

#[test]
fn comments_hide_code() {
    let table: &[(Lang, &str, &[&str])] = &[
        (Lang::Python, "a # it.skip b\nc", &["a", "c"]),
        (Lang::JavaScript, "a // x\n/* y */ b", &["a", "b"]),
        (Lang::Rust, "a /* x /* nested */ still comment */ b", &["a", "b"]),
        (Lang::Go, "a /* x /* */ b", &["a", "b"]),
    ];
    for (lang, text, want) in table {
        assert_eq!(words(*lang, text), *want, "{lang:?}: {text}");
    }
}

#[test]
fn a_stray_apostrophe_in_jsx_does_not_swallow_the_line() {
    let text = "it('renders', () => {\n  render(<p>Don't panic</p>)\n  expect(1).toBe(1)\n})\n";
    let lx = lex(Lang::JavaScript, text);
    // The `(` of `it(` still pairs with the last `)`.
    let open = (0..lx.toks.len()).find(|&i| lx.is(i, b'(')).unwrap_or(0);
    assert_eq!(lx.partner(open), Some(lx.toks.len() - 1));
}

#[test]
fn lines_are_counted_through_multiline_tokens() {
    let text = "a = \"\"\"x\ny\nz\"\"\"\nb = 1\n";
    let lx = lex(Lang::Python, text);
    let b = (0..lx.toks.len()).find(|&i| lx.s(i) == "b").unwrap_or(0);
    assert_eq!(lx.toks[b].line, 4);
}
