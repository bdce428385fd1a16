#!/usr/bin/env python3
"""Writes a deterministic virtual-clock session to stdout, for checking that a change to the core
leaves the output byte-identical:

    Scripts/virtual-workload.py --lines 200000 > /tmp/w.jsonl
    .build/release/signup-rpc --clock virtual < /tmp/w.jsonl | md5sum   # before and after

It mixes every form kind and method: edits that pass and fail each rule, names that are free,
taken and checked again, taps while validating, enabled and submitting, logins (right, wrong,
rate-limited), friends added and updated, snapshots, closes and reopened ids, with time moving
by `at` and `clock.advance`.
"""
import argparse
import json
import random

NAMES = ["alice", "bob", "octocat", "root", "zoë", "李雷", "bob!", "", "alice2", "carol", "dave-x", "Ｆｕｌｌ"]
PASSWORDS = ["", "abc", "secret", "hunter22", "correct horse battery", "abcdefgh1"]
PHONES = ["", "+44 20", "+442079460000", "5550123", "12345678901234567"]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--lines", type=int, default=200000)
    parser.add_argument("--seed", type=int, default=1)
    arguments = parser.parse_args()
    generator = random.Random(arguments.seed)
    now = 0
    ids = 0
    open_forms = {}  # id -> kind
    written = 0

    def emit(method, params, request=False):
        nonlocal written, ids
        message = {"jsonrpc": "2.0", "method": method, "params": params}
        if request:
            ids += 1
            message["id"] = ids
        print(json.dumps(message, ensure_ascii=False, separators=(",", ":")))
        written += 1

    while written < arguments.lines:
        now += generator.choice([0, 0, 10, 50, 120, 300, 700])
        choice = generator.random()
        if not open_forms or (choice < 0.03 and len(open_forms) < 200):
            form = f"f{generator.randrange(300)}"
            if form in open_forms:
                continue
            # Logins are few: each one hashes with yescrypt, which takes milliseconds on purpose.
            kind = generator.choice(["signup"] * 4 + ["signup-github"] * 3 + ["friend"] * 2 + ["login"])
            emit("form.open", {"kind": kind, "form": form, "at": now}, request=generator.random() < 0.5)
            open_forms[form] = kind
            continue
        form = generator.choice(sorted(open_forms))
        kind = open_forms[form]
        if choice < 0.75:
            if kind in ("signup", "signup-github"):
                field = generator.choice(["username", "username", "password", "repeatedPassword"])
            elif kind == "login":
                field = generator.choice(["username", "password"])
            else:
                field = generator.choice(["firstName", "lastName", "phone"])
            values = {"username": NAMES, "password": PASSWORDS, "repeatedPassword": PASSWORDS,
                      "firstName": ["", " ", "Ada", "Grace"], "lastName": ["", "Lovelace", "Hopper"], "phone": PHONES}[field]
            emit("form.edit", {"form": form, "field": field, "value": generator.choice(values), "at": now},
                 request=generator.random() < 0.3)
        elif choice < 0.88 and (kind != "login" or generator.random() < 0.1):
            emit("form.submit", {"form": form, "at": now}, request=generator.random() < 0.7)
        elif choice < 0.92:
            emit("form.snapshot", {"form": form, "at": now}, request=True)
        elif choice < 0.95:
            emit("form.close", {"form": form, "at": now}, request=generator.random() < 0.5)
            del open_forms[form]
        else:
            now += generator.choice([100, 500, 1000, 2000])
            emit("clock.advance", {"to": now}, request=True)


if __name__ == "__main__":
    main()
