//! What loopgate says of Ruby (minitest, RSpec, rake) in its own words, asked by `messages` through its line of the
//! ecosystems' wording tables (`messages::FACT_WORDS`), so the core's sentences name no runner.

use crate::detect::ruby::Found;
use crate::schema::Speech;

/// A `--verify auto` fact of this ecosystem (`detect::Fact::Own`) as one clause; `None` for another ecosystem's fact.
pub(super) fn fact(lang: Speech, fact: &crate::detect::Own) -> Option<String> {
    let fact: &Found = fact.get()?;
    Some(match (lang, fact) {
        (Speech::En, Found::RubyTests { dir, runner }) => format!("{dir}/ holds Ruby test files {runner} runs"),
        (Speech::En, Found::RakeTestTask { file }) => format!("{file} defines a rake test task"),
        (Speech::Zh, Found::RubyTests { dir, runner }) => format!("{dir}/ 中有 {runner} 运行的 Ruby 测试文件"),
        (Speech::Zh, Found::RakeTestTask { file }) => format!("{file} 定义了 rake 测试任务"),
    })
}
