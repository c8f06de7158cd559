"""A person's path through the Dagster UI: `aceforge ui`, open the tokenized URL it printed (on the asset's page),
launch its materialization, see it succeed. The token trades for a cookie on that first visit: every later
request of the page (GraphQL by POST, its websocket, the runs page) holds the token only by that cookie.

Chromium and chromedriver are Debian's (make test installs them when missing); Selenium drives them headless.
The screenshot of the finished run is kept in the test's tmp dir, and copied to $ACEFORGE_SCREENSHOTS if set.
"""

from __future__ import annotations

import contextlib
import os
import shutil
from pathlib import Path

import pytest
from dagster import AssetKey, DagsterInstance, DagsterRunStatus, RunsFilter

from tests.pipelines.cli_helpers import wait_until

CHROMIUM, CHROMEDRIVER = Path("/usr/bin/chromium"), Path("/usr/bin/chromedriver")
SOURCES = 5  # the demo catalog entries: one partition each

pytestmark = pytest.mark.slow


@pytest.fixture
def browser():
    if not (CHROMIUM.exists() and CHROMEDRIVER.exists()):
        if os.environ.get("CI"):
            pytest.fail("chromium and chromium-driver are missing: `make test` installs them")
        pytest.skip("Debian's chromium and chromium-driver are not installed (`make test` installs them)")
    from selenium import webdriver
    from selenium.webdriver.chrome.options import Options
    from selenium.webdriver.chrome.service import Service

    options = Options()
    options.binary_location = str(CHROMIUM)
    for flag in (
        "--headless=new",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-dev-shm-usage",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--window-size=1400,1000",
    ):
        options.add_argument(flag)
    driver = webdriver.Chrome(service=Service(str(CHROMEDRIVER)), options=options)
    driver.implicitly_wait(2)
    yield driver
    driver.quit()


def click(driver, text: str, timeout: float = 30) -> None:
    """Click the button labelled ``text`` once it is there (React re-renders: a found element can go stale)."""
    from selenium.webdriver.common.by import By

    def attempt() -> bool:
        for element in driver.find_elements(By.TAG_NAME, "button"):
            if element.text.strip() == text and element.is_enabled():
                element.click()
                return True
        return False

    wait_until(attempt, timeout=timeout, what=f"a {text!r} button", every=0.5)


def test_materialize_the_ingest_assets_from_the_ui(ui, browser, data_home, tmp_path):
    browser.get(f"{ui.url}/?token={ui.token}")  # the URL `aceforge ui` printed
    wait_until(lambda: browser.current_url.startswith(f"{ui.url}/"), timeout=30, what="the UI's first page")
    assert "token" not in browser.current_url  # it left the address bar for a cookie
    browser.get(f"{ui.url}/assets/converted")
    wait_until(lambda: "Materialize" in browser.find_element("tag name", "body").text, timeout=60, what="the page")
    with contextlib.suppress(AssertionError):  # Dagster's newsletter prompt, on a fresh instance only
        click(browser, "Skip", timeout=8)
    click(browser, "Materialize…")
    click(browser, "All")
    click(browser, "Launch backfill")

    def materialized() -> set[str]:
        with DagsterInstance.from_config(str(data_home / "dagster")) as instance:
            failed = instance.get_runs(filters=RunsFilter(statuses=[DagsterRunStatus.FAILURE]))
            assert not failed, f"{len(failed)} runs failed:\n" + (tmp_path / "ui.log").read_text()[-4000:]
            return instance.get_materialized_partitions(AssetKey("converted"))

    wait_until(
        lambda: len(materialized()) == SOURCES, timeout=600, what="every partition", every=3, log=tmp_path / "ui.log"
    )
    assert materialized() == {
        "demo_bookstore_adp",
        "demo_bookstore_chat",
        "demo_bookstore_qa",
        "demo_bookstore_react",
        "demo_bookstore_runs",
    }
    browser.get(f"{ui.url}/runs")
    wait_until(lambda: "Success" in browser.find_element("tag name", "body").text, timeout=120, what="a green run")
    shot = tmp_path / "ui-runs.png"
    browser.save_screenshot(str(shot))
    assert shot.stat().st_size > 10_000
    if os.environ.get("ACEFORGE_SCREENSHOTS"):
        shutil.copy(shot, Path(os.environ["ACEFORGE_SCREENSHOTS"]) / shot.name)
