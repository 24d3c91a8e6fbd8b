"""The researcher web page in a real browser: headless Chromium (the `browser` fixture) against a real
`warc2corpus serve` (uvicorn) on loopback over the demo corpus. A researcher builds a corpus, reads a
concordance and collocations, and downloads both; the rows shown and the files downloaded are the
library's; axe-core (bundled with axe-core-python, no network) finds no WCAG 2.1 A/AA violation on any page;
the keyboard reaches the content first. A screenshot of each view goes to var/test-artifacts/screenshots/."""

from __future__ import annotations

import time

import openpyxl
import pandas as pd
from axe_core_python.selenium import Axe
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support import expected_conditions as ec
from selenium.webdriver.support.ui import WebDriverWait

from conftest import ARTIFACTS
from test_api import serve
from test_web import accessibility_problems, demo_url  # noqa: F401  (demo_url: the fixture)
from warc2corpus import research

AXE_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]


def axe_violations(driver) -> list[tuple]:
    result = Axe().run(driver, options={"runOnly": {"type": "tag", "values": AXE_TAGS}})
    assert {"color-contrast", "html-has-lang"} <= {p["id"] for p in result["passes"]}  # axe did run
    return [(v["id"], v["help"], [n["target"] for n in v["nodes"]][:5]) for v in result["violations"]]


def check_page(driver, name: str) -> None:
    """No accessibility problem (axe-core in the browser, and the offline HTML check); a screenshot."""
    assert axe_violations(driver) == [], name
    assert accessibility_problems(driver.page_source) == [], name
    shots = ARTIFACTS / "screenshots"
    shots.mkdir(parents=True, exist_ok=True)
    driver.save_screenshot(str(shots / f"web-{name}.png"))


def submit(driver, form_css: str, wait_css: str) -> None:
    driver.find_element(By.CSS_SELECTOR, f"{form_css} button[type=submit]").click()
    WebDriverWait(driver, 30).until(ec.presence_of_element_located((By.CSS_SELECTOR, wait_css)))


def type_into(driver, field_id: str, text: str) -> None:
    field = driver.find_element(By.ID, field_id)
    field.clear()
    field.send_keys(text)


def table_rows(driver, css: str) -> list[list[str]]:
    return [[c.text for c in row.find_elements(By.CSS_SELECTOR, "th, td")]
            for row in driver.find_elements(By.CSS_SELECTOR, f"{css} tbody tr")]


def downloaded(driver, name: str):
    path = driver.download_dir / name
    deadline = time.monotonic() + 30
    while not (path.exists() and not list(driver.download_dir.glob("*.crdownload"))):
        assert time.monotonic() < deadline, f"{name} was not downloaded: {list(driver.download_dir.iterdir())}"
        time.sleep(0.2)
    return path


def test_a_researcher_builds_a_corpus_reads_it_and_downloads_what_she_read(browser, demo_url, tmp_path):
    with serve(demo_url, tmp_path / "serve.log") as (base, _):
        browser.get(base + "/corpus/")
        assert browser.current_url == base + "/corpus/app/"
        assert browser.find_element(By.TAG_NAME, "html").get_attribute("lang") == "en"   # --lang=en-GB
        check_page(browser, "1-build")
        # the keyboard: the first Tab reaches the skip link, which moves focus to the content
        browser.find_element(By.TAG_NAME, "body").send_keys(Keys.TAB)
        skip = browser.switch_to.active_element
        assert skip.text == "Skip to content"
        skip.send_keys(Keys.ENTER)
        assert browser.switch_to.active_element.get_attribute("id") == "main"

        # build: Bokmål and Nynorsk texts holding "kommunen"
        browser.find_element(By.CSS_SELECTOR, "label[for=lang-nob]").click()
        browser.find_element(By.CSS_SELECTOR, "label[for=lang-nno]").click()
        type_into(browser, "text", "kommunen")
        type_into(browser, "name", "Kommunen")
        submit(browser, "form.build", "table.metadata")
        corpus_id = browser.current_url.rstrip("/").rsplit("/", 1)[1]
        with research.connect(demo_url) as conn:
            documents = research.corpus_documents(conn, corpus_id)
            conc = research.concordance(conn, "kommunen", corpus=corpus_id, before=5, after=5, limit=25)
            coll = research.collocations(conn, "kommunen", corpus=corpus_id, n=50)
        assert len(documents) == 4
        assert [r[0] for r in table_rows(browser, "table.metadata")] == [d["title"] for d in documents]
        assert browser.find_element(By.ID, "chart-languages").get_attribute("role") == "img"
        check_page(browser, "2-corpus")

        # the concordance, five words either side
        browser.find_element(By.LINK_TEXT, "Concordance").click()
        type_into(browser, "query", "kommunen")
        type_into(browser, "before", "5")
        type_into(browser, "after", "5")
        submit(browser, "form.analysis", "table.kwic")
        shown = table_rows(browser, "table.kwic")
        assert [r[:3] for r in shown] == [[line["left"], line["hit"], line["right"]] for line in conc["lines"]]
        assert len(shown) == conc["total"] == 4
        browser.find_element(By.ID, "results-title").location_once_scrolled_into_view
        check_page(browser, "3-concordance")
        browser.find_element(By.PARTIAL_LINK_TEXT, "as Excel").click()
        sheet = openpyxl.load_workbook(downloaded(browser, "concordance.xlsx"), read_only=True).worksheets[0]
        rows = list(sheet.iter_rows(values_only=True))
        header = list(rows[0])
        assert [(r[header.index("left")] or "", r[header.index("hit")], r[header.index("right")] or "")
                for r in rows[1:]] == [(line["left"], line["hit"], line["right"]) for line in conc["lines"]]

        # collocations against the whole collection, as a table and a chart
        browser.find_element(By.LINK_TEXT, "Collocations").click()
        type_into(browser, "query", "kommunen")
        submit(browser, "form.analysis", "table.collocations")
        shown = table_rows(browser, "table.collocations")
        assert [r[0] for r in shown] == [r["word"] for r in coll] and [int(r[1]) for r in shown] == \
            [r["count"] for r in coll]
        bars = browser.find_elements(By.CSS_SELECTOR, "#chart-collocations rect")
        assert len(bars) == min(20, len(coll))
        browser.find_element(By.ID, "results-title").location_once_scrolled_into_view
        check_page(browser, "4-collocations")
        browser.find_element(By.PARTIAL_LINK_TEXT, "Collocations as CSV").click()
        table = pd.read_csv(downloaded(browser, "collocations.csv"))
        assert table["word"].tolist() == [r["word"] for r in coll]
        assert table["count"].tolist() == [r["count"] for r in coll]

        # the citable link re-opens the same corpus and view
        cite = browser.find_element(By.ID, "cite-link").get_attribute("href")
        browser.get(base + "/corpus/app/")
        browser.get(cite)
        assert [r[0] for r in table_rows(browser, "table.collocations")] == [r["word"] for r in coll]

        browser.find_element(By.LINK_TEXT, "The collection").click()
        WebDriverWait(browser, 30).until(ec.presence_of_element_located((By.ID, "chart-timeline")))
        check_page(browser, "5-collection")
