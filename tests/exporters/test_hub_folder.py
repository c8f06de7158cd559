"""The Hub folder: shards per config and split that `datasets` reads back, the card, the recipe."""

from __future__ import annotations

import json
import re
import shutil

import pyarrow.parquet as pq
import pytest
import yaml
from huggingface_hub import DatasetCard

from data_catalog.catalog import Catalog
from data_catalog.dataset_card import hub_license, size_category
from exporters.hub_config import HubExportConfig
from exporters.hub_folder import (
    MARKER_FILE,
    HubExportError,
    build_hub_folder,
    check_hub_folder,
    resolve_source,
)
from schemas.arrow_schema import row_to_record
from schemas.io import read_records, write_records
from tests.data_catalog.hub_records import ADP_ROWS, TASKS, mixed_records, trajectories_only

SHARD_NAME = re.compile(r"^(train|test)-(\d{5})-of-(\d{5})\.parquet$")


@pytest.fixture(scope="module")
def mixed(tmp_path_factory):
    return mixed_records(tmp_path_factory.mktemp("records"))


@pytest.fixture(scope="module")
def mixed_folder(mixed, tmp_path_factory):
    """Mixed records with a test split, small shards, an ACE summary and a plot."""
    workdir = tmp_path_factory.mktemp("export")
    plot = write_plot(workdir / "complexity.png")
    cfg = HubExportConfig(max_shard_bytes=30_000, test_fraction=0.3, split_seed=1)
    summary = "Mean complexity **2.5**.\n\n![complexity](complexity.png)"
    return build_hub_folder(
        resolve_source(str(mixed)), workdir / "hub", "acme/agent-mix", cfg, summary, [plot], {"n_tasks": TASKS}
    )


def write_plot(path):
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib import pyplot as plt

    fig, ax = plt.subplots(figsize=(3, 2))
    ax.hist([1, 2, 2, 3, 3, 3])
    fig.savefig(path)
    plt.close(fig)
    return path


def front_matter(folder) -> dict:
    return yaml.safe_load((folder.path / "README.md").read_text().split("---\n")[1])


def test_datasets_reads_each_config_and_split_with_the_written_counts(mixed_folder, mixed, tmp_path):
    from datasets import load_dataset

    counts = check_hub_folder(mixed_folder)
    assert set(counts) == {("trajectories", "train"), ("trajectories", "test"), ("tasks", "train"), ("tasks", "test")}
    assert counts[("tasks", "train")] + counts[("tasks", "test")] == TASKS
    assert counts[("trajectories", "train")] + counts[("trajectories", "test")] == ADP_ROWS + TASKS
    # Read independently of the check: every input record comes back, equal to what went in.
    originals = {r.id: r for r in read_records(mixed)}
    seen = {}
    for config in ("trajectories", "tasks"):
        for split, ds in load_dataset(str(mixed_folder.path), config, cache_dir=str(tmp_path)).items():
            for row in ds:
                seen[row["id"]] = (config, split)
                assert row_to_record(row) == originals[row["id"]]
    assert set(seen) == set(originals)
    assert all((config == "tasks") == (not originals[i].trajectory) for i, (config, _) in seen.items())


def test_rollouts_land_in_the_split_of_their_task(mixed_folder):
    rows = {}
    for shard in mixed_folder.shards:
        for row in pq.read_table(mixed_folder.path / shard.path, columns=["id", "lineage"]).to_pylist():
            rows[row["id"]] = (shard.split, json.loads(row["lineage"])["parents"])
    rollouts = {i: v for i, v in rows.items() if i.startswith("rollout-")}
    assert len(rollouts) == TASKS
    assert {split for split, _ in rollouts.values()} == {"train", "test"}  # the seed gives both splits here
    for split, parents in rollouts.values():
        assert rows[parents[0]][0] == split


def test_a_small_max_shard_bytes_gives_several_numbered_shards(mixed_folder):
    train = [s for s in mixed_folder.shards if (s.config, s.split) == ("trajectories", "train")]
    assert len(train) >= 3
    names = [SHARD_NAME.match(s.path.name) for s in train]
    assert [int(m[2]) for m in names] == list(range(len(train)))
    assert {int(m[3]) for m in names} == {len(train)}
    assert all(s.path.parent.as_posix() == "data/trajectories" for s in train)
    assert not list(mixed_folder.path.rglob("*.partial"))


