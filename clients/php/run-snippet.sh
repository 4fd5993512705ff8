#!/usr/bin/env bash
# Runs one PHP program of the README (test/clients.readme-snippets.test.ts) as the README tells a
# newcomer: an app that requires contact-verify/client:^0.2 through a composer path repository
# (nothing comes from Packagist, so it works offline), the program saved next to its vendor/. The
# app is made once per CV_SNIPPET_WORK.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
file="$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"
command -v php >/dev/null || { echo "php not found (Debian: apt-get install php-cli php-curl)"; exit 77; }
php -r 'exit(extension_loaded("curl") ? 0 : 1);' || { echo "php-curl not installed (Debian: apt-get install php-curl)"; exit 77; }
command -v composer >/dev/null || { echo "composer not found (Debian: apt-get install composer)"; exit 77; }
app="${CV_SNIPPET_WORK:-$(mktemp -d)}/php-app"
if [ ! -f "$app/vendor/autoload.php" ]; then
  mkdir -p "$app"
  (
    cd "$app"
    composer init --no-interaction --name my/app
    composer config repositories.contact-verify path "$here"
    composer require --no-interaction contact-verify/client:^0.2
  ) >"$app/composer.log" 2>&1 || { cat "$app/composer.log"; exit 1; }
fi
cp "$file" "$app/snippet.php"
cd "$app"
exec php snippet.php
