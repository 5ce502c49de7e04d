//! Maven and the JUnit console launcher: the JVM ecosystem's runners in a verify command, and what they read.
//!
//! `mvn GOALS` (`./mvnw`, `mvn -o`, `mvn -f DIR/pom.xml`) with a goal that runs the tests (`test`, `verify`,
//! `package`, `install`, `deploy`, `surefire:test`) runs Surefire: every `pom.xml` of the project is sealed by
//! its test side (`closure::pom`: the Surefire plugin, the properties it reads, the test directories), and
//! `.mvn/extensions.xml` whole; `.mvn/maven.config` option by option, free only Maven's display and parallelism
//! options ([`MAVEN_CONFIG_FREE`]); JUnit's
//! `src/test/resources/junit-platform.properties` key by key, free only the default timeouts, which can fail a
//! test and never pass one ([`JUNIT_PLATFORM_FREE`]); `.mvn/jvm.config` option by option, free only the
//! options of Maven's own JVM that change neither what runs nor what counts ([`JVM_CONFIG_FREE`]). A goal that
//! runs no test (`mvn compile`) is the ecosystem's build. `java -jar …junit-platform-console-standalone….jar` (or `java -cp … ConsoleLauncher`)
//! runs the console launcher, whose options are all on the sealed command line.

use std::path::Path;

use super::{Deriver, Lang, Runner, Scope, Simple, Why};

/// Maven goals and phases that run Surefire.
const TEST_GOALS: [&str; 7] = [
    "test",
    "verify",
    "package",
    "install",
    "deploy",
    "integration-test",
    "surefire:test",
];

/// Maven options whose value is the next word.
const VALUE_OPTIONS: [&str; 12] = [
    "-f",
    "--file",
    "-s",
    "--settings",
    "-pl",
    "--projects",
    "-rf",
    "--resume-from",
    "-P",
    "--activate-profiles",
    "-T",
    "--threads",
];

/// The options of `.mvn/jvm.config` that are free: its words are options of the JVM Maven itself runs in, not
/// of the one Surefire forks for the tests, so its memory, stack and compiler settings and headless mode change
/// nothing a test sees; nor do the JDK modules it opens to Maven's plugins (`--add-opens`, `--add-exports`), nor
/// its default encoding set to UTF-8 (the JDK's own default since 18; the sources' encoding is the POM's). Not
/// free: a `-D` of anything else (a property Surefire reads, `-DskipTests`, `-Dmaven.test.failure.ignore`, its
/// old alias `-Dmaven.test.skip.exec`), `-javaagent` (code loaded into the build), an argument file (`@FILE`,
/// `-XX:VMOptionsFile=`: options no line shows), or any option not listed.
const JVM_CONFIG_FREE: [&str; 15] = [
    "-Xmx*",
    "-Xms*",
    "-Xss*",
    "-XX:MaxMetaspaceSize=*",
    "-XX:ReservedCodeCacheSize=*",
    "-XX:TieredStopAtLevel=*",
    "-XX:+TieredCompilation",
    "-XX:+UseG1GC",
    "-XX:+UseParallelGC",
    "-XX:+UseSerialGC",
    "-XX:+UseZGC",
    "-Djava.awt.headless=true",
    "-Dfile.encoding=UTF-8",
    "--add-opens=*",
    "--add-exports=*",
];

/// The options of `.mvn/maven.config` that are free: its words are Maven's command line, put before the verify
/// command's own, and these change only what Maven prints (batch mode, no transfer progress, colour, errors with
/// their stack traces, the version banner) or how many modules it builds at once (`-T`: each module's tests still
/// run, and a failing one still fails the build), and where it stops after a failure (`-fae`, `-ff`: a failure
/// still fails the build). A file of those alone (what a CI template adds) is as if absent. Not free: any `-D`
/// (`-Dtest=…` narrows the run, `-DskipTests`, `-Dmaven.test.failure.ignore`), `-q` and `-l` (what Maven prints
/// is what the readout reads), `--fail-never`, `-P`/`-f`/`-s` (other profiles, POMs, settings), `-o` and `-U`
/// (which artifacts are resolved), and any option not listed.
const MAVEN_CONFIG_FREE: [&str; 16] = [
    "-B",
    "--batch-mode",
    "-ntp",
    "--no-transfer-progress",
    "-e",
    "--errors",
    "-V",
    "--show-version",
    "--color=*",
    "-Dstyle.color=*",
    "-T*",
    "-T=*",
    "--threads=*",
    "-fae",
    "--fail-at-end",
    "-ff",
];

