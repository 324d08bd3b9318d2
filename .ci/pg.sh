# A throwaway PostgreSQL for the tests (issue 39), sourced by .ci/run and web/test.sh:
#
#   pg_install   apt-get install Debian's `postgresql` when no initdb is found (as root, or
#                through sudo); quiet when it is there already
#   pg_start     a cluster of its own in a temporary folder: initdb (trust, superuser `postgres`,
#                no syncs while it is made), listening on 127.0.0.1 only, at a free port, its
#                socket in that folder; sets PG_URL=postgres://postgres@127.0.0.1:PORT
#   pg_stop      stops it (immediate: nothing in it is kept) and removes the folder; safe to call
#                twice, or when nothing was started (an EXIT trap calls it)
#   pg_createdb BASE NAME / pg_dropdb BASE NAME
#                a database NAME on the cluster at BASE (a URL without a database: PG_URL, or
#                TRIBOARD_TEST_PG); the drop forces out whoever is still connected
#
# initdb refuses to run as root: as root the cluster belongs to the `postgres` system user that
# Debian's package creates (runuser -u postgres; `nobody` where there is none, as the Rust tests'
# src/server/throwaway_pg.rs does). The binaries are the newest
# /usr/lib/postgresql/*/bin (Debian's layout), else those on the PATH.
PG_DIR=""
PG_URL=""
PG_OWNER=""

pg_as_root() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }

# The folder of initdb, pg_ctl and psql; fails when PostgreSQL is not installed.
pg_bin() {
  local dir found=""
  for dir in /usr/lib/postgresql/*/bin; do
    [ -x "$dir/initdb" ] && found="$found$dir"$'\n'
  done
  if [ -n "$found" ]; then
    printf '%s' "$found" | sort -V | tail -n 1
    return 0
  fi
  dir=$(command -v initdb 2>/dev/null) || return 1
  dirname "$(readlink -f "$dir")"
}

pg_install() {
  pg_bin >/dev/null && return 0
  echo "pg.sh: apt-get install postgresql" >&2
  pg_as_root apt-get update -qq
  pg_as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends postgresql >/dev/null
  pg_bin >/dev/null || { echo "pg.sh: postgresql is installed but no initdb was found" >&2; return 1; }
}

# Runs a command as the cluster's owner: `postgres` when we are root, else ourselves; from inside
# the cluster's folder (the `postgres` user may not enter the current one).
pg_as_owner() {
  if [ -n "$PG_OWNER" ]; then
    (cd "$PG_DIR" && runuser -u "$PG_OWNER" -- "$@")
  else
    (cd "$PG_DIR" && "$@")
  fi
}

pg_start() {
  local bin port attempt
  bin=$(pg_bin) || { echo "pg.sh: PostgreSQL is not installed (apt-get install postgresql)" >&2; return 1; }
  PG_OWNER=""
  if [ "$(id -u)" = 0 ]; then
    PG_OWNER=postgres
    id postgres >/dev/null 2>&1 || PG_OWNER=nobody
  fi
  PG_DIR=$(mktemp -d "${TMPDIR:-/tmp}/triboard-pg.XXXXXX")
  [ -z "$PG_OWNER" ] || chown "$PG_OWNER:" "$PG_DIR"
  if ! pg_as_owner "$bin/initdb" -D "$PG_DIR/data" --auth=trust -U postgres --no-sync -E UTF8 --locale=C \
      >"$PG_DIR/initdb.log" 2>&1; then
    echo "pg.sh: initdb failed:" >&2
    cat "$PG_DIR/initdb.log" >&2
    return 1
  fi
  # A free port: one nobody answers on, and if postgres still cannot bind it (taken meanwhile),
  # pg_ctl says so and another is tried.
  for attempt in 1 2 3 4 5 6 7 8; do
    port=$(( 20000 + (RANDOM * 32768 + RANDOM) % 40000 ))
    if (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then continue; fi
    if pg_as_owner "$bin/pg_ctl" -D "$PG_DIR/data" -l "$PG_DIR/server.log" -w -t 60 -s \
        -o "-h 127.0.0.1 -p $port -k '$PG_DIR' -c max_connections=300" start >/dev/null 2>&1 \
        && "$bin/pg_isready" -q -h 127.0.0.1 -p "$port" -t 30; then
      PG_URL="postgres://postgres@127.0.0.1:$port"
      return 0
    fi
  done
  echo "pg.sh: postgres did not start (8 ports tried); its log:" >&2
  cat "$PG_DIR/server.log" >&2 2>/dev/null || true
  return 1
}

pg_stop() {
  [ -n "$PG_DIR" ] || return 0
  local bin
  if [ -f "$PG_DIR/data/postmaster.pid" ] && bin=$(pg_bin); then
    pg_as_owner "$bin/pg_ctl" -D "$PG_DIR/data" -m immediate -w -t 30 -s stop >/dev/null 2>&1 \
      || kill -QUIT "$(head -n 1 "$PG_DIR/data/postmaster.pid")" 2>/dev/null || true
  fi
  rm -rf "$PG_DIR"
  PG_DIR=""
  PG_URL=""
}

pg_psql() { # pg_psql BASE SQL: one statement on BASE's `postgres` database
  local psql
  psql="$(pg_bin 2>/dev/null)/psql"
  [ -x "$psql" ] || psql=$(command -v psql) || { echo "pg.sh: psql is not installed" >&2; return 1; }
  "$psql" -X -q -v ON_ERROR_STOP=1 -d "${1%/}/postgres" -c "$2" >/dev/null
}
pg_createdb() { pg_psql "$1" "CREATE DATABASE \"$2\""; }
pg_dropdb() { pg_psql "$1" "DROP DATABASE IF EXISTS \"$2\" WITH (FORCE)"; }
