//! What loopgate says of C/C++ (ctest) in its own words, asked by `messages` through its line of the
//! ecosystems' wording tables (`messages::FACT_WORDS`, `messages::REPORT_WORDS`), so the core's sentences name no runner.

use crate::detect::cpp::Found;
use crate::schema::Speech;

/// A `--verify auto` fact of this ecosystem (`detect::Fact::Own`) as one clause; `None` for another ecosystem's fact.
pub(super) fn fact(lang: Speech, fact: &crate::detect::Own) -> Option<String> {
    let fact: &Found = fact.get()?;
    Some(match (lang, fact) {
        (Speech::En, Found::CMakeTests) => "CMakeLists.txt turns testing on (ctest)".into(),
        (Speech::Zh, Found::CMakeTests) => "CMakeLists.txt 启用了测试(ctest)".into(),
    })
}

/// What setup and `status` say of its report channel (`crate::room::gtest::KEY`).
pub(super) fn report(key: &str) -> Option<super::ReportWords> {
    (key == crate::room::gtest::KEY).then_some(super::ReportWords {
        en: " The tests are judged by name from the reports GoogleTest writes to a private directory.",
        zh: "测试按名称由 GoogleTest 写到私有目录的报告判定。",
        verdict_reads: "the tests GoogleTest's own JUnit reports name, written to a private directory, beside the runner's output",
    })
}
