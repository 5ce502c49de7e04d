//! What loopgate says of Rust (cargo test, nextest) in its own words, asked by `messages` through its line of the
//! ecosystems' wording tables (`messages::FACT_WORDS`), so the core's sentences name no runner.

use crate::detect::rust::Found;
use crate::schema::Speech;

/// A `--verify auto` fact of this ecosystem (`detect::Fact::Own`) as one clause; `None` for another ecosystem's fact.
pub(super) fn fact(lang: Speech, fact: &crate::detect::Own) -> Option<String> {
    let fact: &Found = fact.get()?;
    Some(match (lang, fact) {
        (Speech::En, Found::Cargo { workspace: true }) => "Cargo.toml is a workspace".into(),
        (Speech::En, Found::Cargo { workspace: false }) => "Cargo.toml is here".into(),
        (Speech::En, Found::Nextest { installed: true }) => ".config/nextest.toml configures cargo-nextest".into(),
        (Speech::En, Found::Nextest { installed: false }) => {
            ".config/nextest.toml is there, but cargo-nextest is not installed".into()
        }
        (Speech::Zh, Found::Cargo { workspace: true }) => "Cargo.toml 是一个 workspace".into(),
        (Speech::Zh, Found::Cargo { workspace: false }) => "存在 Cargo.toml".into(),
        (Speech::Zh, Found::Nextest { installed: true }) => ".config/nextest.toml 配置了 cargo-nextest".into(),
        (Speech::Zh, Found::Nextest { installed: false }) => {
            "存在 .config/nextest.toml,但没有安装 cargo-nextest".into()
        }
    })
}

/// Its place outside the project that a run reads on its own (`room::outside::rust`), as a list's item.
pub(super) fn outside(lang: Speech) -> &'static str {
    match lang {
        Speech::En => "cargo's user configuration",
        Speech::Zh => "cargo 的用户配置",
    }
}

/// Why its target directory stays the user's, in one clause (`room::caches`).
pub(super) fn why(why: &crate::room::caches::Why) -> Option<String> {
    use crate::room::caches::rust as caches;
    let file = why.file.as_deref().unwrap_or_default();
    match why.kind.as_str() {
        caches::TARGET_DIR_CONFIGURED => Some(format!("`{file}` sets `target-dir`")),
        caches::TARGET_NAMED_BY_PATH => Some(format!("`{file}` names `target/` by path")),
        _ => None,
    }
}

/// The verify command the examples of the usage errors show (`setup`, `run`, `check`'s configuration).
pub(crate) const EXAMPLE_VERIFY: &str = "cargo test";

/// How loopgate's own binary is installed elsewhere (it is a Rust crate), for the install error that asks for
/// it.
pub(crate) const INSTALL_ELSEWHERE: &str = "cargo install --root DIR";
