#!/usr/bin/env bash
# The server's integration suite on Node 24, the production runtime, on SQLite and PostgreSQL,
# whichever Node runs npm.
# That Node is the npm registry's node-<platform>-<arch> package, kept in node_modules/.cache/node24.
set -euo pipefail
cd "$(dirname "$0")/.."
platform=$(node -p "process.platform === 'win32' ? 'win' : process.platform")
pkg="node-$platform-$(node -p process.arch)"
dir=node_modules/.cache/node24
bin="$PWD/$dir/node_modules/$pkg/bin"
if [ ! -x "$bin/node" ]; then
  npm install --prefix "$dir" --no-save --no-audit --no-fund "$pkg@24" >/dev/null
fi
echo "The integration suite on Node $("$bin/node" --version)"
PATH="$bin:$PATH" npx vitest run tests/integration
