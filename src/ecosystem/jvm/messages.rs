//! What loopgate says of the JVM (Maven Surefire) in its own words, asked by `messages` through its line of the
//! ecosystems' wording tables (`messages::FACT_WORDS`, `messages::REPORT_WORDS`), so the core's sentences name no runner.

use crate::detect::jvm::Found;
use crate::schema::Speech;

/// A `--verify auto` fact of this ecosystem (`detect::Fact::Own`) as one clause; `None` for another ecosystem's fact.
pub(super) fn fact(lang: Speech, fact: &crate::detect::Own) -> Option<String> {
    let fact: &Found = fact.get()?;
    Some(match (lang, fact) {
        (Speech::En, Found::MavenPom { wrapper: false }) => "pom.xml makes it a Maven project (Surefire)".into(),
        (Speech::En, Found::MavenPom { wrapper: true }) => {
            "pom.xml makes it a Maven project (Surefire), with its Maven wrapper".into()
        }
        (Speech::Zh, Found::MavenPom { wrapper: false }) => "pom.xml 表明这是 Maven 项目(Surefire)".into(),
        (Speech::Zh, Found::MavenPom { wrapper: true }) => {
            "pom.xml 表明这是 Maven 项目(Surefire),并带有 Maven wrapper".into()
        }
    })
}

/// What setup and `status` say of its report channel (`crate::room::surefire::KEY`).
pub(super) fn report(key: &str) -> Option<super::ReportWords> {
    (key == crate::room::surefire::KEY).then_some(super::ReportWords {
        en: " The tests are judged by name from the JUnit reports Maven Surefire writes in the run's own build directory, emptied before each run.",
        zh: "测试按名称由 Maven Surefire 写在本次运行自己的构建目录中的 JUnit 报告判定(每次运行前清空)。",
        verdict_reads: "Maven Surefire's JUnit reports, in the run's own build directory in the room's tree: its test names are the run's",
    })
}
