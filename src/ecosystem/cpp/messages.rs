//! What loopgate says of C/C++ (ctest) in its own words, asked by `messages` through its line of the
//! ecosystems' wording tables (`messages::FACT_WORDS`), so the core's sentences name no runner.

use crate::detect::Fact;
use crate::schema::Speech;

/// A `--verify auto` fact of this ecosystem as one clause; `None` for another ecosystem's fact.
pub(super) fn fact(lang: Speech, fact: &Fact) -> Option<String> {
    Some(match (lang, fact) {
        (Speech::En, Fact::CMakeTests) => "CMakeLists.txt turns testing on (ctest)".into(),
        (Speech::Zh, Fact::CMakeTests) => "CMakeLists.txt 启用了测试(ctest)".into(),
        _ => return None,
    })
}
