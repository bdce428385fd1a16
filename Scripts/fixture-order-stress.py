#!/usr/bin/env python3
"""Records many short real-clock sessions against a loopback HTTP backend with jittered
latencies, writes a fixture of each (`signup-rpc replay --write-fixture`) and counts the fixtures
whose output differs from the recorded events (issue 36 §5).

    python3 Scripts/fixture-order-stress.py [--binary .build/release/signup-rpc] [--sessions 200] [--seed 1] [--busy]

A debounce of 2 ms, keystrokes 0-8 ms apart and answers after 0-4 ms make keystrokes, quiet
periods' ends and answers meet in the same millisecond in most sessions; with --busy, batches for
another form hold the loop while debounces fall due, so that Dispatch fires them late. Exits 1 if
any fixture differs; CI runs it both ways.
"""
import argparse, http.server, json, random, socketserver, subprocess, sys, tempfile, threading, time

parser = argparse.ArgumentParser()
parser.add_argument("--binary", default=".build/release/signup-rpc")
parser.add_argument("--sessions", type=int, default=200)
parser.add_argument("--seed", type=int, default=1)
parser.add_argument("--busy", action="store_true",
                    help="send another form a batch that holds the loop a few ms before some keystrokes, so timers fall due while it works")
options = parser.parse_args()
random.seed(options.seed)


class Directory(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        time.sleep(random.random() * 0.004)
        self.send_response(200 if self.path.endswith("/ali") else 404)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def log_message(self, *arguments):
        pass


class Server(socketserver.ThreadingTCPServer):
    daemon_threads = True


server = Server(("127.0.0.1", 0), Directory)
threading.Thread(target=server.serve_forever, daemon=True).start()
url = f"http://127.0.0.1:{server.server_address[1]}"
folder = tempfile.mkdtemp(prefix="fixture-order-")
typed = ["a", "al", "ali", "alic", "ali", "al", "ali", "alice"]
differing = []
for session in range(options.sessions):
    recording = f"{folder}/s{session}.rec.jsonl"
    child = subprocess.Popen(
        [options.binary, "--clock", "real", "--debounce-ms", "2", "--record", recording,
         "--availability-url", url + "/users/{username}", "--signup-url", url + "/signup"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    if options.busy:
        opening = {"jsonrpc": "2.0", "id": "busy", "method": "form.open", "params": {"kind": "signup-github", "form": "busy"}}
        child.stdin.write((json.dumps(opening) + "\n").encode())
    for value in typed:
        if options.busy and random.random() < 0.5:
            batch = [{"jsonrpc": "2.0", "method": "form.edit",
                      "params": {"form": "busy", "field": "password", "value": "pw%d-%d" % (session, n) * 50}}
                     for n in range(random.randrange(50, 400))]
            child.stdin.write((json.dumps(batch) + "\n").encode())
        edit = {"jsonrpc": "2.0", "method": "form.edit", "params": {"field": "username", "value": value}}
        child.stdin.write((json.dumps(edit) + "\n").encode())
        child.stdin.flush()
        time.sleep(random.random() * 0.008)
    while True:
        line = child.stdout.readline()
        if not line or (b'"version":%d' % len(typed) in line and b"username.available" in line):
            break
    child.stdin.close()
    child.stdout.read()
    child.wait()
    subprocess.run([options.binary, "replay", recording, "--write-fixture", f"{folder}/s{session}"], capture_output=True)
    with open(recording) as file:
        recorded = [json.dumps(json.loads(line)["out"], separators=(",", ":"), ensure_ascii=False)
                    for line in file.read().splitlines()[1:] if '"out"' in line]
    with open(f"{folder}/s{session}.out.jsonl") as file:
        if file.read().splitlines() != recorded:
            differing.append(recording)
print(f"{len(differing)} of {options.sessions} fixtures differ from their recordings", *differing[:5], sep="\n")
sys.exit(1 if differing else 0)
