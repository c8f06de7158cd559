"""``aceforge ui --log-level`` reaches the logs of the runs on its instance, not only its servers'.

A run the UI launches logs to the terminal through Dagster's default console
logger, at the level of the instance the UI prepares. Here Dagster's own CLI
executes a one-asset job on that instance (DAGSTER_HOME as ``prepare_instance``
writes it) and the test reads what the run printed.
"""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from pipelines.cli.ui import prepare_instance

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
    output = run_output(prepare_instance("warning"), job_file)
    assert "tiny says warning" in output
    assert " - DEBUG - " not in output and " - INFO - " not in output
    assert "tiny says debug" not in output


def test_ui_log_level_debug_prints_the_run_debug_logs(data_home, job_file):
    prepare_instance("warning")  # a later start at another level replaces the earlier one
    output = run_output(prepare_instance("debug"), job_file)
    assert "tiny says debug" in output
    assert " - DEBUG - tiny_job - " in output  # Dagster's own step events too
