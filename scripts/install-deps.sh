#!/usr/bin/env bash
# Installs the Debian packages OnlineStore needs to build, test and run, if any is missing.
# Non-interactive and idempotent: on a machine that has everything it only checks.
#
#   scripts/install-deps.sh          what building, running and testing need (prometheus for its
#                                    promtool, which checks /metrics; nginx for scripts/cluster.sh)
#   scripts/install-deps.sh bench    and the load generators of `make bench` (wrk, nginx, curl)
#   scripts/install-deps.sh browser  and what scripts/browser-tests.sh drives: headless Chromium with
#                                    its WebDriver, a font, and Java for the Nu Html Checker
set -euo pipefail

packages=(
    pkg-config
    libsodium-dev
    libsqlite3-dev
    libpq-dev
    libmicrohttpd-dev
    libncurses-dev
    tmux
    postgresql-15
    python3
    python3-venv
    prometheus
    nginx-light
    curl
)
if [ "${1:-}" = "bench" ]; then
    packages+=(wrk)
fi
if [ "${1:-}" = "browser" ]; then
    packages+=(chromium chromium-driver fonts-dejavu-core default-jre-headless)
fi

missing=()
for package in "${packages[@]}"; do
    if ! dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed"; then
        missing+=("$package")
    fi
done

if [ ${#missing[@]} -eq 0 ]; then
    exit 0
fi

echo "installing: ${missing[*]}"
sudo=""
if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
