//! What loopgate says of the JVM (Maven Surefire) in its own words, asked by `messages` through its line of the
//! ecosystems' wording tables (`messages::FACT_WORDS`), so the core's sentences name no runner.

use crate::detect::Fact;
use crate::schema::Speech;

/// A `--verify auto` fact of this ecosystem as one clause; `None` for another ecosystem's fact.
pub(super) fn fact(lang: Speech, fact: &Fact) -> Option<String> {
    Some(match (lang, fact) {
        (Speech::En, Fact::MavenPom { wrapper: false }) => "pom.xml makes it a Maven project (Surefire)".into(),
        (Speech::En, Fact::MavenPom { wrapper: true }) => {
            "pom.xml makes it a Maven project (Surefire), with its Maven wrapper".into()
        }
        (Speech::Zh, Fact::MavenPom { wrapper: false }) => "pom.xml 表明这是 Maven 项目(Surefire)".into(),
        (Speech::Zh, Fact::MavenPom { wrapper: true }) => {
            "pom.xml 表明这是 Maven 项目(Surefire),并带有 Maven wrapper".into()
        }
        _ => return None,
    })
}
