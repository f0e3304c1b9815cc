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
# TOOLGOV_NODE_NEEDS: a file a test needs that another npm ci installs
# (tests/upstream's servers); skipped, saying so, when it is missing.
if [ -n "${TOOLGOV_NODE_NEEDS:-}" ] && [ ! -e "$TOOLGOV_NODE_NEEDS" ]; then
  echo "SKIPPED: $TOOLGOV_NODE_NEEDS is not installed: run 'npm ci' in its package's directory (.ci/run does)"
  exit 77
fi
cd "$dir" && exec node "$@"
