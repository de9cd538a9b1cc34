"""The JSON Schema check of an answer, as the TypeScript ``readAnswer`` runs it with ajv: the
dialect picked by ``$schema`` (draft-07 when there is none; draft-04's boolean exclusive bounds
read as draft-06's numbers), every error reported, unknown keywords ignored, formats checked as
ajv-formats checks them (``formats.py``).

A schema using a keyword ajv checks and this module does not (``unevaluatedProperties``,
``unevaluatedItems``, ``$dynamicRef``, ``$recursiveRef``, ajv-formats' ``formatMinimum`` and
kin, a ``$ref`` that is not a local JSON pointer, a subschema's own ``$id``) raises
``UnsupportedSchema`` instead of passing unchecked, as does a schema ajv refuses to compile.

Issues are ``{"path", "keyword", "message", "params"}`` with ajv's instance paths, keywords and
messages (``must be <= 50``), so a verifier's report reads as the TypeScript one does.
"""
from __future__ import annotations

import math
import re
from urllib.parse import unquote
from typing import Any, Dict, List, Optional

from .canonical_json import canonical_json
from .formats import UnsupportedSchema, check_format, pattern_matches

__all__ = ["UnsupportedSchema", "schema_issues", "errors_text"]


_DIALECTS = {
    "json-schema.org/draft-04/schema": "draft-04",
    "json-schema.org/draft-06/schema": "draft-06",
    "json-schema.org/draft-07/schema": "draft-07",
    "json-schema.org/draft/2019-09/schema": "2019-09",
    "json-schema.org/draft/2020-12/schema": "2020-12",
}
# Keywords ajv checks (ajv-formats adds the format* ones) that this module does not.
_UNSUPPORTED = ("unevaluatedProperties", "unevaluatedItems", "$dynamicRef", "$recursiveRef", "$async", "formatMaximum", "formatMinimum", "formatExclusiveMaximum", "formatExclusiveMinimum")
_TYPES = ("null", "boolean", "object", "array", "number", "string", "integer")


def _dialect(schema: Any) -> str:
    if not isinstance(schema, dict) or not isinstance(schema.get("$schema"), str):
        return "draft-07"
    key = schema["$schema"]
    for prefix in ("https://", "http://"):
        if key.startswith(prefix):
            key = key[len(prefix) :]
            break
    key = key[:-1] if key.endswith("#") else key
    if key not in _DIALECTS:
        raise UnsupportedSchema(f'[eval-simulate] unsupported JSON Schema dialect "$schema": {schema["$schema"][:200]!r}')
    return _DIALECTS[key]


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _type_of(value: Any, wanted: str) -> bool:
    if wanted == "null":
        return value is None
    if wanted == "boolean":
        return isinstance(value, bool)
    if wanted == "object":
        return isinstance(value, dict)
    if wanted == "array":
        return isinstance(value, list)
    if wanted == "string":
        return isinstance(value, str)
    # ajv without strictNumbers: an infinity (JSON.parse's 1e400) is a number, and an integer.
    if wanted == "number":
        return _is_number(value)
    if wanted == "integer":
        return _is_number(value) and (math.isinf(value) or float(value).is_integer())
    return False


def _pointer(segment: Any) -> str:
    return str(segment).replace("~", "~0").replace("/", "~1")


def _js_text(value: Any) -> str:
    """A limit as ajv's messages print it (JavaScript's String of a number)."""
    return canonical_json(value) if _is_number(value) else str(value)


def _js_is_whole(quotient: float) -> bool:
    """ajv's ``div === parseInt(div)``: parseInt reads the number's text, so 1e21 is not whole."""
    found = re.match(r"[+-]?[0-9]+", canonical_json(quotient))
    return found is not None and quotient == int(found.group())


def _same(a: Any, b: Any) -> bool:
    return canonical_json(a) == canonical_json(b)


