"""The blocking client: a reader thread takes the server's lines; calls wait for their answers."""
from __future__ import annotations

import itertools
import json
import os
import queue
import shutil
import socket
import subprocess
import threading
import time
from concurrent.futures import Future
from typing import IO, Any, Callable, Dict, Iterator, List, Mapping, Optional, Sequence

from . import _messages as m
from ._bundled import bundled_binary

_CLOSED = object()


def find_binary(binary: Optional[str] = None) -> str:
    """The signup-rpc to run: the argument, else $SIGNUP_RPC_BINARY, else the binary a wheel of
    this package carries, else `signup-rpc` on the PATH."""
    chosen = binary or os.environ.get("SIGNUP_RPC_BINARY") or bundled_binary() or shutil.which("signup-rpc")
    if not chosen:
        raise FileNotFoundError("signup-rpc not found: pass binary=, set SIGNUP_RPC_BINARY or put it on the PATH")
    return chosen


class Client:
    """One connection to a signup-rpc server. Use `spawn`, `attach` or `connect` to make one.

    Every method is safe to call from any thread, including from an event callback, except that
    a callback must not wait for a request's answer (the answer arrives on the thread running it).
    """

    def __init__(self, reader: IO[bytes], writer: IO[bytes], process: Optional[subprocess.Popen[bytes]] = None,
                 timeout: float = 30.0) -> None:
        self._reader, self._writer, self.process, self.timeout = reader, writer, process, timeout
        self._ids = itertools.count(1)
        self._lock = threading.Lock()  # guards the tables below, never held while blocked on I/O
        self._write_lock = threading.Lock()  # keeps each message's bytes together
        self._pending: Dict[int, Future[Any]] = {}
        self._queues: Dict[str, queue.Queue[object]] = {}
        self._callbacks: List[Callable[[m.Event], None]] = []
        self._closed = False
        self._exited = False
        self._thread = threading.Thread(target=self._read, name="signup-rpc-reader", daemon=True)
        self._thread.start()

    @classmethod
    def spawn(cls, binary: Optional[str] = None, args: Sequence[str] = (), *, stderr: Optional[IO[bytes]] = None,
              timeout: float = 30.0) -> "Client":
        """Starts signup-rpc with `args` (such as `["--clock", "virtual"]`) and talks to it."""
        process = subprocess.Popen([find_binary(binary), *args], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                   stderr=stderr, close_fds=True)
        assert process.stdin is not None and process.stdout is not None
        return cls(process.stdout, process.stdin, process, timeout)

    @classmethod
    def attach(cls, reader: IO[bytes], writer: IO[bytes], timeout: float = 30.0) -> "Client":
        """Talks to a server that is already running, through its output and input streams."""
        return cls(reader, writer, None, timeout)

    @classmethod
    def connect(cls, host: str, port: int, timeout: float = 30.0) -> "Client":
        """Talks to `signup-rpc --listen tcp:HOST:PORT` (a session of its own among the server's
        clients), or to any server behind a TCP socket."""
        connection = socket.create_connection((host, port))
        return cls(connection.makefile("rb"), connection.makefile("wb"), None, timeout)

    @classmethod
    def connect_unix(cls, path: str, timeout: float = 30.0) -> "Client":
        """Talks to `signup-rpc --listen unix:PATH`."""
        connection = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        connection.connect(path)
        return cls(connection.makefile("rb"), connection.makefile("wb"), None, timeout)

    def __enter__(self) -> "Client":
        return self

    def __exit__(self, *exception: object) -> None:
        self.close()

    # Methods of the protocol.

    def initialize(self, locale: Optional[str] = None, describe_forms: bool = True,
                   client_name: str = "signup-rpc-python") -> m.ServerInfo:
        """Says hello; with `describe_forms` every kind comes described and every form opens with its description."""
        process_id = os.getpid() if self.process is not None else None
        return m.server_info_from(self.request("initialize", m.initialize_params(locale, describe_forms, client_name, process_id)))

    def open(self, kind: str = "signup", form: Optional[str] = None, values: Optional[Mapping[str, str]] = None,
             record: Optional[Mapping[str, str]] = None, locale: Optional[str] = None, describe: Optional[bool] = None,
             at: Optional[int] = None) -> "Form":
        """Opens a form; its opening events are already waiting in the returned form's events."""
        if form is not None:
            self._queue(form)
        result = self.request("form.open", m.open_params(kind, form, values, record, locale, describe, at))
        description = m.description_from(result["description"]) if "description" in result else None
        return Form(self, result["form"], result["kind"], result["version"], result["locale"], description, result.get("recordId"))

    def validate(self, kind: str = "signup", values: Optional[Mapping[str, str]] = None, locale: Optional[str] = None,
                 at: Optional[int] = None) -> m.Validation:
        """Judges a whole set of values by a kind's local rules, as a form opened with them shows them; opens no form."""
        return m.validation_from(self.request("form.validate", m.validate_params(kind, values or {}, locale, at)))

    def form(self, id: str = "default") -> "Form":
        """A handle on a form that is already open (`default` is opened on first use)."""
        return Form(self, id, None, None, None, None, None)

    def advance_clock(self, by: Optional[int] = None, to: Optional[int] = None) -> int:
        """Moves virtual time (servers started with `--clock virtual`); returns the time now."""
        params = {"by": by} if by is not None else {"to": to}
        return int(self.request("clock.advance", params)["now"])

    def shutdown(self) -> None:
        self.request("shutdown")

    def exit(self) -> None:
        """Asks the server to end; it exits 0 after `shutdown`, 1 otherwise."""
        if not self._exited:
            self._exited = True
            self.notify("exit")

    def close(self) -> Optional[int]:
        """Ends the session: `exit`, closes the stream, and returns the spawned server's exit code."""
        try:
            self.exit()
        except (ConnectionError, OSError, ValueError):
            pass
        try:
            self._writer.close()
        except (OSError, ValueError):
            pass
        if self.process is None:
            return None
        try:
            return self.process.wait(timeout=self.timeout)
        finally:
            self._thread.join(timeout=self.timeout)

    # JSON-RPC.

    def request(self, method: str, params: Optional[Mapping[str, Any]] = None, timeout: Optional[float] = None) -> Any:
        """Sends a request and waits for its result; an error answer raises `RPCError`."""
        id = next(self._ids)
        future: Future[Any] = Future()
        with self._lock:
            if self._closed:
                raise m.ConnectionClosed("the server's output has ended")
            self._pending[id] = future
        message: m.JSONObject = {"jsonrpc": "2.0", "id": id, "method": method}
        if params is not None:
            message["params"] = dict(params)
        self._send(message)
        return future.result(timeout=self.timeout if timeout is None else timeout)

    def notify(self, method: str, params: Optional[Mapping[str, Any]] = None) -> None:
        message: m.JSONObject = {"jsonrpc": "2.0", "method": method}
        if params is not None:
            message["params"] = dict(params)
        self._send(message)

    def on_event(self, callback: Callable[[m.Event], None]) -> None:
        """Calls `callback` with every event of every form, on the reader thread, in order."""
        with self._lock:
            self._callbacks.append(callback)

    def _send(self, message: m.JSONObject) -> None:
        data = m.encode(message)
        with self._write_lock:
            self._writer.write(data)
            self._writer.flush()

    def _queue(self, form: str) -> "queue.Queue[object]":
        with self._lock:
            found = self._queues.get(form)
            if found is None:
                found = self._queues[form] = queue.Queue()
                if self._closed:
                    found.put(_CLOSED)
            return found

    def _read(self) -> None:
        try:
            for line in self._reader:
                self._receive(json.loads(line))
        except (OSError, ValueError):
            pass
        finally:
            with self._lock:
                self._closed = True
                pending, self._pending = self._pending, {}
                queues = list(self._queues.values())
            for future in pending.values():
                future.set_exception(m.ConnectionClosed("the server's output ended before it answered"))
            for waiting in queues:
                waiting.put(_CLOSED)

    def _receive(self, message: Any) -> None:
        for single in message if isinstance(message, list) else [message]:
            if "method" in single:
                event = m.event_from(single)
                if event is None:
                    continue
                self._queue(event.form).put(event)
                with self._lock:
                    callbacks = list(self._callbacks)
                for callback in callbacks:
                    callback(event)
                continue
            with self._lock:
                future = self._pending.pop(single.get("id"), None) if isinstance(single.get("id"), int) else None
            if future is None:
                continue
            if "error" in single:
                future.set_exception(m.error_from(single["error"]))
            else:
                future.set_result(single.get("result"))


