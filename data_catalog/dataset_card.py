"""The dataset card (README.md) of a Hub export: YAML metadata the Hub reads, then what a reader needs.

Metadata: the licences of the sources (as Hub licence ids), task categories
from the record kinds, one config per kind with its splits' data files, and
the size category. Body: configs and splits with row counts, the columns, the
environments and verifier outcomes, the ACE summary and plots when given, the
sources with their licences, and the recipe that rebuilds the data.

Text that comes from the operator (``--pretty-name``, the input's name) or from the records (sources, licences,
generators, environments) is written as text, never as markdown: one line, with what would start a link, an
image, code, an HTML tag or a table cell escaped, and the recipe in a code fence no line of it can close.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import yaml
from huggingface_hub import DatasetCardData

from data_catalog.dataset_stats import DatasetStats, SourceRow
from data_catalog.hub_chat import SFT
from data_catalog.hub_preference import PREFERENCE
from data_catalog.hub_shards import DEFAULT_CONFIG, TASKS, TRAIN, TRAJECTORIES, Shard

# Licence ids the Hub knows (https://huggingface.co/docs/hub/repositories-licenses), the common ones.
# fmt: off
HUB_LICENSES = frozenset({
    "apache-2.0", "mit", "bsd-2-clause", "bsd-3-clause", "cc0-1.0", "cc-by-2.0", "cc-by-3.0", "cc-by-4.0",
    "cc-by-sa-3.0", "cc-by-sa-4.0", "cc-by-nc-2.0", "cc-by-nc-3.0", "cc-by-nc-4.0", "cc-by-nd-4.0", "cc-by-nc-nd-4.0",
    "cc-by-nc-sa-3.0", "cc-by-nc-sa-4.0", "cdla-permissive-1.0", "cdla-permissive-2.0", "cdla-sharing-1.0", "odc-by",
    "odbl", "pddl", "gpl-2.0", "gpl-3.0", "lgpl-3.0", "agpl-3.0", "mpl-2.0", "epl-2.0", "isc", "unlicense", "wtfpl",
    "openrail", "llama2", "llama3", "llama3.1", "gemma", "unknown", "other",
})
# fmt: on
# What starts markdown or HTML in a line: links and images, code, tags and autolinks, table cells, emphasis
# (an underscore inside a word, as in tau_bench, starts nothing and stays as it is).
_MARKDOWN = re.compile(r"[\\`*\[\]<>|]|(?<![A-Za-z0-9])_|_(?![A-Za-z0-9])")
# a markdown image of a file (not a data: URI or a web address): ![alt](path)
FILE_IMAGE = re.compile(r"!\[([^\]]*)\]\((?!data:|https?://)([^)\s]+)\)")
SIZE_CATEGORIES = [
    (1_000, "n<1K"),
    (10_000, "1K<n<10K"),
    (100_000, "10K<n<100K"),
    (1_000_000, "100K<n<1M"),
    (10_000_000, "1M<n<10M"),
    (100_000_000, "10M<n<100M"),
    (1_000_000_000, "100M<n<1B"),
]
WHAT_ROWS_ARE = {
    TRAJECTORIES: "trajectories: an agent's steps in its environment, with the verifier's verdict",
    TASKS: "tasks: instruction, environment and constraints with no steps yet (for RL and evaluation)",
    SFT: "the trajectories as chat `messages` + `tools`, ready for TRL's SFTTrainer",
    PREFERENCE: "a verified success and a failure of one task: shared `prompt`, `chosen` / `rejected` turns with "
    "tool calls, `tools`, ready for TRL's DPOTrainer",
}
COLUMNS = [
    ("id", "stable record id (same input, same id)"),
    ("env_kind, environment", "E: environment kind; JSON of tools (JSON-schema parameters), policy, initial state"),
    ("instruction, task", "q: the instruction; JSON of user scenario, constraints, expected outputs, metadata"),
    ("trajectory, num_steps", "τ: steps (class_, content, source, function, kwargs as JSON, tool_call_id, ...)"),
    ("verifier_kind, verifier_passed, verifier_score, verifier", "v: kind, verdict, score; JSON of spec and result"),
    (
        "source",
        "dataset, format, original id, licence and URI of the raw record; agent: the framework, model and "
        "version that made an imported trajectory, as its file says",
    ),
    ("lineage", "JSON: generator (backend, model, sampling, seed), parent ids, pipeline version, config hash"),
    ("scores", "ACE scores: accuracy, complexity, diversity, extra (JSON)"),
    ("details", "JSON: source fields with no other place"),
]


@dataclass(frozen=True)
class CardInputs:
    repo_id: str
    pretty_name: str
    source_label: str  # the catalog dataset (name@version) or file exported
    stats: DatasetStats
    shards: Sequence[Shard]
    recipe: dict  # what recipe.yaml holds
    summary: str | None = None  # ACE summary (markdown)
    plots: Sequence[str] = ()  # PNG paths relative to the folder
    sft_dropped: int = 0  # turns after the assistant's last, left out of the sft config's rows (hub_chat.py)


def markdown_text(text: object) -> str:
    """``text`` as it reads in the card: one line, every character that would start markdown or HTML escaped."""
    return _MARKDOWN.sub(lambda m: "\\" + m[0], " ".join(str(text).split()))


def code_span(text: str) -> str:
    """``text`` as inline code: fenced by more backticks than it holds in a row, on one line."""
    text = " ".join(text.split())
    fence = "`" * (_longest_backtick_run(text) + 1)
    pad = " " if text.startswith("`") or text.endswith("`") else ""
    return f"{fence}{pad}{text}{pad}{fence}"


def _longest_backtick_run(text: str) -> int:
    return max((len(run) for run in re.findall(r"`+", text)), default=0)


def hub_license(text: str | None) -> str:
    """A source's licence text as a Hub licence id: ``unknown`` when missing, ``other`` when not a known id."""
    if not text or not text.strip():
        return "unknown"
    normal = "-".join(text.strip().lower().replace("_", " ").split())
    return normal if normal in HUB_LICENSES else "other"


