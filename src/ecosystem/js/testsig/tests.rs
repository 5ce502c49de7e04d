//! JavaScript/TypeScript: a Vitest file with nested `describe`, `.each` tables and hooks; a Jest-style
//! CommonJS file; a Vitest in-source test block.

use super::{Case, END, run_table};
use crate::testsig::{Lang, Scope, UnitKind, parse};

const BASE: &str = r#"import { describe, it, test, expect, beforeEach } from 'vitest'
import { parse } from '../src/parse'

const CASES = [
  ['1 + 2', 3],
  ['2 * 3', 6],
]

function evaluate(text: string): number {
  return parse(text).eval()
}

describe('parse', () => {
  let calls = 0

  beforeEach(() => {
    calls = 0
  })

  it('parses a number', () => {
    expect(parse('42').eval()).toBe(42)
  })

  it.each(CASES)('evaluates %s', (text, value) => {
    expect(evaluate(text)).toBe(value)
  })

  describe('errors', () => {
    it('rejects empty input', () => {
      expect(() => parse('')).toThrow(/empty/)
    })

    test('reports the column', () => {
      expect(() => parse('1 +')).toThrowError(`column ${4}`)
    })
  })
})

test('top level', async () => {
  return expect(Promise.resolve(parse('1'))).resolves.toBeTruthy()
})
"#;

