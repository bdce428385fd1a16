#!/usr/bin/env python3
"""Load figure for the web demo: N concurrent sessions, each typing a name key by key and
registering, on loopback only, in one of two ways:

    Scripts/web-load.py [--sessions 200] [--binary .build/release/signup-rpc] [--key-delay-ms 50]
    Scripts/web-load.py --listen --sessions 1000     # one process, a TCP connection per session

By default each session is a WebSocket through websocketd, which runs one signup-rpc per session;
with --listen each is a TCP connection to one `signup-rpc --listen`. Either way all share one
SQLite store. Printed: the time from a keystroke to its fieldChanged (the first key of a name,
which turns it to `validating`) and to the server's answer to each keystroke, p50/p99; the
start-up of a connection (connected to initialize's answer); and the memory of the signup-rpc
processes with every session connected (sum of RSS, and of PSS, which shares each library's pages
out among the processes using them), with what one idle process takes before any connection for
--listen. Bounded: every session must finish within --timeout seconds, and every one must
register. Needs websocketd (or nothing more, with --listen) and the `websockets` package.
"""
import argparse
import asyncio
import json
import os
import pathlib
import socket
import statistics
import subprocess
import sys
import tempfile
import time

from websockets.asyncio.client import connect

ROOT = pathlib.Path(__file__).resolve().parents[1]


def percentile(values, fraction):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def memory_of(pids):
    """(sum of RSS, sum of PSS) in bytes for the processes still there."""
    rss = pss = 0
    for pid in pids:
        try:
            for line in pathlib.Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines():
                if line.startswith("Rss:"):
                    rss += int(line.split()[1]) * 1024
                elif line.startswith("Pss:"):
                    pss += int(line.split()[1]) * 1024
        except OSError:
            pass
    return rss, pss


def children_of(pid):
    found = []
    for task in pathlib.Path(f"/proc/{pid}/task").iterdir():
        try:
            found += [int(child) for child in (task / "children").read_text().split()]
        except OSError:
            pass
    return found


class WebSocketLines:
    """A session's lines over a WebSocket, one message a line (websocketd)."""

    def __init__(self, url):
        self.url = url

    async def __aenter__(self):
        self.socket = await connect(self.url, max_size=None).__aenter__()
        return self

    async def __aexit__(self, *exception):
        await self.socket.__aexit__(*exception)

    async def send(self, line):
        await self.socket.send(line)

    async def lines(self):
        async for text in self.socket:
            yield text


class TCPLines:
    """A session's lines over a TCP connection to `signup-rpc --listen`."""

    def __init__(self, port):
        self.port = port

    async def __aenter__(self):
        self.reader, self.writer = await asyncio.open_connection("127.0.0.1", self.port, limit=1 << 20)
        return self

    async def __aexit__(self, *exception):
        self.writer.close()

    async def send(self, line):
        self.writer.write(line.encode() + b"\n")
        await self.writer.drain()

    async def lines(self):
        while line := await self.reader.readline():
            yield line


class Session:
    def __init__(self, number, transport, key_delay):
        self.number, self.transport, self.key_delay = number, transport, key_delay
        self.startup = None
        self.to_event = []  # first key of a name -> its `validating`
        self.to_answer = []  # every key -> the server's answer
        self.registered = False

    async def run(self, all_connected, release):
        async with self.transport as lines:
            self.socket = lines
            self.waiting = {}
            self.next_id = 0
            self.first_key_sent = None
            # Made before anything is sent: the events may come before the answer that precedes them.
            loop = asyncio.get_running_loop()
            self.enabled, self.done = loop.create_future(), loop.create_future()
            reader = asyncio.create_task(self.read())
            started = time.perf_counter()
            await self.call("initialize", {"clientInfo": {"name": "web-load"}})
            self.startup = time.perf_counter() - started
            await self.call("form.open", {"form": "f"})
            all_connected()
            await release.wait()
            name = f"user{self.number:04d}x"
            for end in range(1, len(name) + 1):
                if end == 1:
                    self.first_key_sent = time.perf_counter()
                sent = time.perf_counter()
                await self.call("form.edit", {"form": "f", "field": "username", "value": name[:end]})
                self.to_answer.append(time.perf_counter() - sent)
                await asyncio.sleep(self.key_delay)
            for field in ("password", "repeatedPassword"):
                await self.call("form.edit", {"form": "f", "field": field, "value": "correct horse"})
            await self.enabled
            await self.call("form.submit", {"form": "f"})
            self.registered = await self.done
            reader.cancel()

    async def call(self, method, params):
        self.next_id += 1
        future = asyncio.get_running_loop().create_future()
        self.waiting[self.next_id] = future
        await self.socket.send(json.dumps({"jsonrpc": "2.0", "id": self.next_id, "method": method, "params": params}))
        return await future

    async def read(self):
        async for text in self.socket.lines():
            now = time.perf_counter()
            message = json.loads(text)
            method = message.get("method")
            if method == "form.fieldChanged":
                params = message["params"]
                if params["field"] == "username" and params["state"] == "validating" and self.first_key_sent is not None:
                    self.to_event.append(now - self.first_key_sent)
                    self.first_key_sent = None
            elif method == "form.submitEnabledChanged":
                if message["params"]["enabled"] and not self.enabled.done():
                    self.enabled.set_result(True)
            elif method == "form.submissionChanged":
                state = message["params"]["state"]
                if state in ("succeeded", "failed") and not self.done.done():
                    self.done.set_result(state == "succeeded")
            elif "id" in message:
                future = self.waiting.pop(message["id"], None)
                if future and not future.done():
                    future.set_result(message.get("result"))


