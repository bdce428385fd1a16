"""The web frontend in headless Chromium, against the real signup-rpc, in both modes of the demo.

websocketd serves frontends/web and runs one signup-rpc per connection; or websockify serves it
and carries every tab's connection to one `signup-rpc --listen`. Either way all tabs share one
SQLite store, so they see each other's registrations. The tests type as a person does, key by key with
real delays, and read only what the page shows (the DOM), never the wire. They wait on
conditions with generous bounds; nothing depends on how fast the machine is.
"""
import os
import pathlib
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time

import pytest
from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.remote.webdriver import WebDriver

ROOT = pathlib.Path(__file__).resolve().parents[2]
BINARY = os.environ.get("SIGNUP_RPC_BINARY", str(ROOT / ".build" / "debug" / "signup-rpc"))
SCREENSHOTS = pathlib.Path(os.environ.get("SIGNUP_SCREENSHOTS", tempfile.mkdtemp(prefix="signup-screens-")))
KEY_DELAY = 0.08  # seconds between keystrokes: a quick typist
PATIENCE = 20.0  # seconds any expected state may take to show


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def wait_for_port(port, processes, what):
    deadline = time.monotonic() + PATIENCE
    while True:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return
        except OSError:
            assert time.monotonic() < deadline and all(p.poll() is None for p in processes), f"{what} did not start"
            time.sleep(0.05)


