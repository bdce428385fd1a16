#!/usr/bin/env python3
"""One slow API stalls no other check (issue 54), measured against a real loopback HTTP server.

A server of its own on 127.0.0.1 answers `/quick/…` after 300 ms and never answers `/hang/…`.
First a plain client (asyncio, a connection per request, all at once) asks it --healthy times, and
its p99 latency is the bar. Then signup-rpc is asked the same at once, each question a form's
`http` check, beside --hung checks against the hung path (`timeoutMs` 3000): over stdio (one
process, every form on one client) and over --connections TCP connections to one
`signup-rpc --listen`. It fails unless
- every healthy check's verdict comes within the plain client's p99 plus --slack-ms of its edit;
- every hung request reaches the server before its check's timeout could have passed, and every
  hung check fails (`backend.unavailable`) no sooner than its timeout and within --late-ms of it.

    Scripts/http-stall-load.py --binary .build/release/signup-rpc [--healthy 1000 --hung 100]

Prints one line a mode with the figures; exits 1 if a bound is broken. Bounded: each mode must
finish within --timeout seconds.
"""
import argparse
import asyncio
import json
import os
import sys
import tempfile
import time

DELAY = 0.3
TIMEOUT_MS = 3000


class API:
    """The loopback API: when each path arrived, and which hung requests their client ended."""

    def __init__(self):
        self.arrived = {}
        self.ended = set()
        self.server = None
        self.port = 0

    async def start(self):
        self.server = await asyncio.start_server(self.serve, "127.0.0.1", 0, backlog=4096)
        self.port = self.server.sockets[0].getsockname()[1]

    async def serve(self, reader, writer):
        try:
            head = await reader.readuntil(b"\r\n\r\n")
        except (asyncio.IncompleteReadError, ConnectionError):
            writer.close()
            return
        path = head.split(b" ", 2)[1].decode()
        self.arrived[path] = time.monotonic()
        if path.startswith("/hang/"):
            await reader.read()  # until the client goes away
            self.ended.add(path)
        else:
            await asyncio.sleep(DELAY)
            body = b'{"valid":true}'
            writer.write(b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: %d\r\n"
                         b"Connection: close\r\n\r\n%s" % (len(body), body))
            try:
                await writer.drain()
            except ConnectionError:
                pass
        writer.close()


