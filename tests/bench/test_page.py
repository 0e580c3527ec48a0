"""Test the HTML report, ``index.html``, in a real browser.

The browser is Debian's headless Chromium, through its chromedriver.

The committed result set's page (``results/index.html``, as ``make bench`` wrote it) and its
peers' page are opened.  Every algorithm of its ``results.json`` has its row and its section, and every
image decodes.  Nothing is requested from outside the result set, and the console stays empty.  A set of
hostile texts renders inert.  Chromium is installed by ``make chromium`` (a prerequisite of ``make
test``).  Where it cannot be had the test says why; in CI (``CI`` set), where it can, it fails instead.
"""

from __future__ import annotations

import json
import os
import shutil
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from hanoi_harness.bench.report.plots import pictures
from hanoi_harness.bench.report.render import render
from hanoi_harness.bench.results.resultset import AlgorithmResult, load
from tests.helpers import ROOT, bench_set

FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"]
FLAGS += ["--disable-component-update", "--disable-sync", "--no-first-run", "--window-size=1280,2000"]
"""Chromium's flags: headless, as root (no sandbox), and nothing of its own fetched from the network."""


def unavailable() -> str:
    """Return why the page cannot be opened in Chromium here, or "" if it can."""
    try:
        import selenium  # noqa: F401
    except ImportError:
        return "selenium is not installed: pip install 'hanoi-harness[test]'"
    missing = [name for name in ("chromium", "chromedriver") if shutil.which(name) is None]
    if missing:
        return f"{' and '.join(missing)} not installed: 'make chromium' installs Debian's chromium and chromium-driver"
    return ""


@pytest.fixture(scope="module")
def browser(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    """Start headless Chromium through Debian's chromedriver, fresh profile.

    Its console and network are logged.
    """
    reason = unavailable()
    if reason:
        if os.environ.get("CI"):
            pytest.fail(f"the HTML report must be opened in a browser in CI, and cannot: {reason}")
        pytest.skip(f"the HTML report is not opened in a browser here: {reason}")
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = str(shutil.which("chromium"))
    for flag in [*FLAGS, f"--user-data-dir={tmp_path_factory.mktemp('chromium-profile')}"]:
        options.add_argument(flag)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL", "performance": "ALL"})
    driver = webdriver.Chrome(service=Service(str(shutil.which("chromedriver"))), options=options)
    try:
        yield driver
    finally:
        driver.quit()


@dataclass(frozen=True)
class Visit:
    """What opening a page did: the URLs it requested, its console's output."""

    requests: list[str]
    console: list[dict[str, Any]]


def visit(driver: Any, page: Path) -> Visit:
    """Open *page* in *driver*; return what it requested and logged.

    It waits for the load, images included.
    """
    driver.get_log("performance")  # what came before (the browser's own start page) is not the page's
    driver.get_log("browser")
    driver.get(page.as_uri())
    requests = []
    for entry in driver.get_log("performance"):
        message = json.loads(entry["message"])["message"]
        if message["method"] != "Network.requestWillBeSent":
            continue
        document = message["params"].get("documentURL", "")
        if not document.startswith(("chrome://", "chrome-untrusted://")):
            requests.append(message["params"]["request"]["url"])
    return Visit(requests, driver.get_log("browser"))


@pytest.fixture(scope="module")
def committed() -> Path:
    """The committed result set, as ``make bench`` rendered it.

    The pages of the current code are opened by the other tests here.
    """
    return ROOT / "results"


def check_page(driver: Any, directory: Path) -> None:
    """Open *directory*'s index.html and check what every reader needs of it."""
    results = load(directory)
    seen = visit(driver, directory / "index.html")
    inside = directory.as_uri() + "/"
    assert seen.requests and all(url.startswith((inside, "data:")) for url in seen.requests), seen.requests
    assert [entry for entry in seen.console if entry["level"] in ("SEVERE", "WARNING")] == []
    shown = driver.execute_script(
        "return Array.from(document.querySelectorAll('table.summary tbody tr[data-algorithm]'))"
        ".filter(row => row.offsetHeight > 0).map(row => row.dataset.algorithm)"
    )
    assert sorted(shown) == sorted(results.algorithms)  # once each, every one visible
    sections = driver.execute_script("return Array.from(document.querySelectorAll('section.algorithm')).map(s => s.id)")
    assert sorted(sections) == sorted(f"alg-{name}" for name in results.algorithms)
    images = driver.execute_script(
        "return Array.from(document.images).map(i => [i.getAttribute('src'), i.complete && i.naturalWidth > 0])"
    )
    assert sorted(images) == sorted([picture.file, True] for picture in pictures(results))


def test_the_committed_report_shows_every_algorithm_and_plot_offline(browser: Any, committed: Path) -> None:
    check_page(browser, committed)
    if (ROOT / "results" / "peers").is_dir():
        check_page(browser, committed / "peers")
        links = browser.execute_script("return Array.from(document.links).map(a => a.getAttribute('href'))")
        assert "../index.html" not in links  # the peers' page stands alone


def test_a_summary_sorts_by_the_column_clicked(browser: Any, committed: Path) -> None:
    from selenium.webdriver.common.by import By

    visit(browser, committed / "index.html")
    table = browser.find_element(By.CSS_SELECTOR, "table.summary")
    column = [th.text for th in table.find_elements(By.CSS_SELECTOR, "thead th")].index("moves/s")

    def keys() -> list[float]:
        cells = table.find_elements(By.CSS_SELECTOR, f"tbody tr td:nth-child({column + 1})")
        return [float(cell.get_attribute("data-sort")) for cell in cells if cell.get_attribute("data-sort")]

    assert len(keys()) > 1 and keys() != sorted(keys())  # ranked by ns per move: the fastest has the most moves/s
    header = table.find_elements(By.CSS_SELECTOR, "thead th button")[column]
    header.click()
    assert keys() == sorted(keys())
    header.click()
    assert keys() == sorted(keys(), reverse=True)
    assert browser.get_log("browser") == []


HOSTILE = "<script>window.pwned = 1</script><img src='https://example.invalid/x.png'>"


def test_hostile_texts_render_inert(browser: Any, tmp_path: Path) -> None:
    """Hostile texts render inert: shown as text, never run nor fetched.

    A plugin's summary, a failure and a command are anyone's text.
    """
    results = bench_set({"level_formula": 0.5})
    results.algorithms["level_formula"].summary = HOSTILE
    results.algorithms["level_formula"].source = "</dd></dl><iframe src='https://example.invalid/'></iframe>"
    results.algorithms["broken"] = AlgorithmResult("broken", status="failed", failure={"describe": HOSTILE})
    (tmp_path / "results.json").write_text(results.dumps())
    render(load(tmp_path), tmp_path)
    assert "<script>window" not in (tmp_path / "index.html").read_text()
    seen = visit(browser, tmp_path / "index.html")
    found = browser.execute_script("return [window.pwned === undefined, document.querySelectorAll('iframe').length]")
    assert found == [True, 0]
    assert all(url.startswith((tmp_path.as_uri() + "/", "data:")) for url in seen.requests), seen.requests
    assert HOSTILE in browser.find_element("id", "alg-level_formula").text
    assert f"FAILED: {HOSTILE}" in browser.find_element("id", "alg-broken").text
    assert seen.console == []
