#!/usr/bin/env python3
"""Load figure for the web demo: N concurrent WebSocket sessions through websocketd, each typing a
name key by key and registering, on loopback only.

    Scripts/web-load.py [--sessions 200] [--binary .build/release/signup-rpc] [--key-delay-ms 50]

websocketd runs one signup-rpc per session, all on one SQLite store. Printed: the time from a
keystroke to its fieldChanged (the first key of a name, which turns it to `validating`) and to
the server's answer to each keystroke, p50/p99; the start-up of a connection (WebSocket open to
initialize's answer); and the memory of the signup-rpc processes at the peak (sum of RSS, and of
PSS, which shares each library's pages out among the processes using them). Bounded: every
session must finish within --timeout seconds. Needs websocketd and the `websockets` package.
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


class Session:
    def __init__(self, number, url, key_delay):
        self.number, self.url, self.key_delay = number, url, key_delay
        self.startup = None
        self.to_event = []  # first key of a name -> its `validating`
        self.to_answer = []  # every key -> the server's answer
        self.registered = False

    async def run(self, all_connected, release):
        async with connect(self.url, max_size=None) as socket_:
            self.socket = socket_
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
        async for text in self.socket:
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


async def measure(arguments, url, websocketd):
    sessions = [Session(number, url, arguments.key_delay_ms / 1000) for number in range(arguments.sessions)]
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
    servers = children_of(websocketd.pid)
    rss, pss = memory_of(servers)
    release.set()
    await asyncio.wait_for(asyncio.gather(*tasks), arguments.timeout)
    return sessions, servers, rss, pss


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sessions", type=int, default=200)
    parser.add_argument("--binary", default=str(ROOT / ".build" / "release" / "signup-rpc"))
    parser.add_argument("--key-delay-ms", type=int, default=50)
    parser.add_argument("--timeout", type=float, default=120)
    arguments = parser.parse_args()
    if not 1 <= arguments.sessions <= 1000:
        parser.error("--sessions must be 1 to 1000")
    with tempfile.TemporaryDirectory() as folder, socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
        probe.close()
        websocketd = subprocess.Popen([
            "websocketd", "--address=127.0.0.1", f"--port={port}", "--loglevel=fatal", arguments.binary,
            "--store", os.path.join(folder, "users.sqlite"), "--debounce-ms", "300"])
        try:
            deadline = time.monotonic() + 10
            while True:
                try:
                    socket.create_connection(("127.0.0.1", port), timeout=1).close()
                    break
                except OSError:
                    if time.monotonic() > deadline:
                        sys.exit("web-load: websocketd did not start")
                    time.sleep(0.05)
            sessions, servers, rss, pss = asyncio.run(measure(arguments, f"ws://127.0.0.1:{port}/", websocketd))
        finally:
            websocketd.terminate()
            websocketd.wait(timeout=30)
    events = [value for session in sessions for value in session.to_event]
    answers = [value for session in sessions for value in session.to_answer]
    startups = [session.startup for session in sessions]
    registered = sum(session.registered for session in sessions)
    ms = lambda seconds: f"{seconds * 1000:.2f} ms"
    print(f"web load: {len(sessions)} concurrent sessions through websocketd, {len(servers)} signup-rpc processes")
    print(f"  keystroke -> its fieldChanged  p50 {ms(percentile(events, 0.5))}  p99 {ms(percentile(events, 0.99))}  ({len(events)} keys)")
    print(f"  keystroke -> its answer        p50 {ms(percentile(answers, 0.5))}  p99 {ms(percentile(answers, 0.99))}  ({len(answers)} keys)")
    print(f"  connection start-up            p50 {ms(percentile(startups, 0.5))}  p99 {ms(percentile(startups, 0.99))}")
    print(f"  memory of the signup-rpc processes: RSS {rss / 2**20:.1f} MiB in all ({rss / max(1, len(servers)) / 2**20:.2f} MiB each), "
          f"PSS {pss / 2**20:.1f} MiB in all ({pss / max(1, len(servers)) / 2**20:.2f} MiB each)")
    print(f"  registered {registered} of {len(sessions)}")
    if registered != len(sessions) or len(servers) != len(sessions):
        sys.exit(1)


if __name__ == "__main__":
    main()
