"""The page in a real browser: Debian's headless Chromium, driven by Selenium, against the real server.

Needs `apt-get install chromium chromium-driver` and `pip install selenium`;
skipped otherwise. Nothing is downloaded: the driver and browser paths are
given, so Selenium Manager never runs. Leaves a screenshot in
tests/artifacts/browser.png.
"""

from pathlib import Path

import pytest

CHROMIUM = Path("/usr/bin/chromium")
CHROMEDRIVER = Path("/usr/bin/chromedriver")
ARTIFACTS = Path(__file__).parent / "artifacts"

pytestmark = pytest.mark.skipif(
    not (CHROMIUM.is_file() and CHROMEDRIVER.is_file()),
    reason=f"needs {CHROMIUM} and {CHROMEDRIVER} (apt-get install chromium chromium-driver)",
)

webdriver = pytest.importorskip("selenium.webdriver", reason="needs selenium (pip install selenium)")
pytest.importorskip("fastapi", reason="needs the serve extra (fastapi, uvicorn)")
from selenium.common.exceptions import StaleElementReferenceException  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.common.keys import Keys  # noqa: E402
from selenium.webdriver.support.ui import WebDriverWait  # noqa: E402

from bench.background_server import background_server  # noqa: E402
from translator.serving import server  # noqa: E402

FLAGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
    # Loopback only, straight to the server: no proxy from the environment.
    "--no-proxy-server",
    # Containers often have a tiny /dev/shm, which crashes Chromium's renderer.
    "--disable-dev-shm-usage",
    "--window-size=900,1000",
]


@pytest.fixture(scope="module")
def base_url(tiny_translator):
    with background_server(server.create_app(tiny_translator)) as url:
        yield url


@pytest.fixture
def browser(tmp_path, monkeypatch):
    monkeypatch.setenv("SE_OFFLINE", "true")  # belt and braces: Selenium Manager may not fetch anything
    options = webdriver.ChromeOptions()
    options.binary_location = str(CHROMIUM)
    for flag in [*FLAGS, f"--user-data-dir={tmp_path / 'profile'}"]:
        options.add_argument(flag)
    driver = webdriver.Chrome(service=webdriver.ChromeService(str(CHROMEDRIVER)), options=options)
    driver.set_page_load_timeout(30)
    yield driver
    driver.quit()


def wait_for_result(driver):
    """Waits until the page has finished a translation; returns (state, text) of the result."""
    result = driver.find_element(By.ID, "result")
    WebDriverWait(driver, 60).until(lambda _: result.get_attribute("data-state") in ("done", "error"))
    return result.get_attribute("data-state"), result.text


def heatmap_cells(driver, sentence):
    """The heatmap's cells once it shows `sentence`, else None (ticking the box drew one for the earlier sentence)."""
    heatmaps = driver.find_elements(By.CSS_SELECTOR, "#attention svg")
    if heatmaps and sentence in heatmaps[0].get_attribute("aria-label"):
        return heatmaps[0].find_elements(By.TAG_NAME, "rect")
    return None


def test_translate_in_the_browser(browser, base_url, tiny_translator):
    browser.get(base_url + "/")
    assert "translator" in browser.title.lower()

    source = browser.find_element(By.ID, "source")
    source.send_keys("Tom is here.")
    browser.find_element(By.ID, "translate").click()
    state, text = wait_for_result(browser)
    assert state == "done", text
    assert text and not text.startswith("Error")
    assert text == tiny_translator.translate("Tom is here.")

    # Ctrl+Enter translates too, and the attention heatmap follows when asked for.
    browser.find_element(By.ID, "show-attention").click()
    source.clear()
    source.send_keys("Where is Mary?")
    # Forget the first result, so the wait below cannot see it as this one's.
    browser.execute_script("document.getElementById('result').removeAttribute('data-state')")
    source.send_keys(Keys.CONTROL, Keys.ENTER)
    state, text = wait_for_result(browser)
    assert state == "done" and text == tiny_translator.translate("Where is Mary?")
    cells = WebDriverWait(browser, 60, ignored_exceptions=[StaleElementReferenceException]).until(
        lambda d: heatmap_cells(d, "Where is Mary?")
    )
    source_tokens, target_tokens, _ = tiny_translator.attention("Where is Mary?")
    assert len(cells) == len(source_tokens) * len(target_tokens)

    ARTIFACTS.mkdir(exist_ok=True)
    assert browser.save_screenshot(str(ARTIFACTS / "browser.png"))
