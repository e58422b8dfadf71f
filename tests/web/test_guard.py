"""Issue 41: one visitor cannot hurt the others. The rate limit per client, the socket
quota, X-Forwarded-For believed only from the operator's proxies, and the sign-in cookie
that cannot be forged or outlive its time."""

from __future__ import annotations

from typing import Any

from aiohttp.test_utils import make_mocked_request

from bot.config import Settings, SettingsError
from bot.web.guard import RateLimiter, SocketQuota, client_address, origin_allowed, small_int
from bot.web.signin import Signer, safe_next


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_a_client_gets_its_burst_then_its_rate_and_others_are_not_slowed() -> None:
    clock = Clock()
    limiter = RateLimiter(rate=10.0, burst=40.0, clock=clock)
    assert all(limiter.admit("a") for _ in range(40))
    assert not limiter.admit("a") and limiter.retry_after("a") == 1
    assert limiter.admit("b")  # another visitor is untouched
    clock.now += 0.5
    assert sum(limiter.admit("a") for _ in range(10)) == 5  # 10 a second
    small = RateLimiter(clients=3, clock=clock)
    for name in "wxyz":
        small.admit(name)
    assert len(small._buckets) == 3  # the quiet ones are forgotten


def test_sockets_are_bounded_per_client_and_in_all() -> None:
    quota = SocketQuota(per_client=2, total=3)
    assert quota.take("a") and quota.take("a") and not quota.take("a")
    assert quota.take("b") and not quota.take("c")  # 3 in all
    quota.give_back("a")
    assert quota.take("c") and quota.open == 3


def request(peer: str, forwarded: str | None = None, origin: str | None = None) -> Any:
    headers = {}
    if forwarded is not None:
        headers["X-Forwarded-For"] = forwarded
    if origin is not None:
        headers["Origin"] = origin
    transport: Any = type("T", (), {"get_extra_info": lambda self, name, default=None: (peer, 1)})()
    return make_mocked_request("GET", "/", headers=headers, transport=transport)


def test_x_forwarded_for_is_believed_only_from_the_operators_proxies() -> None:
    proxies = Settings.from_env(
        {"WEB_TRUSTED_PROXIES": "10.0.0.0/8, 127.0.0.1"}, env_file=None
    ).web_trusted_proxies
    assert client_address(request("203.0.113.9", "1.2.3.4"), proxies) == "203.0.113.9"
    assert client_address(request("10.1.2.3", "1.2.3.4"), proxies) == "1.2.3.4"
    # A visitor's own forged entries come before the proxy's: the last untrusted hop wins.
    assert client_address(request("127.0.0.1", "6.6.6.6, 1.2.3.4, 10.0.0.2"), proxies) == "1.2.3.4"
    assert client_address(request("127.0.0.1", "not an address"), proxies) == "127.0.0.1"
    assert client_address(request("10.1.2.3", "1.2.3.4"), ()) == "10.1.2.3"
    try:
        Settings.from_env({"WEB_TRUSTED_PROXIES": "nope"}, env_file=None)
    except SettingsError as error:
        assert "WEB_TRUSTED_PROXIES" in str(error)
    else:
        raise AssertionError("a bad WEB_TRUSTED_PROXIES was accepted")


def test_only_the_boards_own_pages_open_a_socket() -> None:
    ours = {"https://gammon.example", "https://42.discordsays.com"}
    assert origin_allowed(request("1.1.1.1", origin="https://gammon.example"), ours)
    assert origin_allowed(request("1.1.1.1", origin="https://42.discordsays.com"), ours)
    assert not origin_allowed(request("1.1.1.1", origin="https://evil.example"), ours)
    assert not origin_allowed(request("1.1.1.1", origin="null"), ours)


def test_numbers_from_a_browser_are_bounded() -> None:
    assert small_int(5) == 5 and small_int("12") == 12
    for bad in (True, 1.5, float("inf"), "9" * 5000, "²", -1, 2**40, None, "1e3"):
        assert small_int(bad) is None, bad


def test_the_sign_in_cookie_cannot_be_forged_or_outlive_its_time() -> None:
    clock = Clock()
    signer = Signer("secret", clock=clock)
    cookie = signer.session(123, "alice")
    found = signer.signed_in(cookie)
    assert found is not None and found.user_id == 123 and found.name == "alice"
    body, mac = cookie.split(".")
    assert signer.signed_in(body[:-2] + "AA." + mac) is None  # changed: refused
    assert Signer("another secret", clock=clock).signed_in(cookie) is None
    state, login = signer.login_state("/m/x")
    assert signer.signed_in(login) is None  # a login cookie is not a session
    assert signer.finish_login(login, state) == "/m/x"
    assert signer.finish_login(login, state + "x") is None
    clock.now += 31 * 24 * 3600
    assert signer.signed_in(cookie) is None
    for bad in ("", "x", "a.b.c", "." * 2000, None):
        assert signer.signed_in(bad) is None


def test_a_login_goes_back_to_this_site_only() -> None:
    assert safe_next("/m/abc", "/") == "/m/abc"
    for bad in ("//evil.example", "https://evil.example", "/\\evil", "", None, "/x\n"):
        assert safe_next(bad, "/") == "/", bad
    assert safe_next("/other/m/x", "/board/") == "/board/"
