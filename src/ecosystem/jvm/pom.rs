//! A `pom.xml`'s test side, part by part (`closure::parts::Scope::Pom`).
//!
//! What in a POM decides which tests Surefire runs and whether their failures fail the build: the Surefire
//! plugin's declarations (`<plugin>` with `maven-surefire-plugin`, wherever it is — `<plugins>`,
//! `<pluginManagement>`, a profile — with its `<configuration>`: `includes`/`excludes`, `skip`, `skipTests`,
//! `testFailureIgnore`, `groups`/`excludedGroups`, `test`, `argLine`, `systemPropertyVariables`…), the
//! properties its parameters read (`skipTests`, `maven.test.skip`, `maven.test.failure.ignore`, `groups`,
//! `surefire.*`…), and where the test sources and resources are (`testSourceDirectory`, `testResources`). Each
//! is a part, present or not: a part the baseline's POM did not have that appears (`<skipTests>true</skipTests>`
//! added) is a change like one that moved. Everything else — dependencies, the main build, other plugins — is
//! the agent's, so a new dependency or a compiler setting is honest work, and so are Surefire's settings that only
//! print or schedule ([`FREE_SETTINGS`]: a failure's full trace, one reused fork), cut from its `<configuration>`
//! before the plugin's part is taken. A part's text is compared with its
//! white space collapsed and comments dropped, so reformatting the POM moves nothing.

/// The properties Surefire's (and the JUnit provider's) parameters read, by name or prefix (`surefire.`).
const TEST_PROPERTIES: [&str; 9] = [
    "skipTests",
    "maven.test.",
    "surefire.",
    "junit.",
    "test",
    "groups",
    "excludedGroups",
    "failIfNoTests",
    "argLine",
];

/// Elements of the build that say where the tests are.
const TEST_PLACES: [&str; 3] = ["testSourceDirectory", "testResources", "testOutputDirectory"];

/// Settings of Surefire's `<configuration>` that change neither which tests run nor how their ends count: how a
/// failure's trace and the summary are printed and where the output goes, how many JVMs run the tests and
/// whether they are reused, how long a forked JVM may take, and the order the classes run in (every test still
/// runs; the per-test verdict reads each). Every other setting (`skipTests`, `testFailureIgnore`, `includes`,
/// `argLine`, `systemPropertyVariables`, `enableAssertions`, `reportsDirectory`, a reporter's class…) and one
/// this list does not know stays in the plugin's part. Only a direct child of a `<configuration>` is free: the
/// same name inside another setting (a system property called `forkCount`) is that setting's value.
const FREE_SETTINGS: &[&str] = &[
    "trimStackTrace",
    "printSummary",
    "reportFormat",
    "useFile",
    "redirectTestOutputToFile",
    "forkCount",
    "reuseForks",
    "forkedProcessTimeoutInSeconds",
    "forkedProcessExitTimeoutInSeconds",
    "runOrder",
];

/// The plugin whose declaration is the test side.
const SUREFIRE: &str = "maven-surefire-plugin";

/// The test side of a POM: each part's label and its text, comments dropped and white space collapsed.
pub(crate) fn parts(text: &str) -> Vec<(String, String)> {
    let text = super::xml_root::without_comments(text);
    let mut out = Vec::new();
    let surefire: Vec<String> = elements(&text, "plugin")
        .into_iter()
        .filter(|plugin| {
            elements(plugin, "artifactId")
                .first()
                .is_some_and(|id| id.trim() == SUREFIRE)
        })
        .map(|plugin| collapse(&without_free_settings(plugin)))
        .collect();
    if !surefire.is_empty() {
        out.push((format!("<plugin> {SUREFIRE}"), surefire.join("\n")));
    }
    for properties in elements(&text, "properties") {
        for (name, value) in children(properties) {
            let test_side = TEST_PROPERTIES
                .iter()
                .any(|p| name == *p || (p.ends_with('.') && name.starts_with(p)));
            if test_side {
                out.push((format!("<properties> {name}"), collapse(value)));
            }
        }
    }
    for place in TEST_PLACES {
        let found: Vec<String> = elements(&text, place).into_iter().map(collapse).collect();
        if !found.is_empty() {
            out.push((format!("<{place}>"), found.join("\n")));
        }
    }
    out.sort();
    out
}

