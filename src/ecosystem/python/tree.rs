//! Python's files as the room's tree knows them (`room::tree`): what its runners load on their own from
//! above the tests or from anywhere, and what the walk does not copy. Registered by its line of `tree::TREES`.

use super::TreeFiles;

pub(super) const TREE: TreeFiles = TreeFiles {
    above_tests: &[
        "conftest.py",
        "__init__.py",
        "pytest.ini",
        ".pytest.ini",
        "tox.ini",
        "setup.cfg",
        "pyproject.toml",
        ".python-version",
    ],
    anywhere: &["sitecustomize.py", "usercustomize.py"],
    skipped: &[
        "__pycache__",
        ".pytest_cache",
        ".mypy_cache",
        ".ruff_cache",
        ".hypothesis",
        ".tox",
        ".nox",
        ".venv",
        "venv",
    ],
    ..TreeFiles::NONE
};
