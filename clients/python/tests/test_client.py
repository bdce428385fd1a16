"""The client against the real signup-rpc ($SIGNUP_RPC_BINARY, else `signup-rpc` on the PATH).

Virtual-clock tests assert the exact events in order; the real-clock ones wait on conditions
with generous bounds.
"""
import asyncio
import os
import pathlib
import subprocess
import sys

import pytest

from signup_rpc import (AsyncClient, Client, ConnectionClosed, FieldChanged, FieldPresenceChanged, FieldVerdict, RPCError, SubmissionChanged,
                        SubmitEnabledChanged, SubmitResult, Validation, find_binary)

VIRTUAL = ["--clock", "virtual"]


def field(form, name, state, code, message, version, at, params=None):
    return FieldChanged(form, name, state, code, params or {}, message, version, at)


def test_a_signup_in_virtual_time_gives_exactly_the_sessions_events():
    with Client.spawn(args=VIRTUAL) as client:
        info = client.initialize()
        assert (info.name, info.protocol_version, info.clock) == ("signup-rpc", "1.0", "virtual")
        assert info.kinds == ["signup", "signup-github", "login", "friend", "signup-secure"]
        assert info.descriptions["login"].state("loggingIn").meaning == "submitting"
        form = client.open("signup", form="f")
        assert (form.id, form.kind, form.version, form.locale) == ("f", "signup", 0, "en")
        assert form.description is not None and form.description.submit_label == "Sign up"
        assert [f.label for f in form.description.fields] == ["Username", "Password", "Repeat password"]
        assert form.pending_events() == [
            field("f", "username", "empty", "username.empty", "", 0, 0),
            field("f", "password", "empty", "password.empty", "", 0, 0),
            field("f", "repeatedPassword", "empty", "repeatedPassword.empty", "", 0, 0),
            SubmitEnabledChanged("f", False, 0),
        ]
        assert form.type("username", "octocat") == 7
        assert client.advance_clock(by=500) == 500
        assert form.pending_events() == [
            field("f", "username", "validating", "username.checking", "Checking availability...", 1, 0),
            field("f", "username", "failed", "username.taken", "Username already taken", 7, 500),
        ]
        form.edit("username", "octopus")
        form.edit("password", "hunter2")
        form.edit("repeatedPassword", "hunter2")
        assert client.advance_clock(by=500) == 1000
        assert form.submit() == SubmitResult(True)
        assert form.submit() == SubmitResult(False, "submitting")
        client.advance_clock(by=1000)
        assert form.pending_events() == [
            field("f", "username", "validating", "username.checking", "Checking availability...", 8, 500),
            field("f", "password", "ok", "password.acceptable", "Password acceptable", 9, 500),
            field("f", "repeatedPassword", "ok", "repeatedPassword.matches", "Password repeated", 10, 500),
            field("f", "username", "ok", "username.available", "Username available", 8, 1000),
            SubmitEnabledChanged("f", True, 1000),
            SubmissionChanged("f", "submitting", 1000),
            SubmitEnabledChanged("f", False, 1000),
            SubmissionChanged("f", "succeeded", 2000, {"username": "octopus"}),
        ]
        # Final until edited: submit stays disabled, and a tap is refused.
        assert form.submit() == SubmitResult(False, "submitted")
        snapshot = form.snapshot()
        assert snapshot.submission == {"state": "succeeded", "account": {"username": "octopus"}}
        client.shutdown()
    assert client.process is not None and client.process.returncode == 0


def test_errors_are_exceptions_with_the_servers_code_and_data():
    with Client.spawn(args=VIRTUAL) as client:
        with pytest.raises(RPCError) as unknown:
            client.open("survey")
        assert unknown.value.code == -32012
        assert unknown.value.data == {"kind": "survey", "known": ["signup", "signup-github", "login", "friend", "signup-secure"]}
        form = client.open("login", form="door", locale="zh-Hans")
        with pytest.raises(RPCError) as field_error:
            form.edit("email", "a@b.c")
        assert field_error.value.code == -32013
        assert form.description is None  # not initialized with describe_forms, and not asked
        client.shutdown()


