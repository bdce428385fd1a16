"""The asyncio client: the same calls as `Client`, awaited; a reader task takes the server's lines."""
from __future__ import annotations

import asyncio
import itertools
import json
import os
from typing import Any, AsyncIterator, Callable, Dict, List, Mapping, Optional, Sequence

from . import _messages as m
from .client import find_binary

_CLOSED = object()


class AsyncClient:
    """One connection to a signup-rpc server, for asyncio. Use `spawn`, `attach` or `connect`."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter,
                 process: Optional[asyncio.subprocess.Process] = None, timeout: float = 30.0) -> None:
        self._reader, self._writer, self.process, self.timeout = reader, writer, process, timeout
        self._ids = itertools.count(1)
        self._pending: Dict[int, asyncio.Future[Any]] = {}
        self._queues: Dict[str, asyncio.Queue[object]] = {}
        self._callbacks: List[Callable[[m.Event], None]] = []
        self._closed = False
        self._exited = False
        self._task = asyncio.get_running_loop().create_task(self._read())

    @classmethod
    async def spawn(cls, binary: Optional[str] = None, args: Sequence[str] = (), timeout: float = 30.0) -> "AsyncClient":
        """Starts signup-rpc with `args` and talks to it."""
        process = await asyncio.create_subprocess_exec(
            find_binary(binary), *args, stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
            limit=16 * 1024 * 1024)
        assert process.stdin is not None and process.stdout is not None
        return cls(process.stdout, process.stdin, process, timeout)

    @classmethod
    async def connect(cls, host: str, port: int, timeout: float = 30.0) -> "AsyncClient":
        """Talks to `signup-rpc --listen tcp:HOST:PORT`, or to any server behind a TCP socket."""
        reader, writer = await asyncio.open_connection(host, port, limit=16 * 1024 * 1024)
        return cls(reader, writer, None, timeout)

    @classmethod
    async def connect_unix(cls, path: str, timeout: float = 30.0) -> "AsyncClient":
        """Talks to `signup-rpc --listen unix:PATH`."""
        reader, writer = await asyncio.open_unix_connection(path, limit=16 * 1024 * 1024)
        return cls(reader, writer, None, timeout)

    @classmethod
    def attach(cls, reader: asyncio.StreamReader, writer: asyncio.StreamWriter, timeout: float = 30.0) -> "AsyncClient":
        """Talks to a server that is already running, through its output and input streams."""
        return cls(reader, writer, None, timeout)

    async def __aenter__(self) -> "AsyncClient":
        return self

    async def __aexit__(self, *exception: object) -> None:
        await self.close()

    async def initialize(self, locale: Optional[str] = None, describe_forms: bool = True,
                         client_name: str = "signup-rpc-python") -> m.ServerInfo:
        process_id = os.getpid() if self.process is not None else None
        params = m.initialize_params(locale, describe_forms, client_name, process_id)
        return m.server_info_from(await self.request("initialize", params))

    async def open(self, kind: str = "signup", form: Optional[str] = None, values: Optional[Mapping[str, str]] = None,
                   record: Optional[Mapping[str, str]] = None, locale: Optional[str] = None,
                   describe: Optional[bool] = None, at: Optional[int] = None) -> "AsyncForm":
        if form is not None:
            self._queue(form)
        result = await self.request("form.open", m.open_params(kind, form, values, record, locale, describe, at))
        description = m.description_from(result["description"]) if "description" in result else None
        return AsyncForm(self, result["form"], result["kind"], result["version"], result["locale"], description,
                         result.get("recordId"))

    async def validate(self, kind: str = "signup", values: Optional[Mapping[str, str]] = None, locale: Optional[str] = None,
                       at: Optional[int] = None) -> m.Validation:
        return m.validation_from(await self.request("form.validate", m.validate_params(kind, values or {}, locale, at)))

    def form(self, id: str = "default") -> "AsyncForm":
        return AsyncForm(self, id, None, None, None, None, None)

    async def advance_clock(self, by: Optional[int] = None, to: Optional[int] = None) -> int:
        params = {"by": by} if by is not None else {"to": to}
        return int((await self.request("clock.advance", params))["now"])

    async def shutdown(self) -> None:
        await self.request("shutdown")

    async def exit(self) -> None:
        if not self._exited:
            self._exited = True
            await self.notify("exit")

    async def close(self) -> Optional[int]:
        """Ends the session: `exit`, closes the stream, and returns the spawned server's exit code."""
        try:
            await self.exit()
        except (ConnectionError, OSError):
            pass
        self._writer.close()
        if self.process is None:
            return None
        code = await asyncio.wait_for(self.process.wait(), self.timeout)
        await asyncio.wait_for(self._task, self.timeout)
        return code

    async def request(self, method: str, params: Optional[Mapping[str, Any]] = None,
                      timeout: Optional[float] = None) -> Any:
        if self._closed:
            raise m.ConnectionClosed("the server's output has ended")
        id = next(self._ids)
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self._pending[id] = future
        message: m.JSONObject = {"jsonrpc": "2.0", "id": id, "method": method}
        if params is not None:
            message["params"] = dict(params)
        await self._send(message)
        return await asyncio.wait_for(future, self.timeout if timeout is None else timeout)

    async def notify(self, method: str, params: Optional[Mapping[str, Any]] = None) -> None:
        message: m.JSONObject = {"jsonrpc": "2.0", "method": method}
        if params is not None:
            message["params"] = dict(params)
        await self._send(message)

    def on_event(self, callback: Callable[[m.Event], None]) -> None:
        """Calls `callback` with every event of every form, in order, from the reader task."""
        self._callbacks.append(callback)

    async def _send(self, message: m.JSONObject) -> None:
        self._writer.write(m.encode(message))
        await self._writer.drain()

    def _queue(self, form: str) -> "asyncio.Queue[object]":
        found = self._queues.get(form)
        if found is None:
            found = self._queues[form] = asyncio.Queue()
            if self._closed:
                found.put_nowait(_CLOSED)
        return found

    async def _read(self) -> None:
        try:
            while line := await self._reader.readline():
                self._receive(json.loads(line))
        except (OSError, ValueError):
            pass
        finally:
            self._closed = True
            pending, self._pending = self._pending, {}
            for future in pending.values():
                if not future.done():
                    future.set_exception(m.ConnectionClosed("the server's output ended before it answered"))
            for waiting in self._queues.values():
                waiting.put_nowait(_CLOSED)

    def _receive(self, message: Any) -> None:
        for single in message if isinstance(message, list) else [message]:
            if "method" in single:
                event = m.event_from(single)
                if event is not None:
                    self._queue(event.form).put_nowait(event)
                    for callback in list(self._callbacks):
                        callback(event)
                continue
            id = single.get("id")
            future = self._pending.pop(id, None) if isinstance(id, int) else None
            if future is None or future.done():
                continue
            if "error" in single:
                future.set_exception(m.error_from(single["error"]))
            else:
                future.set_result(single.get("result"))