/// The keys of JUnit's `junit-platform.properties` that are free: the default timeouts of test and lifecycle
/// methods (`junit.jupiter.execution.timeout.default`, `….test.method.default`, …), which fail a test that runs
/// longer and pass none; a file of those alone (a project that keeps a hanging test from hanging the build) is as
/// if absent. Not free: `….timeout.mode` (`disabled` lifts the tests' own `@Timeout`s), extension autodetection
/// (it loads every `Extension` the classpath's `META-INF/services` lists: one can swallow every failure),
/// deactivated conditions, display-name generators (they rename the tests the verdict reads by name), and any key
/// not listed. A line is read as `key=value` (`#` and `;` comments out); a line in another of the format's
/// spellings (`key: value`, `key value`, a `!` comment) is sealed as it stands.
const JUNIT_PLATFORM_FREE: [&str; 2] = [
    "junit.jupiter.execution.timeout.default",
    "junit.jupiter.execution.timeout.*.method.default",
];

impl Deriver<'_> {
    /// `mvn ARGS…` (or `mvnw`) run in `cwd`.
    pub(super) fn maven(&mut self, args: &[String], cwd: &Path) {
        self.plan.ecosystems.insert(Lang::Java);
        let mut tests = false;
        let mut i = 0;
        while let Some(word) = args.get(i) {
            i += 1;
            if VALUE_OPTIONS.contains(&word.as_str()) {
                i += 1;
            } else if !word.starts_with('-') && TEST_GOALS.contains(&word.as_str()) {
                tests = true;
            }
        }
        if !tests {
            return;
        }
        self.plan.runners.insert(Runner::Maven);
        let why = Why::Configures(Runner::Maven.name().to_string());
        for name in Runner::Maven.row().config.files {
            if *name == ".mvn/jvm.config" {
                let free = JVM_CONFIG_FREE.map(str::to_string).to_vec();
                self.add(cwd.join(name), Scope::Options { free }, why.clone());
            } else if *name == ".mvn/maven.config" {
                let free = MAVEN_CONFIG_FREE.map(str::to_string).to_vec();
                self.add(cwd.join(name), Scope::Options { free }, why.clone());
            } else if name.ends_with("junit-platform.properties") {
                let free = JUNIT_PLATFORM_FREE.map(str::to_string).to_vec();
                let options = Vec::new();
                self.add(cwd.join(name), Scope::KeysBut { free, options }, why.clone());
            } else {
                self.whole(cwd.join(name), why.clone());
            }
        }
        for relative in crate::walk::find_named(self.root, &["pom.xml"]) {
            self.add(relative.into(), Scope::Pom, why.clone());
        }
    }

    /// `java ARGS…`: the JUnit console launcher, where the jar or the main class is its.
    pub(super) fn java(&mut self, args: &[String]) {
        let launcher = args.iter().any(|word| {
            word.contains("junit-platform-console-standalone") || word.ends_with("console.ConsoleLauncher")
        });
        if launcher {
            self.plan.ecosystems.insert(Lang::Java);
            self.plan.runners.insert(Runner::JunitConsole);
        }
    }
}

/// The closure's rule for Maven and java (`closure::derive::PROGRAMS`): whether `cmd` runs one, whose configuration
/// it then reads.
pub(super) fn program(d: &mut Deriver, cmd: &Simple) -> bool {
    match cmd.name {
        "mvn" | "mvnw" => d.maven(cmd.rest, cmd.cwd),
        "java" => d.java(cmd.rest),
        _ => return false,
    }
    true
}

#[cfg(test)]
mod tests {
    use super::JUNIT_PLATFORM_FREE;
    use crate::closure::Scope;
    use crate::closure::parts::digests;

    fn sealed(text: &str) -> bool {
        let scope = Scope::KeysBut {
            free: JUNIT_PLATFORM_FREE.map(str::to_string).to_vec(),
            options: Vec::new(),
        };
        !digests(&scope, Some(text.as_bytes())).is_empty()
    }

    /// A `junit-platform.properties` of default timeouts and comments is as if absent; extension autodetection,
    /// the timeout mode, a display-name generator, and a key in another of the format's spellings count.
    #[test]
    fn junit_platform_properties_default_timeouts_are_free_and_the_rest_counts() {
        assert!(!sealed(
            "# Fail a hanging test, not the build.\njunit.jupiter.execution.timeout.default = 60 s\njunit.jupiter.execution.timeout.beforeall.method.default=2 m\n"
        ));
        for counting in [
            "junit.jupiter.extensions.autodetection.enabled=true\n",
            "junit.jupiter.execution.timeout.default = 60 s\njunit.jupiter.execution.timeout.mode = disabled\n",
            "junit.jupiter.displayname.generator.default = org.junit.jupiter.api.DisplayNameGenerator$ReplaceUnderscores\n",
            "junit.jupiter.extensions.autodetection.enabled: true\n",
            "junit.jupiter.conditions.deactivate = *\n",
        ] {
            assert!(sealed(counting), "{counting}");
        }
    }
}
