#!/usr/bin/env bash
# Start the local PostgreSQL (127.0.0.1:5432, trust for local TCP) and Redis (127.0.0.1:6379) that
# the scale-path tests use, when they are not already running. Machines of this project's kind
# start both before a session; a fresh Debian machine gets them from scripts/system-packages.sh.
set -euo pipefail
if ! pg_isready -q -h 127.0.0.1 -p 5432 2>/dev/null; then
  if [ "${EUID:-$(id -u)}" != 0 ]; then
    echo "duiyi: PostgreSQL is not running on 127.0.0.1:5432; start it (the postgres tests need it)" >&2
    exit 1
  fi
  version=$(ls /etc/postgresql | sort -n | tail -1)
  hba=/etc/postgresql/$version/main/pg_hba.conf
  if ! grep -q "duiyi-ci" "$hba"; then
    sed -i '1i host all all 127.0.0.1/32 trust # duiyi-ci\nhost all all ::1/128 trust # duiyi-ci' "$hba"
  fi
  pg_ctlcluster --skip-systemctl-redirect "$version" main start
  for _ in $(seq 30); do pg_isready -q -h 127.0.0.1 -p 5432 && break; sleep 1; done
fi
if ! redis-cli -h 127.0.0.1 -p 6379 ping >/dev/null 2>&1; then
  mkdir -p /var/lib/redis /var/log/redis
  redis-server --daemonize yes --bind 127.0.0.1 -::1 --port 6379 --save "" --appendonly no \
    --dir /var/lib/redis --logfile /var/log/redis/duiyi.log
  for _ in $(seq 30); do redis-cli ping >/dev/null 2>&1 && break; sleep 1; done
fi
