#!/usr/bin/env bash
# How long `serve` takes to listen with one upstream MCP server of many tools (docs/MCP.md, "The gateway"):
# starts `serve` on a fresh data directory with toolscout-mcp/src/test/node/faults/many.mjs (TOOLS tools), prints
# the milliseconds from the start to its "listening" line and to the first /readyz 200, stops it, then does the
# same again on the same data directory (the tools now stored). Needs `npm ci` in toolscout-mcp/src/test/node.
#
# Usage: scripts/gateway-start.sh [TOOLS (10000)] [PORT (18731)]
set -u
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
tools=${1:-10000}
port=${2:-18731}
data=$(mktemp -d)
servers="$data.servers.json"
printf '{"mcpServers": {"many": {"command": "node", "args": ["%s"], "env": {"TOOLS": "%s"}}}}\n' \
  "$here/toolscout-mcp/src/test/node/faults/many.mjs" "$tools" > "$servers"
"$here/toolscout" --version > /dev/null # builds first if the sources changed, outside the clock
for run in "first start (fresh data directory)" "second start (tools stored)"; do
  rm -f "$data.err"
  start=$(date +%s%3N)
  "$here/toolscout" serve --port "$port" --data-dir "$data" --servers "$servers" 2> "$data.err" &
  pid=$!
  until grep -q "listening on" "$data.err" 2> /dev/null; do
    kill -0 $pid 2> /dev/null || { echo "serve ended:"; cat "$data.err"; exit 1; }
    sleep 0.05
  done
  listen=$(date +%s%3N)
  until [ "$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$port/readyz")" = 200 ]; do sleep 0.05; done
  ready=$(date +%s%3N)
  echo "$tools tools, $run: listening after $((listen - start)) ms, /readyz 200 after $((ready - start)) ms"
  kill $pid
  wait $pid 2> /dev/null
done
rm -rf "$data" "$data.err" "$servers"