class AsyncForm:
    """One open form, for asyncio."""

    def __init__(self, client: AsyncClient, id: str, kind: Optional[str], version: Optional[int], locale: Optional[str],
                 description: Optional[m.FormDescription], record_id: Optional[str]) -> None:
        self.client, self.id, self.kind, self.version, self.locale = client, id, kind, version, locale
        self.description, self.record_id = description, record_id
        self._events = client._queue(id)

    async def edit(self, field: str, value: str, at: Optional[int] = None) -> int:
        params: m.JSONObject = {"form": self.id, "field": field, "value": value}
        if at is not None:
            params["at"] = at
        self.version = int((await self.client.request("form.edit", params))["version"])
        return self.version

    async def type(self, field: str, text: str, pause: float = 0.0) -> int:
        """Types `text` into an empty field one character at a time, `pause` seconds apart."""
        version = self.version or 0
        for end in range(1, len(text) + 1):
            if pause and end > 1:
                await asyncio.sleep(pause)
            version = await self.edit(field, text[:end])
        return version

    async def submit(self, at: Optional[int] = None) -> m.SubmitResult:
        params: m.JSONObject = {"form": self.id}
        if at is not None:
            params["at"] = at
        result = await self.client.request("form.submit", params)
        return m.SubmitResult(result["accepted"], result.get("reason"))

    async def snapshot(self) -> m.Snapshot:
        return m.snapshot_from(await self.client.request("form.snapshot", {"form": self.id}))

    async def close(self) -> None:
        await self.client.request("form.close", {"form": self.id})

    async def next_event(self, timeout: Optional[float] = None) -> m.Event:
        """The form's next event, waiting up to `timeout` seconds (`asyncio.TimeoutError` when none came)."""
        item = await asyncio.wait_for(self._events.get(), self.client.timeout if timeout is None else timeout)
        if item is _CLOSED:
            self._events.put_nowait(_CLOSED)
            raise m.ConnectionClosed("the server's output has ended")
        assert isinstance(item, (m.FieldChanged, m.FieldPresenceChanged, m.SubmitEnabledChanged, m.SubmissionChanged))
        return item

    def pending_events(self) -> List[m.Event]:
        events: List[m.Event] = []
        while not self._events.empty():
            item = self._events.get_nowait()
            if item is _CLOSED:
                self._events.put_nowait(_CLOSED)
                break
            assert isinstance(item, (m.FieldChanged, m.FieldPresenceChanged, m.SubmitEnabledChanged, m.SubmissionChanged))
            events.append(item)
        return events

    async def events(self, quiet: float = 1.0) -> AsyncIterator[m.Event]:
        """The form's events as they come, until none has come for `quiet` seconds."""
        while True:
            try:
                yield await self.next_event(timeout=quiet)
            except asyncio.TimeoutError:
                return

    async def wait_for(self, predicate: Callable[[m.Event], bool], timeout: Optional[float] = None) -> m.Event:
        while True:
            event = await self.next_event(timeout)
            if predicate(event):
                return event
