//! What loopgate says of PHP (PHPUnit) in its own words, asked by `messages` through its line of the
//! ecosystems' wording tables (`messages::FACT_WORDS`), so the core's sentences name no runner.

use crate::detect::Fact;
use crate::schema::Speech;

/// A `--verify auto` fact of this ecosystem as one clause; `None` for another ecosystem's fact.
pub(super) fn fact(lang: Speech, fact: &Fact) -> Option<String> {
    Some(match (lang, fact) {
        (Speech::En, Fact::Phpunit { file, composer }) => format!(
            "{}{}",
            file.map_or("tests/ holds PHPUnit tests (*Test.php)".into(), |f| format!(
                "{f} configures PHPUnit"
            )),
            if *composer { ", installed by Composer" } else { "" }
        ),
        (Speech::Zh, Fact::Phpunit { file, composer }) => format!(
            "{}{}",
            file.map_or("tests/ 中有 PHPUnit 测试(*Test.php)".into(), |f| format!(
                "{f} 配置了 PHPUnit"
            )),
            if *composer { ",由 Composer 安装" } else { "" }
        ),
        _ => return None,
    })
}
