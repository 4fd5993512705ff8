#!/usr/bin/env bash
# Runs one TypeScript program of the README (test/clients.readme-snippets.test.ts) as the README
# tells a newcomer: an ES-module app (npm init, type=module) that installs this folder with
# `npm install <path>` (prepare builds dist/; nothing comes from the registry), the program saved
# in it, type-checked with `tsc --noEmit` and run with `tsx`. The app is made once per
# CV_SNIPPET_WORK. The repository's own typescript, tsx and @types/node (npm ci in its root) stand
# in for the app's `npm install --save-dev typescript tsx @types/node`, which needs the registry.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
file="$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"
command -v node >/dev/null || { echo "node not found"; exit 77; }
[ -x "$root/node_modules/.bin/tsc" ] && [ -x "$root/node_modules/.bin/tsx" ] \
  || { echo "TypeScript and tsx not installed: run npm ci in $root"; exit 77; }
export PATH="$root/node_modules/.bin:$PATH"
app="${CV_SNIPPET_WORK:-$(mktemp -d)}/ts-app"
if [ ! -f "$app/node_modules/@contact-verify/client/dist/index.d.ts" ]; then
  mkdir -p "$app"
  (
    cd "$app"
    npm init -y
    npm pkg set type=module
    npm install --offline --no-audit --no-fund "$here"
    cat >tsconfig.json <<JSON
{ "compilerOptions": { "module": "nodenext", "target": "es2022", "strict": true, "noEmit": true,
  "skipLibCheck": true, "types": ["node"], "typeRoots": ["$root/node_modules/@types"] } }
JSON
  ) >"$app/npm.log" 2>&1 || { cat "$app/npm.log"; exit 1; }
fi
cp "$file" "$app/snippet.ts"
cd "$app"
tsc --noEmit -p .
exec tsx snippet.ts
