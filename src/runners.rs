//! Where test runners read their configuration: one list per runner, read by `--verify auto` (`detect`, which
//! names the file that made it choose the runner) and by the verify command's closure (`closure::derive`, which
//! seals those files), so the two never disagree. A leaf: it imports nothing of the crate.

/// A part of a file that configures a runner.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Section {
    /// A table of a TOML document, by its key path (`["tool", "pytest"]`).
    Toml(&'static [&'static str]),
    /// A section of an INI file, by its name (`tool:pytest`).
    Ini(&'static str),
}

impl Section {
    /// How the section's header line starts (`[tool.pytest` also matches `[tool.pytest.ini_options]`).
    pub(crate) fn header(self) -> String {
        match self {
            Self::Toml(path) => format!("[{}", path.join(".")),
            Self::Ini(name) => format!("[{name}]"),
        }
    }
}

/// Where one runner reads its configuration.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Config {
    /// Files that configure the runner whole.
    pub(crate) files: &'static [&'static str],
    /// Files with a section for the runner among other things.
    pub(crate) sections: &'static [(&'static str, Section)],
}

/// pytest: `pytest.ini` (or `.pytest.ini`, pytest 8.1 and later; `pytest.toml`, `.pytest.toml`, pytest 9),
/// else a section of `pyproject.toml`, `tox.ini` or `setup.cfg`.
pub(crate) const PYTEST: Config = Config {
    files: &["pytest.ini", ".pytest.ini", "pytest.toml", ".pytest.toml"],
    sections: &[
        ("pyproject.toml", Section::Toml(&["tool", "pytest"])),
        ("tox.ini", Section::Ini("pytest")),
        ("setup.cfg", Section::Ini("tool:pytest")),
    ],
};
