"""τ² task definitions (``domains/<domain>/tasks.json``): q and v's spec, no τ.

Each task becomes a record with an empty trajectory: q holds the user scenario
(persona; instructions with reason for call, known / unknown info, task
instructions; or a plain instruction string), with description, ticket and
initial state in ``task.metadata``; v is kind ``tau2_criteria`` with the
task's ``evaluation_criteria`` (expected actions, env / NL assertions,
communicate info, reward basis) as its spec and no result yet.

The domain is the ``domain`` option; else the one the instructions name
(airline, retail, telecom do); else the folder the file is in, as τ² lays
its data out (``domains/mock/tasks.json``, any domain, built in or not); else the one whose tools the
expected actions call (mock's create_task, ...). Ids are keyed by
(domain, task id), so airline task "0" and retail task "0" differ.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Any

from data_catalog.sources.base import ConversionError, Converter, Detected, register
from data_catalog.sources.tau_common import tau2_task
from schemas.record import AgentRecord, Environment, Source, Verifier

DOMAINS = ("airline", "retail", "telecom", "mock")
# Tools only one domain has (calculate, get_user_details, transfer_to_human_agents are shared).
_DOMAIN_TOOLS = {
    "airline": {
        "book_reservation", "cancel_reservation", "get_reservation_details", "search_direct_flight",
        "search_onestop_flight", "send_certificate", "update_reservation_baggages", "update_reservation_flights",
        "update_reservation_passengers", "get_flight_status", "list_all_airports",
    },
    "retail": {
        "cancel_pending_order", "exchange_delivered_order_items", "find_user_id_by_email", "find_user_id_by_name_zip",
        "get_order_details", "get_product_details", "get_item_details", "list_all_product_types",
        "modify_pending_order_address", "modify_pending_order_items", "modify_pending_order_payment",
        "modify_user_address", "return_delivered_order_items",
    },
    "telecom": {
        "toggle_airplane_mode", "toggle_data", "toggle_roaming", "toggle_wifi_calling", "toggle_data_saver_mode",
        "refuel_data", "reseat_sim_card", "reboot_device", "enable_roaming", "reset_apn_settings", "resume_line",
        "set_network_mode_preference", "grant_app_permission", "disconnect_vpn", "send_payment_request",
    },
    "mock": {"create_task", "update_task_status", "get_users"},
}  # fmt: skip


def domain_of_path(source: str) -> str | None:
    """The domain a task file's folder names (``.../domains/mock/tasks.json`` -> mock): a built-in
    domain's folder anywhere, or any folder in a ``domains/`` folder (banking_knowledge, a new one)."""
    if source == "-":
        return None
    folder = Path(source).parent
    return folder.name if folder.name in DOMAINS or folder.parent.name == "domains" else None


def domain_of_actions(criteria: dict[str, Any]) -> str | None:
    """The one domain whose tools the expected actions call, if exactly one."""
    names = {a.get("name") for a in criteria.get("actions") or [] if isinstance(a, dict)}
    found = {domain for domain, tools in _DOMAIN_TOOLS.items() if names & tools}
    return found.pop() if len(found) == 1 else None


@register
class Tau2TasksConverter(Converter):
    name = "tau2_tasks"
    description = (
        "τ² task definitions (tasks.json): user scenario as q, evaluation_criteria as the verifier spec, no trajectory."
    )
    options = {
        "domain": f"the tasks' domain ({', '.join(DOMAINS)}); default: named by the instructions, "
        "the file's folder (domains/<domain>/tasks.json) or the tools the expected actions call"
    }
    layouts = ("τ²'s domains/<domain>/tasks.json (or tasks_small.json): a JSON array (or JSONL) of tasks",)

    @staticmethod
    def sniff(value: Any) -> Detected | None:
        if isinstance(value, dict) and "id" in value and isinstance(value.get("user_scenario"), dict):
            return (3, "τ² task") if "messages" not in value else None
        return None

    def items(self, document: Any, source: str = "-") -> Iterable[Any]:
        tasks = super().items(document, source)
        folder = domain_of_path(source)
        return tasks if folder is None else ({"task": t, "domain_of_path": folder} for t in tasks)

    def convert(self, raw: Any) -> AgentRecord:
        folder = None
        if isinstance(raw, dict) and "domain_of_path" in raw:
            raw, folder = raw["task"], raw["domain_of_path"]
        task, criteria, named_domain = tau2_task(raw)
        domain = self.opts.extra.get("domain") or named_domain or folder or domain_of_actions(criteria)
        if not domain:
            raise ConversionError(
                f"task {raw['id']!r} names no domain and calls no domain's tools; give the domain option"
            )
        task_id = task.metadata["task_id"]
        return AgentRecord(
            id=self.record_id(f"{domain}/{task_id}", raw),
            environment=Environment(kind="tool_world", name=domain),
            task=task,
            verifier=Verifier(kind="tau2_criteria", spec=criteria),
            source=Source(dataset=self.dataset, format=self.name, original_id=task_id, license=self.opts.license),
        )
