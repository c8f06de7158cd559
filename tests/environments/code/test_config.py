"""The operator's sandbox configuration, and a record's wish that can only lower it."""

from __future__ import annotations

import pytest

from environments.code.config import SandboxLimits, sandbox_config
from schemas.stage_config import ConfigError


def test_a_record_may_lower_a_limit_but_never_raise_one_nor_turn_on_a_network():
    operator = SandboxLimits(wall_s=10.0, cpu_s=5, memory_mb=512, max_processes=1)
    wish = {"network": True, "wall_s": 1000, "cpu_s": 2, "memory_mb": "lots", "max_processes": True, "uid": 0}
    assert operator.narrowed(wish) == SandboxLimits(wall_s=10.0, cpu_s=2, memory_mb=512, max_processes=1)
    assert operator.narrowed({"memory_mb": 1}) == operator  # below the floor: the operator's limits stand
    assert operator.narrowed("no limits") == operator


def test_the_operator_sets_the_limits_in_yaml_and_unknown_keys_fail(monkeypatch, tmp_path):
    path = tmp_path / "sandbox.yaml"
    path.write_text("limits:\n  wall_s: 2\nrecord_budget_s: 4\n")
    monkeypatch.setenv("ACEFORGE_SANDBOX_CONFIG", str(path))
    config = sandbox_config()
    assert (config.limits.wall_s, config.limits.cpu_s, config.record_budget_s) == (2.0, 3, 4.0)
    path.write_text("limits:\n  network: true\n")
    with pytest.raises(ConfigError, match="network"):
        sandbox_config()