/// A plugin's declaration without the [`FREE_SETTINGS`] its `<configuration>` elements set directly, and without
/// a `<configuration>` left holding nothing else (so one of free settings alone is as if absent).
fn without_free_settings(plugin: &str) -> String {
    const OPEN: &str = "<configuration";
    const CLOSE: &str = "</configuration>";
    let mut out = String::new();
    let mut rest = plugin;
    while let Some(start) = rest.find(OPEN) {
        let after = &rest[start + OPEN.len()..];
        let head_end = after.find('>');
        let is_open = after.starts_with(['>', ' ', '\t', '\n', '\r']);
        let (Some(head_end), true) = (head_end, is_open) else {
            out.push_str(&rest[..start + OPEN.len()]);
            rest = after;
            continue;
        };
        if after[..head_end].ends_with('/') {
            out.push_str(&rest[..start]);
            rest = &after[head_end + 1..];
            continue;
        }
        let body = &after[head_end + 1..];
        let Some(end) = body.find(CLOSE) else { break };
        let kept: Vec<String> = children(&body[..end])
            .into_iter()
            .filter(|(name, _)| !FREE_SETTINGS.contains(name))
            .map(|(name, value)| format!("<{name}>{}</{name}>", collapse(value)))
            .collect();
        out.push_str(&rest[..start]);
        if !kept.is_empty() {
            out.push_str(&format!("<configuration>{}</configuration>", kept.concat()));
        }
        rest = &body[end + CLOSE.len()..];
    }
    out.push_str(rest);
    out
}

/// The contents of every `<tag>…</tag>` in `text` (the outermost, in order; `<tag/>` as empty).
fn elements<'a>(text: &'a str, tag: &str) -> Vec<&'a str> {
    let open = format!("<{tag}");
    let close = format!("</{tag}>");
    let mut out = Vec::new();
    let mut at = 0;
    while let Some(found) = text[at..].find(&open) {
        let start = at + found + open.len();
        let Some(after) = text[start..].chars().next() else {
            break;
        };
        if !(after == '>' || after == '/' || after.is_whitespace()) {
            at = start;
            continue;
        }
        let Some(head_end) = text[start..].find('>').map(|e| start + e) else {
            break;
        };
        if text[..head_end].ends_with('/') {
            out.push("");
            at = head_end + 1;
            continue;
        }
        let Some(end) = text[head_end..].find(&close).map(|e| head_end + e) else {
            break;
        };
        out.push(&text[head_end + 1..end]);
        at = end + close.len();
    }
    out
}

/// The direct children of an element's contents: each child's name and contents.
fn children(text: &str) -> Vec<(&str, &str)> {
    let mut out = Vec::new();
    let mut rest = text;
    while let Some(open) = rest.find('<') {
        let after = &rest[open + 1..];
        let Some(name_end) = after.find(|c: char| c == '>' || c == '/' || c.is_whitespace()) else {
            break;
        };
        let name = &after[..name_end];
        if name.is_empty() || name.starts_with(['/', '!', '?']) {
            rest = &after[name_end.max(1)..];
            continue;
        }
        let Some(head_end) = after.find('>') else { break };
        if after[..head_end].ends_with('/') {
            out.push((name, ""));
            rest = &after[head_end + 1..];
            continue;
        }
        let close = format!("</{name}>");
        let Some(end) = after[head_end..].find(&close).map(|e| head_end + e) else {
            break;
        };
        out.push((name, &after[head_end + 1..end]));
        rest = &after[end + close.len()..];
    }
    out
}

/// White space collapsed to single spaces, and none between tags.
fn collapse(text: &str) -> String {
    text.split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .replace("> <", "><")
}

#[cfg(test)]
mod tests {
    use super::*;

    const POM: &str = r#"<project>
  <modelVersion>4.0.0</modelVersion>
  <properties>
    <maven.compiler.release>17</maven.compiler.release>
    <!-- <skipTests>true</skipTests> -->
  </properties>
  <dependencies>
    <dependency><groupId>org.junit.jupiter</groupId><artifactId>junit-jupiter</artifactId></dependency>
  </dependencies>
  <build>
    <plugins>
      <plugin>
        <artifactId>maven-surefire-plugin</artifactId>
        <version>2.22.3</version>
      </plugin>
    </plugins>
  </build>
</project>
"#;

