"""The chat template a stage trains with: tool-aware, prefix-preserving, with ``{% generation %}`` markers.

Assistant-only loss needs a template that marks the assistant's tokens, and
RL/eval need one whose rendering of a conversation's first turns is a prefix
of its rendering of the whole conversation. In order of preference:

1. an explicit template file (``chat_template`` in the stage config);
2. the model's own template, when it already marks generations and supports tools;
3. TRL's training variant of a template TRL knows (Qwen2.5, Llama 3, ...);
4. the training variant of aceforge's tool template for SmolLM2-style ChatML
   models (generators.llm.model_store: TRL's Qwen2.5 template with SmolLM2's system
   prompt) -- the model folder from ``aceforge model prepare`` carries that
   template, and the original SmolLM2 template has no tools at all.

The inference template stays in the saved model folder: the training variant
renders the same text, only marked.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

CHATML_START = "<|im_start|>"


class TemplateError(ValueError):
    """No training-compatible chat template for this tokenizer."""


def training_chat_template(tokenizer: Any, override: str | Path | None = None) -> str:
    """The template to render training data with (see the module docstring for the order)."""
    from trl.chat_template_utils import get_training_chat_template, has_generation_markers, supports_tool_calling

    from generators.llm.model_store import tool_chat_template, tool_training_chat_template

    if override is not None:
        text = Path(override).read_text()
        if not has_generation_markers(text):
            raise TemplateError(
                f"chat template {override} has no {{% generation %}} markers: assistant-only loss needs them"
            )
        return text
    own = tokenizer.chat_template
    if own == tool_chat_template():
        return tool_training_chat_template()
    try:
        patched = get_training_chat_template(tokenizer)
    except ValueError:
        patched = None
    else:
        if patched is None and supports_tool_calling(tokenizer):
            return own
        if patched is not None:
            return patched
    if own is None or CHATML_START in own:
        # ChatML without tools (the original SmolLM2 template): the same special tokens as aceforge's tool template.
        return tool_training_chat_template()
    raise TemplateError(
        "the model's chat template is not training-compatible (no {% generation %} markers or no tool support) "
        "and TRL has no training variant for it: give one with chat_template"
    )
