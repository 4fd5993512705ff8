#!/usr/bin/env bash
# The Python library's own test run (see test/clients.library-tests.test.ts): unittest (the
# clients, the retry rules, the test helper, the async client on httpx, and the drift test
# against $CV_OPENAPI), then the package built offline with
# `python3 -m pip wheel --no-deps --no-build-isolation` (Debian: python3-pip, python3-setuptools,
# python3-wheel) and installed from that wheel into a fresh virtualenv, where it is imported.
set -euo pipefail
cd "$(dirname "$0")"
here="$PWD"
work="${CV_TEST_WORK:-$(mktemp -d)}"
mkdir -p "$work"
export CV_OPENAPI="$(realpath "${CV_OPENAPI:-../openapi.json}")"
export PYTHONDONTWRITEBYTECODE=1

# The first python3 that has httpx (pyenv's python3 may shadow Debian's /usr/bin/python3).
python=""
for candidate in ${CV_PYTHON:-} python3 /usr/bin/python3; do
  command -v "$candidate" >/dev/null 2>&1 || continue
  [ -n "$python" ] || python="$(command -v "$candidate")"
  if "$candidate" -c 'import httpx' 2>/dev/null; then python="$(command -v "$candidate")"; break; fi
done
[ -n "$python" ] || { echo "python3 not found (Debian: apt-get install python3)"; exit 77; }
if ! "$python" -c 'import httpx' 2>/dev/null; then
  [ "${CI:-}" != "true" ] || { echo "httpx missing for $python (Debian: apt-get install python3-httpx)"; exit 1; }
  echo "!! httpx missing (Debian: python3-httpx): the async client's tests are skipped"
fi

echo "== unittest with $python ($("$python" --version)), drift against $CV_OPENAPI"
"$python" -m unittest discover -s tests

if ! { "$python" -c 'import setuptools, wheel' && "$python" -m pip --version; } >/dev/null 2>&1; then
  [ "${CI:-}" != "true" ] || { echo "pip, setuptools or wheel missing for $python"; exit 1; }
  echo "!! pip, setuptools or wheel missing for $python (Debian: python3-pip python3-setuptools python3-wheel):"
  echo "!! no wheel built; every module byte-compiles instead"
  "$python" -m compileall -q src
  exit 0
fi

echo "== pip wheel --no-deps --no-build-isolation (offline), from a copy of the folder"
rm -rf "$work/py-src" "$work/wheels" "$work/venv"
mkdir -p "$work/py-src"
cp -r pyproject.toml README.md src "$work/py-src/"
"$python" -m pip wheel --quiet --no-deps --no-build-isolation --no-index -w "$work/wheels" "$work/py-src"
wheel="$(ls "$work"/wheels/contact_verify-*.whl)"
"$python" -m zipfile -l "$wheel" | awk 'NR > 1 { print $1 }' | tr '\n' ' ' && echo

echo "== installed from the wheel into a fresh virtualenv (system site packages: httpx)"
"$python" -m venv --system-site-packages "$work/venv"
"$work/venv/bin/python" -m pip install --quiet --no-index --no-deps "$wheel"
cd "$work"
"$work/venv/bin/python" - "$work/venv" <<'PY'
import sys

import contact_verify
from contact_verify import Channel, ContactVerify, TestHelper, __version__

assert contact_verify.__file__.startswith(sys.argv[1]), f"imported from {contact_verify.__file__}"
ContactVerify("http://127.0.0.1:9", "k")
TestHelper("http://127.0.0.1:9", "a")
try:
    from contact_verify import AsyncContactVerify
except ImportError:
    async_client = "no httpx: no async client"
else:
    async_client = AsyncContactVerify.__name__
print(f"contact-verify {__version__} imports from the installed wheel ({Channel.EMAIL}, {async_client})")
PY
echo "python: unit, async and drift tests, the wheel and its install passed"