@pytest.fixture(scope="module", params=["websocketd", "shared"])
def site(request):
    """The page on a free loopback port, in one of the demo's two modes; yields its base URL and
    the bridge's process, whose children each serve one tab's connection.

    websocketd: one signup-rpc per tab. shared: one `signup-rpc --listen` for every tab, behind
    websockify (Debian's), which serves the page and carries each tab's WebSocket to the socket.
    Both share one SQLite store, so tabs see each other's registrations."""
    folder = tempfile.TemporaryDirectory()
    port = free_port()
    # The example form files, and a form read from a JSON Schema with conditional fields.
    forms = pathlib.Path(folder.name, "forms")
    forms.mkdir()
    for source in sorted((ROOT / "Examples" / "forms").glob("*.json")) + [ROOT / "Examples" / "schema-forms" / "account.schema.json"]:
        (forms / source.name).write_text(source.read_text())
    # The lists the form files name, beside the folder as in Examples/.
    shutil.copytree(ROOT / "Examples" / "lists", pathlib.Path(folder.name, "lists"))
    flags = ["--store", os.path.join(folder.name, "users.sqlite"), "--forms", str(forms), "--debounce-ms", "400"]
    server = None
    # The breached-password service, on a loopback port nothing listens on: it fails open at once.
    environment = dict(os.environ, SIGNUP_PWNED_PASSWORDS_URL=f"http://127.0.0.1:{free_port()}")
    if request.param == "websocketd":
        bridge = subprocess.Popen([
            "websocketd", "--address=127.0.0.1", f"--port={port}", f"--staticdir={ROOT / 'frontends' / 'web'}",
            "--loglevel=error", "--passenv=SIGNUP_PWNED_PASSWORDS_URL,PATH", BINARY, *flags,
        ], env=environment)
    else:
        address = os.path.join(folder.name, "signup.sock")
        server = subprocess.Popen([BINARY, "--listen", f"unix:{address}", *flags], stderr=subprocess.PIPE, text=True, env=environment)
        line = server.stderr.readline()
        while line.startswith("signup-rpc: warning: form kind "):  # a rule this machine cannot run
            line = server.stderr.readline()
        assert line == f"signup-rpc: listening on unix:{address}\n"
        bridge = subprocess.Popen([
            "websockify", f"--web={ROOT / 'frontends' / 'web'}", f"--unix-target={address}", f"127.0.0.1:{port}",
        ], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    wait_for_port(port, [bridge] + ([server] if server else []), request.param)
    yield f"http://127.0.0.1:{port}/", bridge
    bridge.terminate()
    bridge.wait(timeout=PATIENCE)
    if server:
        # Every tab's session ends on SIGTERM, and the process with 0.
        server.terminate()
        assert server.wait(timeout=PATIENCE) == 0
        server.stderr.close()
    folder.cleanup()


@pytest.fixture
def browser():
    options = webdriver.ChromeOptions()
    options.binary_location = os.environ.get("CHROMIUM", "/usr/bin/chromium")
    for argument in ["--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=900,760"]:
        options.add_argument(argument)
    driver = webdriver.Chrome(service=Service(os.environ.get("CHROMEDRIVER", "/usr/bin/chromedriver")), options=options)
    yield driver
    driver.quit()


def wait_until(condition, what):
    deadline = time.monotonic() + PATIENCE
    while time.monotonic() < deadline:
        try:
            value = condition()
            if value:
                return value
        except Exception:  # the page may be redrawing
            pass
        time.sleep(0.02)
    raise AssertionError(f"timed out waiting for {what}")


def open_page(driver: WebDriver, url, query=""):
    driver.get(url + query)
    wait_until(lambda: driver.find_elements(By.CSS_SELECTOR, ".field input"), "the form to be drawn")


def field_input(driver, name):
    return driver.find_element(By.ID, f"field-{name}")


def message(driver, name):
    """(state, text) of a field's message line, as shown."""
    line = driver.find_element(By.ID, f"message-{name}")
    return line.get_attribute("data-state"), line.text


def spinner_visible(driver, name):
    return driver.find_element(By.CSS_SELECTOR, f"#message-{name} .spinner").is_displayed()


def type_slowly(element, text):
    for character in text:
        element.send_keys(character)
        time.sleep(KEY_DELAY)


def wait_for_message(driver, name, state, text):
    wait_until(lambda: message(driver, name) == (state, text), f"{name} to show {state} '{text}'; shows {message(driver, name)}")


def submit_enabled(driver):
    return driver.find_element(By.ID, "submit").is_enabled()


def submission(driver):
    line = driver.find_element(By.ID, "submission")
    return line.get_attribute("data-meaning"), line.text


def retype(driver, name, text):
    """Clears a field and types into it again, key by key."""
    element = field_input(driver, name)
    element.clear()
    type_slowly(element, text)


def submit_and_wait(driver, expected, what):
    """Clicks the button and waits until the submission line shows `expected` (meaning, text)."""
    driver.find_element(By.ID, "submit").click()
    wait_until(lambda: submission(driver) == expected, f"{what}; shows {submission(driver)}")


def submit_when_enabled(driver, expected, what):
    wait_until(lambda: submit_enabled(driver), f"the button before {what}")
    submit_and_wait(driver, expected, what)


def fill_signup(driver, username, password="hunter22", repeated=None):
    type_slowly(field_input(driver, "username"), username)
    type_slowly(field_input(driver, "password"), password)
    type_slowly(field_input(driver, "repeatedPassword"), password if repeated is None else repeated)


def test_signing_up_shows_every_message_and_registers(site, browser):
    url, _ = site
    open_page(browser, url)
    assert browser.find_element(By.ID, "title").text == "Sign up"
    assert browser.find_element(By.ID, "submit").text == "Sign up"
    assert field_input(browser, "password").get_attribute("type") == "password"
    assert browser.find_element(By.ID, "message-username").get_attribute("aria-live") == "polite"
    username = field_input(browser, "username")
    username.send_keys("a")
    # The spinner appears at the keystroke, before any check has run.
    wait_until(lambda: message(browser, "username") == ("validating", "Checking availability...") and spinner_visible(browser, "username"), "the spinner")
    type_slowly(username, "lice")
    wait_for_message(browser, "username", "ok", "Username available")
    assert not spinner_visible(browser, "username")
    type_slowly(field_input(browser, "password"), "abc")
    wait_for_message(browser, "password", "failed", "Password must be at least 5 characters")
    type_slowly(field_input(browser, "password"), "de12")
    wait_for_message(browser, "password", "ok", "Password acceptable")
    type_slowly(field_input(browser, "repeatedPassword"), "abcde1")
    wait_for_message(browser, "repeatedPassword", "failed", "Password different")
    assert not submit_enabled(browser)
    type_slowly(field_input(browser, "repeatedPassword"), "2")
    wait_for_message(browser, "repeatedPassword", "ok", "Password repeated")
    submit_when_enabled(browser, ("succeeded", "Signed up: alice"), "success")
    # Final on screen (issue 54): the button stays disabled and the name no longer says available.
    assert not submit_enabled(browser)
    assert not browser.find_element(By.CSS_SELECTOR, "#message-username .text").is_displayed()
    browser.save_screenshot(str(SCREENSHOTS / "signed-up.png"))


def test_a_taken_name_shows_the_spinner_then_taken(site, browser):
    url, _ = site
    open_page(browser, url)
    type_slowly(field_input(browser, "username"), "alice")
    wait_until(lambda: spinner_visible(browser, "username"), "the spinner")
    browser.save_screenshot(str(SCREENSHOTS / "validating.png"))
    wait_for_message(browser, "username", "failed", "Username already taken")
    browser.save_screenshot(str(SCREENSHOTS / "taken.png"))
    assert field_input(browser, "username").get_attribute("aria-invalid") == "true"


def test_a_second_registration_of_the_same_name_in_another_tab_is_refused(site, browser):
    url, _ = site
    open_page(browser, url)
    first = browser.current_window_handle
    fill_signup(browser, "bob")
    wait_until(lambda: submit_enabled(browser), "the first tab's button")
    browser.switch_to.new_window("tab")
    open_page(browser, url)
    fill_signup(browser, "bob")
    wait_until(lambda: submit_enabled(browser), "the second tab's button")
    second = browser.current_window_handle
    browser.switch_to.window(first)
    submit_and_wait(browser, ("succeeded", "Signed up: bob"), "the first registration")
    browser.switch_to.window(second)
    submit_and_wait(browser, ("failed", "Username already taken"), "the refusal")


def test_the_login_form_logs_in_with_the_registered_account(site, browser):
    url, _ = site
    open_page(browser, url, "?kind=login")
    assert browser.find_element(By.ID, "title").text == "Log in"
    assert field_input(browser, "password").get_attribute("autocomplete") == "current-password"
    type_slowly(field_input(browser, "username"), "alice")
    type_slowly(field_input(browser, "password"), "wrong-password")
    submit_when_enabled(browser, ("failed", "Wrong username or password"), "the refusal")
    retype(browser, "password", "abcde12")
    submit_when_enabled(browser, ("succeeded", "Logged in: alice"), "the login")


def test_the_friend_form_adds_then_updates(site, browser):
    url, _ = site
    open_page(browser, url, "?kind=friend")
    assert [label.text for label in browser.find_elements(By.CSS_SELECTOR, ".field label")] == ["First name", "Last name", "Phone"]
    type_slowly(field_input(browser, "firstName"), "Ada")
    type_slowly(field_input(browser, "lastName"), "Lovelace")
    type_slowly(field_input(browser, "phone"), "+44 20")
    wait_for_message(browser, "phone", "failed", "Phone number must be 7 to 15 digits, optionally starting with +")
    retype(browser, "phone", "+442079460000")
    submit_when_enabled(browser, ("succeeded", "Saved: Ada Lovelace"), "the add")
    retype(browser, "lastName", "King")
    submit_when_enabled(browser, ("succeeded", "Saved: Ada King"), "the update")


def test_chinese_shows_chinese_messages_and_keeps_what_was_typed(site, browser):
    url, _ = site
    open_page(browser, url)
    type_slowly(field_input(browser, "username"), "alice")
    wait_for_message(browser, "username", "failed", "Username already taken")
    browser.find_element(By.CSS_SELECTOR, "#locale option[value='zh-Hans']").click()
    wait_until(lambda: browser.find_element(By.ID, "title").text == "注册", "the Chinese form")
    assert field_input(browser, "username").get_attribute("value") == "alice"
    wait_for_message(browser, "username", "failed", "用户名已被占用")
    assert browser.find_element(By.ID, "submit").text == "注册"
    type_slowly(field_input(browser, "password"), "abc")
    wait_for_message(browser, "password", "failed", "密码至少需要 5 个字符")


def test_a_kind_loaded_with_forms_works_without_page_changes(site, browser):
    url, _ = site
    open_page(browser, url, "?kind=phone-signup")
    assert browser.find_element(By.ID, "title").text == "Sign up with your phone"
    assert browser.find_element(By.ID, "submit").text == "Create account"
    assert field_input(browser, "phone").get_attribute("type") == "tel"
    assert field_input(browser, "phone").get_attribute("placeholder") == "+44 20 7946 0000"
    type_slowly(field_input(browser, "phone"), "12ab")
    wait_for_message(browser, "phone", "failed", "A phone number has only digits and an optional leading +")


def shown(driver, name):
    return driver.find_element(By.CSS_SELECTOR, f'.field[data-field="{name}"]').is_displayed()


def test_a_schemas_conditional_fields_appear_and_disappear_as_the_person_types(site, browser):
    """Issue 55 §4: the server says which fields the schema's if/then/else and oneOf show and
    require; the page only draws it."""
    url, _ = site
    open_page(browser, url, "?kind=account")
    assert browser.find_element(By.ID, "title").text == "Open an account"
    wait_until(lambda: not shown(browser, "company") and not shown(browser, "totpCode"), "the conditional fields to be hidden")
    assert shown(browser, "name") and shown(browser, "phoneCountry")
    # The schema's description is the field's help, its default the value the form opens with.
    assert browser.find_element(By.ID, "help-name").text == "Your sign-in name: lower-case letters, digits and _"
    assert field_input(browser, "secondFactor").get_attribute("value") == "none"
    # An enum's values are offered.
    assert [option.get_attribute("value") for option in browser.find_elements(By.CSS_SELECTOR, "#choices-secondFactor option")] == ["sms", "totp", "none"]
    type_slowly(field_input(browser, "accountType"), "business")
    wait_until(lambda: shown(browser, "company"), "the company field for a business account")
    assert field_input(browser, "company").get_attribute("required") == "true"
    retype(browser, "accountType", "personal")
    wait_until(lambda: not shown(browser, "company"), "the company field to go for a personal account")
    retype(browser, "secondFactor", "totp")
    wait_until(lambda: shown(browser, "totpCode") and not shown(browser, "smsPhone"), "the code field for an authenticator app")
    type_slowly(field_input(browser, "totpCode"), "12x")
    wait_for_message(browser, "totpCode", "failed", "Not in the expected form")


def checklist(driver, name):
    """(text, met) of each item of a field's checklist, in order."""
    items = driver.find_elements(By.CSS_SELECTOR, f'.field[data-field="{name}"] .checklist li')
    return [(item.text[2:] if item.text[:2] in ("○ ", "✓ ", "· ") else item.text, item.get_attribute("data-met") == "true") for item in items]


def checklist_judgements(driver, name):
    """data-met of each item: "pending" before the field has a value, then "true" or "false"."""
    items = driver.find_elements(By.CSS_SELECTOR, f'.field[data-field="{name}"] .checklist li')
    return [item.get_attribute("data-met") for item in items]


def test_a_checklist_ticks_each_requirement_as_the_password_is_typed(site, browser):
    url, _ = site
    open_page(browser, url, "?kind=nist-signup")
    requirements = ["At least 15 characters", "At most 64 characters", "Not a common password", "Not a repeat or a sequence",
                    "Not like your username", "Not like your e-mail address"]
    assert checklist(browser, "password") == [(text, False) for text in requirements]
    # Issue 54: an empty field's checklist is not judged ("At most 64 characters" is not unmet).
    assert checklist_judgements(browser, "password") == ["pending"] * len(requirements)
    type_slowly(field_input(browser, "password"), "passwordpassword")
    wait_for_message(browser, "password", "failed", "This is one of the 28 most common passwords")
    wait_until(lambda: checklist(browser, "password") == [(text, text not in ("Not a common password", "Not a repeat or a sequence")) for text in requirements],
               f"common and repeated unticked; shows {checklist(browser, 'password')}")
    retype(browser, "password", "mauve kettle drums at dawn")
    wait_for_message(browser, "password", "ok", "Password acceptable")
    assert checklist(browser, "password") == [(text, True) for text in requirements]
    browser.save_screenshot(str(SCREENSHOTS / "checklist.png"))


def test_signup_secure_refuses_mixed_scripts_and_look_alikes_of_registered_names(site, browser):
    url, _ = site
    open_page(browser, url, "?kind=signup-secure")
    assert [text for text, _ in checklist(browser, "username")] == [
        "At most 32 characters", "Letters, digits and punctuation, no spaces", "One alphabet (Latin may join Chinese, Japanese or Korean)"]
    assert len(checklist(browser, "password")) == 7
    type_slowly(field_input(browser, "username"), "p\u0430ypal")
    wait_for_message(browser, "username", "failed", "Don't mix alphabets that look alike, such as Latin and Cyrillic")
    assert [met for _, met in checklist(browser, "username")] == [True, True, False]
    # "alice" signed up in the first test; "ALICE" and "a1ice" look like it.
    retype(browser, "username", "a1ice")
    wait_for_message(browser, "username", "failed", "Taken, or too like a name that is")
    assert [met for _, met in checklist(browser, "username")] == [True, True, True]


def test_keyboard_only_tab_typing_and_enter_complete_a_sign_up(site, browser):
    url, _ = site
    open_page(browser, url)
    field_input(browser, "username").click()
    active = lambda: browser.switch_to.active_element
    type_slowly(active(), "carol")
    active().send_keys(Keys.TAB)
    assert active().get_attribute("id") == "field-password"
    type_slowly(active(), "secret1")
    active().send_keys(Keys.TAB)
    assert active().get_attribute("id") == "field-repeatedPassword"
    type_slowly(active(), "secret1")
    wait_until(lambda: submit_enabled(browser), "the button")
    active().send_keys(Keys.ENTER)
    wait_until(lambda: submission(browser) == ("succeeded", "Signed up: carol"), f"success by Enter; shows {submission(browser)}")


def children_of(pid):
    found = []
    for task in pathlib.Path(f"/proc/{pid}/task").iterdir():
        found += [int(child) for child in (task / "children").read_text().split()]
    return found


def sockets_of(pid):
    try:
        return sum(1 for fd in pathlib.Path(f"/proc/{pid}/fd").iterdir() if os.readlink(fd).startswith("socket:"))
    except OSError:  # it has just ended
        return 0


def tab_servers(bridge):
    """The bridge's children that carry a tab's WebSocket: websocketd's each run a signup-rpc;
    websockify's also answer plain requests for the page's files, and those with a connection to
    signup-rpc besides the browser's and the listening socket they inherit (three sockets) are a tab's."""
    return [child for child in children_of(bridge.pid) if bridge.args[0] == "websocketd" or sockets_of(child) >= 3]


def test_killing_the_tabs_server_shows_the_banner_and_the_page_recovers(site, browser):
    """The process that serves this tab dies without a goodbye: its signup-rpc under websocketd,
    its connection's handler under websockify (the shared signup-rpc sees its client gone)."""
    url, bridge = site
    open_page(browser, url)
    type_slowly(field_input(browser, "username"), "dave")
    wait_for_message(browser, "username", "ok", "Username available")
    banner = browser.find_element(By.ID, "banner")
    assert not banner.is_displayed()
    servers = wait_until(lambda: tab_servers(bridge), "the tab's server")
    assert len(servers) == 1, "only this test's tab is connected"
    os.kill(servers[0], signal.SIGKILL)  # a crash: no goodbye
    # With the banner, every field is unknown: what the server said no longer holds.
    wait_until(lambda: banner.is_displayed() and banner.text == "Connection lost. Reconnecting…"
               and message(browser, "username") == ("unknown", "Not checked while disconnected")
               and field_input(browser, "username").find_element(By.XPATH, "..").get_attribute("data-state") == "unknown", "the banner")
    wait_until(lambda: not banner.is_displayed(), "the reconnection")
    wait_until(lambda: tab_servers(bridge) and tab_servers(bridge) != servers, "a new server for the tab")
    assert field_input(browser, "username").get_attribute("value") == "dave"
    wait_for_message(browser, "username", "ok", "Username available")
    type_slowly(field_input(browser, "password"), "abc")
    wait_for_message(browser, "password", "failed", "Password must be at least 5 characters")


@pytest.fixture(scope="module")
def invite_site():
    """A product's own API (Scripts/invite-api.py) on a free port, and websocketd running
    signup-rpc with the two forms that use it (Examples/forms/invite-signup.json and
    Examples/api/api-signup.json) pointed at it, sharing one SQLite store; the API's token reaches
    signup-rpc through the environment only. Yields the site's base URL."""
    token = "tok-" + os.urandom(8).hex()
    folder = tempfile.TemporaryDirectory()
    api_port, port = free_port(), free_port()
    environment = dict(os.environ, INVITE_API_TOKEN=token)
    api = subprocess.Popen([sys.executable, str(ROOT / "Scripts" / "invite-api.py"), "--port", str(api_port)], env=environment)
    pathlib.Path(folder.name, "forms").mkdir()
    for source in (ROOT / "Examples" / "forms" / "invite-signup.json", ROOT / "Examples" / "api" / "api-signup.json"):
        form = source.read_text().replace("127.0.0.1:8765", f"127.0.0.1:{api_port}")
        pathlib.Path(folder.name, "forms", source.name).write_text(form)
    process = subprocess.Popen([
        "websocketd", "--address=127.0.0.1", f"--port={port}", f"--staticdir={ROOT / 'frontends' / 'web'}",
        "--loglevel=error", "--passenv=INVITE_API_TOKEN,PATH", BINARY, "--forms", os.path.join(folder.name, "forms"),
        "--store", os.path.join(folder.name, "users.sqlite"), "--debounce-ms", "300",
    ], env=environment)
    deadline = time.monotonic() + PATIENCE
    for probe in (api_port, port):
        while True:
            try:
                socket.create_connection(("127.0.0.1", probe), timeout=1).close()
                break
            except OSError:
                assert time.monotonic() < deadline and process.poll() is None and api.poll() is None, "the invite site did not start"
                time.sleep(0.05)
    yield f"http://127.0.0.1:{port}/"
    for child in (process, api):
        child.terminate()
        child.wait(timeout=PATIENCE)
    folder.cleanup()


def fill_invite(driver, email, invite, username, password="correct horse"):
    type_slowly(field_input(driver, "email"), email)
    type_slowly(field_input(driver, "inviteCode"), invite)
    type_slowly(field_input(driver, "username"), username)
    type_slowly(field_input(driver, "password"), password)


def test_an_invite_is_checked_against_the_api_while_typing_and_an_address_signs_up_once(invite_site, browser):
    open_page(browser, invite_site, "?kind=invite-signup")
    assert browser.find_element(By.CSS_SELECTOR, '.field[data-field="inviteCode"]').get_attribute("data-checks") == "inviteCode"
    type_slowly(field_input(browser, "email"), "ann@example.com")
    wait_for_message(browser, "email", "ok", "Address not yet registered")
    type_slowly(field_input(browser, "inviteCode"), "OLDX-2024")
    # The API's own code and words, checked live as the person types.
    wait_for_message(browser, "inviteCode", "failed", "This invite expired on 2026-01-31")
    retype(browser, "inviteCode", "GOOD-0002")
    wait_for_message(browser, "inviteCode", "ok", "Invite accepted")
    type_slowly(field_input(browser, "username"), "ann")
    type_slowly(field_input(browser, "password"), "correct horse")
    # A second tab fills in the same address, in other letters, before the first signs up.
    first = browser.current_window_handle
    browser.switch_to.new_window("tab")
    open_page(browser, invite_site, "?kind=invite-signup")
    fill_invite(browser, "ANN@Example.com", "GOOD-0003", "bea")
    wait_for_message(browser, "email", "ok", "Address not yet registered")
    wait_until(lambda: submit_enabled(browser), "the second tab's button")
    browser.switch_to.window(first)
    submit_when_enabled(browser, ("succeeded", "Welcome aboard: ann"), "the first account to be created")
    # The second tab's registration loses the address at submit, and says so on the field.
    browser.switch_to.window(browser.window_handles[1])
    submit_and_wait(browser, ("failed", "Sign-up failed, please try again"), "the second registration to be refused")
    wait_for_message(browser, "email", "failed", "This address is already registered")
    assert not submit_enabled(browser)
    browser.save_screenshot(str(SCREENSHOTS / "invite-address-taken.png"))
    # Another address clears it, and the second tab signs up.
    retype(browser, "email", "bea@example.com")
    wait_for_message(browser, "email", "ok", "Address not yet registered")
    submit_when_enabled(browser, ("succeeded", "Welcome aboard: bea"), "the second account to be created")


def test_a_form_submitted_to_its_own_api_shows_the_apis_field_errors_on_its_fields(invite_site, browser):
    open_page(browser, invite_site, "?kind=api-signup")
    fill_invite(browser, "cy@example.com", "GOOD-0004", "admin")
    wait_for_message(browser, "username", "failed", "Username already taken")
    retype(browser, "username", "cy")
    wait_for_message(browser, "username", "ok", "Username available")
    submit_when_enabled(browser, ("succeeded", "Welcome aboard: cy"), "the account to be created")
    browser.save_screenshot(str(SCREENSHOTS / "api-signed-up.png"))

    # The same address again, with another invite: only the API knows, and says so on the field.
    open_page(browser, invite_site, "?kind=api-signup")
    fill_invite(browser, "cy@example.com", "GOOD-0005", "cy2")
    wait_for_message(browser, "inviteCode", "ok", "Invite accepted")
    submit_when_enabled(browser, ("failed", "The server refused the sign-up (HTTP 422)"), "the refusal")
    wait_for_message(browser, "email", "failed", "cy@example.com is already registered")
    assert not submit_enabled(browser)
    browser.save_screenshot(str(SCREENSHOTS / "api-refused.png"))
    # Editing the field clears the API's word, and submit comes back.
    retype(browser, "email", "cy2@example.com")
    wait_for_message(browser, "email", "ok", "")
    wait_until(lambda: submit_enabled(browser), "submit to be enabled again")


def relative_luminance(colour):
    """WCAG 2.2's relative luminance of a computed CSS colour, `rgb(r, g, b)` or `rgba(…)`."""
    r, g, b = [int(part) for part in colour[colour.index("(") + 1:colour.index(")")].split(",")[:3]]
    def linear(channel):
        c = channel / 255
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4
    return 0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b)


