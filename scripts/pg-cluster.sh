#!/usr/bin/env bash
# A throwaway PostgreSQL cluster for the tests, in DIR (created if needed):
#   scripts/pg-cluster.sh start DIR   starts it and prints its URL
#   scripts/pg-cluster.sh stop DIR    stops it and removes DIR
# It listens on a free loopback port and on a Unix socket in DIR, with
# trust authentication, and keeps nothing safe (fsync off): test data only.
# Run as root (as CI is), PostgreSQL refuses to start, so the cluster runs
# as the unprivileged `postgres` user, which must be able to reach DIR.
set -euo pipefail

cmd=${1:-}
dir=${2:-}
if [ -z "$cmd" ] || [ -z "$dir" ]; then
  echo "usage: $0 start|stop DIR" >&2
  exit 2
fi

bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1 || true)
if [ -z "$bin" ] || [ ! -x "$bin/initdb" ]; then
  echo "PostgreSQL is not installed (no initdb in /usr/lib/postgresql/*/bin): apt-get install postgresql" >&2
  exit 1
fi

as_owner() {
  if [ "$(id -u)" = 0 ]; then
    runuser -u postgres -- "$@"
  else
    "$@"
  fi
}

# Marks a folder this script made, so that `stop` removes only those.
marker="$dir/.tensorchess-pg-cluster"

case "$cmd" in
start)
  mkdir -p "$dir"
  touch "$marker"
  if [ "$(id -u)" = 0 ]; then
    chown postgres "$dir"
  fi
  chmod 700 "$dir"
  as_owner "$bin/initdb" -D "$dir/data" -U postgres -A trust -E UTF8 --locale=C --no-sync \
    >"$dir/initdb.log" 2>&1 || {
    cat "$dir/initdb.log" >&2
    exit 1
  }
  # A free port, asked of the kernel; another process could take it before
  # PostgreSQL binds it, so a failed start tries again with another.
  for _ in 1 2 3 4 5; do
    port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
    if as_owner "$bin/pg_ctl" -D "$dir/data" -l "$dir/postgres.log" -w -t 60 \
      -o "-c listen_addresses=127.0.0.1 -p $port -k $dir -c fsync=off -c full_page_writes=off -c max_connections=300" \
      start >/dev/null; then
      url="postgres://postgres@127.0.0.1:$port/postgres"
      echo "$url" >"$dir/url"
      echo "$url"
      exit 0
    fi
  done
  echo "PostgreSQL did not start; its log:" >&2
  cat "$dir/postgres.log" >&2 || true
  exit 1
  ;;
stop)
  if [ -f "$dir/data/postmaster.pid" ]; then
    as_owner "$bin/pg_ctl" -D "$dir/data" -m fast -w stop >/dev/null || true
  fi
  if [ -f "$marker" ]; then
    rm -rf "$dir"
  fi
  ;;
*)
  echo "usage: $0 start|stop DIR" >&2
  exit 2
  ;;
esac