SYNTHETIC_PREFIX = "synth_"  # the source formats of what aceforge synthesizes (synth_tasks, synth_rollouts, ...)


def row_license(source: SourceRow, declared: str | None) -> str | None:
    """A source's own licence; for aceforge's synthetic rows without one, the licence the exporter declared."""
    if source.license or not source.format.startswith(SYNTHETIC_PREFIX):
        return source.license
    return declared


def declared_license(inputs: CardInputs) -> str | None:
    return (inputs.recipe.get("export") or {}).get("synthetic_license")


def recipe_yaml(recipe: dict) -> str:
    """The recipe as YAML: keys in their order, short lists on one line."""
    return yaml.safe_dump(recipe, sort_keys=False, allow_unicode=True, default_flow_style=None, width=120)


def size_category(rows: int) -> str:
    return next((label for bound, label in SIZE_CATEGORIES if rows < bound), "n>1B")


def config_files(shards: Iterable[Shard]) -> dict[str, dict[str, list[Shard]]]:
    """config -> split -> shards, configs in card order (trajectories first, the default)."""
    grouped: dict[str, dict[str, list[Shard]]] = defaultdict(lambda: defaultdict(list))
    for shard in shards:
        grouped[shard.config][shard.split].append(shard)
    order = [DEFAULT_CONFIG, TRAJECTORIES, TASKS, SFT, PREFERENCE]
    return {c: dict(sorted(grouped[c].items(), key=_split_order)) for c in sorted(grouped, key=order.index)}


def _split_order(item: tuple[str, list[Shard]]) -> tuple[bool, str]:
    return item[0] != TRAIN, item[0]


