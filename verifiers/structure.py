"""Structure: the trajectory is a well-formed conversation with E's tools.

Reason codes:
- ``empty_trajectory``: no steps at all;
- ``unknown_tool``: a call names a tool E does not have;
- ``args_schema_invalid``: a call's arguments fail the tool's JSON schema;
- ``tool_schema_invalid``: E declares a tool whose parameter schema is not valid JSON Schema;
- ``duplicate_tool_call_id``: two calls share one id;
- ``orphan_tool_result``: a tool result answers no earlier open call;
- ``missing_tool_result``: a call is never answered (before the agent acts again, or at all);
- ``unterminated``: the trajectory stops on a tool call or a tool result, not on a reply.

Evidence: ``issues`` (up to 20 {step, code, detail}), ``tool_calls``.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

import fastjsonschema
import orjson
from jsonschema import Draft202012Validator
from jsonschema.exceptions import SchemaError

from schemas.record import Tool, VerifierResult
from schemas.steps import ApiAction, CodeAction, MessageAction
from verifiers.base import CheckContext, RecordVerifier
from verifiers.trajectory_view import call_pairs, is_tool_result

MAX_ISSUES = 20


@lru_cache(maxsize=512)
def _validator(schema_json: bytes) -> Draft202012Validator:
    schema = orjson.loads(schema_json)
    Draft202012Validator.check_schema(schema)
    return Draft202012Validator(schema)


@lru_cache(maxsize=512)
def _fast_check(schema_json: bytes):
    """A compiled check (fastjsonschema: many times faster than jsonschema on valid arguments, the common case)."""
    return fastjsonschema.compile(orjson.loads(schema_json))


def argument_errors(tool: Tool, arguments: Any) -> list[str]:
    """Schema violations of one call's arguments (raises SchemaError when the tool's schema is broken)."""
    schema_json = orjson.dumps(tool.parameters, option=orjson.OPT_SORT_KEYS)
    validator = _validator(schema_json)  # checks the schema itself first (SchemaError)
    try:
        _fast_check(schema_json)(arguments)
        return []
    except fastjsonschema.JsonSchemaException:
        pass
    if validator.is_valid(arguments):  # the two disagree: jsonschema, the reference implementation, decides
        return []
    return [f"{'.'.join(map(str, e.absolute_path)) or '<args>'}: {e.message}" for e in validator.iter_errors(arguments)]


class StructureVerifier(RecordVerifier):
    name = "structure"
    version = "1"
    hard = True

    def check(self, ctx: CheckContext) -> VerifierResult:
        trajectory = ctx.record.trajectory
        if not trajectory:
            return self.result(False, reasons=["empty_trajectory"], evidence={"tool_calls": 0})
        issues: list[dict[str, Any]] = []
        tools = ctx.tools()
        pairs, orphans = call_pairs(ctx)
        self._check_calls(pairs, tools, issues)
        issues += [{"step": i, "code": "orphan_tool_result", "detail": trajectory[i].tool_call_id} for i in orphans]
        self._check_answered(trajectory, pairs, issues)
        last = trajectory[-1]
        if isinstance(last, (ApiAction, CodeAction)) or is_tool_result(last):
            issues.append({"step": len(trajectory) - 1, "code": "unterminated", "detail": last.class_})
        issues.sort(key=lambda issue: issue["step"])
        reasons = [issue["code"] for issue in issues]
        return self.result(
            not issues, reasons=reasons, evidence={"tool_calls": len(pairs), "issues": issues[:MAX_ISSUES]}
        )

    def _check_calls(self, pairs, tools: dict[str, Tool], issues: list) -> None:
        seen_ids: set[str] = set()
        for pair in pairs:
            call = pair.call
            if call.tool_call_id is not None:
                if call.tool_call_id in seen_ids:
                    issues.append({"step": pair.step, "code": "duplicate_tool_call_id", "detail": call.tool_call_id})
                seen_ids.add(call.tool_call_id)
            tool = tools.get(call.function)
            if tool is None:
                issues.append({"step": pair.step, "code": "unknown_tool", "detail": call.function})
                continue
            try:
                errors = argument_errors(tool, call.kwargs)
            except SchemaError as exc:
                issues.append(
                    {"step": pair.step, "code": "tool_schema_invalid", "detail": f"{tool.name}: {exc.message}"}
                )
                continue
            refused = pair.result is not None and pair.result.content.lstrip().lower().startswith("error")
            if errors and not refused:  # a call the world refused changed nothing: an error the agent may recover from
                issues.append(
                    {"step": pair.step, "code": "args_schema_invalid", "detail": f"{call.function}: {errors[0]}"}
                )

    def _check_answered(self, trajectory: list, pairs, issues: list) -> None:
        """A call must be answered before the agent's next message (or at all)."""
        next_message = {}
        upcoming = None
        for index in range(len(trajectory) - 1, -1, -1):
            next_message[index] = upcoming
            if isinstance(trajectory[index], MessageAction):
                upcoming = index
        for pair in pairs:
            deadline = next_message[pair.step]
            late = pair.result_step is not None and deadline is not None and pair.result_step > deadline
            if pair.result_step is None or late:
                issues.append({"step": pair.step, "code": "missing_tool_result", "detail": pair.call.function})
