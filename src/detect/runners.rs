//! Reading target names out of a Makefile and recipe names out of a justfile, well enough to know whether
//! `test` or `check` is one of them — without running `make` or `just`.

/// Target names of a Makefile's rule lines (`test:`, `test check: deps`), not variables (`X := a:b`).
pub(super) fn make_targets(text: &str) -> impl Iterator<Item = &str> {
    text.lines()
        .filter(|line| !line.starts_with(['\t', ' ', '#', '.']))
        .filter_map(|line| {
            let colon = line.find(':')?;
            let (head, rest) = line.split_at(colon);
            (!head.contains('=') && !rest[1..].starts_with('=')).then_some(head)
        })
        .flat_map(str::split_whitespace)
}

/// Recipe names of a justfile (`test:`, `@test *ARGS:`, `test: build`), not assignments or aliases (`:=`).
pub(super) fn just_recipes(text: &str) -> impl Iterator<Item = &str> {
    text.lines()
        .filter(|line| !line.starts_with([' ', '\t', '#', '[']))
        .filter_map(|line| {
            let line = line.strip_prefix('@').unwrap_or(line);
            let colon = line.find(':')?;
            if line[colon + 1..].starts_with('=') || line[..colon].contains('=') {
                return None;
            }
            let name = line[..colon].split_whitespace().next()?;
            (!matches!(name, "set" | "alias" | "export" | "import" | "mod")).then_some(name)
        })
}
