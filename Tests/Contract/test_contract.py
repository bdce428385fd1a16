"""The machine-readable contract (schemas/) checked against every message the project shows.

The OpenRPC document is checked by the `openrpc` package's document model and every schema in
it by JSON Schema's own meta-schemas; then each message in protocol.md's examples, in
Examples/*.jsonl and in their expected outputs, and in the bad-input corpus's expected outputs
is validated with `jsonschema`. Requests the server refuses as malformed (-32600, -32601,
-32602) must be refused by the schemas too, so the schemas are exactly as strict as the server.
"""
import copy
import json
import os
import pathlib
import re
import subprocess
import sys
import tempfile

import jsonschema
import openrpc
import pytest
import referencing
from referencing.jsonschema import DRAFT202012

ROOT = pathlib.Path(__file__).resolve().parents[2]
SCHEMAS = ROOT / "schemas"
OPENRPC = json.loads((SCHEMAS / "signup-rpc.openrpc.json").read_text())
MESSAGES = json.loads((SCHEMAS / "messages.schema.json").read_text())
REFUSED_AS_MALFORMED = {-32600, -32601, -32602}
# Refusals that depend on the server's state, not on the message: no schema can know them.
STATE_DEPENDENT = ("would move the clock past",)
sys.set_int_max_str_digits(0)  # ids of any length are echoed as sent

registry = referencing.Registry().with_resources([
    (MESSAGES["$id"], DRAFT202012.create_resource(MESSAGES)),
    ("https://signup-rpc.invalid/schemas/signup-rpc.openrpc.json", DRAFT202012.create_resource(OPENRPC)),
])


def validator(definition):
    schema = {"$schema": "https://json-schema.org/draft/2020-12/schema", "$ref": f"{MESSAGES['$id']}#/$defs/{definition}"}
    return jsonschema.Draft202012Validator(schema, registry=registry, format_checker=jsonschema.FormatChecker())


CLIENT = validator("clientMessage")
SERVER = validator("serverMessage")
METHODS = [method["name"] for method in OPENRPC["methods"] if not method.get("tags")]
RESULTS = {name: validator(f"result.{name}") for name in METHODS}


class Session:
    """One exchange: the client's lines and the server's, in order."""

    def __init__(self, origin, sent, received):
        self.origin, self.sent, self.received = origin, sent, received

    def __repr__(self):
        return self.origin


def example_sessions():
    sessions, current = [], None
    for number, line in enumerate((ROOT / "protocol.md").read_text().splitlines(), 1):
        if line == "```example":
            current = Session(f"protocol.md:{number}", [], [])
        elif line == "```" and current is not None:
            sessions.append(current)
            current = None
        elif current is not None and line.startswith("→ "):
            current.sent.append(line[2:])
        elif current is not None and line.startswith("← "):
            current.received.append(line[2:])
    return sessions


def fixture_sessions():
    sessions = []
    for folder in [ROOT / "Examples", ROOT / "Tests/SignupRPCTests/BadInput"]:
        for source in sorted(folder.glob("*.jsonl")):
            if source.name.endswith(".out.jsonl"):
                continue
            expected = source.with_name(source.name[: -len(".jsonl")] + ".out.jsonl")
            if not expected.exists():
                expected = source.with_suffix(".out")
            if not expected.exists():
                continue
            sent = source.read_bytes().decode("utf-8", "replace").splitlines()
            received = expected.read_text().splitlines()
            sessions.append(Session(str(source.relative_to(ROOT)), sent, received))
    return sessions


def written_fixture_sessions():
    """What `signup-rpc replay --write-fixture` writes, for every example recorded as it runs: the
    fixtures a user writes as the README says, held to the same contract as the committed ones."""
    binary = pathlib.Path(os.environ.get("SIGNUP_RPC_BINARY", ROOT / ".build/debug/signup-rpc"))
    if not binary.exists():
        return []
    sessions = []
    folder = pathlib.Path(tempfile.mkdtemp(prefix="written-fixtures-"))
    for source in sorted((ROOT / "Examples").glob("*.jsonl")):
        if source.name.endswith(".out.jsonl"):
            continue
        name = source.name[: -len(".jsonl")]
        flags_file = source.with_name(name + ".flags")
        flags = flags_file.read_text().split() if flags_file.exists() else []
        flags = [str(ROOT / flag) if flag.startswith("Examples/") else flag for flag in flags]
        recording, prefix = folder / f"{name}.rec.jsonl", folder / name
        with source.open("rb") as stdin:
            run = subprocess.run([binary, "--clock", "virtual", *flags, "--record", recording], stdin=stdin,
                                 stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, check=True, timeout=120, cwd=ROOT)
        replay = subprocess.run([binary, "replay", recording, "--write-fixture", prefix], stdin=subprocess.DEVNULL,
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=120, cwd=ROOT)
        # A recording that said a secret's placeholder cannot keep its verdicts (protocol.md §15)
        # may not replay, and then writes no fixture; every other must.
        if replay.returncode != 0 and b"placeholder could not pass and fail exactly its rules" in run.stderr:
            continue
        assert replay.returncode == 0, f"{source.name}: its recording does not replay"
        sent = pathlib.Path(f"{prefix}.jsonl").read_text().splitlines()
        received = pathlib.Path(f"{prefix}.out.jsonl").read_text().splitlines()
        sessions.append(Session(f"written fixture of Examples/{name}.jsonl", sent, received))
    return sessions


