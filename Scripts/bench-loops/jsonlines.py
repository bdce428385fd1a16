#!/usr/bin/env python3
"""A plain JSON-lines loop doing a keystroke's work as signup-rpc does it, for signup-bench's
figure 2: reads `form.open` and `form.edit` requests one line at a time, keeps each form's
fields and versions, judges the sign-up form's local rules (username, password, repeated
password), and writes the `form.fieldChanged` notification and the response, flushed per line.
Nothing else: no debounce, no backend, no limits. A baseline, not a server."""
import json
import sys
import time

START = time.monotonic()
FIELDS = ("username", "password", "repeatedPassword")


def judge(form, field):
    value = form["values"][field]
    if value == "":
        return "empty", f"{field}.empty", {}, ""
    if field == "username":
        if not all(c.isalnum() or c in "_-." for c in value):
            return "failed", "username.invalidCharacters", {}, "Username can only contain letters, digits, '_', '-' and '.'"
        return "validating", "username.checking", {}, "Checking availability..."
    if field == "password":
        if len(value) < 5:
            return "failed", "password.tooShort", {"min": 5}, "Password must be at least 5 characters"
        return "ok", "password.acceptable", {}, "Password acceptable"
    if value != form["values"]["password"]:
        return "failed", "repeatedPassword.mismatch", {}, "Passwords do not match"
    return "ok", "repeatedPassword.matches", {}, "Password repeated"


def send(out, message):
    out.write(json.dumps(message, separators=(",", ":"), ensure_ascii=False).encode())
    out.write(b"\n")


def main():
    forms = {}
    out = sys.stdout.buffer
    for line in sys.stdin.buffer:
        message = json.loads(line)
        params = message.get("params", {})
        at = int((time.monotonic() - START) * 1000)
        form_id = params.get("form", "default")
        if message.get("method") == "form.open":
            form = forms[form_id] = {"values": dict.fromkeys(FIELDS, ""), "version": 0}
            for field in FIELDS:
                state, code, details, text = judge(form, field)
                send(out, {"jsonrpc": "2.0", "method": "form.fieldChanged", "params": {
                    "form": form_id, "field": field, "state": state, "code": code, "params": details,
                    "message": text, "version": 0, "at": at}})
            result = {"form": form_id, "kind": "signup", "version": 0, "locale": "en"}
        elif message.get("method") == "form.edit":
            form = forms[form_id]
            field = params["field"]
            form["values"][field] = params["value"]
            form["version"] += 1
            state, code, details, text = judge(form, field)
            send(out, {"jsonrpc": "2.0", "method": "form.fieldChanged", "params": {
                "form": form_id, "field": field, "state": state, "code": code, "params": details,
                "message": text, "version": form["version"], "at": at}})
            result = {"form": form_id, "version": form["version"]}
        else:
            result = None
        if "id" in message:
            send(out, {"jsonrpc": "2.0", "id": message["id"], "result": result})
        out.flush()


if __name__ == "__main__":
    main()