class Form:
    """One open form: send edits and taps, read its events in order."""

    def __init__(self, client: Client, id: str, kind: Optional[str], version: Optional[int], locale: Optional[str],
                 description: Optional[m.FormDescription], record_id: Optional[str]) -> None:
        self.client, self.id, self.kind, self.version, self.locale = client, id, kind, version, locale
        self.description, self.record_id = description, record_id
        self._events = client._queue(id)

    def edit(self, field: str, value: str, at: Optional[int] = None) -> int:
        """Sets a field's whole value; returns the form's edit version."""
        params: m.JSONObject = {"form": self.id, "field": field, "value": value}
        if at is not None:
            params["at"] = at
        self.version = int(self.client.request("form.edit", params)["version"])
        return self.version

    def type(self, field: str, text: str, pause: float = 0.0) -> int:
        """Types `text` into an empty field one character at a time, `pause` seconds apart, as a person would."""
        version = self.version or 0
        for end in range(1, len(text) + 1):
            if pause and end > 1:
                time.sleep(pause)
            version = self.edit(field, text[:end])
        return version

    def submit(self, at: Optional[int] = None) -> m.SubmitResult:
        params: m.JSONObject = {"form": self.id}
        if at is not None:
            params["at"] = at
        result = self.client.request("form.submit", params)
        return m.SubmitResult(result["accepted"], result.get("reason"))

    def snapshot(self) -> m.Snapshot:
        return m.snapshot_from(self.client.request("form.snapshot", {"form": self.id}))

    def close(self) -> None:
        self.client.request("form.close", {"form": self.id})

    def next_event(self, timeout: Optional[float] = None) -> m.Event:
        """The form's next event, waiting up to `timeout` seconds (`queue.Empty` when none came)."""
        item = self._events.get(timeout=self.client.timeout if timeout is None else timeout)
        if item is _CLOSED:
            self._events.put(_CLOSED)
            raise m.ConnectionClosed("the server's output has ended")
        assert isinstance(item, (m.FieldChanged, m.FieldPresenceChanged, m.SubmitEnabledChanged, m.SubmissionChanged))
        return item

    def pending_events(self) -> List[m.Event]:
        """The events that have arrived and not been read, without waiting."""
        events: List[m.Event] = []
        while True:
            try:
                events.append(self.next_event(timeout=0))
            except queue.Empty:
                return events

    def events(self, quiet: float = 1.0) -> Iterator[m.Event]:
        """The form's events as they come, until none has come for `quiet` seconds."""
        while True:
            try:
                yield self.next_event(timeout=quiet)
            except queue.Empty:
                return

    def wait_for(self, predicate: Callable[[m.Event], bool], timeout: Optional[float] = None) -> m.Event:
        """Reads events until one satisfies `predicate`, and returns it."""
        while True:
            event = self.next_event(timeout)
            if predicate(event):
                return event