async def measure(arguments, transport, servers_now):
    sessions = [Session(number, transport(), arguments.key_delay_ms / 1000) for number in range(arguments.sessions)]
    connected = 0
    everyone = asyncio.Event()
    release = asyncio.Event()

    def one_connected():
        nonlocal connected
        connected += 1
        if connected == len(sessions):
            everyone.set()

    tasks = [asyncio.create_task(session.run(one_connected, release)) for session in sessions]
    await asyncio.wait_for(everyone.wait(), arguments.timeout)
    servers = servers_now()
    rss, pss = memory_of(servers)
    release.set()
    await asyncio.wait_for(asyncio.gather(*tasks), arguments.timeout)
    return sessions, servers, rss, pss


def wait_for_port(port, process, what):
    deadline = time.monotonic() + 10
    while True:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return
        except OSError:
            if time.monotonic() > deadline or process.poll() is not None:
                sys.exit(f"web-load: {what} did not start")
            time.sleep(0.05)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sessions", type=int, default=200)
    parser.add_argument("--binary", default=str(ROOT / ".build" / "release" / "signup-rpc"))
    parser.add_argument("--key-delay-ms", type=int, default=50)
    parser.add_argument("--timeout", type=float, default=120)
    parser.add_argument("--listen", action="store_true", help="one signup-rpc --listen, a TCP connection per session")
    arguments = parser.parse_args()
    if not 1 <= arguments.sessions <= 1000:
        parser.error("--sessions must be 1 to 1000")
    idle = None
    with tempfile.TemporaryDirectory() as folder, socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
        probe.close()
        flags = ["--store", os.path.join(folder, "users.sqlite"), "--debounce-ms", "300"]
        if arguments.listen:
            server = subprocess.Popen([arguments.binary, "--listen", f"tcp:127.0.0.1:{port}", *flags])
            what, transport, servers_now = "signup-rpc --listen", lambda: TCPLines(port), lambda: [server.pid]
        else:
            server = subprocess.Popen([
                "websocketd", "--address=127.0.0.1", f"--port={port}", "--loglevel=fatal", arguments.binary, *flags])
            url = f"ws://127.0.0.1:{port}/"
            what, transport, servers_now = "websocketd", lambda: WebSocketLines(url), lambda: children_of(server.pid)
        try:
            wait_for_port(port, server, what)
            if arguments.listen:
                idle = memory_of([server.pid])
            sessions, servers, rss, pss = asyncio.run(measure(arguments, transport, servers_now))
        finally:
            server.terminate()
            server.wait(timeout=30)
    events = [value for session in sessions for value in session.to_event]
    answers = [value for session in sessions for value in session.to_answer]
    startups = [session.startup for session in sessions]
    registered = sum(session.registered for session in sessions)
    ms = lambda seconds: f"{seconds * 1000:.2f} ms"
    mib = lambda size: f"{size / 2**20:.1f} MiB"
    if arguments.listen:
        print(f"web load: {len(sessions)} concurrent TCP connections to one signup-rpc --listen")
    else:
        print(f"web load: {len(sessions)} concurrent sessions through websocketd, {len(servers)} signup-rpc processes")
    print(f"  keystroke -> its fieldChanged  p50 {ms(percentile(events, 0.5))}  p99 {ms(percentile(events, 0.99))}  ({len(events)} keys)")
    print(f"  keystroke -> its answer        p50 {ms(percentile(answers, 0.5))}  p99 {ms(percentile(answers, 0.99))}  ({len(answers)} keys)")
    print(f"  connection start-up            p50 {ms(percentile(startups, 0.5))}  p99 {ms(percentile(startups, 0.99))}")
    if idle is not None:
        print(f"  memory of the process: RSS {mib(rss)}, PSS {mib(pss)}; idle before any connection RSS {mib(idle[0])}, "
              f"so {(rss - idle[0]) / len(sessions) / 1024:.0f} KiB RSS a connection")
    else:
        print(f"  memory of the signup-rpc processes: RSS {mib(rss)} in all ({rss / max(1, len(servers)) / 2**20:.2f} MiB each), "
              f"PSS {mib(pss)} in all ({pss / max(1, len(servers)) / 2**20:.2f} MiB each)")
    print(f"  registered {registered} of {len(sessions)}")
    if registered != len(sessions) or (not arguments.listen and len(servers) != len(sessions)):
        sys.exit(1)


if __name__ == "__main__":
    main()
