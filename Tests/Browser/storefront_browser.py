"""Headless Chromium for the storefront's browser tests: drivers with JavaScript off (as a shopper
without it) or on (for axe-core only), controls found by their accessible names, axe-core runs,
and screenshots at phone and desktop widths.

Paths come from the environment that scripts/browser-tests.sh sets:
  CHROMIUM, CHROMEDRIVER   the Debian chromium and chromedriver binaries
  AXE_JS                   axe.min.js (taken out of the axe-playwright-python wheel)
"""

import base64
import json
import os
import re
import time
from decimal import Decimal
from pathlib import Path

from selenium import webdriver
from selenium.common.exceptions import NoSuchElementException, StaleElementReferenceException, WebDriverException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
CHROMEDRIVER = os.environ.get("CHROMEDRIVER", "/usr/bin/chromedriver")
AXE_JS = os.environ.get("AXE_JS", "")

PHONE = (390, 844)
DESKTOP = (1280, 900)

# The WCAG rule sets the storefront promises (docs/BEHAVIOUR.md §9: WCAG 2.2 AA).
AXE_TAGS = ["wcag2a", "wcag2aa", "wcag21aa", "wcag22aa"]
BLOCKING_IMPACTS = {"serious", "critical"}


def new_driver(javascript=False, size=DESKTOP, page_load="normal"):
    """A headless Chromium; with `javascript=False` the browser runs no page script at all."""
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for argument in (
        "--headless=new",
        "--no-sandbox",
        "--disable-dev-shm-usage",
        "--disable-gpu",
        "--no-first-run",
        "--disable-extensions",
        "--lang=en-US",
        "--force-device-scale-factor=1",
        "--hide-scrollbars",
        f"--window-size={size[0]},{size[1]}",
    ):
        options.add_argument(argument)
    preferences = {"intl.accept_languages": "en-US,en"}
    if not javascript:
        preferences["profile.managed_default_content_settings.javascript"] = 2
    options.add_experimental_option("prefs", preferences)
    options.page_load_strategy = page_load
    driver = webdriver.Chrome(options=options, service=Service(CHROMEDRIVER))
    driver.set_page_load_timeout(30)
    set_viewport(driver, size)
    return driver


def set_viewport(driver, size, height=None):
    """Makes the page's viewport exactly `size` (a phone is emulated as a mobile device)."""
    width, viewport_height = size
    driver.execute_cdp_cmd(
        "Emulation.setDeviceMetricsOverride",
        {
            "width": width,
            "height": height or viewport_height,
            "deviceScaleFactor": 1,
            "mobile": width < 600,
        },
    )


def javascript_is_off(driver):
    """True when the browser runs no page script: a page whose script would rename it keeps its title."""
    driver.get("data:text/html,<title>off</title><script>document.title = 'on'</script>")
    return driver.title == "off"


def follow(driver, element, timeout=30):
    """Clicks `element` (a link or a submit button) and waits until the page it leads to has loaded."""
    old = driver.find_element(By.TAG_NAME, "html")
    element.click()
    wait_for_new_page(driver, old, timeout)


def wait_for_new_page(driver, old, timeout=30):
    """Waits until `old` (the previous page's root) is gone and the new page has loaded."""

    def gone(_):
        try:
            old.is_enabled()
            return False
        except StaleElementReferenceException:
            return True
        except WebDriverException as error:
            # Asked while the documents swap, Chromium answers that the node left its document.
            if "does not belong to the document" in str(error):
                return True
            raise

    WebDriverWait(driver, timeout).until(gone)
    WebDriverWait(driver, timeout, ignored_exceptions=(WebDriverException,)).until(
        lambda d: d.execute_script("return document.readyState") == "complete"
    )


# --- finding controls as a person would -----------------------------------------------------------

CONTROL_TAGS = ("button", "a", "input", "select", "textarea")


def _named(scope, name, tags, exact=True):
    found = []
    for tag in tags:
        for element in scope.find_elements(By.TAG_NAME, tag):
            if element.get_attribute("type") == "hidden":
                continue
            accessible = (element.accessible_name or "").strip()
            if accessible == name if exact else name in accessible:
                found.append(element)
    return found


def control(scope, name, tags=CONTROL_TAGS):
    """The one control (button, link, field) whose accessible name is `name`."""
    found = _named(scope, name, tags)
    if len(found) != 1:
        raise NoSuchElementException(f"{len(found)} controls named {name!r}, expected one")
    return found[0]


def controls(scope, name, tags=CONTROL_TAGS):
    return _named(scope, name, tags)


def button(scope, name):
    return control(scope, name, ("button",))


def field(scope, label):
    """The form field labelled `label`."""
    return control(scope, label, ("input", "select", "textarea"))


def link(scope, name):
    return control(scope, name, ("a",))


def region(driver, xpath):
    return driver.find_element(By.XPATH, xpath)


def product_card(driver, title):
    """The catalog card whose heading is `title`."""
    return driver.find_element(By.XPATH, f"//li[.//h3[normalize-space()={xpath_literal(title)}]]")


def basket_line(driver, title):
    """The basket line whose heading is `title`."""
    return driver.find_element(By.XPATH, f"//li[.//h2[normalize-space()={xpath_literal(title)}]]")


def xpath_literal(text):
    if "'" not in text:
        return f"'{text}'"
    if '"' not in text:
        return f'"{text}"'
    return "concat(" + ', "\'", '.join(f"'{part}'" for part in text.split("'")) + ")"


def status_text(driver):
    """What the page's aria-live status says."""
    return driver.find_element(By.CSS_SELECTOR, "[aria-live]").text.strip()


def basket_count(driver):
    """The number on the header's basket link."""
    text = link(driver, _basket_link_name(driver)).text
    return int(re.search(r"\d+", text).group())


