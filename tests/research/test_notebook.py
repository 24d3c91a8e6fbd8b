"""The researcher notebook (notebooks/) runs end to end over the demo corpus: every cell is executed by a
real Jupyter kernel (nbclient), reading the corpus from the test database through WARC2CORPUS_RESEARCH;
a cell that fails fails the test."""

from __future__ import annotations

import re

import nbformat
import pytest
from nbclient import NotebookClient

from conftest import ROOT
from test_api import demo_url  # noqa: F401  (the demo corpus)

NOTEBOOKS = sorted((ROOT / "notebooks").glob("*.ipynb"))


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.name for p in NOTEBOOKS])
def test_the_notebook_runs_over_the_demo_corpus(path, demo_url, tmp_path, monkeypatch):  # noqa: F811
    notebook = nbformat.read(path, as_version=4)
    assert not any(cell.get("outputs") for cell in notebook.cells if cell.cell_type == "code"), \
        f"{path.name} is committed with outputs; clear them"
    monkeypatch.setenv("WARC2CORPUS_RESEARCH", demo_url)
    monkeypatch.setenv("MPLBACKEND", "module://matplotlib_inline.backend_inline")
    NotebookClient(notebook, timeout=300, kernel_name="python3",
                   resources={"metadata": {"path": str(tmp_path)}}).execute()  # raises on a failing cell
    outputs = [o for cell in notebook.cells if cell.cell_type == "code" for o in cell.outputs]
    assert not [o for o in outputs if o.output_type == "error"]
    shown = "".join(o.get("text", "") + str(o.get("data", {}).get("text/plain", "")) for o in outputs)
    assert "8 occurrences" in shown and "hjemmetjenesten" in shown  # the concordance and the collocates
    told = re.search(r"(\d+) texts tell (\d+) stories", shown)  # the ferry story's AMP copy counted once
    assert told and int(told[1]) > int(told[2]) > 0, shown[-500:]
    assert sum("image/png" in o.get("data", {}) for o in outputs) >= 3  # the plots were drawn
    assert (tmp_path / "nynorsk-texts.csv").is_file()


def test_there_is_a_notebook():
    assert NOTEBOOKS, "notebooks/ holds no notebook"