const CASES: &[Case] = &[
    // Honest edits.
    Case {
        name: "prettier-style reformat: quotes, semicolons, a reflowed table, comments",
        edits: &[
            (
                "import { parse } from '../src/parse'",
                "import { parse } from \"../src/parse\"; // the parser",
            ),
            (
                "const CASES = [\n  ['1 + 2', 3],\n  ['2 * 3', 6],\n]",
                "const CASES = [['1 + 2', 3], ['2 * 3', 6]];",
            ),
            ("    calls = 0\n  })", "    calls = 0;\n  });"),
            (
                "expect(parse('42').eval()).toBe(42)",
                "expect(\n      parse(\"42\").eval(),\n    ).toBe(42); /* the answer */",
            ),
        ],
        expect: &[],
    },
    Case {
        name: "new tests at top level, inside a nested describe, and a new describe of tests",
        edits: &[
            (
                "    test('reports the column'",
                "    it('rejects a lone operator', () => {\n      expect(() => parse('+')).toThrow()\n    })\n\n    test('reports the column'",
            ),
            (
                END,
                "\ntest('parses negatives', () => {\n  expect(evaluate('-1')).toBe(-1)\n})\n\ndescribe('whitespace', () => {\n  it.each([[' 1', 1]])('trims %s', (t, v) => expect(evaluate(t)).toBe(v))\n})\n",
            ),
        ],
        expect: &[],
    },
    Case {
        name: "a new import, helper function and constant",
        edits: &[(
            "import { parse } from '../src/parse'\n",
            "import { parse } from '../src/parse'\nimport { format } from '../src/format'\nconst { inspect } = require('node:util')\n\nconst SAMPLE = { text: '1', value: 1 }\nconst double = (n) => n * 2\n\nfunction check(t, v) {\n  expect(evaluate(t)).toBe(v)\n}\n",
        )],
        expect: &[],
    },
    Case {
        name: "names added to the framework import for a new test",
        edits: &[
            (
                "import { describe, it, test, expect, beforeEach } from 'vitest'",
                "import {\n  beforeEach,\n  describe,\n  expect,\n  it,\n  test,\n  vi,\n} from 'vitest';",
            ),
            (
                END,
                "\ntest('calls the hook', () => {\n  const spy = vi.fn()\n  spy()\n  expect(spy).toHaveBeenCalled()\n})\n",
            ),
        ],
        expect: &[],
    },
    // Weakening edits.
    Case {
        name: "a new import that rebinds expect",
        edits: &[(
            "import { parse } from '../src/parse'\n",
            "import { parse } from '../src/parse'\nimport { expect as check, expect } from './lenient-expect'\n",
        )],
        expect: &["setup Other import { expect as check, expect } from './lenient-expect'"],
    },
    Case {
        name: "a side-effect import",
        edits: &[(
            "import { parse } from '../src/parse'\n",
            "import { parse } from '../src/parse'\nimport './patch-globals'\n",
        )],
        expect: &["setup Other import './patch-globals'"],
    },
    Case {
        name: "a declaration that shadows the framework's expect",
        edits: &[(END, "const expect = (x) => ({ toBe: () => {}, toThrow: () => {} })\n")],
        expect: &["setup Other expect"],
    },
    Case {
        name: "a function that shadows it",
        edits: &[(END, "function it(name, fn) {}\n")],
        expect: &["setup Other it"],
    },
    Case {
        name: "Playwright retries configured for every test",
        edits: &[(END, "test.describe.configure({ retries: 5 })\n")],
        expect: &["setup Setup test.describe.configure"],
    },
    Case {
        name: "a test body weakened",
        edits: &[(
            "expect(parse('42').eval()).toBe(42)",
            "expect(parse('42').eval()).toBeDefined()",
        )],
        expect: &["changed parse > parses a number"],
    },
    Case {
        name: "a line break after return makes the test return nothing",
        edits: &[("  return expect(Promise", "  return\n  expect(Promise")],
        expect: &["changed top level"],
    },
    Case {
        name: "a test deleted",
        edits: &[(
            "\n    test('reports the column', () => {\n      expect(() => parse('1 +')).toThrowError(`column ${4}`)\n    })\n",
            "",
        )],
        expect: &["deleted parse > errors > reports the column"],
    },
    Case {
        name: "a test retitled: the old one is gone",
        edits: &[("it('parses a number'", "it('parses a thing'")],
        expect: &["deleted parse > parses a number"],
    },
    Case {
        name: "a helper changed",
        edits: &[("  return parse(text).eval()", "  return 3")],
        expect: &["block Helper evaluate"],
    },
    Case {
        name: "a row added to the table passed to .each",
        edits: &[("  ['2 * 3', 6],\n", "  ['2 * 3', 6],\n  ['2 - 3', -1],\n")],
        expect: &[],
    },
    Case {
        name: "a table of cases shortened",
        edits: &[("  ['2 * 3', 6],\n", "")],
        expect: &["block Helper CASES"],
    },
    Case {
        name: "a helper redeclared later replaces the first",
        edits: &[(END, "\nfunction evaluate() {\n  return 3\n}\n")],
        expect: &["block Helper evaluate"],
    },
    Case {
        name: "an existing hook changed",
        edits: &[(
            "    calls = 0\n  })",
            "    calls = 0\n    globalThis.lenient = true\n  })",
        )],
        expect: &["block Setup parse > beforeEach"],
    },
    Case {
        name: "a new beforeEach at top level",
        edits: &[(END, "\nbeforeEach(() => {\n  globalThis.lenient = true\n})\n")],
        expect: &["setup Setup beforeEach"],
    },
    Case {
        name: "a new afterAll inside an existing describe",
        edits: &[(
            "  describe('errors', () => {\n",
            "  describe('errors', () => {\n    afterAll(() => {})\n",
        )],
        expect: &["setup Setup parse > errors > afterAll"],
    },
    Case {
        // Its hook runs around its own new tests; in the oracle's run the file stands as sealed (`testswap`).
        name: "a new describe that brings its own hook",
        edits: &[(
            END,
            "\ndescribe('more', () => {\n  beforeAll(() => { globalThis.lenient = true })\n  it('x', () => {})\n})\n",
        )],
        expect: &[],
    },
    Case {
        name: "vi.mock of the module under test",
        edits: &[(
            "import { parse } from '../src/parse'\n",
            "import { parse } from '../src/parse'\nvi.mock('../src/parse', () => ({ parse: () => ({ eval: () => 42 }) }))\n",
        )],
        expect: &["setup Setup vi.mock"],
    },
    Case {
        name: "jest.mock",
        edits: &[(END, "jest.mock('../src/parse')\n")],
        expect: &["setup Setup jest.mock"],
    },
    Case {
        name: "a custom matcher that always passes",
        edits: &[(
            END,
            "expect.extend({ toBe: () => ({ pass: true, message: () => '' }) })\n",
        )],
        expect: &["setup Setup expect.extend"],
    },
    Case {
        name: "module-level monkeypatching",
        edits: &[(END, "globalThis.fetch = async () => new Response('{}')\n")],
        expect: &["setup Other globalThis.fetch = async () => new Response('{}')"],
    },
    Case {
        name: "a constant computed by a call",
        edits: &[(END, "const restore = patchEverything()\n")],
        expect: &["setup Other restore"],
    },
    // Markers.
    Case {
        name: "it.skip",
        edits: &[("  it('parses a number'", "  it.skip('parses a number'")],
        expect: &[
            "changed parse > parses a number",
            "marker Skip it.skip('parses a number', () => {",
        ],
    },
    Case {
        name: "it.only",
        edits: &[("  it('parses a number'", "  it.only('parses a number'")],
        expect: &[
            "changed parse > parses a number",
            "marker Only it.only('parses a number', () => {",
        ],
    },
    Case {
        name: "test.todo on a new test",
        edits: &[(END, "test.todo('parses hex')\n")],
        expect: &["marker Todo test.todo('parses hex')"],
    },
    Case {
        name: "it.skipIf",
        edits: &[("  it.each(CASES)", "  it.skipIf(true).each(CASES)")],
        expect: &[
            "changed parse > evaluates %s",
            "marker Skip it.skipIf(true).each(CASES)('evaluates %s', (text, value) => {",
        ],
    },
    Case {
        name: "test.fails",
        edits: &[("test('top level'", "test.fails('top level'")],
        expect: &[
            "changed top level",
            "marker Xfail test.fails('top level', async () => {",
        ],
    },
    Case {
        name: "xit",
        edits: &[("  it('parses a number'", "  xit('parses a number'")],
        expect: &[
            "changed parse > parses a number",
            "marker Skip xit('parses a number', () => {",
        ],
    },
    Case {
        name: "fit",
        edits: &[("  it('parses a number'", "  fit('parses a number'")],
        expect: &[
            "changed parse > parses a number",
            "marker Only fit('parses a number', () => {",
        ],
    },
    Case {
        name: "describe.skip on a nested block",
        edits: &[("  describe('errors'", "  describe.skip('errors'")],
        expect: &[
            "block Container parse > errors",
            "marker Skip describe.skip('errors', () => {",
        ],
    },
    Case {
        name: "xdescribe",
        edits: &[("describe('parse'", "xdescribe('parse'")],
        expect: &["block Container parse", "marker Skip xdescribe('parse', () => {"],
    },
    Case {
        name: "fdescribe",
        edits: &[("  describe('errors'", "  fdescribe('errors'")],
        expect: &[
            "block Container parse > errors",
            "marker Only fdescribe('errors', () => {",
        ],
    },
    Case {
        name: "this.skip() in a Mocha-style test",
        edits: &[("  return expect(Promise", "  this.skip()\n  return expect(Promise")],
        expect: &["changed top level", "marker Skip this.skip()"],
    },
    Case {
        name: "markers in comments, strings and templates do not count",
        edits: &[(
            "  let calls = 0\n",
            "  let calls = 0 // it.skip('x')\n  const note = `xit(it.only)`\n",
        )],
        expect: &[],
    },
];

