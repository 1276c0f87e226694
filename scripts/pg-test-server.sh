#!/usr/bin/env bash
# pg-test-server.sh starts a throwaway PostgreSQL server, runs a command
# with QOSCAL_TEST_PG set to the server's URL, then stops the server and
# removes its files, also when the command fails or is interrupted. The
# command's exit code is the script's.
#
#     scripts/pg-test-server.sh go test ./...
#     QOSCAL_REQUIRE_PG=1 scripts/pg-test-server.sh go test ./data/... ./cmd/...
#
# It installs PostgreSQL from Debian's packages when no initdb is found
# (this needs root and apt-get). The server runs as an unprivileged user
# (the caller, or "nobody" when the caller is root: PostgreSQL refuses to
# run as root), keeps its data in a temporary folder, listens only on
# 127.0.0.1 on a free port, takes no Unix-socket connections, and asks for
# a password made up for this run. $QOSCAL_PG_OPTIONS, if set, replaces
# the server options for tests (-c fsync=off): scripts/bench-pg.sh sets
# -c fsync=on to measure a durable server.
set -euo pipefail

if [ $# -eq 0 ]; then
  echo "usage: $0 COMMAND [ARGS...]" >&2
  echo "runs COMMAND with QOSCAL_TEST_PG set to the URL of a throwaway PostgreSQL server" >&2
  exit 2
fi

# pg_bin finds the folder of initdb and pg_ctl: on PATH, else Debian's
# versioned folders (the newest), else nothing.
pg_bin() {
  if command -v initdb >/dev/null 2>&1 && command -v pg_ctl >/dev/null 2>&1; then
    dirname "$(command -v initdb)"
    return
  fi
  local d
  d=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1 || true)
  if [ -n "$d" ] && [ -x "$d/initdb" ]; then
    echo "$d"
  fi
}

bin=$(pg_bin)
if [ -z "$bin" ]; then
  echo "pg-test-server: PostgreSQL is not installed; installing Debian's postgresql package" >&2
  if [ "$(id -u)" -ne 0 ]; then
    echo "pg-test-server: installing needs root: run 'sudo apt-get install -y postgresql' first" >&2
    exit 1
  fi
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq postgresql >/dev/null
  bin=$(pg_bin)
  if [ -z "$bin" ]; then
    echo "pg-test-server: installed postgresql, but found no initdb" >&2
    exit 1
  fi
fi

# as_server runs a command as the server's user.
if [ "$(id -u)" -eq 0 ]; then
  server_user=nobody
  as_server() { runuser -u "$server_user" -- "$@"; }
else
  server_user=$(id -un)
  as_server() { "$@"; }
fi

dir=$(mktemp -d "${TMPDIR:-/tmp}/qoscal-pg.XXXXXX")
chmod 700 "$dir"
[ "$(id -u)" -eq 0 ] && chown "$server_user" "$dir"
started=""

cleanup() {
  local code=$?
  if [ -n "$started" ]; then
    as_server "$bin/pg_ctl" -D "$dir/data" -m immediate -w stop >/dev/null 2>&1 || true
  fi
  rm -rf "$dir"
  exit "$code"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

password=$(od -An -N16 -tx1 /dev/urandom | tr -d ' \n')
printf '%s\n' "$password" >"$dir/pw"
[ "$(id -u)" -eq 0 ] && chown "$server_user" "$dir/pw"
as_server "$bin/initdb" -D "$dir/data" -U qoscal --pwfile="$dir/pw" \
  --auth=scram-sha-256 --encoding=UTF8 --locale=C.UTF-8 >"$dir/initdb.log" 2>&1 || {
  cat "$dir/initdb.log" >&2
  exit 1
}
rm -f "$dir/pw"

# free_port prints a TCP port on 127.0.0.1 that nothing listens on.
free_port() {
  local p
  for _ in $(seq 1 50); do
    p=$((20000 + RANDOM % 20000))
    if ! (exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null; then
      echo "$p"
      return
    fi
  done
  echo "pg-test-server: found no free port" >&2
  return 1
}

# Start on a free port; try again if another process took it meanwhile.
for attempt in 1 2 3; do
  port=$(free_port)
  if as_server "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 start \
    -o "-c listen_addresses=127.0.0.1 -p $port -c unix_socket_directories='' -c max_connections=200 ${QOSCAL_PG_OPTIONS--c fsync=off}" >/dev/null; then
    started=yes
    break
  fi
  echo "pg-test-server: the server did not start on port $port (attempt $attempt):" >&2
  tail -n 5 "$dir/server.log" >&2 || true
done
if [ -z "$started" ]; then
  exit 1
fi

export QOSCAL_TEST_PG="postgres://qoscal:$password@127.0.0.1:$port/postgres?sslmode=disable"
echo "pg-test-server: PostgreSQL $("$bin/postgres" --version | awk '{print $3}') on 127.0.0.1:$port (QOSCAL_TEST_PG is set)" >&2
set +e
"$@"
code=$?
set -e
exit "$code"
