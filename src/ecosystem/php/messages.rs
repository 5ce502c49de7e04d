//! What loopgate says of PHP (PHPUnit) in its own words, asked by `messages` through its line of the
//! ecosystems' wording tables (`messages::FACT_WORDS`, `messages::REPORT_WORDS`), so the core's sentences name no runner.

use crate::detect::php::Found;
use crate::schema::Speech;

/// A `--verify auto` fact of this ecosystem (`detect::Fact::Own`) as one clause; `None` for another ecosystem's fact.
pub(super) fn fact(lang: Speech, fact: &crate::detect::Own) -> Option<String> {
    let fact: &Found = fact.get()?;
    Some(match (lang, fact) {
        (Speech::En, Found::Phpunit { file, composer }) => format!(
            "{}{}",
            file.map_or("tests/ holds PHPUnit tests (*Test.php)".into(), |f| format!(
                "{f} configures PHPUnit"
            )),
            if *composer { ", installed by Composer" } else { "" }
        ),
        (Speech::Zh, Found::Phpunit { file, composer }) => format!(
            "{}{}",
            file.map_or("tests/ 中有 PHPUnit 测试(*Test.php)".into(), |f| format!(
                "{f} 配置了 PHPUnit"
            )),
            if *composer { ",由 Composer 安装" } else { "" }
        ),
    })
}

/// What setup and `status` say of its report channel (`crate::room::php_report::KEY`).
pub(super) fn report(key: &str) -> Option<super::ReportWords> {
    (key == crate::room::php_report::KEY).then_some(super::ReportWords {
        en: " A pass must also hold in PHPUnit's own JUnit report, which loopgate's start hook has it write to a private path; its names are the run's.",
        zh: "通过还必须与 loopgate 的启动钩子让 PHPUnit 写到私有路径的 JUnit 报告一致;其中的测试名即本次运行的测试名。",
        verdict_reads: "PHPUnit's own JUnit report, which loopgate's start hook has it write to a private path: its test names are the run's",
    })
}
