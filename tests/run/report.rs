//! Issue 41 (5): the page a tournament writes at its end, read as a user reads it. A real tournament of scripted
//! candidates — one that does nothing, one that rewrites the verify script, one that does the work — under a task
//! with markup in it; the page names the task (as text), the verify command, the budget, the winner and the rule
//! that ranked it, and what the oracle said to each one it turned down. `loopgate report --html --tournament`
//! draws the same page again from the record.

use crate::tournament::{record, repository};

/// c1 does nothing, c2 makes the verify script pass, c3 does the work.
const FIELD: &str = r#"case $(basename "$PWD") in
c1) echo 'nothing to do' ;;
c2) printf '#!/bin/sh\nexit 0\n' > check.sh; echo '<promise>LOOP_DONE</promise>' ;;
c3) echo fixed > src.txt; echo '<promise>LOOP_DONE</promise>' ;;
esac"#;

/// The row of candidate `name` at `iteration` in the page's table.
#[track_caller]
fn row<'a>(page: &'a str, name: &str, iteration: u64) -> &'a str {
    let start = page
        .find(&format!("<tr><td>{name}</td><td>{iteration}</td>"))
        .unwrap_or_else(|| panic!("no row for {name} at iteration {iteration}:\n{page}"));
    let row = &page[start..];
    &row[..row.find("</tr>").expect("the row's end")]
}

#[test]
fn the_tournaments_page_names_the_task_the_verify_command_the_winner_and_why_the_others_lost() {
    let p = repository();
    let agent = p.agent("field", FIELD);
    let task = "make src.txt say fixed <script>alert('now')</script> & \"quickly\"";
    let out = p.loopgate(&[
        "run",
        "--candidates",
        "3",
        "--max-iterations",
        "2",
        "--verify",
        "sh check.sh",
        task,
        "--",
        &agent,
    ]);
    out.code(0).stderr_has("winner: c3");
    let id = record(&p)["id"].as_str().expect("id").to_string();
    let path = p.store().join(format!("tournaments/{id}.html"));
    out.stderr_has(&format!("the picture: {}", path.display()));
    let page = std::fs::read_to_string(&path).expect("the page");

    assert!(
        page.contains(
            "<div class=\"task\">make src.txt say fixed &lt;script&gt;alert(&#39;now&#39;)&lt;/script&gt; &amp; &quot;quickly&quot;</div>"
        ),
        "the task, as text:\n{page}"
    );
    assert!(!page.contains("<script"), "nothing of the task runs");
    assert!(page.contains("<code>sh check.sh</code>"), "the verify command");
    assert!(page.contains("--max-iterations 2 · no --max-duration"), "the budget");
    let winner = page
        .lines()
        .find(|l| l.starts_with("<li class=\"winner\">"))
        .unwrap_or_else(|| panic!("a winner's line:\n{page}"));
    assert!(winner.contains("<b>c3</b> <strong>★ winner</strong>"), "{winner}");
    assert!(
        page.contains("★ c3 won: the oracle passed 1 of 3 candidate(s)") && page.contains("(`--rank diff`)"),
        "who won and by which rule:\n{page}"
    );
    // Why the others lost: c1's failing test by name, c2's rewritten verify script.
    let idle = row(&page, "c1", 1);
    assert!(
        idle.contains("fail (exit 1") && idle.contains("parser::roundtrip"),
        "{idle}"
    );
    let gamer = row(&page, "c2", 1);
    assert!(
        gamer.contains("rejected: 1 sealed file(s) changed")
            && gamer.contains("changed a sealed input: ")
            && gamer.contains("check.sh"),
        "{gamer}"
    );
    assert!(row(&page, "c3 ★", 1).contains("complete: pass"), "{page}");

    let shown = p.loopgate(&["tournament", "show", &id]);
    shown.code(0);
    assert!(
        shown.stdout.contains(&format!("the report: {}", path.display())),
        "{shown:#?}"
    );

    // Drawn again from the record, the same page.
    std::fs::remove_file(&path).expect("remove the page");
    let again = p
        .command(&["report", "--html", "--tournament", &id])
        .output()
        .expect("loopgate report");
    assert!(again.status.success(), "{again:?}");
    assert_eq!(std::fs::read_to_string(&path).expect("drawn again"), page);
}