WRITTEN = written_fixture_sessions()
SESSIONS = example_sessions() + fixture_sessions() + WRITTEN
EXAMPLES = [session for session in SESSIONS if not session.origin.startswith("Tests/")]


def test_every_example_is_written_as_a_fixture_when_the_binary_is_built():
    binary = pathlib.Path(os.environ.get("SIGNUP_RPC_BINARY", ROOT / ".build/debug/signup-rpc"))
    if not binary.exists():
        pytest.skip(f"{binary} is not built")
    assert len(WRITTEN) >= 14


# A real-clock recording whose request came before anything was due at its time: the fixture
# written from it moves the clock with `"exclusive":true` (protocol.md §15).
REAL_CLOCK_RECORDING = """\
{"signupRecording":1,"server":"signup-rpc 0.1.0","clock":"real","debounceMs":300,"backend":"scripted","roles":["availability","register"],"limits":{"maxLineBytes":1048576,"maxValueLength":4096,"maxForms":10000,"maxBatch":1000,"maxDepth":64},"forms":[]}
{"t":3,"in":{"jsonrpc":"2.0","id":1,"method":"shutdown"}}
{"t":3,"out":{"jsonrpc":"2.0","id":1,"result":null}}
{"t":40,"in":{"jsonrpc":"2.0","method":"exit"}}
{"t":40,"end":"exit"}
"""


def test_a_fixture_written_with_an_exclusive_advance_validates(tmp_path):
    binary = pathlib.Path(os.environ.get("SIGNUP_RPC_BINARY", ROOT / ".build/debug/signup-rpc"))
    if not binary.exists():
        pytest.skip(f"{binary} is not built")
    recording = tmp_path / "shut.rec.jsonl"
    recording.write_text(REAL_CLOCK_RECORDING)
    subprocess.run([binary, "replay", recording, "--write-fixture", tmp_path / "shut"], check=True, timeout=60,
                   stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL)
    sent = [json.loads(line) for line in (tmp_path / "shut.jsonl").read_text().splitlines()]
    assert sent[0] == {"jsonrpc": "2.0", "method": "clock.advance", "params": {"to": 3, "exclusive": True}}
    for message in sent:
        assert errors(validator("clientSingle"), message) == [], message


def parse(text):
    try:
        return json.loads(text)
    except (ValueError, RecursionError):
        return None


def errors(schema_validator, message):
    return sorted(str(error.message)[:200] for error in schema_validator.iter_errors(message))


def test_the_openrpc_document_is_a_valid_openrpc_document():
    document = openrpc.OpenRPC(**OPENRPC)
    assert document.openrpc == "1.3.2"
    assert [method.name for method in document.methods] == [method["name"] for method in OPENRPC["methods"]]
    for name, schema in OPENRPC["components"]["schemas"].items():
        jsonschema.Draft7Validator.check_schema(schema)  # OpenRPC's schemas are draft-07 JSON Schemas
    for method in OPENRPC["methods"]:
        for descriptor in method["params"] + [method["result"]]:
            jsonschema.Draft7Validator.check_schema(descriptor["schema"])
    jsonschema.Draft202012Validator.check_schema(MESSAGES)


def test_the_contract_names_every_method_of_protocol_md():
    text = (ROOT / "protocol.md").read_text()
    table = text.split("## 6. Methods", 1)[1].split("###", 1)[0]
    documented = re.findall(r"^\| `([a-z.]+)` \|", table, re.MULTILINE)
    assert documented == METHODS
    notifications = re.findall(r"^### `(form\.[a-zA-Z]+Changed)`", text, re.MULTILINE)
    assert notifications == [method["name"] for method in OPENRPC["methods"] if method.get("tags")]


def test_there_are_messages_to_check():
    assert len(EXAMPLES) >= 25
    assert sum(len(session.received) for session in SESSIONS) >= 700


