#!/usr/bin/env bash
# Runs the shared scenario with the PHP client (ext-curl; see clients/README.md).
set -euo pipefail
cd "$(dirname "$0")"
command -v php >/dev/null || { echo "php not found"; exit 77; }
php -r 'exit(extension_loaded("curl") ? 0 : 1);' || { echo "php-curl not installed"; exit 77; }
for f in src/*.php scenario.php; do php -l "$f" >/dev/null; done
exec php scenario.php