class _Checker:
    def __init__(self, root: Any, dialect: str) -> None:
        self.root = root
        self.dialect = dialect
        self.modern = dialect in ("2019-09", "2020-12")

    def resolve(self, ref: str) -> Any:
        if ref != "#" and not ref.startswith("#/"):
            raise UnsupportedSchema(f"[eval-simulate] the Python checker resolves only local $ref pointers (#/…), not {ref!r}")
        target = self.root
        for raw in [part for part in ref[1:].split("/")][1:] if ref != "#" else []:
            part = _unescape_pointer(raw)
            if isinstance(target, dict) and part in target:
                target = target[part]
            elif isinstance(target, list) and part.isdigit() and int(part) < len(target):
                target = target[int(part)]
            else:
                raise UnsupportedSchema(f"[eval-simulate] the $ref {ref!r} points at nothing in the schema")
        return target

    def check(self, schema: Any, value: Any, path: str, out: List[Dict[str, Any]], depth: int = 0) -> None:
        if depth > 200:
            raise UnsupportedSchema("[eval-simulate] the schema nests (or refers to itself) past 200 levels")
        if schema is True:
            return
        if schema is False:
            out.append(_issue(path, "false schema", "boolean schema is false", {}))
            return
        if not isinstance(schema, dict):
            return
        for keyword in _UNSUPPORTED:
            if keyword in schema:
                raise UnsupportedSchema(f"[eval-simulate] the Python checker cannot check {keyword}; the TypeScript verify can")
        if "$ref" in schema:
            self.check(self.resolve(schema["$ref"]), value, path, out, depth + 1)
        self.check_type(schema, value, path, out)
        if "enum" in schema and isinstance(schema["enum"], list) and not any(_same(value, item) for item in schema["enum"]):
            out.append(_issue(path, "enum", "must be equal to one of the allowed values", {"allowedValues": schema["enum"]}))
        if "const" in schema and not _same(value, schema["const"]):
            out.append(_issue(path, "const", "must be equal to constant", {"allowedValue": schema["const"]}))
        if _is_number(value):
            self.check_number(schema, value, path, out)
        elif isinstance(value, str):
            self.check_string(schema, value, path, out)
        elif isinstance(value, list):
            self.check_array(schema, value, path, out, depth)
        elif isinstance(value, dict):
            self.check_object(schema, value, path, out, depth)
        if "format" in schema and isinstance(schema["format"], str) and not check_format(schema["format"], value):
            out.append(_issue(path, "format", f'must match format "{schema["format"]}"', {"format": schema["format"]}))
        self.check_combinators(schema, value, path, out, depth)

    def check_type(self, schema: Dict[str, Any], value: Any, path: str, out: List[Dict[str, Any]]) -> None:
        wanted = schema.get("type")
        names = wanted if isinstance(wanted, list) else ([] if wanted is None else [wanted])
        if any(name not in _TYPES for name in names):
            raise UnsupportedSchema(f"[eval-simulate] invalid JSON Schema: type must be JSONType or JSONType[]: {canonical_json(wanted)}")
        if "nullable" in schema and not names:
            raise UnsupportedSchema('[eval-simulate] invalid JSON Schema: "nullable" cannot be used without "type"')
        if not names:
            return
        # OpenAPI's nullable, which ajv reads: null is one more type (the message names the others).
        allowed = names + ["null"] if schema.get("nullable") is True else names
        if not any(_type_of(value, name) for name in allowed):
            shown = ",".join(names)
            out.append(_issue(path, "type", f"must be {shown}", {"type": shown if isinstance(wanted, list) else wanted}))

    def check_number(self, schema: Dict[str, Any], value: Any, path: str, out: List[Dict[str, Any]]) -> None:
        limits = {keyword: schema.get(keyword) for keyword in ("maximum", "minimum", "exclusiveMaximum", "exclusiveMinimum")}
        for bound, exclusive in (("maximum", "exclusiveMaximum"), ("minimum", "exclusiveMinimum")):
            if not isinstance(limits[exclusive], bool):
                continue
            if self.dialect != "draft-04":
                raise UnsupportedSchema(f"[eval-simulate] invalid JSON Schema: {exclusive} must be a number")
            # draft-04's flag, read as the later drafts' number (the TypeScript upgradeDraft04).
            if limits[exclusive] is True and _is_number(limits[bound]):
                limits[exclusive], limits[bound] = limits[bound], None
            else:
                limits[exclusive] = None
        checks = (("maximum", "<=", lambda limit: value <= limit), ("minimum", ">=", lambda limit: value >= limit),
                  ("exclusiveMaximum", "<", lambda limit: value < limit), ("exclusiveMinimum", ">", lambda limit: value > limit))
        for keyword, comparison, holds in checks:
            limit = limits[keyword]
            if _is_number(limit) and not holds(limit):
                out.append(_issue(path, keyword, f"must be {comparison} {_js_text(limit)}", {"comparison": comparison, "limit": limit}))
        step = schema.get("multipleOf")
        if _is_number(step) and not _js_is_whole(value / step if step else math.inf):
            out.append(_issue(path, "multipleOf", f"must be multiple of {_js_text(step)}", {"multipleOf": step}))

    def check_string(self, schema: Dict[str, Any], value: str, path: str, out: List[Dict[str, Any]]) -> None:
        length = len(value)  # code points, as ajv's ucs2length counts
        if _is_number(schema.get("maxLength")) and length > schema["maxLength"]:
            out.append(_issue(path, "maxLength", f"must NOT have more than {_js_text(schema['maxLength'])} characters", {"limit": schema["maxLength"]}))
        if _is_number(schema.get("minLength")) and length < schema["minLength"]:
            out.append(_issue(path, "minLength", f"must NOT have fewer than {_js_text(schema['minLength'])} characters", {"limit": schema["minLength"]}))
        if isinstance(schema.get("pattern"), str) and not pattern_matches(schema["pattern"], value):
            out.append(_issue(path, "pattern", f'must match pattern "{schema["pattern"]}"', {"pattern": schema["pattern"]}))

    def check_array(self, schema: Dict[str, Any], value: List[Any], path: str, out: List[Dict[str, Any]], depth: int) -> None:
        if _is_number(schema.get("maxItems")) and len(value) > schema["maxItems"]:
            out.append(_issue(path, "maxItems", f"must NOT have more than {_js_text(schema['maxItems'])} items", {"limit": schema["maxItems"]}))
        if _is_number(schema.get("minItems")) and len(value) < schema["minItems"]:
            out.append(_issue(path, "minItems", f"must NOT have fewer than {_js_text(schema['minItems'])} items", {"limit": schema["minItems"]}))
        if schema.get("uniqueItems") is True:
            duplicate = _duplicate_items(schema.get("items"), value)
            if duplicate is not None:
                i, j = duplicate
                out.append(_issue(path, "uniqueItems", f"must NOT have duplicate items (items ## {j} and {i} are identical)", {"i": i, "j": j}))
        prefix = schema.get("prefixItems") if self.dialect == "2020-12" else (schema.get("items") if isinstance(schema.get("items"), list) else None)
        rest = schema.get("items") if self.dialect == "2020-12" else schema.get("additionalItems")
        if prefix is None and not isinstance(schema.get("items"), list) and "items" in schema:
            for index, item in enumerate(value):
                self.check(schema["items"], item, f"{path}/{index}", out, depth + 1)
        elif isinstance(prefix, list):
            for index, item in enumerate(value[: len(prefix)]):
                self.check(prefix[index], item, f"{path}/{index}", out, depth + 1)
            if rest is False and len(value) > len(prefix):
                out.append(_issue(path, "items" if self.dialect == "2020-12" else "additionalItems", f"must NOT have more than {len(prefix)} items", {"limit": len(prefix)}))
            elif rest is not None and rest is not True:
                for index in range(len(prefix), len(value)):
                    self.check(rest, value[index], f"{path}/{index}", out, depth + 1)
        if "contains" in schema:
            found = [self.errors_of(schema["contains"], item, f"{path}/{index}", depth) for index, item in enumerate(value)]
            matching = sum(1 for issues in found if not issues)
            low = schema.get("minContains", 1) if self.modern else 1
            high = schema.get("maxContains") if self.modern else None
            if matching < low or (high is not None and matching > high):
                out.extend(issue for issues in found for issue in issues)
                message = f"must contain at least {low} valid item(s)" if high is None else f"must contain at least {low} and no more than {high} valid item(s)"
                out.append(_issue(path, "contains", message, {"minContains": low} if high is None else {"minContains": low, "maxContains": high}))

    def check_object(self, schema: Dict[str, Any], value: Dict[str, Any], path: str, out: List[Dict[str, Any]], depth: int) -> None:
        if _is_number(schema.get("maxProperties")) and len(value) > schema["maxProperties"]:
            out.append(_issue(path, "maxProperties", f"must NOT have more than {_js_text(schema['maxProperties'])} properties", {"limit": schema["maxProperties"]}))
        if _is_number(schema.get("minProperties")) and len(value) < schema["minProperties"]:
            out.append(_issue(path, "minProperties", f"must NOT have fewer than {_js_text(schema['minProperties'])} properties", {"limit": schema["minProperties"]}))
        for name in schema.get("required", []) if isinstance(schema.get("required"), list) else []:
            if name not in value:
                out.append(_issue(path, "required", f"must have required property '{name}'", {"missingProperty": name}))
        dependent = dict(schema.get("dependentRequired") or {}) if self.modern else {}
        schemas = dict(schema.get("dependentSchemas") or {}) if self.modern else {}
        for name, spec in (schema.get("dependencies") or {}).items():
            (dependent if isinstance(spec, list) else schemas)[name] = spec
        for name, needed in dependent.items():
            props = ", ".join(needed)
            for other in [other for other in needed if name in value and other not in value]:
                keyword = "dependencies" if name in (schema.get("dependencies") or {}) else "dependentRequired"
                out.append(_issue(path, keyword, f"must have propert{'y' if len(needed) == 1 else 'ies'} {props} when property {name} is present", {"property": name, "missingProperty": other, "depsCount": len(needed), "deps": props}))
        for name, spec in schemas.items():
            if name in value:
                self.check(spec, value, path, out, depth + 1)
        properties = schema.get("properties") if isinstance(schema.get("properties"), dict) else {}
        patterns = schema.get("patternProperties") if isinstance(schema.get("patternProperties"), dict) else {}
        extra = schema.get("additionalProperties")
        if "propertyNames" in schema:
            for name in value:
                issues = self.errors_of(schema["propertyNames"], name, path, depth)
                if issues:
                    out.extend(issues)
                    out.append(_issue(path, "propertyNames", "property name must be valid", {"propertyName": name}))
        for name, item in value.items():
            where = f"{path}/{_pointer(name)}"
            if name in properties:
                self.check(properties[name], item, where, out, depth + 1)
            matched = [pattern for pattern in patterns if pattern_matches(pattern, name)]
            for pattern in matched:
                self.check(patterns[pattern], item, where, out, depth + 1)
            if name in properties or matched or extra is None or extra is True:
                continue
            if extra is False:
                out.append(_issue(path, "additionalProperties", "must NOT have additional properties", {"additionalProperty": name}))
            else:
                self.check(extra, item, where, out, depth + 1)

    def errors_of(self, schema: Any, value: Any, path: str, depth: int) -> List[Dict[str, Any]]:
        found: List[Dict[str, Any]] = []
        self.check(schema, value, path, found, depth + 1)
        return found

    def check_combinators(self, schema: Dict[str, Any], value: Any, path: str, out: List[Dict[str, Any]], depth: int) -> None:
        for sub in schema.get("allOf") or []:
            self.check(sub, value, path, out, depth + 1)
        if isinstance(schema.get("anyOf"), list):
            found = [self.errors_of(sub, value, path, depth) for sub in schema["anyOf"]]
            if all(found):
                out.extend(issue for issues in found for issue in issues)
                out.append(_issue(path, "anyOf", "must match a schema in anyOf", {}))
        if isinstance(schema.get("oneOf"), list):
            found = [self.errors_of(sub, value, path, depth) for sub in schema["oneOf"]]
            passing = [index for index, issues in enumerate(found) if not issues]
            if len(passing) != 1:
                out.extend(issue for issues in found for issue in issues)
                out.append(_issue(path, "oneOf", "must match exactly one schema in oneOf", {"passingSchemas": passing[:2] if passing else None}))
        if "not" in schema and not self.errors_of(schema["not"], value, path, depth):
            out.append(_issue(path, "not", "must NOT be valid", {}))
        if "if" in schema and ("then" in schema or "else" in schema):
            branch = "else" if self.errors_of(schema["if"], value, path, depth) else "then"
            if branch in schema:
                issues = self.errors_of(schema[branch], value, path, depth)
                if issues:
                    out.extend(issues)
                    out.append(_issue(path, "if", f'must match "{branch}" schema', {"failingKeyword": branch}))


