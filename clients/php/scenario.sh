#!/usr/bin/env bash
# Runs the shared scenario with the PHP client against a running service (ext-curl; see
# clients/README.md); the library's own tests are test.sh.
set -euo pipefail
cd "$(dirname "$0")"
command -v php >/dev/null || { echo "php not found (Debian: apt-get install php-cli php-curl)"; exit 77; }
php -r 'exit(extension_loaded("curl") ? 0 : 1);' || { echo "php-curl not installed"; exit 77; }
exec php scenario.php
