"""The chat page in headless Chromium: ask, watch the answer stream in, see its tool step
and its sources, follow up, and keep screenshots.

Uses the system's Chromium (never a downloaded browser). Screenshots go to pytest's temporary
folder, or to $GPU_ADVISOR_SCREENSHOTS (e.g. docs/screenshots) when it is set.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from tests.ui.conftest import MEGAKERNELS

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
ANSWER_TIMEOUT_MS = 240_000

pytestmark = [
    pytest.mark.browser,
    pytest.mark.slow,
    pytest.mark.skipif(
        not Path(CHROMIUM).exists(),
        reason="chromium is not installed (apt-get install chromium, or `make browser`)",
    ),
    pytest.mark.filterwarnings("ignore:.*no_silent_downcasting:DeprecationWarning"),
    pytest.mark.filterwarnings("ignore:The copy keyword is deprecated:DeprecationWarning"),
]


@pytest.fixture(scope="module")
def browser():
    sync_api = pytest.importorskip("playwright.sync_api")
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            yield browser
        finally:
            browser.close()


@pytest.fixture
def shots(tmp_path: Path) -> Path:
    target = os.environ.get("GPU_ADVISOR_SCREENSHOTS")
    folder = Path(target) if target else tmp_path
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def ask_in_page(page, question: str, answers_before: int) -> None:
    """Type the question, send it, and wait until the finished answer (its badge) is shown."""
    page.fill("#gpu-advisor-input textarea", question)
    page.keyboard.press("Enter")
    page.wait_for_function(
        "n => document.querySelector('#gpu-advisor-chat').innerText"
        ".split('backend: offline').length - 1 > n",
        arg=answers_before,
        timeout=ANSWER_TIMEOUT_MS,
    )
    page.wait_for_timeout(300)  # let the last frame paint


def chat_text(page) -> str:
    return page.inner_text("#gpu-advisor-chat")


def test_english_question_streams_with_step_and_sources(browser, chat_url: str, shots: Path):
    page = browser.new_page(viewport={"width": 1180, "height": 1300})
    page.goto(chat_url)
    page.wait_for_selector("#gpu-advisor-input textarea")
    assert "backend: offline" in page.inner_text("#gpu-advisor-header")
    ask_in_page(page, MEGAKERNELS, 0)
    text = chat_text(page)
    assert "Partly" in text
    assert "🔧 gpu_capability" in text
    assert "📚 Sources (" in text

    chat = page.locator("#gpu-advisor-chat")
    step = chat.get_by_text('verdict: "partial"')
    assert not step.is_visible()  # steps start closed
    chat.get_by_text("🔧 gpu_capability").click()  # open the step: arguments and result
    step.wait_for(state="visible")
    assert chat.get_by_text('{"gpu": "GeForce RTX 4090", "topic": "megakernels"}').is_visible()
    chat.get_by_text("🔧 gpu_capability").click()
    step.wait_for(state="hidden")
    source = chat.get_by_text("NVIDIA CUDA Programming Guide 13.x").first
    assert not source.is_visible()
    chat.get_by_text("📚 Sources (").first.click()  # open the sources
    source.wait_for(state="visible")
    page.wait_for_timeout(500)
    page.screenshot(path=str(shots / "chat-en.png"))

    ask_in_page(page, "And an H100?", 1)  # the page sends the conversation back
    last = chat_text(page).split("And an H100?")[-1]
    assert "H100" in last and "Megakernels" in last
    page.close()


def test_french_question_reads_in_french(browser, chat_url: str, shots: Path):
    page = browser.new_page(viewport={"width": 1180, "height": 1300})
    page.goto(chat_url)
    page.wait_for_selector("#gpu-advisor-input textarea")
    ask_in_page(page, "Quelles fonctionnalités a ma RTX 5090 ?", 0)
    text = chat_text(page)
    assert "GeForce RTX 5090" in text and "Blackwell" in text
    assert "Bande passante" in text
    assert "🔧 gpu_lookup" in text
    chat = page.locator("#gpu-advisor-chat")
    chat.get_by_text("🔧 gpu_lookup").click()
    chat.get_by_text('{"gpu": "GeForce RTX 5090"}').wait_for(state="visible")
    page.wait_for_timeout(500)
    page.screenshot(path=str(shots / "chat-fr.png"))
    page.close()


def test_example_click_and_probe_button(browser, chat_url: str):
    page = browser.new_page(viewport={"width": 1180, "height": 1000})
    page.goto(chat_url)
    page.wait_for_selector("#gpu-advisor-input textarea")
    page.get_by_text("Will Llama 3 70B fit in 24 GB?").click()
    page.wait_for_function(
        "document.querySelector('#gpu-advisor-chat').innerText.includes('backend: offline')",
        timeout=ANSWER_TIMEOUT_MS,
    )
    assert "🔧 workload_fit" in chat_text(page)
    page.get_by_role("button", name="Probe this machine").click()
    page.wait_for_function(
        "document.querySelector('#gpu-advisor-chat').innerText.includes('This machine')",
        timeout=60_000,
    )
    page.wait_for_timeout(300)
    assert "GPU probe —" in chat_text(page)  # shown open, unlike the tool steps
    page.close()
