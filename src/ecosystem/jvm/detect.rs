//! `--verify auto` for the JVM: a root `pom.xml` is a Maven project, whose tests `mvn test` runs through
//! Surefire — the project's Maven wrapper (`./mvnw test`) where it has one, so the Maven version it pins runs.
//! Gradle is not detected: it cannot run offline from Debian's packages (see `runner::jvm`).

use std::path::Path;

use super::{Candidate, Detector, Fact};

pub(super) const DETECTOR: Detector = Detector {
    looks_for: "or a Maven pom.xml",
    detect: |probe| maven(probe.root),
};

/// What its rule found (`detect::Fact::Own`), worded in `messages::jvm`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Found {
    /// A root `pom.xml` makes it a Maven project; `wrapper`: it has a Maven wrapper (`mvnw`).
    MavenPom { wrapper: bool },
}

fn maven(root: &Path) -> Option<Candidate> {
    if !root.join("pom.xml").is_file() {
        return None;
    }
    let wrapper = root.join("mvnw").is_file();
    let command = if wrapper { "./mvnw test" } else { "mvn test" };
    Some((command.into(), vec![Fact::own(Found::MavenPom { wrapper })]))
}
