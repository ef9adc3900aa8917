#!/usr/bin/env bash
# scripts/bench-elsewhere.sh FOLDER: packs what `npm run bench` needs on a machine that has no npm, no network
# and no node (a lent many-core machine), into FOLDER: node.xz (this machine's node binary), app.tar.xz (dist/,
# experiments/, package.json, the bundled bench in scripts/.bench/ and production-only node_modules) and peer/
# (../shared/peer, or PEER_DIR). There, from the folder's parent:
#   xz -dc FOLDER/node.xz > /tmp/node && chmod +x /tmp/node && mkdir -p /tmp/app && tar -C /tmp/app -xJf FOLDER/app.tar.xz
#   cd /tmp/app && PATH=/tmp:$PATH PEER_DIR=<FOLDER>/peer PEER_PYTHON=python3 node scripts/.bench/bench.mjs --json --only scaling,scalingLarge,peer
# The bench's sweeps run `node dist/cli/perceptron-lab.mjs` with the same node (process.execPath).
set -euo pipefail
out=${1:?usage: scripts/bench-elsewhere.sh FOLDER}
root=$(cd "$(dirname "$0")/.." && pwd)
peer=${PEER_DIR:-$root/../shared/peer}
cd "$root"
[ -f dist/cli/perceptron-lab.mjs ] || { echo "bench-elsewhere: dist/ is missing: npm run build first" >&2; exit 1; }
npm run --silent bench:bundle
mkdir -p "$out"
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
cp -r dist experiments package.json package-lock.json "$stage/"
mkdir -p "$stage/scripts" && cp -r scripts/.bench "$stage/scripts/"
(cd "$stage" && npm ci --omit=dev --ignore-scripts --no-audit --no-fund --loglevel=error >/dev/null && rm package-lock.json)
tar -C "$stage" -cJf "$out/app.tar.xz" .
xz -c "$(command -v node)" > "$out/node.xz"
if [ -d "$peer" ]; then rm -rf "$out/peer" && cp -r "$peer" "$out/peer"; else echo "bench-elsewhere: no peer at $peer (PEER_DIR): packed without it" >&2; fi
du -sh "$out"/* | sed 's/^/bench-elsewhere: /'
