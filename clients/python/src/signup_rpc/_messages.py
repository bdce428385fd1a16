"""What goes over the wire, as Python values: events, results, descriptions and errors.

Shapes follow protocol.md and schemas/messages.schema.json in the signup-rpc repository.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Dict, List, Mapping, Optional, Union, cast

from . import _protocol as wire

JSONObject = Dict[str, Any]


class RPCError(Exception):
    """The server answered a request with an error (protocol.md §9)."""

    def __init__(self, code: int, message: str, data: Optional[JSONObject] = None) -> None:
        super().__init__(f"{message} ({code})")
        self.code = code
        self.message = message
        self.data = data


class ConnectionClosed(ConnectionError):
    """The server's output ended (it exited, or the stream was closed)."""


@dataclass(frozen=True)
class FieldChanged:
    """A field's result changed: what to show under it."""

    form: str
    field: str
    state: str  # empty, validating, ok, failed
    code: str
    params: Mapping[str, Any]
    message: str
    version: int
    at: int

    @property
    def unmet(self) -> List[str]:
        """A checklist field's failing requirements, by code (protocol.md, "Checklists"): all of them
        while the field is empty is for the caller to say; none once its rules pass."""
        unmet = self.params.get("unmet", [])
        return [code for code in unmet if isinstance(code, str)] if isinstance(unmet, list) else []


@dataclass(frozen=True)
class FieldPresenceChanged:
    """A field shown or hidden, made required or optional, by the form's conditions (a JSON Schema
    form's if/then/else, dependentRequired, dependentSchemas, oneOf). A hidden field gets no
    results while hidden and is submitted empty."""
    form: str
    field: str
    shown: bool
    required: bool
    at: int


@dataclass(frozen=True)
class SubmitEnabledChanged:
    form: str
    enabled: bool
    at: int


@dataclass(frozen=True)
class SubmissionChanged:
    """A submission's state changed. `result` is the success's `account`, `friend`, or, for a kind
    that submits to its own API, the API's `result` (any JSON value, secrets masked)."""

    form: str
    state: str
    at: int
    result: Optional[Any] = None
    code: Optional[str] = None
    params: Mapping[str, Any] = field(default_factory=dict)
    message: Optional[str] = None


Event = Union[FieldChanged, FieldPresenceChanged, SubmitEnabledChanged, SubmissionChanged]


@dataclass(frozen=True)
class RemoteCheckDescription:
    """One of a field's remote checks: its name and kind (`usernameAvailability` or `http`)."""

    name: str
    kind: str


@dataclass(frozen=True)
class RequirementDescription:
    """One item of a checklist field: the code of the rule (listed in `FieldChanged.unmet` while
    it is not met) and what it asks for."""

    code: str
    message: str


@dataclass(frozen=True)
class FieldDescription:
    name: str
    label: str
    placeholder: Optional[str]
    input: str
    required: bool
    secret: bool
    max_length: Optional[int]
    remote_check: Optional[str]  # the kind of the first of `remote_checks`
    remote_checks: List[RemoteCheckDescription] = field(default_factory=list)
    requirements: List[RequirementDescription] = field(default_factory=list)  # a checklist field's, else empty
    help: Optional[str] = None  # a longer explanation (a JSON Schema form's description)
    default: Optional[str] = None  # the value the form opens with when none is given
    conditional: bool = False  # shown, hidden or required as FieldPresenceChanged events say
    choices: Optional[List[str]] = None  # the only values it takes (a schema's enum, const or boolean)


@dataclass(frozen=True)
class SubmissionStateDescription:
    state: str
    meaning: str  # idle, submitting, succeeded or failed
    message: str


@dataclass(frozen=True)
class FormDescription:
    """What a frontend draws a form from (protocol.md, "Describing forms")."""

    kind: str
    title: str
    fields: List[FieldDescription]
    submit_label: str
    result: str
    states: List[SubmissionStateDescription]
    failures: Dict[str, str]  # code -> message

    def state(self, name: str) -> SubmissionStateDescription:
        """The description of a submission state as `SubmissionChanged.state` names it."""
        return next(state for state in self.states if state.state == name)


@dataclass(frozen=True)
class ServerInfo:
    name: str
    version: str
    protocol_version: str
    locale: str
    clock: str
    debounce_ms: int
    kinds: List[str]
    descriptions: Dict[str, FormDescription]
    unsupported_locale: Optional[str] = None
    raw: JSONObject = field(default_factory=dict, repr=False)


@dataclass(frozen=True)
class SubmitResult:
    accepted: bool
    reason: Optional[str] = None  # invalid, validating, submitting or submitted when not accepted


@dataclass(frozen=True)
class FieldSnapshot:
    field: str
    state: str
    code: str
    params: Mapping[str, Any]
    message: str
    version: int


@dataclass(frozen=True)
class Snapshot:
    form: str
    kind: str
    version: int
    fields: List[FieldSnapshot]
    submit_enabled: bool
    submission: Mapping[str, Any]
    record_id: Optional[str] = None


@dataclass(frozen=True)
class FieldVerdict:
    """A field's result from its local rules alone (`form.validate`); `shown` is False for a field
    the form's conditions hide."""
    field: str
    state: str
    code: str
    params: Mapping[str, Any]
    message: str
    shown: bool = True


