"""A headless Chromium for the explorer's tests (Selenium, Debian's chromium and chromium-driver).

``.ci/run`` installs the two packages when they are missing (``apt-get install -y chromium
chromium-driver``). The browser runs with a fresh profile and nothing that reaches the network.
"""

from __future__ import annotations

import importlib.util
import shutil
import tempfile
import time
from pathlib import Path

CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"
FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--window-size=1280,1000")
INSTALL = "apt-get install -y chromium chromium-driver (as .ci/run does)"


def missing() -> str | None:
    """What is missing to run the browser tests, or None."""
    absent = [path for path in (CHROMIUM, CHROMEDRIVER) if not Path(path).exists()]
    if importlib.util.find_spec("selenium") is None:
        absent.append("selenium (pip install -e '.[test]')")
    return ", ".join(absent) or None


class Browser:
    """One Chromium driven by Selenium; ``close()`` ends it and removes its profile."""

    def __init__(self):
        from selenium import webdriver
        from selenium.webdriver.chrome.service import Service

        self.profile = tempfile.mkdtemp(prefix="vsx-chromium-")
        options = webdriver.ChromeOptions()
        options.binary_location = CHROMIUM
        for flag in FLAGS:
            options.add_argument(flag)
        options.add_argument(f"--user-data-dir={self.profile}")
        self.driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)

    def open(self, path: Path) -> None:
        self.driver.get(Path(path).resolve().as_uri())
        self.wait_idle()

    def wait_idle(self, root=None, timeout: float = 10.0) -> None:
        """Until the explorer has drawn and no answer is pending (``data-busy="0"``)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.driver.execute_script(
                    "const r = arguments[0] || document.querySelector('.vsx-root');"
                    " return !!r && r.dataset.busy === '0';", root):
                return
            time.sleep(0.02)
        raise TimeoutError("the explorer did not settle")

    def all(self, css: str, root=None):
        return (root or self.driver).find_elements("css selector", css)

    def one(self, css: str, root=None):
        return (root or self.driver).find_element("css selector", css)

    def click(self, css: str, root=None) -> None:
        self.driver.execute_script("arguments[0].scrollIntoView({block: 'center'});", self.one(css, root))
        self.one(css, root).click()
        self.wait_idle()

    def close(self) -> None:
        self.driver.quit()
        shutil.rmtree(self.profile, ignore_errors=True)
