#!/usr/bin/env bash
# The browser test: starts two `triboard serve` instances on 127.0.0.1 (the debug build `cargo test`
# leaves in target/; each serves the browser app at / and the game server's WebSocket at /ws, one
# origin each) sharing a fresh database on PostgreSQL (issue 39: several instances, one store), opens
# the app in headless Chromium (Debian's /usr/bin/chromium,
# WebGL2 through SwiftShader) driven by playwright-core, and checks (web/test.cjs says each step):
# the first frame and the start screen, a game started by a click on Start and a move made by a
# click on the board, then every game (trike, tri-it-out, tricore, trisq, trigon, trigon-2,
# trigon-3) opened from a share link, a move made by mouse presses, the AI's reply, a refused move's
# reason, and an AI-vs-AI game played to its end screen; Download / Upload, the share link round
# trip, a bad link's refusal, and the AI at each level without freezing the page; last, online
# play: two players (two browser contexts) create and join a game by its link and play it to its
# end through the server, one of them reloading mid-game and going on; and the lobby: accounts, a
# rated challenge accepted, watched and rated, a rated three-player game. The players of each
# online game are on different instances (A's pages at the first, B's at the second, C's too), so
# every move, presence change, lobby change and rating reaches the other player through the
# database (LISTEN/NOTIFY).
# Screenshots, the frame-time numbers, the timings and the servers' logs (server-1.log,
# server-2.log) go to web/test-out/.
#
# PostgreSQL: TRIBOARD_TEST_PG (the URL of a running cluster whose user may create databases,
# postgres://USER@HOST:PORT, as the Rust tests take it; .ci/run exports its own) gets a database of
# the test's, dropped at exit; without it, a throwaway cluster is started in a temporary folder
# (.ci/pg.sh: Debian's binaries, /usr/lib/postgresql/*/bin) and removed at exit. Without either the
# test fails: it needs PostgreSQL (`web/test.sh --install` installs it).
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
# Needs: chromium, fonts-dejavu-core, postgresql and curl (installed with apt-get when missing, as
# root or through sudo), node + npm (npm installed with apt-get when missing; playwright-core is installed into
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

# shellcheck source=.ci/pg.sh
. .ci/pg.sh
as_root() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }
packages=()
# PostgreSQL: its server for a cluster of the test's own, or psql for a database on TRIBOARD_TEST_PG.
if ! pg_bin >/dev/null && { [ -z "${TRIBOARD_TEST_PG:-}" ] || ! command -v psql >/dev/null; }; then
  packages+=(postgresql)
fi
[ -x /usr/bin/chromium ] || packages+=(chromium)
dpkg -s fonts-dejavu-core >/dev/null 2>&1 || packages+=(fonts-dejavu-core)
command -v node >/dev/null || packages+=(nodejs)
command -v npm >/dev/null || packages+=(npm)
command -v curl >/dev/null || packages+=(curl)
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
# The database: on TRIBOARD_TEST_PG, else on a throwaway cluster of the test's own.
if [ -z "${TRIBOARD_TEST_PG:-}" ] && ! pg_bin >/dev/null; then
  echo "web/test.sh: the browser test runs its servers on PostgreSQL, which is not installed:" \
    "web/test.sh --install (or apt-get install postgresql), or TRIBOARD_TEST_PG=postgres://USER@HOST:PORT" >&2
  exit 2
fi
scratch=$(mktemp -d)
servers=()
pg_base=${TRIBOARD_TEST_PG:-}
dbname=""
cleanup() {
  local pid
  for pid in "${servers[@]}"; do kill "$pid" 2>/dev/null || true; done
  for pid in "${servers[@]}"; do wait "$pid" 2>/dev/null || true; done
  if [ -n "$dbname" ] && [ -n "${TRIBOARD_TEST_PG:-}" ]; then pg_dropdb "$pg_base" "$dbname" || true; fi
  pg_stop
  rm -rf "$scratch"
}
trap cleanup EXIT
if [ -z "$pg_base" ]; then
  pg_start
  pg_base=$PG_URL
  echo "PostgreSQL: a throwaway cluster at $PG_URL ($PG_DIR)"
fi
dbname="triboard_web_$$_$(date +%s)"
pg_createdb "$pg_base" "$dbname"
db="${pg_base%/}/$dbname"
# Two servers on free loopback ports, one database; each prints "listening on http://ADDR" once it
# has bound its port, and answers once its store is ready. The second starts once the first
# answers: the first makes the tables and the bots' accounts.
addresses=()
for k in 1 2; do
  "$triboard" serve --addr 127.0.0.1:0 --db "$db" --web web/dist >"$scratch/listening-$k" 2>"web/test-out/server-$k.log" &
  servers+=($!)
  address=""
  for _ in $(seq 300); do
    address=$(sed -n 's|^listening on \(http://[^ ]*\)$|\1|p' "$scratch/listening-$k")
    [ -n "$address" ] && break
    kill -0 "${servers[k - 1]}" 2>/dev/null || break
    sleep 0.1
  done
  if [ -z "$address" ]; then
    echo "web/test.sh: triboard serve (instance $k) did not start listening within 30 s; its log (web/test-out/server-$k.log):" >&2
    cat "web/test-out/server-$k.log" >&2
    exit 1
  fi
  if ! curl -fsS -o /dev/null --max-time 60 "$address/"; then
    echo "web/test.sh: triboard serve (instance $k) listens at $address but does not answer; its log (web/test-out/server-$k.log):" >&2
    cat "web/test-out/server-$k.log" >&2
    exit 1
  fi
  addresses+=("$address")
done
echo "triboard serve: ${addresses[0]} and ${addresses[1]} (database $(printf '%s' "$db" | sed 's|//\([^:@/]*\):[^@/]*@|//\1@|'))"
# test.cjs has its own watchdog (TEST_TIMEOUT); this one is for a node that hangs past it.
minutes=${TEST_TIMEOUT:-30}
NODE_PATH=$PWD/$tools/node_modules timeout --kill-after=30 $(( minutes * 60 + 120 )) \
  node web/test.cjs "${addresses[0]}/" web/test-out "${addresses[1]}/"
