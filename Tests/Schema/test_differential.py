"""Differential tests of `signup-rpc validate` against python-jsonschema (issue 55): for every
schema in Examples/schemas, instances generated from the schema (valid ones, ones off by one
at each bound, wrong types, missing and unknown members) are judged by both; each must give
the same verdict and the same set of failing instance locations.

Two reporting conventions differ, and the locations are compared modulo them:
- python-jsonschema reports an applicator that fails (anyOf, oneOf) as one error whose `context`
  holds its branches' errors; signup-rpc's basic output lists those branch errors themselves. An
  error with a context is replaced by its context's leaves.
- python-jsonschema reports `additionalProperties: false` and `unevaluatedProperties: false` as
  one error at the object, naming the members; signup-rpc reports the `false` schema failing at
  each member, as the specification's output examples do. Such an error stands for its members.
And one reading differs: when a `oneOf` fails, signup-rpc drops the annotations of its passing
branches, as the core specification drops a failed keyword's annotations, so
`unevaluatedProperties` beside it also fails on their members; python-jsonschema counts them as
evaluated. The verdict is the same (invalid); those extra units are not compared.
`format` is an annotation on both sides, as draft 2020-12 says.
"""
import ast
import re
import json
import os
import pathlib
import random
import subprocess

import jsonschema
import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
BINARY = os.environ.get("SIGNUP_RPC_BINARY", str(ROOT / ".build" / "debug" / "signup-rpc"))
SCHEMAS = sorted((ROOT / "Examples").glob("schema*/*.schema.json"))
PER_SCHEMA = 400


def pointer(path) -> str:
    return "".join("/" + str(token).replace("~", "~0").replace("/", "~1") for token in path)


def unexpected_members(error) -> list:
    """The members an additionalProperties or unevaluatedProperties error names."""
    found = re.search(r"\((.*) (?:was|were) unexpected\)", error.message)
    if found is None:
        return []
    names = ast.literal_eval("[" + found.group(1) + "]")
    return [str(name) for name in names]


def leaf_locations(errors) -> set:
    locations = set()
    for error in errors:
        if error.context:
            locations |= leaf_locations(error.context)
        elif error.validator in ("additionalProperties", "unevaluatedProperties") and error.validator_value is False:
            base = list(error.absolute_path)
            locations |= {pointer(base + [name]) for name in unexpected_members(error)}
        else:
            locations.add(pointer(error.absolute_path))
    return locations


