"""Fixtures for the storefront's browser tests (run by scripts/browser-tests.sh).

Environment:
  STORE_BASE_URL         the live `store serve` to test (http://127.0.0.1:PORT); live tests are
                         skipped without it, or when its GET / does not answer an HTML page
  STORE_SCREENSHOTS_DIR  where the live pages' screenshots go (default .build/browser/screenshots)
"""

import http.server
import os
import threading
import urllib.error
import urllib.request
from pathlib import Path

import pytest
import storefront_browser as browser

ROOT = Path(__file__).resolve().parents[2]
SNAPSHOTS = ROOT / "Tests" / "StoreViewsTests" / "__Snapshots__"
IMAGES = ROOT / "Sources" / "StoreDatabase" / "Resources" / "images"

# The store's own Content-Security-Policy (StoreServer.securityHeaders), so the snapshot pages are
# loaded under the same rules as the live ones.
CSP = (
    "default-src 'self'; img-src 'self'; style-src 'self'; script-src 'none'; object-src 'none'; "
    "base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
)


class SnapshotHandler(http.server.BaseHTTPRequestHandler):
    """Serves the snapshot pages at /NAME.html, the stylesheet at /static/store.css (the snapshot
    __Snapshots__/store.css, which StoreViewsTests keeps equal to StoreStylesheet.css, the text
    the server sends) and the product images at /images/FILE."""

    def do_GET(self):  # noqa: N802 (the standard library's name)
        path = self.path.split("?", 1)[0]
        if path == "/static/store.css":
            self._send(SNAPSHOTS / "store.css", "text/css; charset=utf-8")
        elif path.startswith("/images/") and "/" not in path[len("/images/") :]:
            self._send(IMAGES / path[len("/images/") :], "image/svg+xml")
        elif path.endswith(".html") and "/" not in path[1:]:
            self._send(SNAPSHOTS / path[1:], "text/html; charset=utf-8")
        else:
            self.send_error(404)

    def _send(self, file, content_type):
        if not file.is_file():
            self.send_error(404)
            return
        body = file.read_bytes()
        self.send_response(200)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Content-Security-Policy", CSP)
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *arguments):
        pass


@pytest.fixture(scope="session")
def snapshot_server():
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), SnapshotHandler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


@pytest.fixture(scope="session")
def axe_driver():
    """One Chromium with JavaScript ON, used only to run axe-core."""
    driver = browser.new_driver(javascript=True)
    yield driver
    driver.quit()


def _live_store():
    base = os.environ.get("STORE_BASE_URL", "").rstrip("/")
    if not base:
        return None, "STORE_BASE_URL is not set (scripts/browser-tests.sh starts a store and sets it)"
    try:
        with urllib.request.urlopen(base + "/", timeout=10) as response:
            kind = response.headers.get("Content-Type", "")
            body = response.read(4096).decode("utf-8", "replace")
    except (urllib.error.URLError, OSError) as error:
        return None, f"GET {base}/ failed: {error}"
    if not kind.startswith("text/html") or "<html" not in body.lower():
        return None, f"GET {base}/ does not answer an HTML page yet ({kind or 'no content type'})"
    return base, None


@pytest.fixture(scope="session")
def store():
    """The live store's base URL; every live test is skipped when it serves no storefront."""
    base, reason = _live_store()
    if base is None:
        pytest.skip(f"live storefront tests skipped: {reason}")
    return base


@pytest.fixture
def shopper():
    """A fresh browser with JavaScript OFF: a new visitor with no cookies."""
    driver = browser.new_driver(javascript=False)
    yield driver
    driver.quit()


@pytest.fixture(scope="session")
def screenshots_dir():
    directory = Path(os.environ.get("STORE_SCREENSHOTS_DIR", ROOT / ".build" / "browser" / "screenshots"))
    directory.mkdir(parents=True, exist_ok=True)
    return directory