    fn labels(text: &str) -> Vec<String> {
        parts(text).into_iter().map(|(label, _)| label).collect()
    }

    /// Every way a POM turns tests off or narrows them is a part that moves; a commented-out one is none.
    #[test]
    fn each_test_side_setting_moves_a_part() {
        let base = parts(POM);
        assert_eq!(labels(POM), vec!["<plugin> maven-surefire-plugin"]);
        let plugin_end = "<version>2.22.3</version>";
        for (what, from, to) in [
            (
                "skipTests property",
                "<properties>",
                "<properties><skipTests>true</skipTests>",
            ),
            (
                "maven.test.skip",
                "<properties>",
                "<properties>\n<maven.test.skip>true</maven.test.skip>",
            ),
            (
                "failure ignore",
                "<properties>",
                "<properties><maven.test.failure.ignore>true</maven.test.failure.ignore>",
            ),
            (
                "surefire property",
                "<properties>",
                "<properties><surefire.excludesFile>x</surefire.excludesFile>",
            ),
            ("groups property", "<properties>", "<properties><groups>fast</groups>"),
            (
                "excludes",
                plugin_end,
                "<version>2.22.3</version><configuration><excludes><exclude>**/CalcTest.java</exclude></excludes></configuration>",
            ),
            (
                "skip",
                plugin_end,
                "<version>2.22.3</version><configuration><skipTests>true</skipTests></configuration>",
            ),
            (
                "testFailureIgnore",
                plugin_end,
                "<version>2.22.3</version><configuration><testFailureIgnore>true</testFailureIgnore></configuration>",
            ),
            (
                "excludedGroups",
                plugin_end,
                "<version>2.22.3</version><configuration><excludedGroups>slow</excludedGroups></configuration>",
            ),
            (
                "test source directory",
                "<build>",
                "<build><testSourceDirectory>other</testSourceDirectory>",
            ),
            (
                "a second surefire declaration",
                "</plugins>",
                "</plugins><pluginManagement><plugins><plugin><artifactId>maven-surefire-plugin</artifactId><configuration><skip>true</skip></configuration></plugin></plugins></pluginManagement>",
            ),
            (
                "testFailureIgnore beside a display setting",
                plugin_end,
                "<version>2.22.3</version><configuration><trimStackTrace>false</trimStackTrace><testFailureIgnore>true</testFailureIgnore></configuration>",
            ),
            (
                "an argLine beside the fork settings",
                plugin_end,
                "<version>2.22.3</version><configuration><forkCount>1</forkCount><argLine>-javaagent:agent.jar</argLine></configuration>",
            ),
            (
                "a system property named like a free setting",
                plugin_end,
                "<version>2.22.3</version><configuration><systemPropertyVariables><forkCount>1</forkCount></systemPropertyVariables></configuration>",
            ),
        ] {
            let changed = POM.replacen(from, to, 1);
            assert_ne!(parts(&changed), base, "{what}");
        }
    }

    /// Dependencies, compiler settings, other plugins and formatting are the agent's.
    #[test]
    fn the_rest_of_the_pom_moves_nothing() {
        let base = parts(POM);
        for (what, from, to) in [
            (
                "a dependency",
                "</dependencies>",
                "<dependency><groupId>com.google.guava</groupId><artifactId>guava</artifactId></dependency></dependencies>",
            ),
            (
                "a compiler property",
                "<properties>",
                "<properties><project.build.sourceEncoding>UTF-8</project.build.sourceEncoding>",
            ),
            (
                "another plugin",
                "<plugins>",
                "<plugins><plugin><artifactId>maven-jar-plugin</artifactId></plugin>",
            ),
            ("reformatting", "<plugin>\n        <artifactId>", "<plugin><artifactId>"),
            ("a comment", "<plugins>", "<plugins><!-- tests -->"),
            (
                "Surefire's display and fork settings",
                "<version>2.22.3</version>",
                "<version>2.22.3</version>\n<configuration>\n  <trimStackTrace>false</trimStackTrace>\n  <forkCount>1</forkCount><reuseForks>true</reuseForks>\n  <runOrder>alphabetical</runOrder>\n</configuration>",
            ),
        ] {
            let changed = POM.replacen(from, to, 1);
            assert_eq!(parts(&changed), base, "{what}");
        }
    }
}