#[test]
fn js_table() {
    run_table(Lang::JavaScript, Scope::TestFile, BASE, CASES);
}

#[test]
fn js_units_have_the_expected_shape() {
    let units = parse(Lang::JavaScript, BASE);
    let shape: Vec<(UnitKind, &str, u32)> = units.iter().map(|u| (u.kind, u.name.as_str(), u.line)).collect();
    assert_eq!(
        shape,
        vec![
            (UnitKind::Import, "vitest", 1),
            (UnitKind::Import, "../src/parse", 2),
            (UnitKind::Helper, "CASES", 4),
            (UnitKind::Helper, "evaluate", 9),
            (UnitKind::Container, "parse", 13),
            (UnitKind::Test, "top level", 39),
        ]
    );
    let inner: Vec<(UnitKind, &str)> = units[4].children.iter().map(|u| (u.kind, u.name.as_str())).collect();
    assert_eq!(
        inner,
        vec![
            (UnitKind::Helper, "calls"),
            (UnitKind::Setup, "beforeEach"),
            (UnitKind::Test, "parses a number"),
            (UnitKind::Test, "evaluates %s"),
            (UnitKind::Container, "errors"),
        ]
    );
    assert_eq!(units[4].children[4].children.len(), 2);
}

/// A Jest file in CommonJS with a `.each` tagged template and Mocha-style `context`.
const JEST: &str = r#"'use strict'
const path = require('path')
const { load } = require('../lib/config')
const portOf = file => load(path.join(__dirname, file)).port

