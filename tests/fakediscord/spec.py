"""Discord's official OpenAPI description, as a request validator.

Every REST request the bot makes is checked here: the path must match one of
the documented templates, the method must exist on it, each query parameter
must be documented and have a valid value, and the JSON body (or the
``payload_json`` part of a multipart body) must satisfy the operation's
request schema. The document is large (1 MB), so it is parsed once per
process and one validator is built per operation, lazily, then cached.
"""

from __future__ import annotations

import contextlib
import json
import re
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from jsonschema import Draft202012Validator
from jsonschema.exceptions import ValidationError
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

# tests/fakediscord/spec.py -> parents[2] is the repository; shared/ sits beside it.
SPEC_PATH = (
    Path(__file__).resolve().parents[2] / ".." / "shared" / "discord-api-spec" / "openapi.json"
).resolve()
_BASE_URI = "urn:discord-openapi"
_METHODS = ("get", "put", "post", "patch", "delete")


def _pointer(*parts: str) -> str:
    return "/".join(p.replace("~", "~0").replace("/", "~1") for p in parts)


@dataclass
class Operation:
    """One documented (method, path template) pair."""

    method: str
    template: str
    operation_id: str
    parameters: dict[str, dict[str, Any]]  # (in, name) flattened as "in:name" -> parameter
    body_uri: str | None  # reference to the application/json request schema
    body_required: bool
    _param_validators: dict[str, Draft202012Validator] = field(default_factory=dict)
    _body_validator: Draft202012Validator | None = None


class OpenAPISpec:
    """Matches requests to operations and validates them."""

    def __init__(self, path: Path = SPEC_PATH) -> None:
        if not path.is_file():
            raise FileNotFoundError(
                f"Discord's OpenAPI description is expected at {path}: the end-to-end tests "
                "need the shared/ checkout (discord-api-spec) beside the repository"
            )
        self.document: dict[str, Any] = json.loads(path.read_text())
        # Discord reads a snowflake given as a JSON integer as well as a string (discord.py
        # sends attachment ids as 0, 1, ...); the description only says "string".
        schemas = self.document["components"]["schemas"]
        schemas["SnowflakeType"] = {
            "anyOf": [schemas["SnowflakeType"], {"type": "integer", "minimum": 0}]
        }
        resource = Resource.from_contents(self.document, default_specification=DRAFT202012)
        self.registry: Registry = Registry().with_resource(_BASE_URI, resource)
        self._routes: list[tuple[re.Pattern[str], int, str, dict[str, Any]]] = []
        for template, item in self.document["paths"].items():
            regex = re.sub(r"\\\{(\w+)\\\}", r"(?P<\1>[^/]+)", re.escape(template))
            literals = sum(1 for seg in template.split("/") if seg and "{" not in seg)
            self._routes.append((re.compile(f"^{regex}$"), literals, template, item))
        # A literal segment beats a parameter: /users/@me before /users/{user_id}.
        self._routes.sort(key=lambda r: -r[1])
        self._operations: dict[tuple[str, str], Operation] = {}

    def match(self, method: str, path: str) -> tuple[Operation | None, dict[str, str], str | None]:
        """The operation for ``method path`` (path below /api/v10), its path parameters,
        and an error message when nothing matches."""
        method = method.lower()
        for regex, _, template, item in self._routes:
            m = regex.match(path)
            if m is None:
                continue
            if method not in item:
                continue
            return self._operation(method, template, item), m.groupdict(), None
        if any(regex.match(path) for regex, _, _, _ in self._routes):
            return None, {}, f"method {method.upper()} is not documented for {path}"
        return None, {}, f"no documented route matches {path}"

    def _operation(self, method: str, template: str, item: dict[str, Any]) -> Operation:
        key = (method, template)
        op = self._operations.get(key)
        if op is not None:
            return op
        raw = item[method]
        params: dict[str, dict[str, Any]] = {}
        for where, plist in (
            ((template, "parameters"), item.get("parameters", [])),
            ((template, method, "parameters"), raw.get("parameters", [])),
        ):
            for i, p in enumerate(plist):
                uri = _BASE_URI + "#/" + _pointer("paths", *where, str(i), "schema")
                params[f"{p['in']}:{p['name']}"] = {**p, "schema_uri": uri}
        body_uri = None
        body = raw.get("requestBody")
        if body and "application/json" in body.get("content", {}):
            body_uri = (
                _BASE_URI
                + "#/"
                + _pointer(
                    "paths",
                    template,
                    method,
                    "requestBody",
                    "content",
                    "application/json",
                    "schema",
                )
            )
        op = Operation(
            method=method,
            template=template,
            operation_id=raw["operationId"],
            parameters=params,
            body_uri=body_uri,
            body_required=bool(body and body.get("required")),
        )
        self._operations[key] = op
        return op

    def _validator_for(self, schema: dict[str, Any]) -> Draft202012Validator:
        return Draft202012Validator(schema, registry=self.registry)

    def validate(
        self,
        op: Operation,
        path_params: dict[str, str],
        query: list[tuple[str, str]],
        body: Any,
        has_body: bool,
    ) -> list[str]:
        """Everything Discord would reject in this request, as readable messages."""
        errors: list[str] = []
        for name, value in path_params.items():
            errors += self._check_param(op, "path", name, value)
        seen = set()
        for name, value in query:
            seen.add(name)
            if f"query:{name}" not in op.parameters:
                errors.append(f"query parameter {name!r} is not documented")
                continue
            errors += self._check_param(op, "query", name, value)
        for key, p in op.parameters.items():
            if key.startswith("query:") and p.get("required") and p["name"] not in seen:
                errors.append(f"required query parameter {p['name']!r} is missing")
        if op.body_uri is None:
            if has_body and body not in (None, {}, b""):
                errors.append("this operation takes no JSON body")
            return errors
        if not has_body:
            if op.body_required:
                errors.append("the request body is required")
            return errors
        if op._body_validator is None:
            op._body_validator = self._validator_for({"$ref": op.body_uri})
        for err in op._body_validator.iter_errors(body):
            errors.append(_describe(err))
        return errors

    def _check_param(self, op: Operation, where: str, name: str, value: str) -> list[str]:
        key = f"{where}:{name}"
        p = op.parameters.get(key)
        if p is None:
            return [f"{where} parameter {name!r} is not documented"]
        v = op._param_validators.get(key)
        if v is None:
            v = op._param_validators[key] = self._validator_for({"$ref": p["schema_uri"]})
        # Query strings carry text; Discord reads them as the schema's type.
        for candidate in _readings(value):
            if v.is_valid(candidate):
                return []
        return [f"{where} parameter {name}={value!r} does not match its schema"]