def test_validate_judges_a_whole_object_with_the_live_forms_codes_and_opens_no_form():
    root = pathlib.Path(__file__).resolve().parents[3]
    with Client.spawn(args=VIRTUAL + ["--forms", str(root / "Examples" / "schema-forms")]) as client:
        verdict = client.validate("member", {"username": "ann_99", "email": "ann@", "password": "mauve kettle drums at dawn",
                                             "age": "15"}, locale="zh-Hans")
        assert verdict == Validation(kind="member", locale="zh-Hans", valid=False, fields=[
            FieldVerdict("username", "validating", "username.checking", {}, "正在检查用户名是否可用…"),
            FieldVerdict("email", "failed", "string.format.email", {}, "请输入电子邮件地址，例如 ann@example.com"),
            FieldVerdict("password", "validating", "password.checkingBreaches", {}, "正在检查已知的数据泄露…"),
            FieldVerdict("age", "failed", "number.minimum", {"min": 16}, "不能小于 16"),
            FieldVerdict("plan", "ok", "plan.ok", {}, ""),
        ])
        assert client.validate("signup", {"username": "ann", "password": "hunter22", "repeatedPassword": "hunter22"}).valid
        # A hidden field is not judged; the schema's default fills a field not given.
        account = client.validate("account", {"accountType": "personal", "company": "A", "name": "ann_99",
                                              "password": "mauve kettle drums at dawn"})
        assert account.valid and [f.field for f in account.fields if not f.shown] == ["company", "vatId", "smsPhone", "totpCode"]
        with pytest.raises(RPCError) as unknown:
            client.validate("member", {"nickname": "x"})
        assert unknown.value.code == -32013
        client.shutdown()


def test_conditional_fields_come_as_presence_events_in_order():
    root = pathlib.Path(__file__).resolve().parents[3]
    with Client.spawn(args=VIRTUAL + ["--forms", str(root / "Examples" / "schema-forms")]) as client:
        info = client.initialize(describe_forms=True)
        described = {field.name: field for field in info.descriptions["account"].fields}
        assert (described["name"].help, described["secondFactor"].default) == ("Your sign-in name: lower-case letters, digits and _", "none")
        assert (described["secondFactor"].choices, described["name"].choices) == (["sms", "totp", "none"], None)
        assert [name for name, field in described.items() if field.conditional] == ["company", "phoneCountry", "vatId", "smsPhone", "totpCode"]
        form = client.open("account", form="a", at=0)
        opening = form.pending_events()
        assert opening[:5] == [FieldPresenceChanged("a", "company", False, False, 0),
                               FieldPresenceChanged("a", "phoneCountry", True, False, 0),
                               FieldPresenceChanged("a", "vatId", False, False, 0),
                               FieldPresenceChanged("a", "smsPhone", False, False, 0),
                               FieldPresenceChanged("a", "totpCode", False, False, 0)]
        assert [event.field for event in opening if isinstance(event, FieldChanged)] == [
            "accountType", "name", "phone", "phoneCountry", "secondFactor", "password"]
        form.edit("secondFactor", "sms", at=10)
        # The form opened with the schema's default, "none", already ok: only the presence changes.
        assert form.pending_events() == [
            FieldPresenceChanged("a", "smsPhone", True, True, 10),
            field("a", "smsPhone", "empty", "smsPhone.empty", "", 1, 10),
        ]
        client.shutdown()


async def _validate_async(binary):
    async with await AsyncClient.spawn(binary, args=VIRTUAL) as client:
        verdict = await client.validate("signup", {"username": "a b"})
        return [(f.field, f.state, f.code) for f in verdict.fields]


def test_validate_from_asyncio():
    assert asyncio.run(_validate_async(find_binary())) == [
        ("username", "failed", "username.invalidCharacters"), ("password", "empty", "password.empty"),
        ("repeatedPassword", "empty", "repeatedPassword.empty")]