def card_metadata(inputs: CardInputs) -> DatasetCardData:
    stats, configs = inputs.stats, config_files(inputs.shards)
    declared = declared_license(inputs)
    licenses = sorted({hub_license(row_license(source, declared)) for source in stats.sources})
    categories = (["text-generation"] if stats.trajectories else []) + (
        ["reinforcement-learning"] if stats.tasks else []
    )
    tags = (
        ["agents", "aceforge"] + (["trajectories"] if stats.trajectories else []) + (["tasks"] if stats.tasks else [])
    )
    config_list = []
    for index, (config, splits) in enumerate(configs.items()):
        entry = {
            "config_name": config,
            "data_files": [
                {"split": s, "path": f"{shards[0].path.parent.as_posix()}/{s}-*"} for s, shards in splits.items()
            ],
        }
        if len(configs) > 1 and index == 0:
            entry["default"] = True
        config_list.append(entry)
    return DatasetCardData(
        license=licenses[0] if len(licenses) == 1 else licenses,
        task_categories=categories,
        tags=tags,
        size_categories=[size_category(stats.rows)],
        pretty_name=inputs.pretty_name,
        configs=config_list,
    )


def render_card(inputs: CardInputs) -> str:
    sections = [
        f"---\n{card_metadata(inputs).to_yaml()}\n---",
        _intro(inputs),
        _configs_section(inputs),
        _table(["column", "what it holds"], [(f"`{c}`", w) for c, w in COLUMNS], "## Columns", escape=False),
        _contents_section(inputs.stats),
    ]
    if inputs.summary or inputs.plots:
        plots = "\n\n".join(f"![{p.rsplit('/', 1)[-1]}]({p})" for p in inputs.plots if p not in (inputs.summary or ""))
        # `aceforge report`'s summary.md brings its own heading: the card does not add a second one.
        heading = "" if (inputs.summary or "").lstrip().startswith("## ACE summary") else "## ACE summary"
        sections.append("\n\n".join(part for part in (heading, inputs.summary or "", plots) if part))
    sections += [_sources_section(inputs.stats, declared_license(inputs)), _recipe_section(inputs)]
    return "\n\n".join(s.strip() for s in sections) + "\n"


def _intro(inputs: CardInputs) -> str:
    s = inputs.stats
    return (
        f"# {markdown_text(inputs.pretty_name) or markdown_text(inputs.repo_id.split('/')[1])}\n\n"
        f"{s.rows:,} agent records exported by aceforge from {code_span(inputs.source_label)}: "
        f"{s.trajectories:,} trajectories and {s.tasks:,} tasks. Each row is one (E, q, τ, v) record: "
        "the environment the agent acts in, the task, the trajectory of actions and observations, and the "
        "verifier that checks success. Free-form values are JSON strings, so every shard shares one schema; "
        "`schemas.arrow_schema.row_to_record` in aceforge turns a row back into an `AgentRecord`."
    )


def _configs_section(inputs: CardInputs) -> str:
    configs = config_files(inputs.shards)
    rows = []
    for config, splits in configs.items():
        kind = config if config != DEFAULT_CONFIG else (TASKS if not inputs.stats.trajectories else TRAJECTORIES)
        for split, shards in splits.items():
            rows.append((config, split, f"{sum(x.rows for x in shards):,}", len(shards), WHAT_ROWS_ARE[kind]))
    first, splits = next(iter(configs.items()))
    name = "" if first == DEFAULT_CONFIG else f', "{first}"'
    call = f'load_dataset("{inputs.repo_id}"{name}, split="{next(iter(splits))}")'
    load = f"```python\nfrom datasets import load_dataset\n\nds = {call}\n```"
    headers = ["config", "split", "rows", "shards", "rows are"]
    table = _table(headers, rows, "## Configurations and splits", escape=False)
    if SFT in configs:
        load += (
            f"\n\nThe `{SFT}` config feeds TRL as it is (a trajectory that renders to no chat has no row there; "
            f"every row ends with the assistant's last turn, {inputs.sft_dropped:,} turns after it left out):\n\n"
            "```python\nfrom trl import SFTConfig, SFTTrainer\n\n"
            f'trainer = SFTTrainer(model=MODEL, args=SFTConfig(...), train_dataset=load_dataset("{inputs.repo_id}", '
            f'"{SFT}", split="train"))\n```'
        )
    if PREFERENCE in configs:
        load += (
            f"\n\nThe `{PREFERENCE}` config feeds TRL's DPOTrainer as it is (one row per verified failure of a task "
            "that also has a verified success; the prompt is what both conversations share):\n\n"
            "```python\nfrom trl import DPOConfig, DPOTrainer\n\n"
            f'trainer = DPOTrainer(model=MODEL, args=DPOConfig(...), train_dataset=load_dataset("{inputs.repo_id}", '
            f'"{PREFERENCE}", split="train"))\n```'
        )
    return f"{table}\n\n{load}"


