"""ToolBench answer trees (``data/answer/G*_answer/<query id>_<method>.json``): the chosen path as τ.

An answer file is ``{win, tree: {size, max_length, tree: {node_type, description, observation?,
pruned, is_terminal, children: [...]}}, forward_args, compare_candidates, answer_generation:
{query, function: [tools], train_messages: [[messages], ...], final_answer, finish_type, chain,
valid_data, query_count, total_tokens}}``.

- τ: the last of ``train_messages``, the whole conversation of the chosen path (the earlier
  ones are its prefixes, one per assistant turn to train on). Its messages are chat-completions
  messages with ``function_call`` and ``function`` results, read as openai_chat reads them: a
  call is an ApiAction (ToolBench's own ``Finish`` too), a result a tool TextObservation.
- E: ``function`` (the query's tools, Finish included); q: ``query``.
- The search tree, with the branches the search gave up or pruned, stays in
  ``details["answer_tree"]``; the final answer, finish type (give_answer / give_up) and the
  search's own counts go to details. v: none (``win`` is the search's own claim, kept in details).
- The original id is the file's group and name (``G1_answer/10_ChatGPT_DFS_woFilter_w2``).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from data_catalog.sources.base import ConversionError, Detected, register, require
from data_catalog.sources.chat_common import ChatConverter, chat_data, parse_tools
from data_catalog.sources.openai_chat import message_steps

_SEARCH_FIELDS = ("win", "forward_args", "compare_candidates")
_ANSWER_FIELDS = ("final_answer", "finish_type", "chain", "valid_data", "query_count", "total_tokens")


@register
class ToolBenchConverter(ChatConverter):
    name = "toolbench"
    description = (
        "ToolBench answer trees: the chosen path (answer_generation.train_messages) as τ, the tree in details."
    )
    layouts = (
        "an answer file (or a JSON array / JSONL of them): {win, tree, forward_args, compare_candidates, "
        "answer_generation: {query, function, train_messages, final_answer, finish_type, ...}}",
    )

    @staticmethod
    def sniff(value: Any) -> Detected | None:
        answer = value.get("answer_generation") if isinstance(value, dict) else None
        if isinstance(answer, dict) and "query" in answer:
            return 3, "ToolBench answer tree"
        return None

    def items(self, document: Any, source: str = "-") -> list[Any]:
        if isinstance(document, dict) and "answer_generation" in document and source != "-":
            path = Path(source)
            return [{"saved_as": f"{path.parent.name}/{path.stem}", **document}]
        return list(super().items(document, source))

    def record_data(self, raw: Any) -> dict[str, Any]:
        answer = require(raw, "answer_generation", dict)
        paths = answer.get("train_messages")
        if not isinstance(paths, list) or not paths or not isinstance(paths[-1], list):
            raise ConversionError(
                f"answer_generation has no train_messages (finish_type {answer.get('finish_type')!r}, "
                f"valid_data {answer.get('valid_data')!r}): the search left no conversation to read"
            )
        steps, _, fields = message_steps(paths[-1])
        tools = parse_tools(answer.get("function"), "answer_generation.function")
        data = chat_data(self, {**raw, "id": raw.get("saved_as")}, steps, tools, tuple(raw))
        if isinstance(answer.get("query"), str) and answer["query"].strip():
            data["task"]["instruction"] = answer["query"].strip()
        tree = raw.get("tree") if isinstance(raw.get("tree"), dict) else {}
        details = {k: raw[k] for k in _SEARCH_FIELDS if k in raw}
        details.update((k, answer[k]) for k in _ANSWER_FIELDS if k in answer)
        details["answer_tree"] = tree.get("tree", tree)
        details.update((k, tree[k]) for k in ("size", "max_length") if k in tree)
        if fields:
            details["message_fields"] = fields
        data["details"] = details
        return data
