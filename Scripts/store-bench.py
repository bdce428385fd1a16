#!/usr/bin/env python3
"""Registrations per second and availability-check latency for the SQLite and the PostgreSQL
user directories, with 1 and 8 processes side by side.

    Scripts/store-bench.py [--binary .build/release/signup-rpc] [--names 25]

Each process (real clock, --debounce-ms 0) signs up `--names` fresh names one after another:
it opens a form with the values, waits for the name's check (the latency measured: from the
keystroke to the `ok`), taps submit and waits for `succeeded`. The PostgreSQL server is a fresh
one this script starts itself (initdb and pg_ctl in a temporary folder, as the postgres user when
run as root) and stops afterwards; the SQLite store a fresh file. Loopback and local only.
"""
import argparse
import concurrent.futures
import glob
import os
import pathlib
import shutil
import socket
import subprocess
import sys
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "clients" / "python" / "src"))
from signup_rpc import Client, FieldChanged, SubmissionChanged  # noqa: E402


def percentile(values, fraction):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


class Postgres:
    """A throwaway PostgreSQL server on a Unix socket in a temporary folder."""

    def __init__(self):
        versions = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))
        if not versions:
            sys.exit("store-bench: PostgreSQL is not installed (Debian: apt-get install postgresql)")
        self.bin = os.path.dirname(versions[-1])
        self.folder = tempfile.mkdtemp(prefix="signup-bench-pg-")
        if os.getuid() == 0:
            shutil.chown(self.folder, "postgres", "postgres")
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            self.port = probe.getsockname()[1]
        self.tool("initdb", "-D", f"{self.folder}/data", "-A", "trust", "-U", "postgres", "--no-sync")
        self.tool("pg_ctl", "-D", f"{self.folder}/data", "-l", f"{self.folder}/log", "-w",
                  "-o", f"-p {self.port} -k {self.folder} -c listen_addresses=''", "start")
        self.conninfo = f"host={self.folder} port={self.port} user=postgres dbname=postgres"

    def tool(self, name, *arguments):
        command = [f"{self.bin}/{name}", *arguments]
        if os.getuid() == 0:
            command = ["runuser", "-u", "postgres", "--", *command]
        subprocess.run(command, check=True, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL, close_fds=True)

    def stop(self):
        self.tool("pg_ctl", "-D", f"{self.folder}/data", "-m", "fast", "-w", "stop")
        shutil.rmtree(self.folder, ignore_errors=True)


def sign_up(binary, store, run, process, names):
    """One process signing up `names` names; returns the check latencies and the count registered."""
    latencies, registered = [], 0
    with Client.spawn(binary, ["--debounce-ms", "0", "--store", store], timeout=60) as client:
        for number in range(names):
            name = f"r{run}p{process}n{number}"
            started = time.perf_counter()
            form = client.open("signup", form=f"f{number}", values={
                "username": name, "password": "correct horse", "repeatedPassword": "correct horse"})
            form.wait_for(lambda e: isinstance(e, FieldChanged) and e.field == "username" and e.state != "validating")
            latencies.append(time.perf_counter() - started)
            form.submit()
            done = form.wait_for(lambda e: isinstance(e, SubmissionChanged) and e.state != "submitting")
            registered += done.state == "succeeded"
            form.close()
        client.shutdown()
    return latencies, registered


def measure(binary, store, processes, names):
    started = time.perf_counter()
    with concurrent.futures.ThreadPoolExecutor(processes) as pool:
        results = list(pool.map(lambda process: sign_up(binary, store, processes, process, names), range(processes)))
    elapsed = time.perf_counter() - started
    latencies = [value for result in results for value in result[0]]
    registered = sum(result[1] for result in results)
    return registered / elapsed, percentile(latencies, 0.5), percentile(latencies, 0.99), registered


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--binary", default=str(ROOT / ".build" / "release" / "signup-rpc"))
    parser.add_argument("--names", type=int, default=25)
    arguments = parser.parse_args()
    postgres = Postgres()
    folder = tempfile.mkdtemp(prefix="signup-bench-sqlite-")
    rows = []
    try:
        for processes in (1, 8):
            for label, store in (("SQLite", f"{folder}/users-{processes}.db"), ("PostgreSQL", postgres.conninfo)):
                rate, p50, p99, registered = measure(arguments.binary, store, processes, arguments.names)
                expected = processes * arguments.names
                rows.append((label, processes, rate, p50, p99, registered, expected))
    finally:
        postgres.stop()
        shutil.rmtree(folder, ignore_errors=True)
    print("| store | processes | registrations/s | check p50 | check p99 | registered |")
    print("|---|---|---|---|---|---|")
    for label, processes, rate, p50, p99, registered, expected in rows:
        print(f"| {label} | {processes} | {rate:.1f} | {p50 * 1000:.2f} ms | {p99 * 1000:.2f} ms | {registered}/{expected} |")
    if any(registered != expected for *_, registered, expected in rows):
        sys.exit(1)


if __name__ == "__main__":
    main()
