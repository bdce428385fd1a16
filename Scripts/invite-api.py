#!/usr/bin/env python3
"""A product's own sign-up API, as Examples/forms/invite-signup.json and Examples/api/api-signup.json ask it.

    INVITE_API_TOKEN=s3cret Scripts/invite-api.py [--port 8765] [--invite CODE=EMAIL ...]
    INVITE_API_TOKEN=s3cret signup-rpc --forms Examples/forms     # or --forms Examples/api

Standard library only.

Every request must carry `Authorization: Bearer $INVITE_API_TOKEN` (401 otherwise).

- GET /invites/CODE?email=E: {"valid": true} for an unused invite issued to E; otherwise
  {"valid": false, "code", "message", "params"}: invite.unknown, invite.used, invite.otherAddress.
- GET /usernames/NAME: 200 when the name is taken, 404 when free (compared case-insensitively).
- POST /accounts {"email", "inviteCode", "username", "password"}: 201 {"id", "username",
  "sessionToken"}, or 422 RFC 9457 problem details whose `errors` point at the fields at fault.
  The password is kept only as a salted hash.

Invites default to GOOD-0001 … GOOD-0009, each for any address, and OLDX-2024 (expired).
"""
import argparse
import hashlib
import http.server
import json
import os
import secrets
import sys
import threading
import urllib.parse


class Store:
    """Invites, usernames and accounts, under one lock."""

    def __init__(self, invites):
        self.lock = threading.Lock()
        self.invites = invites  # code -> {"email": address or None, "used": bool, "expired": bool}
        self.accounts = {}  # folded username -> account
        self.emails = set()

    def check_invite(self, code, email):
        with self.lock:
            invite = self.invites.get(code)
            if invite is None:
                return issue("invite.unknown", "No invite has the code {code}", code=code)
            if invite["expired"]:
                return issue("invite.expired", "This invite expired on {date}", date="2026-01-31")
            if invite["used"]:
                return issue("invite.used", "This invite was already used")
            if invite["email"] and invite["email"] != email.lower():
                return issue("invite.otherAddress", "This invite was issued to another address")
            return None

    def register(self, fields):
        errors = []
        with self.lock:
            email = fields.get("email", "").lower()
            if email in self.emails:
                errors.append({"pointer": "#/email", "detail": "{email} is already registered".replace("{email}", email),
                               "code": "email.taken"})
            if fields.get("username", "").casefold() in self.accounts:
                errors.append({"pointer": "#/username", "detail": "This username is taken", "code": "username.taken"})
            if len(fields.get("password", "")) < 8:
                errors.append({"pointer": "#/password", "detail": "Use at least 8 characters", "code": "password.tooShort"})
        problem = self.check_invite(fields.get("inviteCode", ""), email)
        if problem:
            errors.append({"pointer": "#/inviteCode", "detail": problem["message"], "code": problem["code"]})
        if errors:
            return 422, {"type": "https://example.com/problems/validation", "title": "Your request is not valid",
                         "status": 422, "errors": errors}
        salt = secrets.token_bytes(16)
        with self.lock:
            account = {"id": len(self.accounts) + 1, "username": fields["username"],
                       "passwordHash": hashlib.scrypt(fields["password"].encode(), salt=salt, n=2**14, r=8, p=1).hex()}
            self.accounts[fields["username"].casefold()] = account
            self.emails.add(email)
            self.invites[fields["inviteCode"]]["used"] = True
        return 201, {"id": account["id"], "username": account["username"], "sessionToken": secrets.token_urlsafe(24)}


def issue(code, message, **params):
    rendered = message
    for name, value in params.items():
        rendered = rendered.replace("{" + name + "}", str(value))
    return {"valid": False, "code": code, "message": rendered, "params": params}


def handler(store, token):
    class Handler(http.server.BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, format, *args):  # quiet: a test reads stderr for errors only
            pass

        def answer(self, status, body=None):
            data = b"" if body is None else json.dumps(body).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json" if body is not None else "text/plain")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def authorised(self):
            if self.headers.get("Authorization") == f"Bearer {token}":
                return True
            self.answer(401, {"title": "Unauthorized", "status": 401, "detail": "a bearer token is required"})
            return False

        def do_GET(self):
            if not self.authorised():
                return
            url = urllib.parse.urlsplit(self.path)
            parts = [urllib.parse.unquote(part) for part in url.path.split("/")[1:]]
            query = urllib.parse.parse_qs(url.query)
            if len(parts) == 2 and parts[0] == "invites":
                problem = store.check_invite(parts[1], query.get("email", [""])[0])
                self.answer(200, problem or {"valid": True})
            elif len(parts) == 2 and parts[0] == "usernames":
                with store.lock:
                    taken = parts[1].casefold() in store.accounts or parts[1].casefold() in ("admin", "root")
                self.answer(200 if taken else 404, {"username": parts[1]} if taken else None)
            else:
                self.answer(404, None)

        def do_POST(self):
            try:
                length = int(self.headers.get("Content-Length") or 0)
            except ValueError:
                length = -1
            if not 0 <= length <= 1 << 20:
                return self.answer(400, {"title": "Bad request", "status": 400, "detail": "send a body of at most 1 MiB"})
            body = self.rfile.read(length)
            if not self.authorised():
                return
            if self.path != "/accounts":
                return self.answer(404, None)
            try:
                fields = json.loads(body)
                assert isinstance(fields, dict) and all(isinstance(value, str) for value in fields.values())
            except (ValueError, AssertionError):
                return self.answer(400, {"title": "Bad request", "status": 400, "detail": "send the fields as a JSON object of strings"})
            self.answer(*store.register(fields))

    return Handler


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--port", type=int, default=8765)
    parser.add_argument("--invite", action="append", default=[], metavar="CODE=EMAIL",
                        help="an invite for one address (CODE= for any); replaces the default invites")
    options = parser.parse_args()
    token = os.environ.get("INVITE_API_TOKEN")
    if not token:
        print("invite-api: set INVITE_API_TOKEN to the token clients must send", file=sys.stderr)
        return 64
    invites = {f"GOOD-000{n}": {"email": None, "used": False, "expired": False} for n in range(1, 10)}
    invites["OLDX-2024"] = {"email": None, "used": False, "expired": True}
    if options.invite:
        invites = {}
        for given in options.invite:
            code, _, email = given.partition("=")
            invites[code] = {"email": email.lower() or None, "used": False, "expired": False}
    server = http.server.ThreadingHTTPServer(("127.0.0.1", options.port), handler(Store(invites), token))
    print(f"invite-api: listening on http://127.0.0.1:{server.server_address[1]}/", file=sys.stderr, flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
