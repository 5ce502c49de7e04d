//! A test file's definitions of tests named elsewhere, blanked for the oracle's run (see
//! `Inventory::new_test_files_cut`).

use std::collections::BTreeSet;

use crate::testsig::{self, Lang, Node, UnitKind};

/// `text` with every test whose name is in `named` blanked (each byte of its definition a space, its line
/// breaks kept, so the rest of the file keeps its lines for the runner's messages); `None` when it defines none.
pub(super) fn defined_elsewhere(lang: Lang, text: &str, named: &BTreeSet<&str>) -> Option<String> {
    let lexed = testsig::lex::lex(lang, text);
    let mut spans = Vec::new();
    collect(&testsig::units(lang, &lexed), named, &mut spans);
    if spans.is_empty() {
        return None;
    }
    let mut bytes = text.as_bytes().to_vec();
    for span in spans {
        for b in &mut bytes[span.start.min(text.len())..span.end.min(text.len())] {
            if *b != b'\n' && *b != b'\r' {
                *b = b' ';
            }
        }
    }
    // Only ASCII bytes became spaces, and only whole definitions: the text stays UTF-8.
    String::from_utf8(bytes).ok()
}

fn collect(nodes: &[Node], named: &BTreeSet<&str>, out: &mut Vec<std::ops::Range<usize>>) {
    for node in nodes {
        if node.kind == UnitKind::Test && named.contains(node.name.as_str()) {
            out.push(node.span.clone());
        } else {
            collect(&node.children, named, out);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SPLIT: &str = "#include <gtest/gtest.h>\n\n#include \"calc.h\"\n\n// Moved from calc_test.cc.\nTEST(Calc, Multiplies) {\n  EXPECT_EQ(mul(2, 3), 6);\n}\n\nTEST(Calc, MultipliesByZero) {\n  EXPECT_EQ(mul(2, 0), 0);\n}\n";

    #[test]
    fn a_test_named_by_a_sealed_file_is_blanked_and_the_rest_kept_line_for_line() {
        let sealed = testsig::parse(
            Lang::Cpp,
            "TEST(Calc, Adds) {\n  EXPECT_EQ(add(1, 2), 3);\n}\n\nTEST(Calc, Multiplies) {\n  EXPECT_EQ(mul(2, 3), 6);\n}\n",
        );
        let names: BTreeSet<&str> = sealed
            .iter()
            .filter(|u| u.kind == UnitKind::Test)
            .map(|u| u.name.as_str())
            .collect();
        let cut = defined_elsewhere(Lang::Cpp, SPLIT, &names).expect("one test is named elsewhere");
        assert_eq!(cut.lines().count(), SPLIT.lines().count());
        assert!(!cut.contains("mul(2, 3)"), "{cut}");
        assert!(cut.contains("TEST(Calc, MultipliesByZero)"), "{cut}");
        assert!(cut.contains("#include \"calc.h\""), "{cut}");
        let left: Vec<String> = testsig::parse(Lang::Cpp, &cut)
            .into_iter()
            .filter(|u| u.kind == UnitKind::Test)
            .map(|u| u.name)
            .collect();
        assert_eq!(left.len(), 1, "{left:?}");
    }

    #[test]
    fn a_file_that_defines_no_test_named_elsewhere_is_left_alone() {
        assert_eq!(
            defined_elsewhere(Lang::Cpp, SPLIT, &BTreeSet::from(["Other.Test"])),
            None
        );
    }
}
