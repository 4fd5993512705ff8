#!/usr/bin/env bash
# The TypeScript client's own test run (see test/clients.library-tests.test.ts), offline: the
# package's build (what `prepare` runs on install: strict tsc, dist/ with its .d.ts), its unit
# tests and the drift test against $CV_OPENAPI (node:test), then the ecosystem's install path:
# `npm pack`, the tarball installed into a fresh folder without the registry (the package has no
# runtime dependency), a program importing it type-checked against the shipped .d.ts and run.
# The compiler and tsx are the repository's devDependencies (npm ci in its root).
set -euo pipefail
cd "$(dirname "$0")"
here="$PWD"
root="$(cd ../.. && pwd)"
command -v node >/dev/null || { echo "node not found"; exit 77; }
command -v npm >/dev/null || { echo "npm not found"; exit 77; }
[ -x "$root/node_modules/.bin/tsc" ] && [ -x "$root/node_modules/.bin/tsx" ] \
  || { echo "TypeScript and tsx not installed: run npm ci in $root"; exit 77; }
export PATH="$root/node_modules/.bin:$PATH"
export CV_OPENAPI="$(realpath "${CV_OPENAPI:-../openapi.json}")"
work="${CV_TEST_WORK:-$(mktemp -d)}"
mkdir -p "$work"

echo "== build (node $(node --version), tsc $(tsc --version))"
npm run --silent build
[ -f dist/index.d.ts ] && [ -f dist/schema.d.ts ] || { echo "dist/ lacks its declarations"; exit 1; }

echo "== unit and drift tests against $CV_OPENAPI"
node --import tsx --test test/*.test.ts

echo "== npm pack, then the tarball installed offline into a fresh folder"
rm -rf "$work/pack" "$work/ts-app" && mkdir -p "$work/pack" "$work/ts-app"
tarball="$work/pack/$(npm pack --silent --pack-destination "$work/pack" | tail -1)"
# Listed once: grep -q stops reading early, and under pipefail tar's broken pipe would fail the check.
files="$(tar -tzf "$tarball" | sort)"
echo $files
for f in package/dist/index.js package/dist/index.d.ts package/dist/schema.d.ts package/dist/errors.d.ts; do
  grep -qx "$f" <<<"$files" || { echo "the tarball lacks $f"; exit 1; }
done
cd "$work/ts-app"
npm init -y >/dev/null
npm pkg set type=module
npm install --offline --no-audit --no-fund "$tarball" >/dev/null
# A newcomer's program against the shipped declarations only (skipLibCheck off: they must
# compile on their own), with the repository's @types/node standing in for their devDependency.
cat > tsconfig.json <<JSON
{ "compilerOptions": { "module": "nodenext", "target": "es2022", "strict": true, "noEmit": true,
  "skipLibCheck": false, "types": ["node"], "typeRoots": ["$root/node_modules/@types"] } }
JSON
cat > app.ts <<'TS'
import {
  Channel, ContactVerify, ContactVerifyError, type DualSendRequest, ERROR_CODES, RateLimitError,
  type SendEntry, TestOutbox, VERSION,
} from '@contact-verify/client';

const cv = new ContactVerify({ baseUrl: 'http://127.0.0.1:9', apiKey: 'cvk_test_x', maxRetries: 0 });
const dual: DualSendRequest = { channels: [Channel.EMAIL, 'SMS'], email: 'a@b.co', phone: '+14155552671' };
const pending: Promise<SendEntry[]> = cv.sendCode(dual, { idempotencyKey: 'k' }).catch(() => []);
void pending;
void new TestOutbox({ baseUrl: 'http://127.0.0.1:9', adminToken: 'a' });
try {
  await cv.health();
} catch (err) {
  if (!(err instanceof ContactVerifyError) || err instanceof RateLimitError) throw err;
  console.log(`@contact-verify/client ${VERSION}: ${err.code}, ${ERROR_CODES.length} codes`);
}
TS
tsc -p .
tsx app.ts
node -e "import('@contact-verify/client').then((m) => { if (typeof m.ContactVerify !== 'function') process.exit(1) })"
echo "typescript: build, unit and drift tests, and the packed tarball's install passed"
