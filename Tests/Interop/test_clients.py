"""Interop: signup-rpc driven by client libraries people already use, unmodified.

Each client runs the same sign-up on the virtual clock: initialize, open a form, type a taken
name (validating, then taken), fix it, fill the passwords, submit (submitting, then succeeded),
shutdown, exit with code 0. Run by .ci/run in a venv with the packages in requirements.txt.
"""
import asyncio
import json
import os
import queue
import subprocess
import threading
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
BINARY = os.environ.get("SIGNUP_RPC_BINARY", str(ROOT / ".build" / "debug" / "signup-rpc"))
ARGS = ["--clock", "virtual"]

# The session, as (kind, method, params): requests are answered, notifications not.
SESSION = [
    ("request", "initialize", {"processId": None, "rootUri": None, "capabilities": {}, "clientInfo": {"name": "interop"}}),
    ("notify", "initialized", {}),
    ("request", "form.open", {"form": "f"}),
    ("notify", "form.edit", {"form": "f", "field": "username", "value": "root", "at": 0}),
    ("request", "clock.advance", {"to": 600}),
    ("notify", "form.edit", {"form": "f", "field": "username", "value": "alice", "at": 600}),
    ("notify", "form.edit", {"form": "f", "field": "password", "value": "secret1", "at": 610}),
    ("notify", "form.edit", {"form": "f", "field": "repeatedPassword", "value": "secret1", "at": 620}),
    ("request", "clock.advance", {"to": 1200}),
    ("request", "form.submit", {"form": "f", "at": 1200}),
    ("request", "clock.advance", {"to": 2300}),
    ("request", "shutdown", None),
]

EXPECTED_USERNAME = [
    ("empty", "username.empty"),
    ("validating", "username.checking"),
    ("failed", "username.taken"),
    ("validating", "username.checking"),
    ("ok", "username.available"),
]
EXPECTED_SUBMISSION = ["submitting", "succeeded"]


def check(events, results):
    """The events a person would have seen, in order, and the answers that matter."""
    username = [(e["state"], e["code"]) for m, e in events if m == "form.fieldChanged" and e["field"] == "username"]
    submission = [e["state"] for m, e in events if m == "form.submissionChanged"]
    assert username == EXPECTED_USERNAME
    assert submission == EXPECTED_SUBMISSION
    assert results["initialize"]["serverInfo"]["name"] == "signup-rpc"
    assert results["form.submit"] == {"form": "f", "accepted": True}
    assert results["shutdown"] is None


def test_python_lsp_jsonrpc_endpoint_over_lsp_framing():
    from pylsp_jsonrpc.endpoint import Endpoint
    from pylsp_jsonrpc.streams import JsonRpcStreamReader, JsonRpcStreamWriter

    process = subprocess.Popen([BINARY, *ARGS], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    events = []

    class Notifications(dict):
        """The endpoint looks handlers up by method name; every notification is recorded."""

        def __getitem__(self, method):
            return lambda params: events.append((method, params))

    writer = JsonRpcStreamWriter(process.stdin)
    reader = JsonRpcStreamReader(process.stdout)
    endpoint = Endpoint(Notifications(), writer.write)
    threading.Thread(target=reader.listen, args=(endpoint.consume,), daemon=True).start()
    results = {}
    for kind, method, params in SESSION:
        if kind == "request":
            results[method] = endpoint.request(method, params).result(timeout=30)
        else:
            endpoint.notify(method, params)
    endpoint.notify("exit")
    assert process.wait(timeout=30) == 0
    check(events, results)


def test_pygls_client_over_lsp_framing():
    from pygls.client import JsonRPCClient

    events = []

    async def main():
        client = JsonRPCClient()
        for method in ("form.fieldChanged", "form.submitEnabledChanged", "form.submissionChanged"):
            client.feature(method)(lambda ls, params, method=method: events.append((method, params)))
        await client.start_io(BINARY, *ARGS)
        results = {}
        for kind, method, params in SESSION:
            if kind == "request":
                results[method] = await asyncio.wait_for(client.protocol.send_request_async(method, params), 30)
            else:
                client.protocol.notify(method, params)
        client.protocol.notify("exit", None)
        code = await asyncio.wait_for(client._server.wait(), 30)
        await client.stop()
        return results, code

    results, code = asyncio.run(main())
    assert code == 0
    # pygls hands params and results over as named tuples; compare them as plain JSON.
    def plain(value):
        if hasattr(value, "_asdict"):
            return {key: plain(item) for key, item in value._asdict().items()}
        if isinstance(value, (list, tuple)):
            return [plain(item) for item in value]
        return value

    check([(m, plain(p)) for m, p in events], {k: plain(v) for k, v in results.items()})


def test_a_plain_json_lines_client():
    process = subprocess.Popen([BINARY, *ARGS], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
    lines = queue.Queue()
    threading.Thread(target=lambda: [lines.put(json.loads(line)) for line in process.stdout], daemon=True).start()
    events, results = [], {}
    for number, (kind, method, params) in enumerate(SESSION, start=1):
        message = {"jsonrpc": "2.0", "method": method, "params": params}
        if kind == "request":
            message["id"] = number
        process.stdin.write(json.dumps(message) + "\n")
        process.stdin.flush()
        while kind == "request":
            reply = lines.get(timeout=30)
            if reply.get("id") == number:
                results[method] = reply["result"]
                break
            events.append((reply["method"], reply["params"]))
    process.stdin.write(json.dumps({"jsonrpc": "2.0", "method": "exit"}))  # no newline: still a message
    process.stdin.close()
    assert process.wait(timeout=30) == 0
    check(events, results)


def test_neovim_lsp_rpc_and_jobstart():
    """Neovim headless: vim.lsp.rpc over LSP framing and a line client over jobstart."""
    script = Path(__file__).with_name("neovim_client.lua")
    run = subprocess.run(
        ["nvim", "--headless", "-u", "NONE", "-i", "NONE", "-c", f"luafile {script}"],
        env={**os.environ, "SIGNUP_RPC_BINARY": BINARY}, capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr


def test_the_projects_python_client():
    """clients/python, installed from its folder as a user would (pip install ./clients/python)."""
    from signup_rpc import Client

    events, results = [], {}
    with Client.spawn(BINARY, ARGS) as client:
        client.on_event(lambda event: events.append(event))
        results["initialize"] = client.initialize().raw
        form = client.open("signup", form="f")
        form.edit("username", "root", at=0)
        client.advance_clock(to=600)
        form.edit("username", "alice", at=600)
        form.edit("password", "secret1", at=610)
        form.edit("repeatedPassword", "secret1", at=620)
        client.advance_clock(to=1200)
        submitted = form.submit(at=1200)
        results["form.submit"] = {"form": form.id, "accepted": submitted.accepted}
        client.advance_clock(to=2300)
        results["shutdown"] = client.shutdown()
    assert client.process.returncode == 0
    check([(f"form.{type(e).__name__[0].lower()}{type(e).__name__[1:]}", vars(e)) for e in events], results)
