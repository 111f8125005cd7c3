#!/usr/bin/env bash
# The last part of `npm test`: the browser runs (end to end, then its smoke runs on the strict
# contract and on the REST dialect) and the integration suite on Node 24 on both databases
# (tests/node24.sh), side by side. The browser runs wait on Chromium and their server much of the
# time, so on two cores both end in about two thirds of the time of one after the other
# (docs/testing.md). The Node 24 run's output is printed once it ends; the script fails when either fails.
# A failed browser run's last lines (Playwright's account of each failure) are printed again at the
# very end, so a reader of only the end of the output still sees what failed.
set -uo pipefail
cd "$(dirname "$0")/.."
log=$(mktemp)
browserLog=$(mktemp)
trap 'rm -f "$log" "$browserLog"' EXIT

bash tests/node24.sh >"$log" 2>&1 &
node24=$!

{ npm run test:e2e && npm run test:e2e:strict && npm run test:e2e:rest; } 2>&1 | tee "$browserLog"
browser=${PIPESTATUS[0]}

integration=0
wait "$node24" || integration=$?
cat "$log"

if [ "$browser" -ne 0 ]; then
  echo "The browser runs failed (exit $browser). Their last lines:" >&2
  tail -n 80 "$browserLog" >&2
fi
[ "$integration" -eq 0 ] || echo "The integration suite on Node 24 failed (exit $integration)." >&2
[ "$browser" -eq 0 ] && [ "$integration" -eq 0 ]
