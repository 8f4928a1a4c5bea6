#!/usr/bin/env bash
# The Debian packages duiyi's tests (or the server) use, installed when they are missing.
#
#   scripts/system-packages.sh test   everything `make test` needs (browser, engines, oracles)
#   scripts/system-packages.sh run    what `make run` needs (nothing beyond Python today)
#
# As root with apt-get, the missing packages are installed; otherwise the script stops at once
# with one line naming the command to run. PostgreSQL and Redis are checked for their clients
# only: starting them is the machine's job (.ci/run starts them when they are not running).
set -euo pipefail
what=${1:-test}
need=()
have() { command -v "$1" >/dev/null 2>&1 || [ -x "/usr/sbin/$1" ] || [ -x "/usr/games/$1" ]; }

if [ "$what" = test ]; then
  have gnugo || need+=(gnugo)                          # GTP conformance, lockstep legality, guide
  have chromium || need+=(chromium)                    # Playwright browser tests (headless)
  have nginx || need+=(nginx)                          # nginx in front of several processes
  have javac || need+=(default-jdk-headless)           # OpenGotha, the tournament-file oracle
  have npm || need+=(npm)                              # axe-core for the accessibility test
  have pg_ctlcluster || need+=(postgresql)             # the scale path's tests
  have redis-server || need+=(redis-server)
  [ -e /usr/share/fonts/truetype/wqy/wqy-microhei.ttc ] || need+=(fonts-wqy-microhei)  # Chinese in screenshots
fi

[ ${#need[@]} -eq 0 ] && exit 0
if [ "${EUID:-$(id -u)}" = 0 ] && command -v apt-get >/dev/null 2>&1; then
  echo "duiyi: installing Debian packages: ${need[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq "${need[@]}" >/dev/null
else
  echo "duiyi: missing Debian packages; run: sudo apt-get install -y ${need[*]}" >&2
  exit 1
fi
