#!/usr/bin/env bash
# The browser test: serves web/dist/ on 127.0.0.1, opens it in headless Chromium (Debian's
# /usr/bin/chromium, WebGL2 through SwiftShader) driven by playwright-core, and checks that the
# first frame comes, a Trike game starts and takes a move by a click on the canvas, an illegal
# move is refused, the share link round-trips, and the AI plays at every level without freezing
# the page. Screenshots and the frame-time numbers go to web/test-out/.
#
#   web/build.sh && web/test.sh        # LEVELS="1 2 3" web/test.sh for fewer levels
#
# Needs: node + npm (playwright-core is installed into web/.tools/npm on first use), chromium
# (apt-get install chromium, or ../shared/tools/wasm-toolchain.sh install), python3.
set -euo pipefail
cd "$(dirname "$0")/.."
[ -f web/dist/triboard_bg.wasm ] || { echo "web/dist is missing: run web/build.sh first" >&2; exit 2; }
if ! command -v chromium >/dev/null; then
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends chromium fonts-dejavu-core
fi
tools=web/.tools/npm
if [ ! -d "$tools/node_modules/playwright-core" ]; then
  mkdir -p "$tools"
  (cd "$tools" && npm install --no-audit --no-fund --silent playwright-core@1)
fi
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
python3 -m http.server "$port" --bind 127.0.0.1 --directory web/dist >/dev/null 2>&1 &
server=$!
trap 'kill $server 2>/dev/null' EXIT
for _ in $(seq 50); do python3 -c "import urllib.request; urllib.request.urlopen('http://127.0.0.1:$port/')" 2>/dev/null && break; sleep 0.1; done
mkdir -p web/test-out
NODE_PATH=$PWD/$tools/node_modules node web/test.cjs "http://127.0.0.1:$port/" web/test-out
