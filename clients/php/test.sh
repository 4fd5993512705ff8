#!/usr/bin/env bash
# The PHP library's own test run (see test/clients.library-tests.test.ts): `php -l` on every
# file, `composer validate`, the package required into a scratch app through a composer path
# repository exactly as the README shows (offline: nothing comes from Packagist), then PHPUnit
# (Debian's) over that app's autoloader: the client, the retry rules, the curl transport against
# `php -S`, the test helper, and the drift test against $CV_OPENAPI.
set -euo pipefail
cd "$(dirname "$0")"
here="$PWD"
command -v php >/dev/null || { echo "php not found (Debian: apt-get install php-cli php-curl)"; exit 77; }
php -r 'exit(extension_loaded("curl") ? 0 : 1);' || { echo "php-curl not installed (Debian: apt-get install php-curl)"; exit 77; }
command -v composer >/dev/null || { echo "composer not found (Debian: apt-get install composer)"; exit 77; }
command -v phpunit >/dev/null || { echo "phpunit not found (Debian: apt-get install phpunit)"; exit 77; }
work="${CV_TEST_WORK:-$(mktemp -d)}"
mkdir -p "$work"
export CV_OPENAPI="${CV_OPENAPI:-$here/../openapi.json}"

echo "== php -l ($(php -r 'echo PHP_VERSION;'))"
# -n: no php.ini, so no extensions to load (linting needs none): a third of the time.
for f in $(find src tests -name '*.php' | sort) scenario.php readme-row.php; do
  out=$(php -n -l "$f" 2>&1) || { echo "$out"; exit 1; }
done

echo "== composer validate ($(composer --version 2>/dev/null | cut -d' ' -f3))"
composer validate --no-interaction

echo "== composer require contact-verify/client:^0.2 through a path repository, in $work/app"
rm -rf "$work/app"
mkdir -p "$work/app"
(
  cd "$work/app"
  composer init --no-interaction --name contact-verify/check
  composer config repositories.contact-verify path "$here"
  composer require --no-interaction contact-verify/client:^0.2
  php -r '
    $loader = require "vendor/autoload.php";
    $installed = Composer\InstalledVersions::getPrettyVersion("contact-verify/client");
    $file = $loader->findFile(ContactVerify\Client::class);
    if ($installed !== ContactVerify\Client::VERSION || !str_starts_with((string) $file, getcwd() . "/vendor/")) {
        fwrite(STDERR, "installed {$installed}, loaded from {$file}\n");
        exit(1);
    }
    echo "contact-verify/client {$installed} loads from vendor/\n";'
)

echo "== phpunit ($(phpunit --version | head -1 | cut -d' ' -f2))"
CV_PHP_AUTOLOAD="$work/app/vendor/autoload.php" phpunit --do-not-cache-result