def test_attaching_to_a_server_someone_else_started():
    process = subprocess.Popen([find_binary(), *VIRTUAL], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    try:
        client = Client.attach(process.stdout, process.stdin)
        form = client.open("friend", values={"firstName": "Ada", "lastName": "Lovelace", "phone": "+442079460000"})
        assert form.id == "form-1"
        assert form.submit() == SubmitResult(True)
        client.advance_clock(by=1000)
        event = form.wait_for(lambda e: isinstance(e, SubmissionChanged) and e.state == "succeeded")
        assert event.result == {"firstName": "Ada", "id": "1", "lastName": "Lovelace", "phone": "+442079460000"}
        client.shutdown()
        assert client.close() is None
        assert process.wait(timeout=30) == 0
    finally:
        if process.poll() is None:
            process.kill()


def test_a_server_that_ends_fails_what_waits_instead_of_hanging():
    with Client.spawn(args=VIRTUAL) as client:
        form = client.open("signup", form="f")
        form.pending_events()
        client.exit()
        with pytest.raises(ConnectionClosed):
            form.next_event(timeout=30)
        with pytest.raises(ConnectionClosed):
            client.request("form.snapshot", {"form": "f"})
    assert client.process.returncode == 1  # exit without shutdown


def test_a_callback_may_call_the_client_from_inside_an_event():
    with Client.spawn(args=VIRTUAL) as client:
        seen = []

        def on_event(event):
            seen.append(event)
            if isinstance(event, SubmitEnabledChanged) and event.form == "f":
                client.notify("form.close", {"form": "f"})  # from the reader thread, mid-stream

        client.on_event(on_event)
        client.open("signup", form="f")
        with pytest.raises(RPCError) as closed:
            client.request("form.snapshot", {"form": "f"})
        assert closed.value.code == -32010
        assert [type(event).__name__ for event in seen] == ["FieldChanged"] * 3 + ["SubmitEnabledChanged"]
        client.shutdown()


def test_the_asyncio_client_on_the_real_clock():
    async def session():
        async with await AsyncClient.spawn(args=["--debounce-ms", "50"]) as client:
            info = await client.initialize(locale="zh-Hans")
            assert info.locale == "zh-Hans"
            form = await client.open("signup", form="w")
            assert form.description is not None and form.description.title == "注册"
            await form.type("username", "octocat")
            taken = await form.wait_for(lambda e: isinstance(e, FieldChanged) and e.state == "failed", timeout=30)
            assert (taken.code, taken.message, taken.version) == ("username.taken", "用户名已被占用", 7)
            await form.edit("username", "octopus")
            await form.edit("password", "hunter2")
            await form.edit("repeatedPassword", "hunter2")
            await form.wait_for(lambda e: isinstance(e, SubmitEnabledChanged) and e.enabled, timeout=30)
            assert await form.submit() == SubmitResult(True)
            done = await form.wait_for(lambda e: isinstance(e, SubmissionChanged) and e.state != "submitting", timeout=30)
            assert (done.state, done.result) == ("succeeded", {"username": "octopus"})
            await client.shutdown()
        return client.process.returncode

    assert asyncio.run(session()) == 0


def test_the_asyncio_client_in_virtual_time_gives_exact_events():
    async def session():
        async with await AsyncClient.spawn(args=VIRTUAL) as client:
            form = await client.open("signup", form="a", values={"username": "root"})
            assert form.pending_events()[0] == field("a", "username", "validating", "username.checking",
                                                     "Checking availability...", 0, 0)
            await client.advance_clock(to=500)
            assert [event async for event in form.events(quiet=0.2)][-1] == field(
                "a", "username", "failed", "username.taken", "Username already taken", 0, 500)
            await client.shutdown()

    asyncio.run(session())


def test_the_example_prints_what_a_user_sees():
    example = pathlib.Path(__file__).resolve().parents[1] / "examples" / "type_a_name.py"
    output = subprocess.run([sys.executable, str(example), "octocat"], capture_output=True, text=True, timeout=60,
                            env={**os.environ, "SIGNUP_RPC_BINARY": find_binary()})
    assert output.returncode == 0, output.stderr
    lines = output.stdout.splitlines()
    assert lines[0] == "Sign up"
    assert lines[5] == "typed 'o'"
    assert lines[6].split() == ["username", "validating", "Checking", "availability..."]
    assert lines[-2:] == ["paused", "  username         failed     Username already taken"]


REPOSITORY = pathlib.Path(__file__).resolve().parents[3]
INVITE = ["--clock", "virtual", "--forms", str(REPOSITORY / "Examples/api"),
          "--directory", str(REPOSITORY / "Examples/directories/invite.json")]


def test_a_forms_own_checks_and_submission_come_back_as_field_results():
    """The invite example on the virtual clock: its checks are described by name and kind, the
    API's words arrive as field results, and a refused submission's field errors too."""
    with Client.spawn(args=INVITE) as client:
        info = client.initialize()
        invite = info.descriptions["api-signup"]
        checks = {f.name: [(c.name, c.kind) for c in f.remote_checks] for f in invite.fields}
        assert checks == {"email": [], "inviteCode": [("inviteCode", "http")], "username": [("usernameFree", "http")], "password": []}
        assert invite.fields[1].remote_check == "http"
        form = client.open("api-signup", form="j")
        form.pending_events()
        form.edit("email", "bea@example.com")
        form.edit("inviteCode", "OLDX-2024")
        client.advance_clock(by=1000)
        assert form.pending_events() == [
            field("j", "email", "ok", "email.ok", "", 1, 0),
            field("j", "inviteCode", "validating", "invite.checking", "Checking the invite...", 2, 0),
            field("j", "inviteCode", "failed", "invite.expired", "This invite expired on 2026-01-31", 2, 520, {"date": "2026-01-31"}),
        ]
        form.edit("inviteCode", "GOOD-0001")
        form.edit("username", "bea2")
        form.edit("password", "correct horse")
        client.advance_clock(by=1000)
        assert form.submit() == SubmitResult(True)
        client.advance_clock(by=1000)
        events = form.pending_events()
        assert [e for e in events if isinstance(e, FieldChanged) and e.state == "failed"] == [
            field("j", "email", "failed", "email.taken", "bea@example.com is already registered", 1, 2200, {"email": "bea@example.com"}),
            field("j", "inviteCode", "failed", "invite.otherAddress", "This invite was issued to another address", 3, 2200),
        ]
        assert events[-1] == SubmissionChanged("j", "failed", 2200, None, "signup.refused", {"status": 422},
                                               "The server refused the sign-up (HTTP 422)")
        form.edit("email", "cy@example.com")
        client.advance_clock(by=1000)
        assert form.submit() == SubmitResult(True)
        client.advance_clock(by=1000)
        done = [e for e in form.pending_events() if isinstance(e, SubmissionChanged)]
        assert done[-1].result == {"id": 7, "sessionToken": "[secret]", "username": "ann"}


NIST = ["--clock", "virtual", "--forms", str(REPOSITORY / "Examples/forms"),
        "--directory", str(REPOSITORY / "Examples/directories/secure.json")]


def test_a_checklist_field_lists_its_requirements_and_ticks_them_as_the_person_types():
    """The nist-signup example: the password's requirements come with the description, and each
    edit says which are unmet, so a frontend ticks the others."""
    with Client.spawn(args=NIST) as client:
        client.initialize()
        form = client.open("nist-signup", form="n", values={"username": "annabelle", "email": "ann.lee@example.com"}, describe=True)
        password = next(f for f in form.description.fields if f.name == "password")
        assert [(r.code, r.message) for r in password.requirements] == [
            ("password.tooShort", "At least 15 characters"), ("password.tooLong", "At most 64 characters"),
            ("password.common", "Not a common password"), ("password.pattern", "Not a repeat or a sequence"),
            ("password.likeUsername", "Not like your username"), ("password.likeEmail", "Not like your e-mail address"),
        ]
        assert next(f for f in form.description.fields if f.name == "email").requirements == []
        form.pending_events()
        unmet = []
        for value in ["a", "passwordpassword", "1234567890123456", "mauve kettle drums at dawn"]:
            form.edit("password", value)
            unmet += [e.unmet for e in form.pending_events() if isinstance(e, FieldChanged) and e.field == "password"]
        assert unmet == [
            ["password.tooShort", "password.likeUsername", "password.likeEmail"],
            ["password.common", "password.pattern"],
            ["password.pattern"],
            [],
        ]


def test_two_clients_of_one_listening_server_have_their_own_forms_and_one_directory(tmp_path):
    """`signup-rpc --listen`: each connection a session of its own, one directory for all."""
    address = str(tmp_path / "signup.sock")
    server = subprocess.Popen([find_binary(None), "--listen", f"unix:{address}", "--debounce-ms", "0"],
                              stderr=subprocess.PIPE, text=True)
    try:
        assert server.stderr is not None
        line = server.stderr.readline()
        while line.startswith("signup-rpc: warning: form kind "):  # a rule this machine cannot run
            line = server.stderr.readline()
        assert line == f"signup-rpc: listening on unix:{address}\n"
        with Client.connect_unix(address) as first, Client.connect_unix(address) as second:
            form = first.open("signup", form="f", values={"username": "carol", "password": "hunter22",
                                                         "repeatedPassword": "hunter22"})
            form.wait_for(lambda event: isinstance(event, SubmitEnabledChanged) and event.enabled, timeout=20)
            assert form.submit() == SubmitResult(True)
            form.wait_for(lambda event: isinstance(event, SubmissionChanged) and event.state == "succeeded", timeout=20)
            with pytest.raises(RPCError) as missing:
                second.form("f").snapshot()
            assert missing.value.code == -32010
            other = second.open("signup", form="f", values={"username": "carol"})
            taken = other.wait_for(lambda event: isinstance(event, FieldChanged) and event.state == "failed", timeout=20)
            assert (taken.field, taken.code) == ("username", "username.taken")
        server.terminate()
        assert server.wait(timeout=30) == 0
    finally:
        if server.poll() is None:
            server.kill()
            server.wait()
        if server.stderr:
            server.stderr.close()
