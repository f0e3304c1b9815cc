#!/bin/sh
# SPDX-License-Identifier: MIT
# run_node.sh ARGS...: run node with ARGS in this directory, where the MCP
# SDK is installed (npm ci). Exit 77 (CTest's skip) when node is absent.
dir=$(cd "$(dirname "$0")" && pwd)
if ! command -v node >/dev/null 2>&1; then
  echo "SKIPPED: node is not installed (apt-get install nodejs); the MCP SDK client tests need it"
  exit 77
fi
if [ ! -f "$dir/node_modules/@modelcontextprotocol/sdk/package.json" ]; then
  echo "error: the MCP SDK is not installed in $dir: run 'npm ci' there (.ci/run does it)" >&2
  exit 1
fi
cd "$dir" && exec node "$@"