def _contents_section(stats: DatasetStats) -> str:
    envs = _table(["environment kind", "name", "rows"], [(k, n or "", f"{c:,}") for k, n, c in stats.environments])
    verifiers = _table(
        ["verifier", "rows", "passed", "failed", "undecided", "unverified"],
        [
            (v.kind, f"{v.rows:,}", f"{v.passed:,}", f"{v.failed:,}", f"{v.undecided:,}", f"{v.unverified:,}")
            for v in stats.verifiers
        ],
    )
    return f"## Contents\n\n{envs}\n\n{verifiers}"


def _sources_section(stats: DatasetStats, declared: str | None) -> str:
    rows = []
    for s in stats.sources:
        text = row_license(s, declared)
        stated = s.license or (f"{text} (declared by the exporter for synthetic rows)" if text else "not declared")
        rows.append((s.dataset, s.format, stated, hub_license(text), s.uri or "", f"{s.rows:,}"))
    table = _table(["source dataset", "format", "licence", "Hub id", "uri", "rows"], rows, "## Sources and licences")
    note = (
        "Each record keeps its source's licence in `source.license`; the metadata above lists them all. "
        "Respect each source's terms when you reuse its rows. `unknown` means the source declared no licence: "
        "check upstream before redistributing those rows."
    )
    return f"{table}\n\n{note}" + (f"\n\n{_agents_table(stats)}" if stats.agents else "")


def _agents_table(stats: DatasetStats) -> str:
    rows = [(a.framework or "", a.model or "", a.version or "", f"{a.rows:,}") for a in stats.agents]
    table = _table(["agent framework", "model", "version", "rows"], rows)
    return f"The agents that made the imported trajectories, as their files say (`source.agent`):\n\n{table}"


def _recipe_section(inputs: CardInputs) -> str:
    gens = _table(
        ["generator", "model", "rows", "seeds"],
        [
            (g.name or "", g.model or "", f"{g.rows:,}", _seeds(g.seeds, g.distinct_seeds))
            for g in inputs.stats.generators
        ],
    )
    recipe = recipe_yaml(inputs.recipe).strip()
    fence = "`" * max(3, _longest_backtick_run(recipe) + 1)  # no line of the recipe closes it
    return (
        "## Recipe\n\n"
        "What rebuilds this dataset: the generators and seeds found in the records' lineage, the pipeline versions and "
        "config hashes, the export settings (the `export` section is the `--config` of `aceforge export hub`), and "
        f"the package versions. The same text is in `recipe.yaml`.\n\n{gens}\n\n{fence}yaml\n{recipe}\n{fence}"
    )


def _seeds(seeds: list[int], distinct: int) -> str:
    listed = ", ".join(str(s) for s in seeds)
    return listed + (f", … ({distinct} distinct)" if distinct > len(seeds) else "")


def _table(
    headers: Sequence[str], rows: Iterable[Sequence[object]], title: str | None = None, escape: bool = True
) -> str:
    """A markdown table; its cells escaped as text (``markdown_text``) unless ``escape`` is off (the card's own
    markdown, such as the column names in code)."""
    cell = markdown_text if escape else lambda c: str(c).replace("|", "\\|")
    lines = [f"| {' | '.join(headers)} |", f"|{'|'.join('---' for _ in headers)}|"]
    lines += ["| " + " | ".join(cell(c) for c in row) + " |" for row in rows]
    return (f"{title}\n\n" if title else "") + "\n".join(lines)