async def plain_client(port, count):
    """Latencies, in seconds, of `count` requests to the quick path sent at once."""
    async def one(index):
        started = time.monotonic()
        reader, writer = await asyncio.open_connection("127.0.0.1", port, limit=1 << 16)
        writer.write(f"GET /quick/plain{index} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode())
        await writer.drain()
        await reader.read()
        writer.close()
        return time.monotonic() - started
    return sorted(await asyncio.gather(*(one(index) for index in range(count))))


def percentile(values, fraction):
    return values[min(len(values) - 1, int(fraction * len(values)))]


def form_file(folder, port):
    def check(path):
        return {"name": "c", "kind": "http", "url": f"http://127.0.0.1:{port}{path}", "timeoutMs": TIMEOUT_MS,
                "validating": {"code": "c", "message": "Checking..."}, "passed": {"code": "p", "message": "Fine"},
                "rejected": {"code": "r", "message": "No"},
                "unavailable": {"code": "backend.unavailable", "message": "Error contacting server"}}
    form = {"kind": "stall", "fields": [{"name": "slow", "remoteChecks": [check("/hang/{value}")]},
                                        {"name": "quick", "remoteChecks": [check("/quick/{value}")]}],
            "submit": {"action": "http", "url": f"http://127.0.0.1:{port}/accounts",
                       "messages": {"refused": {"code": "r", "message": "No"}, "unavailable": {"code": "u", "message": "Down"}}}}
    os.makedirs(os.path.join(folder, "forms"), exist_ok=True)
    with open(os.path.join(folder, "forms", "stall.json"), "w") as out:
        json.dump(form, out)
    return os.path.join(folder, "forms")


def session_lines(forms):
    """Each form's open and edit; the hung ones first, so they are asked before the healthy."""
    lines = []
    for form, field in forms:
        lines.append(json.dumps({"jsonrpc": "2.0", "id": form, "method": "form.open", "params": {"kind": "stall", "form": form}}))
        lines.append(json.dumps({"jsonrpc": "2.0", "method": "form.edit", "params": {"form": form, "field": field, "value": form}}))
    return ("\n".join(lines) + "\n").encode()


async def read_verdicts(reader, sent_at, verdicts, group):
    """Notes when each form's check settled, until every form of `group` has."""
    waiting = {form for form, _ in group}
    while waiting:
        line = await reader.readline()
        if not line:
            return
        message = json.loads(line)
        params = message.get("params") or {}
        if message.get("method") == "form.fieldChanged" and params.get("state") in ("ok", "failed"):
            if params["field"] in ("slow", "quick") and params["form"] not in verdicts:
                verdicts[params["form"]] = (time.monotonic() - sent_at[params["form"]], params["state"], params["code"])
                waiting.discard(params["form"])


async def run_mode(arguments, api, forms_folder, connections):
    flags = ["--clock", "real", "--debounce-ms", "0", "--session-checks-per-minute", "0", "--store-checks-per-minute", "0",
             "--forms", forms_folder]
    forms = [(f"hung{index}", "slow") for index in range(arguments.hung)] + [(f"ok{index}", "quick") for index in range(arguments.healthy)]
    groups = [forms[index::connections] for index in range(connections)]
    verdicts, sent_at = {}, {}
    if connections == 1:
        process = await asyncio.create_subprocess_exec(arguments.binary, *flags, stdin=asyncio.subprocess.PIPE,
                                                       stdout=asyncio.subprocess.PIPE, limit=1 << 20)
        streams = [(process.stdout, process.stdin)]
    else:
        process = await asyncio.create_subprocess_exec(arguments.binary, "--listen", "tcp:127.0.0.1:0", *flags,
                                                       stderr=asyncio.subprocess.PIPE)
        line = (await process.stderr.readline()).decode()
        while line.startswith("signup-rpc: warning:"):  # a rule this machine cannot run, said at start-up
            line = (await process.stderr.readline()).decode()
        port = int(line.rsplit(":", 1)[1])
        streams = [await asyncio.open_connection("127.0.0.1", port, limit=1 << 20) for _ in range(connections)]
    try:
        now = time.monotonic()
        for (reader, writer), group in zip(streams, groups):
            for form, _ in group:
                sent_at[form] = now
            writer.write(session_lines(group))
        await asyncio.gather(*(writer.drain() for _, writer in streams))
        await asyncio.wait_for(asyncio.gather(*(read_verdicts(reader, sent_at, verdicts, group)
                                                      for (reader, _), group in zip(streams, groups))),
                               arguments.timeout)
        # Hung requests are ended on the wire as their checks time out.
        deadline = time.monotonic() + 5
        while len(api.ended) < arguments.hung and time.monotonic() < deadline:
            await asyncio.sleep(0.05)
        return verdicts, sent_at
    finally:
        for _, writer in streams:
            writer.close()
        if connections > 1:
            process.terminate()
        await process.wait()


def judge(name, verdicts, sent_at, api, bar, arguments):
    problems = []
    healthy = sorted(seconds for form, (seconds, _, _) in verdicts.items() if form.startswith("ok"))
    wrong = [form for form, (_, state, _) in verdicts.items() if form.startswith("ok") and state != "ok"]
    if len(healthy) != arguments.healthy or wrong:
        problems.append(f"{len(healthy)} of {arguments.healthy} healthy checks settled; not ok: {wrong[:5]}")
    limit = bar + arguments.slack_ms / 1000
    late = [seconds for seconds in healthy if seconds > limit]
    if late:
        problems.append(f"{len(late)} healthy verdicts later than the plain p99 + {arguments.slack_ms} ms ({limit * 1000:.0f} ms): "
                        f"the slowest {late[-1] * 1000:.0f} ms")
    hung = {form: verdict for form, verdict in verdicts.items() if form.startswith("hung")}
    failed = [form for form, (_, state, code) in hung.items() if state == "failed" and code == "backend.unavailable"]
    if len(failed) != arguments.hung:
        problems.append(f"{len(failed)} of {arguments.hung} hung checks failed as unavailable")
    timeout = TIMEOUT_MS / 1000
    early = [form for form, (seconds, _, _) in hung.items() if seconds < timeout]
    tardy = [form for form, (seconds, _, _) in hung.items() if seconds > timeout + arguments.late_ms / 1000]
    if early or tardy:
        problems.append(f"hung checks failing before their timeout: {len(early)}; later than {arguments.late_ms} ms after it: {len(tardy)}")
    unsent = [form for form in hung if f"/hang/{form}" not in api.arrived
              or api.arrived[f"/hang/{form}"] - sent_at[form] >= timeout]
    if unsent:
        problems.append(f"{len(unsent)} hung requests were not sent before their timeout")
    hung_times = sorted(seconds for seconds, _, _ in hung.values())
    print(f"http-stall-load: {name}: healthy p50 {percentile(healthy, 0.5) * 1000:.0f} ms, p99 {percentile(healthy, 0.99) * 1000:.0f} ms "
          f"(plain client p99 {bar * 1000:.0f} ms); hung failed at {hung_times[0] * 1000:.0f}–{hung_times[-1] * 1000:.0f} ms, "
          f"{len(api.ended)} ended on the wire" if healthy and hung_times else f"http-stall-load: {name}: no figures")
    for problem in problems:
        print(f"http-stall-load: {name}: {problem}", file=sys.stderr)
    return not problems


async def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--binary", required=True)
    parser.add_argument("--healthy", type=int, default=1000)
    parser.add_argument("--hung", type=int, default=100)
    parser.add_argument("--connections", type=int, default=10)
    parser.add_argument("--slack-ms", type=int, default=50)
    parser.add_argument("--late-ms", type=int, default=250)
    parser.add_argument("--timeout", type=float, default=60)
    arguments = parser.parse_args()
    ok = True
    with tempfile.TemporaryDirectory() as folder:
        for name, connections in (("stdio", 1), (f"--listen, {arguments.connections} connections", arguments.connections)):
            api = API()
            await api.start()
            forms_folder = form_file(folder, api.port)
            bar = percentile(await plain_client(api.port, arguments.healthy), 0.99)
            api.arrived.clear()
            verdicts, sent_at = await run_mode(arguments, api, forms_folder, connections)
            ok = judge(name, verdicts, sent_at, api, bar, arguments) and ok
            api.server.close()
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
