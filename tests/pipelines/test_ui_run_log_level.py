"""``aceforge ui --log-level`` reaches the logs of the runs on its instance, not only its servers'.

A run the UI launches logs to the terminal through Dagster's default console
logger, at the level of the instance the UI prepares. Here Dagster's own CLI
executes a one-asset job on that instance (DAGSTER_HOME as ``prepare_instance``
and ``run_log_level`` leave it while the UI runs) and the test reads what the
run printed.
"""

from __future__ import annotations

import os
import subprocess
import sys

import pytest
import yaml

from pipelines.cli.ui import prepare_instance
from pipelines.dagster_home import run_log_level

JOB = """
from dagster import Definitions, asset, define_asset_job, in_process_executor


@asset
def tiny(context):
    context.log.debug("tiny says debug")
    context.log.warning("tiny says warning")
    return 1


# In process: a step process would set its loggers up the same way from the instance, a few seconds later.
defs = Definitions(assets=[tiny], jobs=[define_asset_job("tiny_job", executor_def=in_process_executor)])
"""


def run_output(home, job_file) -> str:
    env = {**os.environ, "DAGSTER_HOME": str(home)}
    command = [sys.executable, "-m", "dagster", "job", "execute", "-f", str(job_file), "-j", "tiny_job"]
    done = subprocess.run(command, env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout + done.stderr


@pytest.fixture
def job_file(tmp_path):
    path = tmp_path / "tiny_job.py"
    path.write_text(JOB)
    return path


def test_ui_log_level_warning_keeps_debug_and_info_run_logs_off_the_terminal(data_home, job_file):
    with run_log_level(prepare_instance(), "warning") as home:
        output = run_output(home, job_file)
    assert "tiny says warning" in output
    assert " - DEBUG - " not in output and " - INFO - " not in output
    assert "tiny says debug" not in output


def test_ui_log_level_debug_prints_the_run_debug_logs(data_home, job_file):
    with run_log_level(prepare_instance(), "debug") as home:
        output = run_output(home, job_file)
    assert "tiny says debug" in output
    assert " - DEBUG - tiny_job - " in output  # Dagster's own step events too


def test_the_instance_log_level_is_put_back_when_the_ui_stops(data_home):
    """Left set, it would drop the INFO lines of a later `aceforge run --verbose` (the instance's level wins)."""
    home = prepare_instance()
    config_file = home / "dagster.yaml"
    fresh = yaml.safe_load(config_file.read_text())
    with run_log_level(home, "warning"):
        assert yaml.safe_load(config_file.read_text()) == {**fresh, "python_logs": {"python_log_level": "WARNING"}}
    assert yaml.safe_load(config_file.read_text()) == fresh
    config_file.write_text(yaml.safe_dump({**fresh, "python_logs": {"python_log_level": "INFO"}}))
    with run_log_level(home, "error"):
        assert yaml.safe_load(config_file.read_text())["python_logs"] == {"python_log_level": "ERROR"}
    assert yaml.safe_load(config_file.read_text())["python_logs"] == {"python_log_level": "INFO"}