def _duplicate_items(items: Any, value: List[Any]) -> Optional[Any]:
    """The pair ajv names for the first duplicate it meets, walking from the end: by an index of
    the items of the declared scalar types when ``items`` declares only such types (others
    skipped), by comparing every earlier item otherwise."""
    declared = items.get("type") if isinstance(items, dict) else None
    types = declared if isinstance(declared, list) else ([declared] if isinstance(declared, str) else [])
    if types and not any(name in ("object", "array") for name in types):
        seen: Dict[str, int] = {}
        for i in range(len(value) - 1, -1, -1):
            if not any(_type_of(value[i], name) or (name == "number" and _type_of(value[i], "integer")) for name in types):
                continue
            text = canonical_json(value[i])
            if text in seen:
                return i, seen[text]
            seen[text] = i
        return None
    texts = [canonical_json(item) for item in value]
    for i in range(len(texts) - 1, -1, -1):
        for j in range(i - 1, -1, -1):
            if texts[i] == texts[j]:
                return i, j
    return None


def _nested_ids(schema: Any, top: bool = False) -> bool:
    if isinstance(schema, list):
        return any(_nested_ids(item) for item in schema)
    if not isinstance(schema, dict):
        return False
    if not top and isinstance(schema.get("$id"), str) and not schema["$id"].startswith("#"):
        return True
    return any(_nested_ids(value) for key, value in schema.items() if key not in ("enum", "const", "examples", "default"))