def _readings(value: str) -> list[Any]:
    out: list[Any] = [value]
    low = value.lower()
    if low in ("true", "1"):
        out.append(True)
    if low in ("false", "0"):
        out.append(False)
    try:
        out.append(int(value))
    except ValueError:
        with contextlib.suppress(ValueError):
            out.append(float(value))
    return out


def _leaves(err: ValidationError) -> int:
    return 1 if not err.context else sum(_leaves(sub) for sub in err.context)


def _explain(err: ValidationError) -> ValidationError:
    """The failure that explains a rejected union (anyOf/oneOf) best. Discord's branches
    are told apart by a ``type`` field (or by the JSON type, as for "null or object"): a
    branch where that does not match is not the one meant; of the others, the branch
    with the fewest failures is."""
    if not err.context:
        return err
    branches: dict[Any, list[ValidationError]] = {}
    for sub in err.context:
        branches.setdefault(sub.relative_schema_path[0], []).append(sub)
    here = list(err.absolute_path)

    def mismatched(errors: list[ValidationError]) -> bool:  # not the branch meant at all
        return any(
            (e.validator in ("enum", "const") and list(e.absolute_path) == [*here, "type"])
            or (e.validator == "type" and list(e.absolute_path) == here)
            for e in errors
        )

    meant = [b for b in branches.values() if not mismatched(b)] or list(branches.values())
    best = min(meant, key=lambda b: sum(_leaves(e) for e in b))
    return _explain(best[0])


def _describe(err: ValidationError) -> str:
    best = _explain(err)
    where = "/".join(str(p) for p in best.absolute_path) or "(body)"
    message = best.message
    sizes = {
        "maxItems": "items, at most",
        "minItems": "items, at least",
        "maxLength": "characters, at most",
        "minLength": "characters, at least",
    }
    if best.validator in sizes:
        message = f"{len(best.instance)} {sizes[best.validator]} {best.validator_value}"
    if len(message) > 200:
        message = message[:90] + " … " + message[-90:]
    return f"{where}: {message}"


@cache
def load_spec() -> OpenAPISpec:
    """The parsed spec, shared by every fake in the process."""
    return OpenAPISpec()
