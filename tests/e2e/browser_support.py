"""Headless Chromium for the web board's tests, and a stand-in for Discord's client frame.

Debian's ``chromium`` and ``chromium-driver`` (``.ci/run`` installs them) driven through
WebDriver (selenium). Without them the browser tests skip, except under ``CI=true``,
where they must run. Selenium's calls block: tests run them in a thread
(:func:`asyncio.to_thread`) so the bot and the web server keep serving meanwhile.

:func:`parent_route` serves ``/test/discord``: a page that plays the Discord client for the
Activity's real SDK, in an iframe of the same origin, over the SDK's ``postMessage`` RPC
(opcodes HANDSHAKE 0, FRAME 1): it answers the handshake with the ``READY`` dispatch and
``AUTHORIZE`` with the code the test minted for its user (what the user's consent in
Discord would give). Everything else the Activity then proves with the server, which
checks it with the fake Discord's OAuth2.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import shutil
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import pytest
from aiohttp import web

from tests.e2e.activity_support import Activity
from tests.e2e.fake_discord import FakeMember

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
CHROMEDRIVER = shutil.which("chromedriver")
ROOT = Path(__file__).resolve().parents[2]
# Screenshots the browser tests keep (git ignores the folder): TEST_ARTIFACTS, else
# test-artifacts/ at the top of the checkout; the web board's under web/.
ARTIFACTS = Path(os.environ.get("TEST_ARTIFACTS") or ROOT / "test-artifacts") / "web"
PHONE = (390, 844)  # CSS pixels: a common phone
DESKTOP = (1280, 800)

PARENT = """<!doctype html>
<html><head><meta charset="utf-8"><title>Discord (stand-in)</title></head>
<body data-log="">
<iframe id="activity" style="width:760px;height:700px" src="__CHILD__"></iframe>
<script>
const code = __CODE__;
const log = [];
window.addEventListener("message", (event) => {
  const frame = document.getElementById("activity").contentWindow;
  if (event.source !== frame || !Array.isArray(event.data)) return;
  const [opcode, data] = event.data;
  if (opcode === 0) {
    log.push("HANDSHAKE:" + data.client_id + ":" + data.frame_id);
    frame.postMessage([1, {cmd: "DISPATCH", evt: "READY", nonce: null,
      data: {v: 1, config: {api_endpoint: "//discord.com/api", environment: "production"}}}], "*");
  } else if (opcode === 1) {
    log.push(data.cmd);
    if (data.cmd === "AUTHORIZE") {
      frame.postMessage([1, {cmd: "AUTHORIZE", evt: null, nonce: data.nonce, data: {code}}], "*");
    }
  }
  document.body.dataset.log = log.join(",");
});
</script>
</body></html>
"""


def parent_route() -> web.RouteDef:
    """``GET /test/discord?code=...&instance_id=...&guild_id=...&channel_id=...``."""

    async def page(request: web.Request) -> web.Response:
        query = request.query
        child = "/?" + urlencode(
            {
                "frame_id": "frame-1",
                "instance_id": query["instance_id"],
                "platform": "desktop",
                "guild_id": query.get("guild_id", ""),
                "channel_id": query.get("channel_id", ""),
            }
        )
        body = PARENT.replace("__CHILD__", child).replace("__CODE__", json.dumps(query["code"]))
        return web.Response(text=body, content_type="text/html")

    return web.get("/test/discord", page)


def _needs_browser() -> None:
    if CHROMIUM and CHROMEDRIVER:
        return
    if os.environ.get("CI") == "true":
        raise AssertionError("CI=true: the browser tests need chromium and chromium-driver")
    pytest.skip("chromium and chromium-driver are not installed")


@contextlib.contextmanager
def browser(width: int = 420, height: int = 900) -> Iterator[Any]:
    """A headless Chromium (a phone-sized window by default), closed afterwards."""
    _needs_browser()
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM or ""
    for argument in (
        "--headless=new",
        "--no-sandbox",  # root in CI containers
        "--disable-gpu",
        "--disable-dev-shm-usage",
        f"--window-size={width},{height}",
    ):
        options.add_argument(argument)
    driver = webdriver.Chrome(options=options, service=Service(CHROMEDRIVER or ""))
    try:
        yield driver
    finally:
        driver.quit()


def viewport(driver: Any, size: tuple[int, int], *, mobile: bool) -> None:
    """Show pages at ``size`` CSS pixels, as a phone (``mobile``) or a desktop browser would
    (a headless window cannot be narrower than 500 pixels: the size is emulated)."""
    width, height = size
    driver.execute_cdp_cmd(
        "Emulation.setDeviceMetricsOverride",
        {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": mobile},
    )


def keep_screenshot(driver: Any, name: str) -> Path:
    """The page as it looks now, kept as ``ARTIFACTS/<name>.png``."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    path = ARTIFACTS / f"{name}.png"
    assert driver.save_screenshot(str(path)), f"no screenshot for {name}"
    return path


def wait_until(check: Callable[[], Any], timeout: float = 10.0, what: str = "") -> Any:
    """Poll ``check`` (blocking: call it in a thread) until it returns something truthy."""
    deadline = time.monotonic() + timeout
    last: Any = None
    while time.monotonic() < deadline:
        with contextlib.suppress(Exception):
            last = check()
            if last:
                return last
        time.sleep(0.02)
    raise AssertionError(f"timed out waiting for {what or check} (last: {last!r})")


def body_data(driver: Any, key: str) -> str | None:
    value = driver.execute_script(f"return document.body.dataset.{key} ?? null")
    return None if value is None else str(value)


async def open_activity(a: Activity, driver: Any, who: FakeMember, instance: str) -> None:
    """Open the Activity in ``driver`` as ``who`` would launch it in the games channel: the
    stand-in parent frame with an OAuth2 code, then into the Activity's own frame."""
    code = a.oauth.code_for(who)
    channel = a.h.fake.channel_id("games")
    url = (
        f"{a.base}test/discord?code={code}&instance_id={instance}"
        f"&guild_id={a.h.fake.guild.id}&channel_id={channel}"
    )
    await asyncio.to_thread(driver.get, url)
    await asyncio.to_thread(driver.switch_to.frame, driver.find_element("id", "activity"))
