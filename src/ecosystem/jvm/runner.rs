//! The JVM: Maven Surefire (`mvn test`, `mvn -o test`, `./mvnw test`) and the JUnit Platform console launcher
//! (`java -jar …/junit-platform-console-standalone.jar`). Test files are Java classes under `src/test/java/`, or
//! named as Surefire's default includes name them (`*Test.java`, `Test*.java`, `*Tests.java`, `*TestCase.java`);
//! their units are `testsig::jvm`'s, `pom.xml`'s test side is `closure::pom`'s.
//!
//! Gradle is not a runner here: it resolves its own distribution and plugins from the network at the first run
//! (Debian packages no Gradle that runs offline), so a room without a network could not run it.

use super::{Config, Format, Report, Row, TestFiles};

/// Surefire writes one JUnit XML per test class into `${project.build.directory}/surefire-reports`, and its
/// `reportsDirectory` is no property: neither `-D`, `MAVEN_OPTS` nor `.mvn/maven.config` can move it (measured
/// with Debian's Surefire 2.22.3; 3.x is the same). What makes it the run's own is where it lies: the room's
/// tree never copies a `target/` from the project, so the directory holds only what oracle runs wrote, and it
/// is emptied before each run (`room::surefire`). `pom.xml` is not listed as a whole configuration file: its
/// test side is sealed key by key (`closure::pom`), so a new dependency stays the agent's.
pub(super) const MAVEN: Row = Row {
    id: "maven",
    name: "maven",
    config: Config {
        // Maven's own options and extensions, and JUnit's configuration on the test classpath (it can turn
        // conditions off or load extensions by service loader).
        files: &[
            ".mvn/maven.config",
            ".mvn/jvm.config",
            ".mvn/extensions.xml",
            "src/test/resources/junit-platform.properties",
        ],
        ..Config::NONE
    },
    tests: TestFiles {
        names: &["*Test.java", "Test*.java", "*Tests.java", "*TestCase.java"],
        ..TestFiles::NONE
    },
    report: Report::BuildDir {
        format: Format::JunitXml,
    },
};

/// The console launcher writes JUnit XML only where its command line says (`--reports-dir`), and reads no
/// variable for it (the Open Test Reporting listener that `junit.platform.reporting.*` properties turn on fails
/// in Debian's standalone jar, which lacks its shaded classes: measured with junit5 5.9.2); its tree of results
/// (`--details=tree`, the default) names every test, and the verdict reads that.
pub(super) const JUNIT_CONSOLE: Row = Row {
    id: "junit_console",
    name: "junit console launcher",
    config: Config::NONE,
    tests: TestFiles {
        names: &["*Test.java", "Test*.java", "*Tests.java"],
        ..TestFiles::NONE
    },
    report: Report::None(super::NoReport::CommandLineOnly),
};

/// What the `java` launcher, Maven and its wrapper read.
pub(super) const ENVIRONMENT: super::Environment = super::Environment {
    steers: &[
        "JAVA_*",
        "_JAVA_OPTIONS",
        "JDK_JAVA_OPTIONS",
        "CLASSPATH",
        "MAVEN_*",
        "M2_HOME",
        "MVNW_*",
    ],
    prints: &[],
    words: &[],
};

super::runners!(Maven = MAVEN, JunitConsole = JUNIT_CONSOLE; environment: ENVIRONMENT);