@dataclass(frozen=True)
class Issue:
    """What a whole object fails beyond its fields (a JSON Schema form's verdict)."""
    code: str
    params: Mapping[str, Any]
    message: str


@dataclass(frozen=True)
class Validation:
    """What `form.validate` says of a whole set of values: `valid` when no field is failed or empty;
    a field left to a remote check is `validating`."""
    kind: str
    locale: str
    valid: bool
    fields: List[FieldVerdict]
    unsupported_locale: Optional[str] = None
    issues: List[Issue] = field(default_factory=list)


def validation_from(result: wire.ValidateResult) -> Validation:
    return Validation(
        kind=result["kind"], locale=result["locale"], valid=result["valid"],
        fields=[FieldVerdict(f["field"], f["state"], f["code"], f["params"], f["message"], f.get("shown", True)) for f in result["fields"]],
        unsupported_locale=result.get("unsupportedLocale"),
        issues=[Issue(i["code"], i["params"], i["message"]) for i in result.get("issues", [])])


def validate_params(kind: str, values: Mapping[str, str], locale: Optional[str], at: Optional[int]) -> JSONObject:
    params: JSONObject = {"kind": kind, "values": dict(values)}
    if locale is not None:
        params["locale"] = locale
    if at is not None:
        params["at"] = at
    return params


def encode(message: JSONObject) -> bytes:
    return json.dumps(message, ensure_ascii=False, separators=(",", ":")).encode("utf-8") + b"\n"


def event_from(message: JSONObject) -> Optional[Event]:
    """The event a notification carries, or None for a method this client does not know."""
    method, params = message.get("method"), message.get("params") or {}
    if method == "form.fieldChanged":
        return FieldChanged(params["form"], params["field"], params["state"], params["code"], params["params"],
                            params["message"], params["version"], params["at"])
    if method == "form.fieldPresenceChanged":
        return FieldPresenceChanged(params["form"], params["field"], params["shown"], params["required"], params["at"])
    if method == "form.submitEnabledChanged":
        return SubmitEnabledChanged(params["form"], params["enabled"], params["at"])
    if method == "form.submissionChanged":
        result = params.get("account", params.get("friend", params.get("result")))
        return SubmissionChanged(params["form"], params["state"], params["at"], result, params.get("code"),
                                 params.get("params", {}), params.get("message"))
    return None


def description_from(value: wire.FormDescription) -> FormDescription:
    submit = value["submit"]
    return FormDescription(
        kind=value["kind"], title=value["title"],
        fields=[FieldDescription(f["name"], f["label"], f["placeholder"], f["input"], f["required"], f["secret"],
                                 f["maxLength"], f["remoteCheck"],
                                 [RemoteCheckDescription(c["name"], c["kind"]) for c in f.get("remoteChecks", [])],
                                 [RequirementDescription(r["code"], r["message"]) for r in f.get("requirements", [])],
                                 f.get("help"), f.get("default"), f.get("conditional", False), f.get("choices"))
                for f in value["fields"]],
        submit_label=submit["label"], result=submit["result"],
        states=[SubmissionStateDescription(s["state"], s["meaning"], s["message"]) for s in submit["states"]],
        failures={f["code"]: f["message"] for f in submit["failures"]})


def server_info_from(result: wire.InitializeResult) -> ServerInfo:
    capabilities = result["capabilities"]
    forms = capabilities["forms"]
    return ServerInfo(
        name=result["serverInfo"]["name"], version=result["serverInfo"]["version"],
        protocol_version=result["protocolVersion"], locale=result["locale"], clock=capabilities["clock"],
        debounce_ms=capabilities["debounceMs"], kinds=[form["kind"] for form in forms],
        # A described kind carries its title (formDescriptions); a summary does not.
        descriptions={form["kind"]: description_from(cast(wire.FormDescription, form)) for form in forms if "title" in form},
        unsupported_locale=result.get("unsupportedLocale"), raw=dict(result))


def snapshot_from(result: wire.SnapshotResult) -> Snapshot:
    return Snapshot(
        form=result["form"], kind=result["kind"], version=result["version"],
        fields=[FieldSnapshot(f["field"], f["state"], f["code"], f["params"], f["message"], f["version"])
                for f in result["fields"]],
        submit_enabled=result["submitEnabled"], submission=result["submission"], record_id=result.get("recordId"))


def open_params(kind: str, form: Optional[str], values: Optional[Mapping[str, str]], record: Optional[Mapping[str, str]],
                locale: Optional[str], describe: Optional[bool], at: Optional[int]) -> JSONObject:
    params: JSONObject = {"kind": kind}
    for name, value in (("form", form), ("values", values), ("record", record), ("locale", locale),
                        ("describe", describe), ("at", at)):
        if value is not None:
            params[name] = dict(value) if isinstance(value, Mapping) else value
    return params


def initialize_params(locale: Optional[str], describe_forms: bool, client_name: str, process_id: Optional[int]) -> JSONObject:
    params: JSONObject = {"clientInfo": {"name": client_name}, "capabilities": {"formDescriptions": describe_forms}}
    if locale is not None:
        params["locale"] = locale
    if process_id is not None:
        params["processId"] = process_id
    return params


def error_from(error: JSONObject) -> RPCError:
    return RPCError(int(error.get("code", 0)), str(error.get("message", "")), error.get("data"))
