#!/usr/bin/env bash
# The browser test: serves web/dist/ on 127.0.0.1, opens it in headless Chromium (Debian's
# /usr/bin/chromium, WebGL2 through SwiftShader) driven by playwright-core, and checks (web/test.cjs
# says each step): the first frame and the start screen, a game started by a click on Start and a
# move made by a click on the board, then every game (trike, tri-it-out, tricore, trisq, trigon,
# trigon-2, trigon-3) opened from a share link, a move made by mouse presses, the AI's reply, a
# refused move's reason, and an AI-vs-AI game played to its end screen; Download / Upload, the share
# link round trip, a bad link's refusal, and the AI at each level without freezing the page.
# Screenshots, the frame-time numbers and the timings go to web/test-out/.
#
#   web/build.sh --test && web/test.sh     # LEVELS="1 2 3 4 5 6" web/test.sh for every level
#   web/test.sh --install                  # only install what it needs (CI does it early)
#
# Environment: LEVELS (AI levels of the frame-time check; "1 2" when CI is set, else 1–6), GAMES
# (a subset of the game ids), TEST_TIMEOUT (minutes for the whole run, default 30).
#
# Needs: chromium and fonts-dejavu-core (installed with apt-get when missing, as root or through
# sudo), node + npm (npm installed with apt-get when missing; playwright-core is installed into
# web/.tools/npm), python3 (the static server).
set -euo pipefail
cd "$(dirname "$0")/.."
install_only=""
for arg in "$@"; do
  case $arg in
    --install) install_only=1 ;;
    *) echo "web/test.sh: unknown argument '$arg' (--install)" >&2; exit 2 ;;
  esac
done

as_root() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }
packages=()
[ -x /usr/bin/chromium ] || packages+=(chromium)
dpkg -s fonts-dejavu-core >/dev/null 2>&1 || packages+=(fonts-dejavu-core)
command -v node >/dev/null || packages+=(nodejs)
command -v npm >/dev/null || packages+=(npm)
if [ ${#packages[@]} -gt 0 ]; then
  echo "web/test.sh: apt-get install ${packages[*]}" >&2
  as_root apt-get update -qq
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${packages[@]}" >/dev/null
fi
tools=web/.tools/npm
if [ ! -d "$tools/node_modules/playwright-core" ]; then
  mkdir -p "$tools"
  (cd "$tools" && npm install --no-audit --no-fund --silent playwright-core@1)
fi
[ -z "$install_only" ] || exit 0

[ -f web/dist/triboard_bg.wasm ] || { echo "web/dist is missing: run web/build.sh --test (or web/build.sh) first" >&2; exit 2; }
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
python3 -m http.server "$port" --bind 127.0.0.1 --directory web/dist >/dev/null 2>&1 &
server=$!
trap 'kill $server 2>/dev/null' EXIT
for _ in $(seq 50); do python3 -c "import urllib.request; urllib.request.urlopen('http://127.0.0.1:$port/')" 2>/dev/null && break; sleep 0.1; done
rm -rf web/test-out
mkdir -p web/test-out
# test.cjs has its own watchdog (TEST_TIMEOUT); this one is for a node that hangs past it.
minutes=${TEST_TIMEOUT:-30}
NODE_PATH=$PWD/$tools/node_modules timeout --kill-after=30 $(( minutes * 60 + 120 )) \
  node web/test.cjs "http://127.0.0.1:$port/" web/test-out