def contrast(first, second):
    lighter, darker = sorted([relative_luminance(first), relative_luminance(second)], reverse=True)
    return (lighter + 0.05) / (darker + 0.05)


def computed(driver, selector, prop):
    return driver.execute_script("return getComputedStyle(document.querySelector(arguments[0])).getPropertyValue(arguments[1])",
                                 selector, prop)


def test_every_control_and_text_has_the_contrast_wcag_asks(site, browser):
    """WCAG 2.2 1.4.11 (3:1 for a control's boundary) and 1.4.3 (4.5:1 for text), measured from
    Chromium's computed styles: the inputs, the button enabled and disabled, and the messages."""
    url, _ = site
    open_page(browser, url)
    form = computed(browser, "#form", "background-color")
    assert contrast(computed(browser, "#field-username", "border-top-color"), form) >= 3
    assert not submit_enabled(browser)
    assert contrast(computed(browser, "#submit", "color"), computed(browser, "#submit", "background-color")) >= 4.5
    assert contrast(computed(browser, "#submit", "border-top-color"), form) >= 3
    for selector in ["#title", ".field label", "#message-username", ".checklist" if browser.find_elements(By.CSS_SELECTOR, ".checklist") else "#title"]:
        assert contrast(computed(browser, selector, "color"), form) >= 4.5, selector
    fill_signup(browser, "erin")
    wait_until(lambda: submit_enabled(browser), "the button")
    assert contrast(computed(browser, "#submit", "color"), computed(browser, "#submit", "background-color")) >= 4.5
    assert contrast(computed(browser, "#submit", "background-color"), form) >= 3
    for state in ("ok",):
        assert contrast(computed(browser, f'#message-username[data-state="{state}"]', "color"), form) >= 4.5
    page = computed(browser, "body", "background-color")
    assert contrast(computed(browser, "#footer", "color"), page) >= 4.5


