//! What the test-file scanner asks of Java (`testsig::Language`): Surefire's default test class names, and a
//! source that imports JUnit.

use crate::testsig::Lang;

super::syntax! {
    lang: Lang::Java,
    lex: |cur| crate::testsig::lex::clike::lex(cur, &crate::testsig::lex::jvm::DIALECT),
    units: super::super::jvm::units,
    marker: crate::testsig::markers::jvm::at;

    /// Surefire's default includes (`**/*Test.java`, `**/Test*.java`, `**/*Tests.java`, `**/*TestCase.java`);
    /// Maven's `src/test/java/` is a test directory (read by `testsig::is_test_file`). A configured
    /// `testSourceDirectory` is sealed with the pom (`closure::pom`).
    fn is_test_name(&self, _name: &str, stem: &str) -> bool {
        stem.ends_with("Test")
            || stem.ends_with("Tests")
            || stem.ends_with("TestCase")
            || stem
                .strip_prefix("Test")
                .is_some_and(|rest| rest.starts_with(|c: char| c.is_ascii_uppercase()))
    }

    /// A source that imports JUnit holds tests, whatever its name or place.
    fn may_hold_tests(&self, text: &str) -> bool {
        text.contains("org.junit")
    }
}
