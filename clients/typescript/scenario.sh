#!/usr/bin/env bash
# Builds the TypeScript client and runs the shared scenario with it (see clients/README.md).
set -euo pipefail
cd "$(dirname "$0")"
command -v node >/dev/null || { echo "node not found"; exit 77; }
npm run --silent build
exec node --import tsx scenario.ts
