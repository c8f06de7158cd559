"""τ² task definitions (``domains/<domain>/tasks.json``): q and v's spec, no τ.

Each task becomes a record with an empty trajectory: q holds the user scenario
(persona; instructions with reason for call, known / unknown info, task
instructions; or a plain instruction string), with description, ticket and
initial state in ``task.metadata``; v is kind ``tau2_criteria`` with the
task's ``evaluation_criteria`` (expected actions, env / NL assertions,
communicate info, reward basis) as its spec and no result yet.

The domain is the ``domain`` option, else the one the instructions name; the
mock domain's tasks name none, so converting them needs the option. Ids are
keyed by (domain, task id), so airline task "0" and retail task "0" differ.
"""

from __future__ import annotations

from typing import Any

from data_catalog.sources.base import ConversionError, Converter, register
from data_catalog.sources.tau_common import tau2_task
from schemas.record import AgentRecord, Environment, Source, Verifier, record_id


@register
class Tau2TasksConverter(Converter):
    name = "tau2_tasks"
    description = (
        "τ² task definitions (tasks.json): user scenario as q, evaluation_criteria as the verifier spec, no trajectory."
    )
    options = {
        "domain": "the tasks' domain (airline, retail, telecom, mock); default: the domain the instructions name"
    }

    def convert(self, raw: Any) -> AgentRecord:
        task, criteria, named_domain = tau2_task(raw)
        domain = self.opts.extra.get("domain") or named_domain
        if not domain:
            raise ConversionError(f"task {raw['id']!r} names no domain; give the domain option")
        task_id = task.metadata["task_id"]
        return AgentRecord(
            id=record_id(self.dataset, self.name, f"{domain}/{task_id}"),
            environment=Environment(kind="tool_world", name=domain),
            task=task,
            verifier=Verifier(kind="tau2_criteria", spec=criteria),
            source=Source(dataset=self.dataset, format=self.name, original_id=task_id, license=self.opts.license),
        )
