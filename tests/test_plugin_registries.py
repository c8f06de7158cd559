"""The registries of each plug-in kind: every built-in declaration loads and is what its kind requires."""

from __future__ import annotations

import importlib
import pkgutil

import pytest

import data_catalog.sources
from data_catalog.sources import FORMATS
from data_catalog.sources.base import Converter, register
from environments.registry import ENVIRONMENTS
from exporters.registry import EXPORTERS
from generators.llm.backends import BACKENDS
from verifiers.registry import VERIFIERS, make_verifier


@pytest.mark.parametrize(
    "registry, builtins",
    [
        (FORMATS, {"adp", "openai_chat", "sharegpt", "swe_agent", "tau_bench", "tau2_results", "web_steps"}),
        (ENVIRONMENTS, {"retail", "airline", "code"}),
        (VERIFIERS, {"structure", "replay", "constraints", "unit_tests", "answer_match", "llm_judge"}),
        (BACKENDS, {"transformers", "vllm", "openai"}),
        (EXPORTERS, {"adp", "atif", "dpo", "hub", "openai", "sharegpt", "verl"}),
    ],
    ids=["formats", "environments", "verifiers", "backends", "exporters"],
)
def test_every_builtin_loads_and_passes_its_kinds_check(registry, builtins):
    assert registry.group == f"aceforge.{registry.kind}"
    loaded = registry.load_all()  # a typo'd path or a wrong `name` raises PluginLoadError here
    assert builtins <= set(loaded)
    for name, obj in loaded.items():
        assert getattr(obj, "name", name) == name


def test_every_converter_module_is_declared():
    """A converter class in data_catalog/sources that FORMATS does not declare would never be found."""
    declared = set(FORMATS.load_all().values())
    found = set()
    for module in pkgutil.iter_modules(data_catalog.sources.__path__):
        imported = importlib.import_module(f"data_catalog.sources.{module.name}")
        found |= {
            obj
            for obj in vars(imported).values()
            # A converter names its format; shared bases (Converter, ChatConverter) name none.
            if isinstance(obj, type) and issubclass(obj, Converter) and "name" in vars(obj)
        }
    assert found - declared == set()


def test_a_builtin_format_registering_itself_is_its_declaration():
    adp = FORMATS.get("adp")
    assert register(adp) is adp  # what @register does when the module is imported: nothing new

    class Impostor(Converter):
        name = "adp"

    with pytest.raises(ValueError, match="format 'adp' is already registered \\(built into aceforge\\)"):
        register(Impostor)


def test_verifier_stages_are_made_by_name():
    stage = make_verifier("replay")
    assert stage.name == "replay" and stage.hard
    with pytest.raises(KeyError, match="unknown verifier 'replai'; known verifiers: answer_match, constraints"):
        make_verifier("replai")