def test_card_metadata_names_configs_splits_licences_and_size(mixed_folder):
    meta = front_matter(mixed_folder)
    assert [c["config_name"] for c in meta["configs"]] == ["trajectories", "tasks"]
    assert meta["configs"][0]["default"] is True
    assert meta["configs"][1]["data_files"] == [
        {"split": "train", "path": "data/tasks/train-*"},
        {"split": "test", "path": "data/tasks/test-*"},
    ]
    assert meta["license"] == ["apache-2.0", "cc-by-4.0", "cc0-1.0", "mit", "unknown"]
    assert meta["size_categories"] == ["n<1K"]
    assert meta["task_categories"] == ["text-generation", "reinforcement-learning"]
    # huggingface_hub reads the same metadata back.
    card = DatasetCard.load(mixed_folder.path / "README.md")
    assert card.data.pretty_name == "agent-mix"
    assert [c["config_name"] for c in card.data.configs] == ["trajectories", "tasks"]


def test_card_body_has_sources_summary_plots_and_recipe(mixed_folder):
    text = (mixed_folder.path / "README.md").read_text()
    assert "| code_feedback | adp | Apache-2.0 | apache-2.0 |  | 10 |" in text
    assert "| agenttuning_os | adp | not declared | unknown |  | 5 |" in text
    assert "Mean complexity **2.5**.\n\n![complexity](plots/complexity.png)" in text
    assert (mixed_folder.path / "plots" / "complexity.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert "| transformers | SmolLM2-135M-Instruct | 6 | 7, 8, 9, 10, 11, 12 |" in text
    recipe = yaml.safe_load((mixed_folder.path / "recipe.yaml").read_text())
    assert recipe["export"] == HubExportConfig(max_shard_bytes=30_000, test_fraction=0.3, split_seed=1).model_dump()
    assert recipe["run_config"] == {"n_tasks": TASKS}
    assert recipe["lineage"]["config_hashes"] == ["cfg-rollouts", "cfg-tasks"]
    assert {"python", "aceforge", "pyarrow", "datasets", "huggingface_hub"} <= set(recipe["packages"])
    assert "```yaml\ndataset:\n  source: mixed.parquet" in text


def test_recipe_and_card_publish_no_secret_and_no_local_path(data_home, mixed, tmp_path):
    """The attack: --run-config was copied verbatim (an hf_token, a user:password@ URL) into recipe.yaml and the
    card, and the data directory's absolute path appeared in both."""
    token = "hf_aceforgeSecretToken0123456789abcdef"
    run_config = {
        "hf_token": token,
        "backend": {"base_url": "https://bob:hunter2@llm.example/v1", "max_tokens": 64},
        "output": str(data_home / "assets" / "selected"),
    }
    summary = f"Scores from {data_home}/report/summary.md (token={token})."
    folder = build_hub_folder(
        resolve_source(str(mixed)), tmp_path / "hub", "acme/x", HubExportConfig(), summary, run_config=run_config
    )
    recipe = yaml.safe_load((folder.path / "recipe.yaml").read_text())
    assert recipe["run_config"] == {
        "hf_token": "<redacted>",
        "backend": {"base_url": "https://<redacted>@llm.example/v1", "max_tokens": 64},
        "output": "$ACEFORGE_HOME/assets/selected",
    }
    for name in ("recipe.yaml", "README.md"):
        text = (folder.path / name).read_text()
        assert token not in text and "hunter2" not in text and str(data_home) not in text, name
    assert "Scores from $ACEFORGE_HOME/report/summary.md (token=<redacted>)." in (folder.path / "README.md").read_text()


def test_no_private_address_or_local_folder_is_published_and_the_pretty_name_is_text(data_home, tmp_path):
    """The fault: a private host (10.0.0.5:8000) stayed in the recipe, /root/secret-models/m became
    ~/secret-models/m, and --pretty-name went raw into the card's heading (markdown, HTML, a new section)."""
    records = trajectories_only(tmp_path / "records")
    pretty = "Agents\n## Injected <img src=x onerror=alert(1)> [click](https://evil.example) `x` | *y*"
    run_config = {
        "backend": {"base_url": "http://10.0.0.5:8000/v1", "model": "/root/secret-models/m"},
        "fleet": ["http://[fe80::1]:8000/v1", "https://api.example.com/v1", "http://127.0.0.1:11434"],
        "inputs": ["file:///home/x/raw.jsonl", "~/raw/b.jsonl", "C:\\Users\\x\\c.jsonl"],
        "note": "```\n# a heading of the recipe's own",
    }
    cfg = HubExportConfig(pretty_name=pretty)
    folder = build_hub_folder(resolve_source(str(records)), tmp_path / "hub", "acme/x", cfg, run_config=run_config)
    recipe = yaml.safe_load((folder.path / "recipe.yaml").read_text())
    assert recipe["run_config"] == {
        "backend": {"base_url": "http://<private-address>/v1", "model": "<local-path>/m"},
        "fleet": ["http://<private-address>/v1", "https://api.example.com/v1", "http://<private-address>"],
        "inputs": ["<local-path>/raw.jsonl", "<local-path>/b.jsonl", "<local-path>/c.jsonl"],
        "note": "```\n# a heading of the recipe's own",
    }
    card = (folder.path / "README.md").read_text()
    for leak in ("10.0.0.5", "fe80::1", "127.0.0.1", "secret-models", "/home/x", "~/raw", "Users"):
        assert leak not in card, leak
    heading = r"# Agents ## Injected \<img src=x onerror=alert(1)\> \[click\](https://evil.example) \`x\` \| \*y\*"
    assert f"\n{heading}\n" in card and "\n## Injected" not in card
    assert "\n````yaml\ndataset:" in card and card.rstrip().endswith("\n````")  # the recipe's ``` closes nothing
    assert DatasetCard.load(folder.path / "README.md").data.pretty_name == pretty  # the metadata: YAML, as typed


def test_one_kind_is_the_default_config_in_data(tmp_path):
    records = trajectories_only(tmp_path / "records")
    folder = build_hub_folder(resolve_source(str(records)), tmp_path / "hub", "acme/adp", HubExportConfig())
    assert [s.path.as_posix() for s in folder.shards] == ["data/train-00000-of-00001.parquet"]
    assert front_matter(folder)["configs"] == [
        {"config_name": "default", "data_files": [{"split": "train", "path": "data/train-*"}]}
    ]
    assert front_matter(folder)["task_categories"] == ["text-generation"]
    assert check_hub_folder(folder) == {("default", "train"): ADP_ROWS}


def test_the_check_fails_when_a_shard_is_missing(tmp_path, mixed):
    folder = build_hub_folder(
        resolve_source(str(mixed)), tmp_path / "hub", "acme/x", HubExportConfig(max_shard_bytes=60_000)
    )
    (folder.path / folder.shards[-1].path).unlink()
    with pytest.raises(HubExportError, match="datasets read .* expected"):
        check_hub_folder(folder)


def test_rebuilding_gives_the_same_files_and_replaces_only_what_the_export_wrote(tmp_path, mixed):
    source, cfg = resolve_source(str(mixed)), HubExportConfig(max_shard_bytes=30_000)
    first = build_hub_folder(source, tmp_path / "hub", "acme/x", cfg)
    before = {p.relative_to(first.path): p.read_bytes() for p in first.path.rglob("*") if p.is_file()}
    marker = json.loads((first.path / MARKER_FILE).read_text())
    assert sorted(marker["files"]) == sorted(str(p) for p in before if str(p) != MARKER_FILE)
    build_hub_folder(source, tmp_path / "hub", "acme/x", cfg)
    after = {p.relative_to(first.path): p.read_bytes() for p in first.path.rglob("*") if p.is_file()}
    assert after == before
    # Fewer shards this time: the earlier export's extra shards go, nothing is left behind.
    build_hub_folder(source, tmp_path / "hub", "acme/x", HubExportConfig())
    now = {p.relative_to(first.path).as_posix() for p in first.path.rglob("*") if p.is_file()}
    assert now == {*json.loads((first.path / MARKER_FILE).read_text())["files"], MARKER_FILE}
    assert len([p for p in now if p.endswith(".parquet")]) < len([p for p in before if p.suffix == ".parquet"])
    (tmp_path / "mine").mkdir()
    (tmp_path / "mine" / "notes.txt").write_text("keep me")
    with pytest.raises(HubExportError, match="not a folder an export made"):
        build_hub_folder(source, tmp_path / "mine", "acme/x", cfg)
    assert (tmp_path / "mine" / "notes.txt").read_text() == "keep me"


def test_a_folder_of_the_users_that_looks_like_an_export_is_left_untouched(tmp_path, mixed):
    """The attack: any folder holding a recipe.yaml used to be wiped."""
    work = tmp_path / "work"
    (work / "src").mkdir(parents=True)
    (work / "recipe.yaml").write_text("steps: [mine]\n")
    (work / "src" / "main.py").write_text("print('mine')\n")
    (work / "NOTES.md").write_text("my notes\n")
    (work / "empty").mkdir()
    before = {p.relative_to(work): p.read_bytes() if p.is_file() else None for p in work.rglob("*")}
    with pytest.raises(HubExportError, match=f"no {re.escape(MARKER_FILE)}.*nothing in it was touched"):
        build_hub_folder(resolve_source(str(mixed)), work, "acme/x", HubExportConfig())
    assert {p.relative_to(work): p.read_bytes() if p.is_file() else None for p in work.rglob("*")} == before
    assert not list(tmp_path.glob(".work.*"))  # no staging folder left beside it


def test_an_earlier_export_with_files_added_since_is_left_untouched(tmp_path, mixed):
    source = resolve_source(str(mixed))
    folder = build_hub_folder(source, tmp_path / "hub", "acme/x", HubExportConfig())
    (folder.path / "NOTES.md").write_text("added by hand\n")
    (folder.path / "data" / "extra").mkdir()
    files = sorted(p for p in folder.path.rglob("*"))
    with pytest.raises(HubExportError, match=r"did not write \(NOTES.md, data/extra\)"):
        build_hub_folder(source, tmp_path / "hub", "acme/x", HubExportConfig())
    assert sorted(folder.path.rglob("*")) == files
    assert (folder.path / "NOTES.md").read_text() == "added by hand\n"


def test_a_new_or_empty_folder_is_written(tmp_path, mixed):
    (tmp_path / "empty").mkdir()
    for out in (tmp_path / "empty", tmp_path / "new" / "deeper"):
        folder = build_hub_folder(resolve_source(str(mixed)), out, "acme/x", HubExportConfig())
        assert (folder.path / "README.md").is_file() and (folder.path / MARKER_FILE).is_file()
    (tmp_path / "file").write_text("x")
    with pytest.raises(HubExportError, match="is not a folder"):
        build_hub_folder(resolve_source(str(mixed)), tmp_path / "file", "acme/x", HubExportConfig())


def test_a_catalog_name_resolves_to_its_versions_own_files(data_home, mixed, tmp_path):
    catalog = Catalog()
    catalog.register_dataset("agent_mix", mixed, 33)
    later = tmp_path / "later.parquet"
    shutil.copyfile(mixed, later)
    catalog.register_dataset("agent_mix", later, 33)
    later.unlink()  # the version keeps its snapshot of the file
    (v1,) = resolve_source("agent_mix__v1", catalog).files
    assert v1.read_bytes() == mixed.read_bytes() and not v1.samefile(mixed)  # a copy: in-place writes miss it
    assert resolve_source("agent_mix__v1", catalog).label == "agent_mix@1"
    (latest,) = resolve_source("agent_mix", catalog).files
    assert latest.read_bytes() == mixed.read_bytes() and latest.parent.name == "v2"
    with pytest.raises(HubExportError, match="neither a file nor a dataset"):
        resolve_source("no_such_dataset", catalog)
    # A version whose copy changed is not exported: one line names it.
    v1.chmod(0o644)
    v1.write_bytes(v1.read_bytes()[:-1] + b"!")
    with pytest.raises(HubExportError, match=r"^catalog version agent_mix__v1 changed after it was registered"):
        resolve_source("agent_mix__v1", catalog)


def test_an_empty_record_file_is_refused(tmp_path):
    write_records([], tmp_path / "empty.parquet")
    with pytest.raises(HubExportError, match="holds no records: nothing to export"):
        build_hub_folder(resolve_source(str(tmp_path / "empty.parquet")), tmp_path / "hub", "acme/x", HubExportConfig())
    assert not (tmp_path / "hub").exists()


def test_a_file_that_is_not_records_is_refused(tmp_path):
    import pyarrow as pa

    pq.write_table(pa.table({"text": ["hello"]}), tmp_path / "plain.parquet")
    with pytest.raises(HubExportError, match="a Parquet file of other columns .*, not records"):
        resolve_source(str(tmp_path / "plain.parquet"))


@pytest.mark.parametrize(
    ("text", "hub_id"),
    [("Apache-2.0", "apache-2.0"), ("CC BY 4.0", "cc-by-4.0"), ("cc_by_sa_4.0", "cc-by-sa-4.0"), ("MIT", "mit")]
    + [(None, "unknown"), ("", "unknown"), ("Proprietary, ask us", "other")],
)
def test_licence_texts_map_to_hub_ids(text, hub_id):
    assert hub_license(text) == hub_id


def test_size_categories():
    assert [size_category(n) for n in (0, 999, 1000, 54_321, 2_000_000)] == [
        "n<1K",
        "n<1K",
        "1K<n<10K",
        "10K<n<100K",
        "1M<n<10M",
    ]


def test_a_chat_row_ends_with_the_assistants_last_turn():
    from data_catalog.hub_chat import ending_with_the_assistant

    call = {"role": "assistant", "tool_calls": [{"function": {"name": "get_order_details"}}]}
    chat = [
        {"role": "system", "content": "policy"},
        {"role": "user", "content": "Where is my order?"},
        call,
        {"role": "tool", "content": "{}"},
        {"role": "assistant", "content": "It shipped."},
        {"role": "user", "content": "Thank you, that is all I needed."},
    ]
    assert ending_with_the_assistant(chat) == (chat[:5], 1)
    assert ending_with_the_assistant(chat[:4]) == (chat[:3], 1)  # a last tool result goes too
    assert ending_with_the_assistant(chat[:2]) == (chat[:2], 0)  # no assistant turn: nothing to end on