def _basket_link_name(driver):
    for element in driver.find_elements(By.TAG_NAME, "a"):
        name = (element.accessible_name or "").strip()
        if re.fullmatch(r"Basket \d+ items?", name):
            return name
    raise NoSuchElementException("no header link named 'Basket N items'")


def header_text(driver):
    return driver.find_element(By.TAG_NAME, "header").text


def totals(scope):
    """The rows of the first sums table in `scope`, as {label: amount text}."""
    table = scope.find_element(By.CSS_SELECTOR, "table")
    rows = {}
    for row in table.find_elements(By.TAG_NAME, "tr"):
        label = row.find_element(By.TAG_NAME, "th").text.strip()
        cells = row.find_elements(By.TAG_NAME, "td")
        rows[label] = cells[-1].text.strip() if cells else ""
    return rows


def euros(text):
    """`€45.00` → Decimal('45.00'); `−€5.00` (a real minus) → Decimal('-5.00')."""
    match = re.search(r"([−-])?€([0-9,]+\.[0-9]{2})", text)
    if not match:
        raise AssertionError(f"no euro amount in {text!r}")
    value = Decimal(match.group(2).replace(",", ""))
    return -value if match.group(1) else value


# --- axe-core ------------------------------------------------------------------------------------


def run_axe(driver):
    """Runs axe-core on the page with the WCAG 2.0/2.1/2.2 A and AA rules; returns its violations."""
    if not AXE_JS or not Path(AXE_JS).is_file():
        raise RuntimeError("AXE_JS must name axe.min.js (scripts/browser-tests.sh extracts it)")
    if not driver.execute_script("return typeof window.axe === 'object'"):
        driver.execute_script(Path(AXE_JS).read_text(encoding="utf-8"))
    driver.set_script_timeout(60)
    result = driver.execute_async_script(
        """
        const done = arguments[arguments.length - 1];
        axe.run(document, {runOnly: {type: 'tag', values: arguments[0]}, resultTypes: ['violations']})
          .then(result => done(JSON.stringify(result.violations)))
          .catch(error => done(JSON.stringify({error: String(error)})));
        """,
        AXE_TAGS,
    )
    violations = json.loads(result)
    if isinstance(violations, dict):
        raise RuntimeError(f"axe failed: {violations['error']}")
    return violations


def blocking(violations):
    return [violation for violation in violations if violation.get("impact") in BLOCKING_IMPACTS]


def describe(violations):
    lines = []
    for violation in violations:
        lines.append(f"  [{violation['impact']}] {violation['id']}: {violation['help']}")
        for node in violation["nodes"][:5]:
            lines.append(f"      {', '.join(node['target'])}: {node.get('failureSummary', '').splitlines()[-1:]}")
    return "\n".join(lines)


# --- screenshots ---------------------------------------------------------------------------------


def screenshot(driver, path, size):
    """A full-page PNG of the current page at the viewport width of `size`."""
    set_viewport(driver, size)
    driver.execute_script("window.scrollTo(0, 0)")
    time.sleep(0.1)
    metrics = driver.execute_cdp_cmd("Page.getLayoutMetrics", {})
    height = max(size[1], int(metrics["cssContentSize"]["height"]))
    set_viewport(driver, size, height=height)
    time.sleep(0.1)
    shot = driver.execute_cdp_cmd(
        "Page.captureScreenshot", {"format": "png", "captureBeyondViewport": False, "fromSurface": True}
    )
    set_viewport(driver, size)
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    Path(path).write_bytes(base64.b64decode(shot["data"]))


def text_against_a_border(driver):
    """The texts of the page as it is now drawn that touch the border of the box they stand in: a
    card, a panel, a table's frame or a button keeps its words at least 4 px inside its left and
    right borders. (A table made to look like a card by its own border, padding and background is
    caught: a table whose borders collapse takes no padding.) Text clipped away for the eye and
    kept for screen readers is not looked at."""
    return driver.execute_script(
        """
        const main = document.querySelector('main');
        const walker = document.createTreeWalker(main, NodeFilter.SHOW_TEXT);
        const problems = [];
        // Clipped away for the eye, kept for screen readers: a phone table's header row.
        const clipped = element => {
          for (let box = element; box && box !== main; box = box.parentElement) {
            const style = getComputedStyle(box);
            if (style.clip !== 'auto' || style.clipPath !== 'none') return true;
          }
          return false;
        };
        const boxed = element => {
          for (let box = element; box && box !== main; box = box.parentElement) {
            const style = getComputedStyle(box);
            if (parseFloat(style.borderLeftWidth) > 0 && parseFloat(style.borderRightWidth) > 0) {
              return [box, style];
            }
          }
          return [null, null];
        };
        for (let node = walker.nextNode(); node; node = walker.nextNode()) {
          const text = node.textContent.trim();
          const element = node.parentElement;
          if (!text || element.closest('input, select, textarea') || element.offsetParent === null
              || clipped(element)) continue;
          const [box, style] = boxed(element);
          if (!box) continue;
          const frame = box.getBoundingClientRect();
          const inner = {
            left: frame.left + parseFloat(style.borderLeftWidth),
            right: frame.right - parseFloat(style.borderRightWidth),
          };
          const range = document.createRange();
          range.selectNodeContents(node);
          for (const line of range.getClientRects()) {
            if (line.width > 0 && (line.left - inner.left < 4 || inner.right - line.right < 4)) {
              problems.push('"' + text.slice(0, 40) + '" touches the border of '
                + box.tagName.toLowerCase() + (box.id ? '#' + box.id : '')
                + (box.className ? '.' + String(box.className).split(' ').join('.') : ''));
              break;
            }
          }
        }
        return [...new Set(problems)].slice(0, 5);
        """
    )