@pytest.mark.parametrize("session", SESSIONS, ids=repr)
def test_every_server_message_validates(session):
    methods_by_id = {}
    for line in session.sent:
        for message in batch(parse(line)):
            if isinstance(message, dict) and "id" in message and isinstance(message.get("method"), str):
                methods_by_id.setdefault(json.dumps(message["id"]), message["method"])
    for line in session.received:
        message = parse(line)
        assert message is not None, f"{session}: not JSON: {line}"
        assert errors(SERVER, message) == [], f"{session}: {line}"
        for single in batch(message):
            method = methods_by_id.get(json.dumps(single.get("id")))
            if "result" in single and method in RESULTS:
                assert errors(RESULTS[method], single["result"]) == [], f"{session}: {method}: {line}"


@pytest.mark.parametrize("session", EXAMPLES, ids=repr)
def test_every_client_message_validates_exactly_when_the_server_takes_it(session):
    refused = set()
    for line in session.received:
        for message in batch(parse(line)):
            error = message.get("error")
            if error and error["code"] in REFUSED_AS_MALFORMED and message["id"] is not None \
                    and not error.get("data", {}).get("problem", "").startswith(STATE_DEPENDENT):
                refused.add(json.dumps(message["id"]))
    for line in session.sent:
        message = parse(line)
        if message is None or line.strip() == "":
            continue
        for single in batch(message):
            if not isinstance(single, dict):
                assert errors(validator("clientSingle"), single) != [], f"{session}: {line}"
                continue
            if "id" not in single:
                # A notification's refusal is not answered; the examples send only good ones.
                assert errors(validator("clientSingle"), single) == [] or single.get("method") in UNANSWERED_BAD, f"{session}: {line}"
                continue
            verdict = errors(validator("clientSingle"), single)
            if json.dumps(single["id"]) in refused:
                assert verdict != [], f"{session}: the server refuses this request but the schemas accept it: {line}"
            else:
                assert verdict == [], f"{session}: {line}"


# Notifications in the examples that show what happens to a bad one (nothing is answered).
UNANSWERED_BAD = {"nope"}


def batch(message):
    return message if isinstance(message, list) else [message]


FIELD_CHANGED = {"jsonrpc": "2.0", "method": "form.fieldChanged", "params": {
    "form": "f", "field": "username", "state": "ok", "code": "username.available", "params": {},
    "message": "Username available", "version": 1, "at": 500}}


@pytest.mark.parametrize("change", [
    lambda m: m["params"].update(colour="red"),
    lambda m: m["params"].pop("version"),
    lambda m: m["params"].update(state="pending"),
    lambda m: m["params"].update(at=9007199254740992),
    lambda m: m.update(id=3),
    lambda m: m.update(method="form.fieldChange"),
])
def test_a_change_to_the_wire_that_the_schemas_do_not_know_fails(change):
    assert errors(SERVER, FIELD_CHANGED) == []
    changed = copy.deepcopy(FIELD_CHANGED)
    change(changed)
    assert errors(SERVER, changed) != []


def test_the_openrpc_document_uses_only_members_openrpc_defines():
    """pydantic ignores members it does not know; walk the document against the models' own fields."""
    import typing

    import pydantic

    def models_in(annotation):
        if isinstance(annotation, type) and issubclass(annotation, pydantic.BaseModel):
            return [annotation]
        return [model for argument in typing.get_args(annotation) for model in models_in(argument)]

    def walk(value, model, path):
        if isinstance(value, list):
            for index, item in enumerate(value):
                walk(item, model, f"{path}[{index}]")
            return
        if model.__name__ == "Schema" or not isinstance(value, dict):
            return  # JSON Schemas are checked against their meta-schema above
        fields = {(info.alias or name): info for name, info in model.model_fields.items()}
        for key, member in value.items():
            assert key in fields or key.startswith("x-"), f"{path}.{key} is not an OpenRPC {model.__name__} member"
            for nested in models_in(fields[key].annotation) if key in fields else []:
                walk(member, nested, f"{path}.{key}")

    walk(OPENRPC, openrpc.OpenRPC, "$")
    misspelt = copy.deepcopy(OPENRPC)
    misspelt["methods"][0]["sumary"] = "a typo"
    with pytest.raises(AssertionError):
        walk(misspelt, openrpc.OpenRPC, "$")


FORMS_SCHEMA = json.loads((ROOT / "forms.schema.json").read_text())
FORM_FILES = sorted((ROOT / "Examples").glob("*/*.json"))
FORM_FILES = [path for path in FORM_FILES if path.parent.name not in ("directories", "schemas", "schema-forms")]
# JSON Schemas, read as forms (protocol.md §17) or judged by `signup-rpc validate`.
SCHEMA_FILES = sorted((ROOT / "Examples").glob("schema*/*.json"))


VOCABULARY = json.loads((ROOT / "schemas" / "signup-vocabulary.schema.json").read_text())


