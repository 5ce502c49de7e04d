<?php
// loopgate's start hook for the oracle's runs (issue 40; see `room::hook`), run before every PHP script of the
// run through the `auto_prepend_file` of an ini file in `PHP_INI_SCAN_DIR`. In a process that runs PHPUnit's own
// command (`phpunit`, `vendor/bin/phpunit`, `phpunit.phar`) it asks PHPUnit for its JUnit report at a path in
// loopgate's room (`report/phpunit-PID-RANDOM.xml`, one per PHPUnit process, beside this hook's directory; see
// `ecosystem/php/report.rs`), by adding `--log-junit` to PHPUnit's arguments after the user's own (the last one
// wins) and before a `--` that ends them. A JUnit report the user
// asked for (`--log-junit FILE`, or `<logging><junit outputFile>` in the configuration, both replaced by the
// last `--log-junit`) is copied from loopgate's when PHPUnit is done, so it is still written where the user
// expects it. Nothing is printed; any other PHP process (composer, a tool the tests start, PHPUnit's
// process-isolation children, which read their script from stdin) is left as it was.
(static function (): void {
    $argv = $_SERVER['argv'] ?? null;
    if (PHP_SAPI !== 'cli' || !is_array($argv) || !isset($argv[0]) || !is_string($argv[0])) {
        return;
    }
    if (!preg_match('/^phpunit(\.phar)?$/', basename($argv[0]))) {
        return;
    }
    $report = dirname(__DIR__, 2) . '/report/phpunit-' . getmypid() . '-' . bin2hex(random_bytes(4)) . '.xml';
    $theirs = [];
    $end = count($argv);
    for ($i = 1; $i < count($argv); $i++) {
        $word = (string) $argv[$i];
        if ($word === '--') {
            $end = $i;
            break;
        }
        if ($word === '--log-junit' && isset($argv[$i + 1])) {
            $theirs[] = (string) $argv[$i + 1];
        } elseif (strncmp($word, '--log-junit=', 12) === 0) {
            $theirs[] = substr($word, 12);
        }
    }
    array_splice($argv, $end, 0, ['--log-junit', $report]);
    $_SERVER['argv'] = $argv;
    $_SERVER['argc'] = count($argv);
    $GLOBALS['argv'] = $argv;
    $GLOBALS['argc'] = count($argv);
    $cwd = getcwd();
    register_shutdown_function(static function () use ($report, $theirs, $cwd): void {
        if (!is_file($report)) {
            return;
        }
        if ($theirs === [] && isset($GLOBALS['__PHPUNIT_CONFIGURATION_FILE'])) {
            $config = (string) $GLOBALS['__PHPUNIT_CONFIGURATION_FILE'];
            $xml = is_file($config) ? @simplexml_load_file($config) : false;
            $out = $xml !== false ? (string) ($xml->logging->junit['outputFile'] ?? '') : '';
            if ($out !== '') {
                $theirs[] = $out[0] === '/' ? $out : dirname($config) . '/' . $out;
            }
        }
        foreach ($theirs as $path) {
            $path = ($path !== '' && $path[0] !== '/' && $cwd !== false) ? $cwd . '/' . $path : $path;
            if (is_dir(dirname($path)) || @mkdir(dirname($path), 0777, true)) {
                @copy($report, $path);
            }
        }
    });
})();
