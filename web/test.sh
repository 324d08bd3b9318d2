#!/usr/bin/env bash
# The browser test: starts `triboard serve` on 127.0.0.1 (the debug build `cargo test` leaves in
# target/, with a fresh database in a temporary folder: the browser app at / and the game server's
# WebSocket at /ws, one origin), opens the app in headless Chromium (Debian's /usr/bin/chromium,
# WebGL2 through SwiftShader) driven by playwright-core, and checks (web/test.cjs says each step):
# the first frame and the start screen, a game started by a click on Start and a move made by a
# click on the board, then every game (trike, tri-it-out, tricore, trisq, trigon, trigon-2,
# trigon-3) opened from a share link, a move made by mouse presses, the AI's reply, a refused move's
# reason, and an AI-vs-AI game played to its end screen; Download / Upload, the share link round
# trip, a bad link's refusal, and the AI at each level without freezing the page; last, online
# play: two players (two browser contexts) create and join a game by its link and play it to its
# end through the server, one of them reloading mid-game and going on.
# Screenshots, the frame-time numbers, the timings and the server's log go to web/test-out/.
#
#   cargo build && web/build.sh --test && web/test.sh   # LEVELS="1 2 3 4 5 6" web/test.sh: every level
#   ONLINE_ONLY=1 web/test.sh              # only the start screen and the online game (quick)
#   web/test.sh --install                  # only install what it needs (CI does it early)
#
# Environment: LEVELS (AI levels of the frame-time check; "1 2" when CI is set, else 1–6), GAMES
# (a subset of the game ids), ONLINE_ONLY=1 (skip all but the start screen and online play),
# ONLINE_SEED (the online game's random moves; default: the clock, printed), TEST_TIMEOUT (minutes
# for the whole run, default 30), CARGO_TARGET_DIR (where the triboard binary is built).
#
# Needs: chromium and fonts-dejavu-core (installed with apt-get when missing, as root or through
# sudo), node + npm (npm installed with apt-get when missing; playwright-core is installed into
# web/.tools/npm), the native debug build target/debug/triboard (`cargo build` or `cargo test`)
# and the web build web/dist/ (web/build.sh --test).
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
triboard=${CARGO_TARGET_DIR:-target}/debug/triboard
[ -x "$triboard" ] || { echo "$triboard is missing: run cargo build (or cargo test) first" >&2; exit 2; }
rm -rf web/test-out
mkdir -p web/test-out
# One server for the whole test, on a free loopback port, with a database of its own (removed at
# exit); it prints "listening on http://ADDR" once it listens.
scratch=$(mktemp -d)
server=""
trap 'if [ -n "$server" ]; then kill $server 2>/dev/null; wait $server 2>/dev/null; fi; rm -rf "$scratch"' EXIT
"$triboard" serve --addr 127.0.0.1:0 --db "$scratch/server.sqlite" --web web/dist >"$scratch/listening" 2>web/test-out/server.log &
server=$!
address=""
for _ in $(seq 300); do
  address=$(sed -n 's|^listening on \(http://[^ ]*\)$|\1|p' "$scratch/listening")
  [ -n "$address" ] && break
  kill -0 $server 2>/dev/null || break
  sleep 0.1
done
if [ -z "$address" ]; then
  echo "web/test.sh: triboard serve did not start listening within 30 s; its log (web/test-out/server.log):" >&2
  cat web/test-out/server.log >&2
  exit 1
fi
echo "triboard serve: $address (database $scratch/server.sqlite)"
# test.cjs has its own watchdog (TEST_TIMEOUT); this one is for a node that hangs past it.
minutes=${TEST_TIMEOUT:-30}
NODE_PATH=$PWD/$tools/node_modules timeout --kill-after=30 $(( minutes * 60 + 120 )) \
  node web/test.cjs "$address/" web/test-out
