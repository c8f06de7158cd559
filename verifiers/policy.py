"""Policy: the rules of the environment's policy text that a trajectory can be checked against.

What the environment declares (environments/tool_world.py) decides what applies; an environment
without policy text passes trivially (nothing to break).

- **identity** (``identity_tools``, ``account_tools``): no account data is read (an account tool
  called, even unsuccessfully) before an identity tool has succeeded. Worlds without an identity
  tool (airline: the user states their id) rely on grounding: a call's user id must come from the user.
- **consent**, before every write call (a tool with ``access="write"``): the agent asked the user to confirm
  that write, describing it (its action, its rows by id or by what the tools showed, the money it moves), and
  the user's latest decision on it is consent, in any words (verifiers/consent.py).
- **read before write**: the row a write acts on (its first ``*_id`` argument: the order, the reservation, the
  user) was named by the user or shown by an earlier tool result (its details, or a write's result): an agent
  does not pick "the order with the E-Reader" from a list of ids without reading any order.
- **scope** (tasks with gold actions): no write is attempted on anything the gold writes do not act
  on (a write call's target, its first ``*_id`` argument, successful or not, must be the target of a
  gold write).
- **grounded refusal** (a goal of outcome ``refusal`` in ``q.metadata["goals"]``): the reads that
  establish why (that goal's gold calls on the goal's own rows: arguments taken from its params) were
  made, successfully, with the same arguments; that the reason is said is one of the goal's constraints.

- **one customer**: no tool result shows account data of another user than the first one read.
- **transfer**: a hand-off to a human (``transfer_to_human_agents``) only where the task's gold actions make one.

Reason codes: ``identity_not_verified``, ``write_without_confirmation``, ``write_after_refusal``,
``confirmation_incomplete``, ``confirmation_mismatch``, ``write_before_read``, ``write_out_of_scope``,
``refusal_ungrounded``, ``transfer_unwarranted``, ``other_user_data``; and, undecided (passed None unless something else failed):
``consent_conditional``. Evidence: ``violations`` and ``undecided``, {step, rule, detail}. Score: 1 / (1 +
violations) (partial credit for rewards; any violation fails the check).
"""

from __future__ import annotations

from typing import Any

from schemas.record import VerifierResult
from schemas.steps import ApiAction, TextObservation
from verifiers.base import CheckContext, RecordVerifier
from verifiers.claims import Row, rows_of
from verifiers.consent import UNDECIDED, consent_violations
from verifiers.final_state import gold_actions

TRANSFER_TOOL = "transfer_to_human_agents"


def _row(content: str) -> Row | None:
    rows = rows_of(content)  # parsed once per distinct result
    return rows[0] if rows else None


TARGET_KEYS = ("order_id", "reservation_id", "user_id")

MAX_EVIDENCE = 10


def id_values(arguments: dict[str, Any]) -> list[str]:
    """The values of a call's id arguments (``order_id``, ``item_ids``, ...), as text."""
    found = []
    for key, value in arguments.items():
        if key.endswith(("_id", "_ids")):
            found += [str(v) for v in (value if isinstance(value, list) else [value]) if isinstance(v, (str, int))]
    return found


def target(arguments: dict[str, Any]) -> str | None:
    """What a write acts on: its order or reservation, else its user, else its first id argument in name order
    (not in the order the arguments were written: stored JSON often sorts keys, and item_ids would come first)."""
    for key in TARGET_KEYS:
        if isinstance(arguments.get(key), (str, int)):
            return str(arguments[key])
    values = id_values(dict(sorted(arguments.items())))
    return values[0] if values else None