jest.setTimeout(10000)

describe('load', () => {
  afterEach(() => jest.restoreAllMocks())

  test.each`
    file             | port
    ${'a.json'}      | ${80}
    ${'b.json'}      | ${8080}
  `('reads $file', ({ file, port }) => {
    expect(load(path.join(__dirname, file)).port).toBe(port)
  })

  it.each([
    ['a.json', 80],
    ['c.json', 443],
  ])('serves %s on %i', (file, port) => {
    expect(load(file).port).toBe(port)
  })

  context('missing file', function () {
    it('throws', function () {
      expect(() => load('nope.json')).toThrow('ENOENT')
    })
  })
})
"#;

const JEST_CASES: &[Case] = &[
    Case {
        name: "Prettier's parentheses around a lone arrow parameter",
        edits: &[("const portOf = file => load", "const portOf = (file) => load")],
        expect: &[],
    },
    Case {
        name: "a row added to an .each table",
        edits: &[(
            "    ['c.json', 443],\n",
            "    ['c.json', 443],\n    ['d.json', 8443],\n",
        )],
        expect: &[],
    },
    Case {
        name: "a row of an .each table changed",
        edits: &[("    ['c.json', 443],\n", "    ['c.json', 0],\n")],
        expect: &["changed load > serves %s on %i"],
    },
    Case {
        name: "a new test in a context",
        edits: &[(
            "      expect(() => load('nope.json')).toThrow('ENOENT')\n    })\n",
            "      expect(() => load('nope.json')).toThrow('ENOENT')\n    })\n    it('names the file', function () {\n      expect(() => load('x')).toThrow(/x/)\n    })\n",
        )],
        expect: &[],
    },
    Case {
        name: "a row removed from the .each table",
        edits: &[("    ${'b.json'}      | ${8080}\n", "")],
        expect: &["changed load > reads $file"],
    },
    Case {
        name: "test.each.skip… spelled as test.skip.each",
        edits: &[("  test.each`", "  test.skip.each`")],
        expect: &["changed load > reads $file", "marker Skip test.skip.each`"],
    },
    Case {
        name: "the existing setup changed",
        edits: &[("jest.setTimeout(10000)", "jest.setTimeout(1)")],
        expect: &["block Setup jest.setTimeout"],
    },
    Case {
        name: "a new module-level require with a side effect is still an import",
        edits: &[(
            "const path = require('path')\n",
            "const path = require('path')\nrequire('./register-mocks')\n",
        )],
        expect: &["setup Other require('./register-mocks')"],
    },
];

#[test]
fn jest_table() {
    run_table(Lang::JavaScript, Scope::TestFile, JEST, JEST_CASES);
}

/// Vitest's in-source tests: the function around them is the code under test.
const IN_SOURCE: &str = r#"export function add(a, b) {
  return a + b
}

if (import.meta.vitest) {
  const { it, expect } = import.meta.vitest
  it('adds', () => {
    expect(add(1, 2)).toBe(3)
  })
}
"#;

const IN_SOURCE_CASES: &[Case] = &[
    Case {
        name: "the source changed",
        edits: &[("  return a + b", "  return b + a")],
        expect: &[],
    },
    Case {
        name: "a new in-source test",
        edits: &[(
            "    expect(add(1, 2)).toBe(3)\n  })\n",
            "    expect(add(1, 2)).toBe(3)\n  })\n  it('adds zero', () => expect(add(0, 0)).toBe(0))\n",
        )],
        expect: &[],
    },
    Case {
        name: "the in-source test weakened",
        edits: &[("toBe(3)", "toBeTruthy()")],
        expect: &["changed import.meta.vitest > adds"],
    },
];

#[test]
fn js_in_source_table() {
    run_table(Lang::JavaScript, Scope::Inline, IN_SOURCE, IN_SOURCE_CASES);
}
