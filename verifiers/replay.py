"""Replay: re-execute τ's tool calls in a fresh environment and compare with what τ recorded.

The environment starts from the record's initial state (environments/from_record.py).
Each ApiAction is called in step order; its replayed result must match the
recorded tool result. Comparison (``v.spec["replay_compare"]``): ``json``
(default: equal as parsed JSON, else equal as stripped text), ``exact``, or
``status`` (only success vs error must agree; for imported data whose
observation text was formatted by another system).

Reason codes: ``replay_mismatch`` (a result differs: the trajectory shows a
state the replay never reached), ``replay_error`` (the environment raised),
``initial_state_mismatch`` / ``initial_state_unavailable`` /
``unknown_environment`` / ``no_environment`` (the start state cannot be
rebuilt), ``state_hash_mismatch`` (``v.spec["final_state_hash"]`` differs),
``tool_error`` (only with ``v.spec["allow_tool_errors"] = false``: a call failed).

A call to an unknown tool, or with arguments that fail the schema, answered by an error is not replayed:
the rollout refused it before E saw it (verifiers/structure.py ``refused_bad_call``), so it changed
nothing and its error text is the rollout's, not E's. It counts as a failed call.

Evidence: ``final_state_hash``, ``calls``, ``tool_errors``, ``mismatch``
({step, tool, recorded, replayed}) for the first mismatch. The replayed
environments and a per-call log (step, tool, ok, access, changed) are left
in the context for the later stages: per call its step, tool, arguments, replayed success, access, whether
it changed the state and, for a write that did, the rows it wrote as (before, after).
"""

from __future__ import annotations

from typing import Any

import orjson

from environments.base import ToolResult
from environments.from_record import InitialStateError, build_environment
from schemas.record import VerifierResult
from verifiers.base import CheckContext, RecordVerifier
from verifiers.structure import refused_bad_call
from verifiers.trajectory_view import call_pairs

EXCERPT = 300


def same_observation(recorded: str, replayed: ToolResult, mode: str = "json") -> bool:
    if mode == "status":
        return recorded.lstrip().lower().startswith("error") == (not replayed.ok)
    text = replayed.as_text()
    if mode == "exact":
        return recorded == text
    if recorded.strip() == text.strip():
        return True
    try:
        return orjson.loads(recorded) == orjson.loads(text)
    except orjson.JSONDecodeError:
        return False


class ReplayVerifier(RecordVerifier):
    name = "replay"
    version = "1"
    hard = True
    needs_env = True

    def check(self, ctx: CheckContext) -> VerifierResult:
        record = ctx.record
        try:
            env = build_environment(record.environment, ctx.env_factory)
            ctx.initial_env = build_environment(record.environment, ctx.env_factory)
        except InitialStateError as exc:
            return self.result(False, reasons=[exc.code], evidence={"detail": str(exc)})
        access = {t.name: t.access for t in env.tools()}
        mode = ctx.spec.get("replay_compare", "json")
        pairs, _ = call_pairs(ctx)
        tools = ctx.tools()
        mismatch, errors = None, 0
        for pair in pairs:
            call = pair.call
            is_write = access.get(call.function) == "write"
            before = env.state_hash() if is_write else None
            refused = refused_bad_call(pair, tools)
            try:
                replayed = ToolResult(ok=False) if refused else env.call(call.function, call.kwargs)
            except Exception as exc:  # the protocol forbids raising; a buggy environment must not crash us
                return self.result(
                    False,
                    reasons=["replay_error"],
                    evidence={"step": pair.step, "tool": call.function, "detail": f"{type(exc).__name__}: {exc}"},
                )
            errors += not replayed.ok
            changed = is_write and replayed.ok and env.state_hash() != before
            ctx.write_log.append(
                {
                    "step": pair.step,
                    "tool": call.function,
                    "arguments": call.kwargs,
                    "ok": replayed.ok,
                    "access": access.get(call.function),
                    "changed": changed,
                    "rows": env.action_log[-1]["rows"] if changed and hasattr(env, "action_log") else {},
                }
            )
            if (
                mismatch is None
                and not refused  # never ran: its recorded error is the rollout's, there is nothing to compare
                and pair.result is not None
                and not same_observation(pair.result.content, replayed, mode)
            ):
                mismatch = {
                    "step": pair.result_step,
                    "tool": call.function,
                    "recorded": pair.result.content[:EXCERPT],
                    "replayed": replayed.as_text()[:EXCERPT],
                }
        ctx.final_env = env
        return self._verdict(ctx, env.state_hash(), len(pairs), errors, mismatch)

    def _verdict(
        self, ctx: CheckContext, final_hash: str, calls: int, errors: int, mismatch: dict | None
    ) -> VerifierResult:
        evidence: dict[str, Any] = {"final_state_hash": final_hash, "calls": calls, "tool_errors": errors}
        reasons = []
        if mismatch is not None:
            reasons.append("replay_mismatch")
            evidence["mismatch"] = mismatch
        expected = ctx.spec.get("final_state_hash")
        if expected and expected != final_hash:
            reasons.append("state_hash_mismatch")
            evidence["expected_final_state_hash"] = expected
        if errors and ctx.spec.get("allow_tool_errors", True) is False:
            reasons.append("tool_error")
        return self.result(not reasons, reasons=reasons, evidence=evidence)