class Generator:
    """Values near what a schema asks for: at its bounds and one past them, of its type and not."""

    def __init__(self, seed: int):
        self.random = random.Random(seed)
        # A careful instance keeps to what the schema asks where it can (examples, bounds,
        # required members, no unknown ones), so that both verdicts are reached.
        self.careful = False

    def string(self, schema: dict) -> str:
        if schema.get("examples") and (self.careful or self.random.random() < 0.3):
            return self.random.choice(schema["examples"])
        low = schema.get("minLength", 0)
        high = schema.get("maxLength", low + 12)
        lengths = [low, high, (low + high) // 2] if self.careful else [low, high, max(low - 1, 0), high + 1, (low + high) // 2]
        length = self.random.choice(lengths)
        alphabet = self.random.choice(["abcxyz_09", "ABC-é😀 ", "0123456789", "+1234567890"])
        text = "".join(self.random.choice(alphabet) for _ in range(length))
        if "pattern" in schema and self.random.random() < 0.4:
            text = self.random.choice(["+4915112345678", "123456", "ann_99", "12345", "+0123"])
        return text

    def number(self, schema: dict, integer: bool):
        anchors = [schema.get(key) for key in ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum") if key in schema] or [0, 10]
        anchor = self.random.choice(anchors)
        value = anchor + self.random.choice([0] if self.careful else [-1, 0, 1, 0.5, 100])
        return int(value) if integer and self.random.random() < 0.8 else value

    def any(self):
        return self.random.choice([None, True, 0, 1.5, "", "x", [], {}, ["x", "x"], {"a": 1}])

    def value(self, schema, depth: int = 0):
        if not isinstance(schema, dict) or depth > 4:
            return self.any()
        if "$ref" in schema and schema["$ref"].startswith("#/$defs/"):
            return self.value(self.root["$defs"][schema["$ref"].split("/")[-1]], depth + 1)
        if "$ref" in schema or not self.careful and self.random.random() < 0.08:
            return self.any()
        if "const" in schema:
            return schema["const"] if self.careful or self.random.random() < 0.8 else self.any()
        if "enum" in schema:
            return self.random.choice(schema["enum"]) if self.careful or self.random.random() < 0.8 else self.any()
        kind = schema.get("type")
        if kind == "string":
            return self.string(schema)
        if kind in ("integer", "number"):
            return self.number(schema, kind == "integer")
        if kind == "boolean":
            return self.random.choice([True, False])
        if kind == "array":
            items = schema.get("items", {})
            count = self.random.choice([0, 1, 2, schema.get("maxItems", 3), schema.get("maxItems", 3) + 1])
            element = [self.value(items, depth + 1) for _ in range(count)]
            if element and self.random.random() < 0.3:
                element.append(element[0])
            return element
        return self.object(schema, depth)

    def object(self, schema: dict, depth: int) -> dict:
        properties = dict(schema.get("properties", {}))
        chosen = self.random.choice(schema["oneOf"]) if self.careful and schema.get("oneOf") else None
        for branch in ([chosen] if chosen else schema.get("oneOf", [])) + schema.get("anyOf", []):
            for name, subschema in branch.get("properties", {}).items():
                properties[name] = subschema if chosen else properties.get(name, subschema)
        for name, subschema in schema.get("$defs", {}).items():
            properties.setdefault(name, subschema)
        result = {}
        for name, subschema in properties.items():
            required = name in schema.get("required", [])
            if required and (self.careful or self.random.random() < 0.9) or self.random.random() < 0.5:
                result[name] = self.value(subschema, depth + 1)
        if not self.careful and self.random.random() < 0.1:
            result["unknownMember"] = self.any()
        if self.careful:
            # Keep to what the chosen oneOf branch and the if/then/else that applies ask for.
            for name in (chosen or {}).get("required", []):
                result.setdefault(name, self.value(properties.get(name, {}), depth + 1))
            if "if" in schema:
                branch = schema.get("then" if jsonschema.Draft202012Validator(schema["if"]).is_valid(result) else "else", {})
                for name in branch.get("required", []):
                    result.setdefault(name, self.value(properties.get(name, {}), depth + 1))
                for name in branch.get("not", {}).get("required", []):
                    result.pop(name, None)
            for trigger, needed in schema.get("dependentRequired", {}).items():
                if trigger in result:
                    for name in needed:
                        result.setdefault(name, self.value(properties.get(name, {}), depth + 1))
        return result


def instances(schema: dict, seed: int) -> list:
    generator = Generator(seed)
    generator.root = schema
    cases = []
    for index in range(PER_SCHEMA):
        generator.careful = index % 2 == 0
        cases.append(generator.value(schema))
    return cases


@pytest.mark.parametrize("path", SCHEMAS, ids=lambda path: path.name)
def test_verdicts_and_failing_locations_match_python_jsonschema(path):
    schema = json.loads(path.read_text())
    # SignupRPC's vocabulary is draft 2020-12 with an optional vocabulary of its own.
    vocabulary = str(ROOT / "schemas" / "signup-vocabulary.schema.json")
    cls = (jsonschema.Draft202012Validator if schema.get("$schema") == json.loads(pathlib.Path(vocabulary).read_text())["$id"]
           else jsonschema.validators.validator_for(schema))
    reference = cls(schema)
    cases = instances(schema, seed=sum(path.name.encode()))
    lines = "".join(json.dumps(case, ensure_ascii=False) + "\n" for case in cases)
    result = subprocess.run([BINARY, "validate", str(path)], input=lines.encode(), capture_output=True, timeout=120)
    assert result.returncode == 0, result.stderr.decode()
    outputs = [json.loads(line) for line in result.stdout.decode().splitlines()]
    assert len(outputs) == len(cases)
    valid = invalid = 0
    for case, output in zip(cases, outputs):
        errors = list(reference.iter_errors(case))
        expected = leaf_locations(errors)
        assert output["valid"] == (not expected), (case, output)
        failed_one_of = {pointer(error.absolute_path) for error in errors if error.validator == "oneOf"}
        units = [unit for unit in output.get("errors", []) if unit["instanceLocation"] in expected or not (
            unit["keywordLocation"].endswith("/unevaluatedProperties")
            and unit["instanceLocation"].rsplit("/", 1)[0] in failed_one_of)]
        assert {unit["instanceLocation"] for unit in units} == expected, (case, output)
        valid += output["valid"]
        invalid += not output["valid"]
    # The generator reaches both verdicts for every schema.
    assert valid >= 20 and invalid >= 20, (valid, invalid)
