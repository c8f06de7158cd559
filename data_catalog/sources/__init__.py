"""Converters for raw trajectory formats, by name (the contract is in base.py).

``FORMATS`` is the format registry (runtime/plugins.py): the built-in formats
are declared below as lazy "module:Class" paths, so converting one format
imports only its module; an installed package adds formats through the
``aceforge.formats`` entry-point group.
"""

from __future__ import annotations

from data_catalog.sources.base import Converter, ConvertOptions
from runtime.plugins import Registry, named_subclass

FORMATS: Registry[type[Converter]] = Registry(
    "formats",
    "format",
    {
        "adp": "data_catalog.sources.adp:AdpConverter",
        "aider": "data_catalog.sources.aider:AiderConverter",
        "agentbench": "data_catalog.sources.agentbench:AgentBenchConverter",
        "anthropic_messages": "data_catalog.sources.anthropic_messages:AnthropicMessagesConverter",
        "atif": "data_catalog.sources.atif:AtifConverter",
        "bfcl_multi_turn": "data_catalog.sources.bfcl_multi_turn:BfclMultiTurnConverter",
        "claude_code": "data_catalog.sources.claude_code:ClaudeCodeConverter",
        "codex_cli": "data_catalog.sources.codex_cli:CodexCliConverter",
        "gemini_cli": "data_catalog.sources.gemini_cli:GeminiCliConverter",
        "inspect_ai": "data_catalog.sources.inspect_ai:InspectAiConverter",
        "letta": "data_catalog.sources.letta:LettaConverter",
        "mini_swe_agent": "data_catalog.sources.mini_swe_agent:MiniSweAgentConverter",
        "openai_agents": "data_catalog.sources.openai_agents:OpenAIAgentsConverter",
        "openai_chat": "data_catalog.sources.openai_chat:OpenAIChatConverter",
        "openai_responses": "data_catalog.sources.openai_responses:OpenAIResponsesConverter",
        "openhands": "data_catalog.sources.openhands:OpenHandsConverter",
        "sharegpt": "data_catalog.sources.sharegpt:ShareGPTConverter",
        "smolagents": "data_catalog.sources.smolagents:SmolagentsConverter",
        "swe_agent": "data_catalog.sources.swe_agent:SweAgentConverter",
        "synatra": "data_catalog.sources.synatra:SynatraConverter",
        "tau2_results": "data_catalog.sources.tau2_results:Tau2ResultsConverter",
        "tau2_tasks": "data_catalog.sources.tau2_tasks:Tau2TasksConverter",
        "tau_bench": "data_catalog.sources.tau_bench:TauBenchConverter",
        "toolbench": "data_catalog.sources.toolbench:ToolBenchConverter",
        "web_steps": "data_catalog.sources.web_steps:WebStepsConverter",
    },
    check=named_subclass(Converter),
)


def formats() -> dict[str, type[Converter]]:
    """Every format by name, sorted (imports every converter)."""
    return FORMATS.load_all()


def get_converter(name: str, options: ConvertOptions | None = None) -> Converter:
    return FORMATS.get(name)(options)
