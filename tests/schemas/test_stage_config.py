"""The config pattern: YAML defaults, overrides win, unknown keys and bad values fail naming the key."""

from __future__ import annotations

from typing import Literal

import pytest
from pydantic import Field

from schemas.stage_config import ConfigError, StageConfig
from tests.conftest import BILLION_LAUGHS


class Section(StageConfig):
    rate: float = Field(0.5, ge=0, le=1)
    """A share."""


class Stage(StageConfig):
    name: str
    """Required: no default."""
    steps: int = 3
    """How many steps."""
    mode: Literal["fast", "careful"] = "fast"
    """How to go."""
    section: Section = Field(default_factory=Section)
    """A nested section."""


def test_yaml_gives_defaults_and_overrides_win(tmp_path):
    path = tmp_path / "stage.yaml"
    path.write_text("name: a\nsteps: 7\nsection: {rate: 0.2}\n")
    assert Stage.load(path) == Stage(name="a", steps=7, section=Section(rate=0.2))
    overridden = Stage.load(path, steps=9, name=None, section={"rate": 0.9})
    assert (overridden.name, overridden.steps, overridden.section.rate) == ("a", 9, 0.9)


def test_unknown_key_is_named_with_the_nearest_known_one(tmp_path):
    path = tmp_path / "stage.yaml"
    path.write_text("name: a\nstesp: 7\n")
    with pytest.raises(ConfigError, match=r"unknown key 'stesp' \(did you mean 'steps'\?\)"):
        Stage.load(path)
    path.write_text("name: a\nsection: {rte: 0.1}\n")
    with pytest.raises(ConfigError, match=r"unknown key 'section.rte' \(did you mean 'rate'\?\)"):
        Stage.load(path)


def test_bad_values_and_missing_keys_are_named():
    with pytest.raises(ConfigError, match=r"missing required key 'name'"):
        Stage.load()
    with pytest.raises(ConfigError, match=r"mode: Input should be 'fast' or 'careful' \(got 'slow'\)"):
        Stage.load(name="a", mode="slow")
    with pytest.raises(ConfigError, match=r"section.rate: Input should be less than or equal to 1"):
        Stage.from_mapping({"name": "a", "section": {"rate": 2}})


def test_unreadable_yaml_is_one_clear_error(tmp_path):
    path = tmp_path / "bad.yaml"
    path.write_text("name: [unclosed\n")
    with pytest.raises(ConfigError, match="is not valid YAML"):
        Stage.load(path)
    path.write_text("- a list\n")
    with pytest.raises(ConfigError, match="must be a mapping"):
        Stage.load(path)
    with pytest.raises(ConfigError, match="cannot read config"):
        Stage.load(tmp_path / "missing.yaml")


def test_a_yaml_alias_bomb_is_refused_before_anything_walks_it(tmp_path):
    path = tmp_path / "bomb.yaml"
    path.write_text(BILLION_LAUGHS)
    assert len(BILLION_LAUGHS.splitlines()) == 9
    with pytest.raises(ConfigError, match=r"bomb.yaml expands to more than 100,000 values \(aliases nested"):
        Stage.load(path)
    # Aliases within reason are YAML as usual.
    path.write_text("name: &n shared\nsection: {rate: 0.5}\nmode: fast\nsteps: 3\nlabels: [*n, *n]\n")
    with pytest.raises(ConfigError, match="unknown key 'labels'"):
        Stage.load(path)


def test_fields_are_documented_once_by_their_docstring():
    assert Stage.model_fields["steps"].description == "How many steps."
    assert Section.model_fields["rate"].description == "A share."


def test_to_yaml_round_trips(tmp_path):
    stage = Stage(name="x", mode="careful")
    path = tmp_path / "used.yaml"
    path.write_text(stage.to_yaml())
    assert Stage.load(path) == stage


class Run(StageConfig):
    section: Section = Field(default_factory=lambda: Section(rate=0.9))
    """A section whose default differs from its class's."""
    k: int = 1
    """Runs."""


class Pipeline(StageConfig):
    stage: Stage = Field(default_factory=lambda: Stage(name="small", steps=1, mode="careful"))
    """A section whose default differs from its class's defaults."""
    nested: Run = Field(default_factory=lambda: Run(k=2))
    """A section with a section of its own."""
    runs: list[Run] = Field(default_factory=list)
    """A list of sections."""


def test_keys_given_for_a_section_overlay_its_default_value_not_its_class_defaults():
    cfg = Pipeline.load(stage={"steps": 5})
    assert (cfg.stage.name, cfg.stage.steps, cfg.stage.mode) == ("small", 5, "careful")
    assert Pipeline.from_mapping({"stage": {"section": {"rate": 0.1}}}).stage.section.rate == 0.1


def test_section_defaults_hold_at_any_depth_and_in_list_items(tmp_path):
    path = tmp_path / "p.yaml"
    path.write_text("nested:\n  section: {}\nruns:\n  - {k: 3}\n  - section: {}\n")
    cfg = Pipeline.load(path)
    assert (cfg.nested.k, cfg.nested.section.rate) == (2, 0.9)
    assert [(run.k, run.section.rate) for run in cfg.runs] == [(3, 0.9), (1, 0.9)]
    # In Python a section is taken as given: Run(section={}) has the class's rate.
    assert Run(section={}).section.rate == 0.5