@pytest.mark.parametrize("path", SCHEMA_FILES, ids=lambda path: str(path.relative_to(ROOT)))
def test_every_example_schema_is_valid_under_its_dialect(path):
    schema = json.loads(path.read_text())
    if schema.get("$schema") == VOCABULARY["$id"]:
        # SignupRPC's vocabulary: its meta-schema, through python-jsonschema's own registry.
        import referencing
        registry = referencing.Registry().with_resource(VOCABULARY["$id"], referencing.Resource.from_contents(VOCABULARY))
        jsonschema.Draft202012Validator(VOCABULARY, registry=registry).validate(schema)
    else:
        jsonschema.validators.validator_for(schema).check_schema(schema)


def test_the_vocabularys_meta_schema_refuses_a_misshapen_keyword_in_any_subschema():
    import referencing
    registry = referencing.Registry().with_resource(VOCABULARY["$id"], referencing.Resource.from_contents(VOCABULARY))
    validator = jsonschema.Draft202012Validator(VOCABULARY, registry=registry)
    jsonschema.Draft202012Validator.check_schema(VOCABULARY)
    assert validator.is_valid({"properties": {"a": {"signupRPC": {"input": "email", "messages": {"string.minLength": "Longer"}}}}})
    assert not validator.is_valid({"properties": {"a": {"items": {"signupRPC": {"normalization": "nfd"}}}}})


def test_forms_schema_is_a_valid_json_schema():
    jsonschema.Draft202012Validator.check_schema(FORMS_SCHEMA)


@pytest.mark.parametrize("path", FORM_FILES, ids=lambda path: str(path.relative_to(ROOT)))
def test_every_example_form_file_validates_against_the_forms_schema(path):
    """The server loads these files (EndToEndTests run them); the schema must take them too."""
    jsonschema.Draft202012Validator(FORMS_SCHEMA).validate(json.loads(path.read_text()))


INVITE = json.loads((ROOT / "Examples/api/api-signup.json").read_text())


def changed(form, change):
    """A copy of `form` with `change` applied."""
    form = copy.deepcopy(form)
    change(form)
    return form


def invite_with(change):
    return changed(INVITE, change)


@pytest.mark.parametrize("change", [
    # A header's value written in the file instead of read from the environment.
    lambda form: form["fields"][1]["remoteChecks"][0]["headers"].update({"Authorization": "Bearer abc"}),
    # An http check without its name or URL, or with an unknown member.
    lambda form: form["fields"][1]["remoteChecks"][0].pop("name"),
    lambda form: form["fields"][1]["remoteChecks"][0].pop("url"),
    lambda form: form["fields"][1]["remoteChecks"][0].update({"retries": 3}),
    # HTTP members on a usernameAvailability check.
    lambda form: form["fields"][1]["remoteChecks"][0].update({"kind": "usernameAvailability"}),
    # Both remoteCheck and remoteChecks.
    lambda form: form["fields"][1].update({"remoteCheck": form["fields"][1]["remoteChecks"][0]}),
    # An http submission without its URL, or with a registration's members or messages.
    lambda form: form["submit"].pop("url"),
    lambda form: form["submit"].update({"usernameField": "username"}),
    lambda form: form["submit"]["messages"].update({"taken": {"code": "t", "message": "T"}}),
    lambda form: form["submit"].update({"method": "DELETE"}),
])
def test_the_forms_schema_refuses_what_the_server_refuses(change):
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.Draft202012Validator(FORMS_SCHEMA).validate(invite_with(change))


NIST = json.loads((ROOT / "Examples/forms/nist-signup.json").read_text())


def nist_with(change):
    return changed(NIST, change)


@pytest.mark.parametrize("change", [
    # Two checks in one rule, or none.
    lambda form: form["fields"][2]["rules"][0].update({"maxCodePoints": 64}),
    lambda form: form["fields"][2]["rules"][0].pop("minCodePoints"),
    # A restriction level, a list or a flag the server does not know.
    lambda form: form["fields"][0]["rules"][1].update({"scriptRestriction": "latinOnly"}),
    lambda form: form["fields"][2]["rules"][2].update({"notCommonPassword": False}),
    lambda form: form["fields"][2]["rules"][2].update({"notCommonPassword": {"path": "x.txt"}}),
    lambda form: form["fields"][2]["rules"][3].update({"notRepetitiveOrSequential": 1}),
    lambda form: form["fields"][2]["rules"][4].update({"notSimilarTo": ""}),
    # An empty requirement, an unknown normalisation or character class, a second factor that is not a flag.
    lambda form: form["fields"][2]["rules"][0].update({"requirement": ""}),
    lambda form: form["fields"][0].update({"normalization": "precis"}),
    lambda form: form["fields"][0]["rules"][0].update({"characters": "identifier"}),
    lambda form: form.update({"secondFactor": "yes"}),
])
def test_the_forms_schema_refuses_the_password_and_username_rules_the_server_refuses(change):
    """FormFileTests show the server refusing each of these; the schema must refuse them too."""
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.Draft202012Validator(FORMS_SCHEMA).validate(nist_with(change))
