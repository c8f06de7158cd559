"""`aceforge export hub`: --dry-run builds and checks the folder; an upload reaches a Hub on loopback, token unseen."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from data_catalog.catalog import Catalog
from data_catalog.dataset_card import FILE_IMAGE
from exporters.hub_folder import MARKER_FILE
from tests.conftest import ROOT
from tests.data_catalog.hub_records import ADP_ROWS, TASKS, mixed_records
from tests.pipelines.cli_helpers import invoke, last_json
from tests.pipelines.fake_hub import FakeHub, serve

# Trajectories that render to a chat: all but the SWE-agent (5) and mini-coder (1) ones, which call tools their
# records do not declare.
SFT_ROWS = ADP_ROWS - 6 + TASKS
TOKEN = "hf_aceforgeTestToken0123456789abcdefXYZ"
# The client logs every request (and HF_DEBUG its curl command): the token must not show there either.
CLIENT_DEBUG_LOG = {"HF_HUB_VERBOSITY": "debug", "HF_DEBUG": "1"}
UPLOAD_TIMEOUT_S = 120
REPORT_PLOTS = ("complexity", "pass_rate", "difficulty", "embedding_map", "dedup", "rejects")


@pytest.fixture(scope="module")
def records(tmp_path_factory):
    return mixed_records(tmp_path_factory.mktemp("records"))


@pytest.fixture
def hub():
    fake = FakeHub()
    server, _ = serve(fake)
    yield fake
    server.shutdown()
    server.server_close()


def export_hub(*args):
    return invoke("export", "hub", *args)


def run_cli(args, env_extra, home):
    """The real console entry point in a fresh process, so huggingface_hub reads HF_ENDPOINT and friends at import."""
    env = {
        k: v for k, v in os.environ.items() if not k.startswith(("HF_", "HUGGINGFACE_")) and k != "TRANSFORMERS_OFFLINE"
    }
    env.update(
        ACEFORGE_HOME=str(home),
        HF_HOME=str(home / "hf"),  # no stored login
        HF_HUB_DISABLE_XET="1",  # plain commits: every file's bytes inside the commit payload
        HF_DATASETS_OFFLINE="1",
        NO_COLOR="1",
    )
    env.update(env_extra)
    command = [sys.executable, "-m", "pipelines.cli.main", "export", "hub", *map(str, args)]
    return subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=UPLOAD_TIMEOUT_S)


def test_dry_run_builds_a_folder_that_datasets_loads_and_registers_it(data_home, records, tmp_path):
    from datasets import load_dataset

    summary = tmp_path / "ace.md"
    summary.write_text("Pass rate **50%** over 12 verified rows.")
    out = tmp_path / "hub"
    result = export_hub(records, "--repo-id", "acme/agents", "--out", out, "--dry-run", "--summary", summary, "--json")
    assert result.exit_code == 0, result.output
    reply = last_json(result)
    assert reply["uploaded"] is False
    assert reply["splits"] == {"sft/train": SFT_ROWS, "tasks/train": TASKS, "trajectories/train": ADP_ROWS + TASKS}
    assert reply["catalog"] == "hub_acme_agents@1"
    # A glob of shards is readable to `catalog sql`, locked down to the datasets' files as it is.
    counted = invoke("catalog", "sql", "SELECT count(*) AS n FROM hub_acme_agents", "--json")
    assert last_json(counted) == [{"n": ADP_ROWS + 2 * TASKS}]
    assert load_dataset(str(out), "tasks", split="train", cache_dir=str(tmp_path / "cache")).num_rows == TASKS
    assert "Pass rate **50%** over 12 verified rows." in (out / "README.md").read_text()
    # The registered export is a record dataset of its own: exporting it again by name works.
    again = export_hub("hub_acme_agents", "--repo-id", "acme/again", "--out", tmp_path / "again", "--dry-run", "--json")
    assert again.exit_code == 0, again.output
    assert last_json(again)["rows"] == ADP_ROWS + 2 * TASKS


def test_the_reports_images_resolve_in_the_card_and_a_link_to_no_plot_is_refused(data_home, records, tmp_path):
    report = invoke("report", records, "-o", tmp_path / "report")
    assert report.exit_code == 0, report.output
    summary = tmp_path / "report" / "summary.md"
    assert len(FILE_IMAGE.findall(summary.read_text())) == 6  # `aceforge report` links its PNGs beside summary.md
    out = tmp_path / "hub"
    result = export_hub(records, "--repo-id", "acme/agents", "--out", out, "--dry-run", "--summary", summary)
    assert result.exit_code == 0, result.output
    # --summary alone brings the PNGs it shows: each image of the card is a file in the folder, relative to the card
    shown = [m[2] for m in FILE_IMAGE.finditer((out / "README.md").read_text())]
    assert sorted(shown) == sorted(f"plots/{name}.png" for name in REPORT_PLOTS)
    assert all((out / link).read_bytes()[:4] == b"\x89PNG" for link in shown)
    # a summary showing an image that is not among the plots would be a broken image on the Hub
    only_one = export_hub(
        records, "--repo-id", "acme/agents", "--out", tmp_path / "hub2", "--dry-run", "--summary", summary,
        "--plot", tmp_path / "report" / "dedup.png",
    )  # fmt: skip
    assert only_one.exit_code != 0 and "which is not among the plots: pass each with --plot" in only_one.output
    assert "complexity.png" in only_one.output and not (tmp_path / "hub2").exists()


@pytest.mark.slow
def test_sft_config_feeds_trls_sft_trainer_unchanged(data_home, records, tmp_path, smol_path):
    """load_dataset(folder, "sft") -> SFTTrainer as it is: one optimizer step on SmolLM2."""
    from datasets import load_dataset
    from transformers import AutoTokenizer
    from trl import SFTConfig, SFTTrainer

    from generators.llm.model_store import tool_chat_template

    out = tmp_path / "hub"
    assert export_hub(records, "--repo-id", "acme/sft", "--out", out, "--dry-run").exit_code == 0
    chats = load_dataset(str(out), "sft", split="train", cache_dir=str(tmp_path / "cache"))
    assert chats.num_rows == SFT_ROWS and set(chats.column_names) == {"id", "messages", "tools"}
    assert {row["messages"][-1]["role"] for row in chats} == {"assistant"}  # no row ends on the user's "thanks"
    assert "every row ends with the assistant's last turn" in (out / "README.md").read_text()
    tokenizer = AutoTokenizer.from_pretrained(smol_path)
    tokenizer.chat_template = tool_chat_template()
    short = chats.select(range(2))
    args = SFTConfig(
        output_dir=str(tmp_path / "run"), max_steps=1, per_device_train_batch_size=1, max_length=256,
        use_cpu=True, report_to="none", save_strategy="no",
    )  # fmt: skip
    trainer = SFTTrainer(model=smol_path, args=args, train_dataset=short, processing_class=tokenizer)
    assert trainer.train().global_step == 1


def test_bad_repo_id_and_unknown_dataset_are_usage_errors(data_home, records):
    result = export_hub(records, "--repo-id", "no-slash", "--dry-run")
    assert result.exit_code == 2
    assert "--repo-id must be ORG/NAME" in result.output
    result = export_hub("missing_dataset", "--repo-id", "acme/x", "--dry-run")
    assert result.exit_code == 2
    assert "neither a file nor a dataset in the catalog" in result.output


def test_an_out_folder_of_the_users_is_refused_in_one_line_and_kept(data_home, records, tmp_path):
    work = tmp_path / "work"
    (work / "src").mkdir(parents=True)
    for name, text in {"recipe.yaml": "mine: true\n", "src/main.py": "print(1)\n", "NOTES.md": "notes\n"}.items():
        (work / name).write_text(text)
    result = export_hub(records, "--repo-id", "acme/x", "--out", work, "--dry-run")
    assert result.exit_code == 2
    assert result.output.count("\n") == 2 and "nothing in it was touched" in result.output  # "building", the error
    assert sorted(p.relative_to(work).as_posix() for p in work.rglob("*")) == [
        "NOTES.md",
        "recipe.yaml",
        "src",
        "src/main.py",
    ]
    assert (work / "NOTES.md").read_text() == "notes\n"


@pytest.mark.slow
def test_upload_creates_the_repo_and_commits_every_file_without_showing_the_token(hub, records, tmp_path):
    out = tmp_path / "hub"
    args = [records, "--repo-id", "acme/agents", "--out", out, "--private", "--max-shard-bytes", 40_000, "--json"]
    done = run_cli(args, {"HF_ENDPOINT": hub.url, "HF_TOKEN": TOKEN, **CLIENT_DEBUG_LOG}, tmp_path / "home")
    assert done.returncode == 0, done.stderr
    assert hub.unexpected == []
    assert hub.created == [{"name": "agents", "organization": "acme", "visibility": "private", "type": "dataset"}]
    local = {p.relative_to(out).as_posix(): p.read_bytes() for p in out.rglob("*") if p.is_file()}
    assert local.pop(MARKER_FILE)  # local bookkeeping (what a re-export may replace), not uploaded
    assert len([p for p in local if p.startswith("data/trajectories/train-")]) >= 2
    assert {"README.md", "recipe.yaml"} <= set(local)
    assert hub.committed == local  # every file, byte for byte
    api_calls = [r for r in hub.requests if r.path != "/api/agent-harnesses"]
    # In this order (README.md's metadata is validated more than once: by upload_folder and by the commit).
    assert list(dict.fromkeys((r.method, r.path.split("?")[0]) for r in api_calls)) == [
        ("POST", "/api/repos/create"),
        ("POST", "/api/validate-yaml"),
        ("POST", "/api/datasets/acme/agents/preupload/main"),
        ("POST", "/api/datasets/acme/agents/commit/main"),
    ]
    assert all(r.authorization == f"Bearer {TOKEN}" for r in api_calls)  # the token was used ...
    assert TOKEN not in done.stdout and TOKEN not in done.stderr  # ... and never shown
    assert "Request" in done.stderr  # the client's debug log was on, so the check above covered it
    reply = json.loads(done.stdout.strip().splitlines()[-1])
    assert reply["uploaded"] is True
    assert reply["commit_url"].endswith("/datasets/acme/agents/commit/" + "0" * 40)


@pytest.mark.slow
def test_no_token_sends_nothing(hub, records, tmp_path):
    done = run_cli([records, "--repo-id", "acme/agents", "--out", tmp_path / "hub"], {"HF_ENDPOINT": hub.url}, tmp_path)
    assert done.returncode == 1
    assert "no Hugging Face token: set HF_TOKEN or run `hf auth login`" in done.stderr
    assert hub.requests == []


@pytest.mark.slow
def test_a_hub_error_is_one_line_with_the_token_cut_out(hub, records, tmp_path):
    hub.reject_create_with = (400, f"token {TOKEN} may not create repos in acme")
    done = run_cli(
        [records, "--repo-id", "acme/agents", "--out", tmp_path / "hub"],
        {"HF_ENDPOINT": hub.url, "HF_TOKEN": TOKEN},
        tmp_path,
    )
    assert done.returncode == 1
    assert "error: upload to acme/agents failed:" in done.stderr
    assert "token <token> may not create repos in acme" in done.stderr
    assert TOKEN not in done.stdout + done.stderr
    assert "Traceback" not in done.stderr
    # A failed upload adds no catalog version (it used to register the export before uploading).
    assert "registered" not in done.stderr
    assert (
        not (tmp_path / "catalog.duckdb").exists()
        or Catalog(tmp_path / "catalog.duckdb").get("hub_acme_agents") is None
    )


@pytest.mark.slow
def test_an_unreachable_hub_is_one_line(records, tmp_path):
    server, url = serve(FakeHub())
    server.shutdown()
    server.server_close()  # nothing listens on that port any more
    done = run_cli(
        [records, "--repo-id", "acme/agents", "--out", tmp_path / "hub"],
        {"HF_ENDPOINT": url, "HF_TOKEN": TOKEN},
        tmp_path,
    )
    assert done.returncode == 1
    assert "error: upload to acme/agents failed:" in done.stderr
    assert "Traceback" not in done.stderr
    assert TOKEN not in done.stdout + done.stderr
