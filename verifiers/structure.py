"""Structure: the trajectory is a well-formed conversation with E's tools.

Reason codes:
- ``empty_trajectory``: no steps at all;
- ``unknown_tool``: a call names a tool E does not have (and was not answered by an error);
- ``args_schema_invalid``: a call's arguments fail the tool's JSON schema (and were not answered by an error);
- ``tool_schema_invalid``: E declares a tool whose parameter schema is not valid JSON Schema;
- ``duplicate_tool_call_id``: two calls share one id;
- ``orphan_tool_result``: a tool result answers no earlier open call;
- ``missing_tool_result``: a call is never answered (before the agent acts again, or at all);
- ``unterminated``: the trajectory stops on a tool call or a tool result, not on a reply.

A call to an unknown tool, or with arguments that fail the schema, that was answered by an error
observation is no issue: the agent was told, as in τ-bench, and could try again (a rollout answers such a
call itself: generators/rollouts/conversation.py). It is a recovered error, counted in the evidence; whether
the agent then got it right is for the end state and the constraints to say.

Evidence: ``issues`` (up to 20 {step, code, detail}), ``tool_calls``, ``recovered_errors``
({count, steps}: up to 20 steps of calls answered by an error as above).
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
from verifiers.trajectory_view import CallPair, call_pairs, is_tool_result

MAX_ISSUES = 20
MAX_CALL_ERROR = 300  # what the agent is told about a bad call: the first violation, not a dump of its arguments


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


def call_error(tools: dict[str, Tool], name: str, arguments: Any) -> str | None:
    """Why a call cannot run, in words for the agent (at most MAX_CALL_ERROR characters): its tool is unknown, or
    the first schema violation of its arguments; None when it can run. Raises SchemaError when the schema is broken."""
    tool = tools.get(name)
    if tool is None:
        return f"unknown tool '{name}'"[:MAX_CALL_ERROR]
    errors = argument_errors(tool, arguments)
    return f"invalid arguments for {name}: {errors[0]}"[:MAX_CALL_ERROR] if errors else None


def answered_by_error(pair: CallPair) -> bool:
    return pair.result is not None and pair.result.content.lstrip().lower().startswith("error")


def refused_bad_call(pair: CallPair, tools: dict[str, Tool]) -> bool:
    """A call ``call_error`` objects to, answered by an error: refused before it could run, so it changed nothing."""
    if not answered_by_error(pair):
        return False
    try:
        return call_error(tools, pair.call.function, pair.call.kwargs) is not None
    except SchemaError:
        return False


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
        recovered = self._check_calls(pairs, tools, issues)
        issues += [{"step": i, "code": "orphan_tool_result", "detail": trajectory[i].tool_call_id} for i in orphans]
        self._check_answered(trajectory, pairs, issues)
        last = trajectory[-1]
        if isinstance(last, (ApiAction, CodeAction)) or is_tool_result(last):
            issues.append({"step": len(trajectory) - 1, "code": "unterminated", "detail": last.class_})
        issues.sort(key=lambda issue: issue["step"])
        reasons = [issue["code"] for issue in issues]
        evidence = {
            "tool_calls": len(pairs),
            "issues": issues[:MAX_ISSUES],
            "recovered_errors": {"count": len(recovered), "steps": recovered[:MAX_ISSUES]},
        }
        return self.result(not issues, reasons=reasons, evidence=evidence)

    def _check_calls(self, pairs, tools: dict[str, Tool], issues: list) -> list[int]:
        """Adds the calls' issues; returns the steps of the bad calls that were answered by an error."""
        seen_ids: set[str] = set()
        recovered: list[int] = []
        for pair in pairs:
            call = pair.call
            if call.tool_call_id is not None:
                if call.tool_call_id in seen_ids:
                    issues.append({"step": pair.step, "code": "duplicate_tool_call_id", "detail": call.tool_call_id})
                seen_ids.add(call.tool_call_id)
            tool = tools.get(call.function)
            refused = answered_by_error(pair)
            if tool is None:
                if refused:
                    recovered.append(pair.step)
                else:
                    issues.append({"step": pair.step, "code": "unknown_tool", "detail": call.function})
                continue
            try:
                errors = argument_errors(tool, call.kwargs)
            except SchemaError as exc:
                issues.append(
                    {"step": pair.step, "code": "tool_schema_invalid", "detail": f"{tool.name}: {exc.message}"}
                )
                continue
            if errors and refused:  # a call the world refused changed nothing: an error the agent may recover from
                recovered.append(pair.step)
            elif errors:
                issues.append(
                    {"step": pair.step, "code": "args_schema_invalid", "detail": f"{call.function}: {errors[0]}"}
                )
        return recovered

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
