//! Small facts about signatures the inventory needs: how many tests one holds, and the signature of a file
//! that did not exist (against which a new test file is judged).

use crate::testsig::{FileSig, Lang, Scope, Unit, UnitKind};

/// How many tests the units hold, at any depth.
pub(crate) fn count_tests(units: &[Unit]) -> usize {
    units
        .iter()
        .map(|u| usize::from(u.kind == UnitKind::Test) + count_tests(&u.children))
        .sum()
}

/// The signature of a test file that did not exist: no units, no markers.
pub(crate) fn empty(lang: Lang) -> FileSig {
    FileSig {
        lang,
        scope: Scope::TestFile,
        units: Vec::new(),
        markers: Vec::new(),
    }
}
