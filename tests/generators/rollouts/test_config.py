"""RolloutConfig: rollout defaults survive partial sections; unknown components and faults are named."""

import pytest

from generators.rollouts.config import RolloutConfig
from generators.synthesis.code.tasks import CodeTaskConfig
from schemas.stage_config import ConfigError


def test_a_partial_sampling_section_keeps_the_rollout_defaults(tmp_path):
    assert RolloutConfig.load(None, sampling={"max_tokens": 64}).sampling.temperature == 0.7
    yaml = tmp_path / "r.yaml"
    yaml.write_text("sampling:\n  top_p: 0.9\nbudget:\n  max_turns: 5\n")
    cfg = RolloutConfig.load(yaml)
    assert (cfg.sampling.temperature, cfg.sampling.max_tokens, cfg.sampling.top_p) == (0.7, 256, 0.9)
    assert (cfg.budget.max_turns, cfg.budget.max_tool_errors) == (5, 5)
    assert CodeTaskConfig.load(None, sampling={"max_tokens": 64}).sampling.temperature == 0.8


@pytest.mark.parametrize(
    ("overrides", "message"),
    [
        ({"agent": "nobody"}, "unknown agent policy 'nobody'; known: llm, oracle, perturbed"),
        ({"user": "robot"}, "unknown user simulator 'robot'; known: llm, scripted"),
        ({"faults": ["typo"]}, "unknown fault kind(s) typo"),
        ({"sampling": {"n": 2}}, "sampling.n must be 1"),
        ({"tool_calls": "xml"}, "tool_calls"),
    ],
)
def test_bad_options_are_named(overrides, message):
    with pytest.raises(ConfigError, match=message.replace("(", r"\(").replace(")", r"\)")):
        RolloutConfig.load(None, **overrides)


def test_on_a_cluster_with_gpus_rollout_actors_running_a_model_take_one_each():
    from generators.rollouts.distributed import rollout_pool

    gpu_cluster = {"CPU": 32.0, "GPU": 4.0}
    assert rollout_pool(RolloutConfig(agent="llm", backend="vllm"), gpu_cluster) == (4, 1.0)
    assert rollout_pool(RolloutConfig(agent="llm"), gpu_cluster) == (4, 1.0)  # the default backend runs here too
    served = RolloutConfig(agent="llm", backend="openai", base_url=["http://127.0.0.1:8000/v1"])
    assert rollout_pool(served, gpu_cluster) == (None, 0.0)  # the server holds the GPUs
    assert rollout_pool(RolloutConfig(agent="perturbed"), gpu_cluster) == (None, 0.0)
    assert rollout_pool(RolloutConfig(agent="llm", backend="vllm"), {"CPU": 2.0}) == (None, 0.0)
