# Source this file (`. scripts/supported-node.sh`) to run on a supported Node.js (22 LTS or newer).
# Where the machine's own Node is older, it installs Node 22 from the npm registry, where the
# binary ships inside the `node-linux-<arch>` package, into .cache/node and puts it first on PATH.
# npm itself is plain JavaScript and runs on whichever `node` comes first.
required_major=22
current_major=$(node -p 'process.versions.node.split(".")[0]')
if [ "$current_major" -lt "$required_major" ]; then
  node_pkg="node-$(node -p 'process.platform')-$(node -p 'process.arch')"
  node_dir="$PWD/.cache/node"
  if [ ! -x "$node_dir/node_modules/$node_pkg/bin/node" ]; then
    echo "Node.js $(node --version) is older than $required_major; installing $node_pkg@$required_major from the npm registry into .cache/node"
    npm install --prefix "$node_dir" --no-save --no-package-lock --no-audit --no-fund "$node_pkg@$required_major" >/dev/null
  fi
  # npm finds its global settings (registry, CA file, proxies) beside the `node` it runs on; keep
  # the machine's, which the new Node's folder does not have.
  NPM_CONFIG_GLOBALCONFIG=$(npm config get globalconfig)
  export NPM_CONFIG_GLOBALCONFIG
  export PATH="$node_dir/node_modules/$node_pkg/bin:$PATH"
fi
unset required_major current_major node_pkg node_dir