def test_the_pages_own_words_and_the_kinds_titles_follow_the_language(site, browser):
    url, _ = site
    open_page(browser, url)
    kinds = {option.get_attribute("value"): option.text for option in browser.find_elements(By.CSS_SELECTOR, "#kind option")}
    # The picker names each kind by its title, not its id.
    assert kinds["signup"] == "Sign up" and kinds["signup-secure"] == "Create your account"
    assert all(title != kind for kind, title in kinds.items())
    assert browser.find_element(By.ID, "kind-label").text == "Form"
    locale = browser.find_element(By.ID, "locale")
    locale.find_element(By.CSS_SELECTOR, 'option[value="zh-Hans"]').click()
    wait_until(lambda: browser.find_element(By.ID, "kind-label").text == "表单", "the page's words in Chinese")
    assert browser.find_element(By.ID, "locale-label").text == "语言"
    # Every kind's title follows too, not only the open form's.
    wait_until(lambda: {option.get_attribute("value"): option.text for option in browser.find_elements(By.CSS_SELECTOR, "#kind option")}
               .get("signup-secure") == "创建账户", "the kinds' titles in Chinese")
    assert browser.find_element(By.CSS_SELECTOR, '#kind option[value="signup"]').text == "注册"
    assert browser.find_element(By.ID, "footer").text == "本页的每条消息都来自 signup-rpc；页面本身不做任何校验。"


def test_a_password_accepted_without_the_breach_check_says_so_calmly(site, browser):
    """The breached-password service is unreachable from here: the check fails open, and the page
    shows the server's own words for it (check.skipped), in a colour that is neither ok nor failed."""
    url, _ = site
    open_page(browser, url, "?kind=signup-secure")
    type_slowly(field_input(browser, "password"), "mauve kettle drums at dawn")
    wait_until(lambda: browser.find_element(By.ID, "message-password").get_attribute("data-code") == "check.skipped",
               f"the skipped check; shows {message(browser, 'password')}")
    state, text = message(browser, "password")
    assert state == "ok" and text.endswith("Accepted without this check: the service could not be reached")
    shown = computed(browser, "#message-password", "color")
    assert shown not in (computed(browser, "#message-username", "color"),)
    assert contrast(shown, computed(browser, "#form", "background-color")) >= 4.5