class PolicyVerifier(RecordVerifier):
    name = "policy"
    version = "5"
    needs_env = True

    def check(self, ctx: CheckContext) -> VerifierResult:
        env, trajectory = ctx.initial_env, ctx.record.trajectory
        if not getattr(env, "policy", ""):  # an environment without a policy has no rules to break
            return self.result(True, evidence={"violations": [], "policy": False})
        access = {tool.name: tool.access for tool in env.tools()}
        ok = {entry["step"]: entry["ok"] for entry in ctx.write_log}  # replayed success per call step
        consent = consent_violations(ctx, access, ok)
        undecided = [v for v in consent if v["rule"] in UNDECIDED]
        violations = self._identity(trajectory, env, ok) + [v for v in consent if v["rule"] not in UNDECIDED]
        violations += self._reads_before_writes(trajectory, access) + self._scope(ctx, access) + self._refusals(ctx, ok)
        violations += self._transfers(ctx) + self._others(trajectory, env)
        reasons = list(dict.fromkeys(v["rule"] for v in violations + undecided))
        score = 1.0 / (1 + len(violations))  # partial credit for a reward; passed is False with any violation
        evidence = {"violations": violations[:MAX_EVIDENCE], "undecided": undecided[:MAX_EVIDENCE]}
        if undecided and not violations:  # what the rules cannot decide is no pass
            return self.result(False, score=score, reasons=reasons, evidence=evidence).model_copy(
                update={"passed": None}
            )
        return self.result(not violations, score=score, reasons=reasons, evidence=evidence)

    @staticmethod
    def _identity(trajectory: list, env: Any, results: dict[int, bool]) -> list[dict]:
        identity, account = getattr(env, "identity_tools", ()), getattr(env, "account_tools", ())
        if not identity:
            return []
        for index, step in enumerate(trajectory):
            if not isinstance(step, ApiAction):
                continue
            if step.function in identity and results.get(index, False):
                return []
            if step.function in account:
                return [{"step": index, "rule": "identity_not_verified", "detail": step.function}]
        return []

    @staticmethod
    def _reads_before_writes(trajectory: list, access: dict[str, str]) -> list[dict]:
        violations, rows, said = [], [], ""
        for index, step in enumerate(trajectory):
            if isinstance(step, TextObservation) and step.source == "user":
                said += "\n" + step.content.lower()
            elif isinstance(step, TextObservation) and step.source == "tool" and (row := _row(step.content)):
                rows.append(row)
            elif isinstance(step, ApiAction) and access.get(step.function) == "write":
                name = target(step.kwargs)
                if name is not None and name.lower() not in said and not any(row.named(name) for row in rows):
                    violations.append(
                        {"step": index, "rule": "write_before_read", "detail": f"{step.function} on {name}"}
                    )
        return violations

    @staticmethod
    def _scope(ctx: CheckContext, access: dict[str, str]) -> list[dict]:
        actions = gold_actions(ctx.record)
        if actions is None:
            return []
        allowed = {target(a["arguments"]) for a in actions if access.get(a["name"]) == "write"}
        return [
            {"step": index, "rule": "write_out_of_scope", "detail": f"{step.function} on {target(step.kwargs)}"}
            for index, step in enumerate(ctx.record.trajectory)
            if isinstance(step, ApiAction)
            and access.get(step.function) == "write"
            and target(step.kwargs) not in allowed
        ]

    @staticmethod
    def _others(trajectory: list, env: Any) -> list[dict]:
        """Account data of another user than the one the conversation is with (the first whose account was
        read): the policies serve one customer per conversation."""
        if not getattr(env, "account_tools", ()):
            return []
        caller = None
        for index, step in enumerate(trajectory):
            if not (isinstance(step, TextObservation) and step.source == "tool" and (row := _row(step.content))):
                continue
            owner = row.values.get("user_id")
            if not isinstance(owner, str):
                continue
            caller = caller or owner
            if owner != caller:
                return [{"step": index, "rule": "other_user_data", "detail": owner}]
        return []

    @staticmethod
    def _transfers(ctx: CheckContext) -> list[dict]:
        """A hand-off to a human only where the task calls for one (its gold actions make the transfer)."""
        actions = gold_actions(ctx.record)
        if actions is None or any(a["name"] == TRANSFER_TOOL for a in actions):
            return []
        return [
            {"step": index, "rule": "transfer_unwarranted", "detail": TRANSFER_TOOL}
            for index, step in enumerate(ctx.record.trajectory)
            if isinstance(step, ApiAction) and step.function == TRANSFER_TOOL
        ][:1]

    @staticmethod
    def _refusals(ctx: CheckContext, results: dict[int, bool]) -> list[dict]:
        goals = (ctx.record.task.metadata or {}).get("goals")
        if not isinstance(goals, list):
            return []
        made = [
            (step.function, step.kwargs)
            for index, step in enumerate(ctx.record.trajectory)
            if isinstance(step, ApiAction) and results.get(index, False)
        ]
        violations = []
        for goal in goals:
            if not isinstance(goal, dict) or goal.get("outcome") != "refusal":
                continue
            params = goal.get("params") or {}
            for action in goal.get("actions") or []:
                arguments = action.get("arguments") or {}
                establishes = all(params.get(key) == value for key, value in arguments.items())
                if establishes and (action.get("name"), arguments) not in made:
                    violations.append({"step": None, "rule": "refusal_ungrounded", "detail": action.get("name")})
        return violations
