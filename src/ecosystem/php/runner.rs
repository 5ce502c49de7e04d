//! PHP: PHPUnit (`phpunit`, Composer's `vendor/bin/phpunit`, `php vendor/bin/phpunit`). Its tests are classes
//! extending `TestCase` in `*Test.php` files (the suffix its configuration's `<directory suffix="…">` names);
//! the code under test is what their bootstrap and autoloader load.

use super::{Config, Format, Report, Row, TestFiles};

/// PHPUnit reads the first of `phpunit.xml`, `phpunit.dist.xml`, `phpunit.xml.dist` in the directory it runs in
/// (`--configuration` / `-c` names another, `--no-configuration` none; `closure::derive::php`). It asks for a
/// JUnit report with `--log-junit FILE` or the configuration's `<logging><junit outputFile>`, and reads no
/// variable for it; PHP itself reads `PHP_INI_SCAN_DIR`, and an ini file there with `auto_prepend_file` runs
/// loopgate's start hook (`ecosystem/php/prepend.php`, `room::hook`) before phpunit's script, which adds
/// `--log-junit` to phpunit's own arguments. The sealed command runs unchanged.
pub(super) const PHPUNIT: Row = Row {
    id: "phpunit",
    name: "phpunit",
    config: Config {
        files: &["phpunit.xml", "phpunit.dist.xml", "phpunit.xml.dist"],
        ..Config::NONE
    },
    tests: TestFiles {
        names: &["*Test.php"],
        ..TestFiles::NONE
    },
    report: Report::Prepended {
        format: Format::JunitXml,
    },
};

/// What the interpreter, Composer and Xdebug read.
pub(super) const ENVIRONMENT: super::Environment = super::Environment {
    steers: &["PHP*", "COMPOSER*", "XDEBUG_*"],
    prints: &[],
    words: &[],
};

super::runners!(Phpunit = PHPUNIT; environment: ENVIRONMENT);