def _unescape_pointer(segment: str) -> str:
    return unquote(segment).replace("~1", "/").replace("~0", "~")


def _issue(path: str, keyword: str, message: str, params: Dict[str, Any]) -> Dict[str, Any]:
    return {"path": path, "keyword": keyword, "message": message, "params": params}


def schema_issues(schema: Any, value: Any) -> List[Dict[str, Any]]:
    """Every way ``value`` breaks ``schema`` (empty when it fits), as ajv reports them.

    >>> [issue["message"] for issue in schema_issues({"properties": {"limit": {"maximum": 50}}}, {"limit": 60})]
    ['must be <= 50']
    """
    if _nested_ids(schema, top=True):
        # A subschema's $id moves the base "#/…" refs resolve against; ajv follows it, this does not.
        raise UnsupportedSchema("[eval-simulate] the Python checker cannot check a schema whose subschemas set their own $id")
    checker = _Checker(schema, _dialect(schema))
    out: List[Dict[str, Any]] = []
    checker.check(schema, value, "", out)
    return out


def errors_text(issues: List[Dict[str, Any]]) -> str:
    """ajv's ``errorsText``: ``data/limit must be <= 50, data must have required property 'x'``."""
    return ", ".join(f"data{issue['path']} {issue['message']}" for issue in issues)

