"""``aceforge improve``: rounds that make the declared learner better on its own failures (training/improve.py).

The declared learner (``SMOLLM2_LEARNER``, also the main job's) lives here: it is the policy this loop trains.
"""

from __future__ import annotations

from pathlib import Path
from typing import Self

from pydantic import Field, model_validator

from curation.config import SelectConfig
from generators.rollouts.config import PolicyConfig, RolloutBudget
from generators.synthesis.config import SynthTasksConfig
from schemas.generation import SamplingParams
from schemas.stage_config import StageConfig
from training.sft_config import SftConfig
from training.train_config import LoraSettings

# SmolLM2-135M on the CPU through vLLM (float32: several times faster than bfloat16 on CPUs without
# AVX512-BF16): 24 tasks x k=2 with at most 8 turns took 7.5 min on two cores (bench: lr_vllm in the closing
# note of issue 19); 96 tokens a turn is room for one tool call or a short message. The compact rendering
# (generators/rollouts/agent_prompt.py): its prompt is ~550-600 tokens instead of 2.7k-3.5k.
SMOLLM2_LEARNER = PolicyConfig(
    agent="llm",
    rendering="compact",
    backend="vllm",
    dtype="float32",
    k=2,
    budget=RolloutBudget(max_turns=8, max_tokens=1024),
    sampling=SamplingParams(temperature=0.7, max_tokens=96),
)
# Fewer rollouts than this cannot tell "never" or "always" from chance at the pass rates a small learner has.
MIN_K = 4
# Placeholders of the SFT section's paths: each round sets them (its SFT set, its model folder).
ROUND_SFT_SET = Path("round_N/select/sft.parquet")
ROUND_MODEL = Path("round_N/model")


# The CPU defaults aim at one round in <= 20 minutes on two idle cores with the compact rendering (~600 prompt
# tokens): 24 tasks x k=4 learner rollouts and 8 held-out tasks x 4, SFT on at most 30 whole conversations of
# ~2.3k tokens (~10 min at ~115 tokens/s, the LoRA rate of issue 41's trial); the next-call figures score the
# oracle's conversations of 40 held-out tasks (~180 call turns: intervals about +-7 points) in one forward pass
# each. On a GPU, raise n, select.budget and the learner's backend settings by flags or YAML.


def _round_sft() -> SftConfig:
    # LoRA r16 on every projection at 2e-4: what taught SmolLM2 its reads in one pass in the trial of issue 41.
    return SftConfig(
        data=ROUND_SFT_SET,
        output_dir=ROUND_MODEL,
        learning_rate=2e-4,
        epochs=1.0,
        # 135M parameters and ~2.3k-token conversations fit in memory without it, and it costs a third more time.
        gradient_checkpointing=False,
        logging_steps=1,
        lora=LoraSettings(enabled=True),
    )


class ImproveConfig(StageConfig):
    """``aceforge improve``: rounds of the learner's rollouts, failure labels, new tasks at the levels where it
    never or always succeeds, an ACE-selected SFT set of verified demonstrations, LoRA SFT; held-out tasks
    evaluated every round."""

    out_dir: Path
    """Where each round's folder (round_0, round_1, ...), the held-out tasks, improve.json and improve.png go."""
    rounds: int = Field(2, ge=1)
    """Rounds of rollouts -> labels -> new tasks -> selection -> SFT; the held-out set is evaluated before the
    first and after each."""
    tasks: SynthTasksConfig = Field(default_factory=lambda: SynthTasksConfig(n=24, difficulty="1,2"))
    """The first round's training tasks (later rounds add the tasks synthesized where the learner failed)."""
    heldout: SynthTasksConfig = Field(
        default_factory=lambda: SynthTasksConfig(n=40, difficulty="1,2", db_seed=1, seed=1)
    )
    """Held-out tasks: the same environment on another database seed; a training task that shares a task id or an
    instruction with one of them is dropped. The oracle's verified conversations of all of them are scored call
    by call (training/heldout_calls.py); the learner is rolled out on the first `heldout_rollout_tasks`."""
    heldout_rollout_tasks: int = Field(8, ge=1)
    """Held-out tasks the learner is rolled out on, k times each (pass^1, pass^k, the graded score)."""
    tasks_file: Path | None = None
    """Training tasks to start from (a `synth tasks` or `synth evolve` output) instead of synthesizing them with
    `tasks`; new tasks are still synthesized in `tasks`' world."""
    heldout_file: Path | None = None
    """Held-out tasks to evaluate on instead of synthesizing them with `heldout`."""
    new_tasks: int = Field(4, ge=0)
    """Tasks synthesized per round at each level the learner's pass rates point to (0: no new tasks)."""
    learner: PolicyConfig = Field(default_factory=lambda: SMOLLM2_LEARNER.model_copy(update={"k": MIN_K}))
    """The declared learner at the start (its model is replaced by each round's trained folder; every other field,
    rendering included, is used as given): rolled out k >= 4 times per training task with sampling, and on the
    held-out tasks."""
    demonstrations: PolicyConfig = Field(default_factory=lambda: PolicyConfig(agent="oracle", k=1))
    """The policy whose verified rollouts of the training tasks are the SFT candidates."""
    select: SelectConfig = Field(default_factory=lambda: SelectConfig(budget=30))
    """ACE selection of the SFT set among the demonstrations (tasks the learner never solves, diverse)."""
    sft: SftConfig = Field(default_factory=_round_sft)
    """LoRA SFT of each round's learner, merged into a model folder; data, output_dir and model are each round's
    (its SFT set, round_N/model, the round's learner) and may not be given."""
    seed: int = 0
    """Seed of the selection's clustering; the tasks', learner's and SFT's seeds are in their sections."""

    @model_validator(mode="after")
    def _coherent(self) -> Self:
        if self.learner.k < MIN_K:
            raise ValueError(f"learner.k must be at least {MIN_K}: fewer rollouts cannot tell never or always")
        if self.learner.sampling.temperature <= 0:
            raise ValueError("learner.sampling.temperature must be above 0: k greedy rollouts would be one")
        if self.heldout.env != self.tasks.env:
            raise ValueError(f"heldout.env {self.heldout.env!r} differs from tasks.env {self.tasks.env!r}")
        if self.heldout.db_seed == self.tasks.db_seed:
            raise ValueError(
                "heldout.db_seed must differ from tasks.db_seed: held-out tasks come from another database"
            )
        given = [
            name
            for name, placeholder in (("data", ROUND_SFT_SET), ("output_dir", ROUND_MODEL), ("model", "default"))
            if getattr(self.sft, name) != placeholder
        ]
        if given:
            raise ValueError(f"sft.{', sft.'.join(given)} are set by each round; leave them out")
        return self
