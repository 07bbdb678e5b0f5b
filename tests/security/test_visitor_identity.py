"""Issue 35, the visitor identity: X-Forwarded-For is believed only from a configured proxy, and the
addresses of one IPv6 /64 share one allowance. The real app in hosted mode, driven over HTTP from
a loopback peer as the issue's script did (new page sessions for every call)."""

from __future__ import annotations

from collections.abc import Iterator

import httpx
import pytest

from playground.settings import SPACE_PROXIES, Settings
from playground.ui.web.visitor_identity import TrustedProxies, allowance_key, parse_address, visitor_address
from tests.security.page_session import LaunchedApp, launched, page_session, run_event

LIMIT = 3
COUNT_EVENT = "count_tokens"
"""The Messages tab's token count: one POST to the gateway per call."""


def _limited(output: object) -> bool:
    """The visitor's limit refused the call (named in words: a hosted visitor reads no setting's name)."""
    shown = str(output)
    assert "PLAYGROUND_" not in shown
    return "requests in the last minute" in shown


async def _outcomes(app: LaunchedApp, forwarded: list[str]) -> list[bool]:
    """One call per X-Forwarded-For value, each from a new page session carrying it: limited or not."""
    fn_index, data = app.inputs(COUNT_EVENT, **{"messages-input": {"text": "how many tokens is this?", "files": []}})
    limited = []
    async with httpx.AsyncClient(timeout=30) as http:
        for value in forwarded:
            headers = {"x-forwarded-for": value}
            async with page_session(http, app, headers) as session:
                status, output = await run_event(http, app, session, fn_index, data, headers)
            assert status == 200, output
            limited.append(_limited(output))
    return limited


@pytest.fixture(scope="module")
def direct_app() -> Iterator[LaunchedApp]:
    """Hosted, no proxy configured (not on a Space): the peer is the visitor."""
    with launched(hosted=True, requests_per_minute=LIMIT) as app:
        yield app


@pytest.fixture(scope="module")
def proxied_app() -> Iterator[LaunchedApp]:
    """Hosted behind a proxy on loopback (PLAYGROUND_TRUSTED_PROXIES=127.0.0.1,::1)."""
    with launched(hosted=True, requests_per_minute=LIMIT, trusted_proxies=TrustedProxies.of("127.0.0.1", "::1").networks) as app:
        yield app


async def test_a_client_written_forwarded_for_brings_no_new_allowance(direct_app: LaunchedApp) -> None:
    """The issue: 8 of 8 answered at a limit of 5, one X-Forwarded-For value each (uvicorn believed it from loopback)."""
    values = [f"198.51.100.{n}" for n in range(1, LIMIT + 3)]
    assert await _outcomes(direct_app, values) == [False] * LIMIT + [True, True]


async def test_behind_a_configured_proxy_each_visitor_has_an_allowance(proxied_app: LaunchedApp) -> None:
    assert await _outcomes(proxied_app, ["203.0.113.7"] * (LIMIT + 1)) == [False] * LIMIT + [True]
    assert await _outcomes(proxied_app, ["203.0.113.8"]) == [False]
    # an entry the client wrote stands left of the one the proxy appended: it changes nothing
    assert await _outcomes(proxied_app, ["192.0.2.50, 203.0.113.7"]) == [True]


async def test_the_addresses_of_one_ipv6_64_share_an_allowance(proxied_app: LaunchedApp) -> None:
    same_64 = [f"2001:db8:aa:bb::{n:x}" for n in range(1, LIMIT + 3)] + ["2001:db8:aa:bb:ffff:1:2:3"]
    assert await _outcomes(proxied_app, same_64) == [False] * LIMIT + [True] * 3
    assert await _outcomes(proxied_app, ["2001:db8:aa:bc::1"]) == [False]  # the next /64 is someone else


SPACE = TrustedProxies(Settings.from_env({"SPACE_ID": "someone/playground"}, dotenv=None).trusted_proxies)


@pytest.mark.parametrize(("peer", "forwarded", "trusted", "visitor"), [
    ("127.0.0.1", "93.184.216.34", TrustedProxies(), "127.0.0.1"),          # nothing configured: the header is never read
    ("10.16.3.80", "93.184.216.34", TrustedProxies(), "10.16.3.80"),
    ("127.0.0.1", "93.184.216.34", SPACE, "127.0.0.1"),                     # loopback is not the Space's proxy
    ("10.16.3.80", "93.184.216.34:51234", SPACE, "93.184.216.34"),          # a port is not a new visitor
    ("10.16.3.80", "[2001:db8::7]:443", SPACE, "2001:db8::7"),
    ("10.16.3.80", "::ffff:93.184.216.34", SPACE, "93.184.216.34"),        # IPv4-mapped is the IPv4 address
    ("10.16.3.80", "93.184.216.34, unknown", SPACE, "10.16.3.80"),          # not an address: the proxy's own
    ("10.16.3.80", "10.1.1.1, 10.2.2.2", SPACE, "10.1.1.1"),               # all hops trusted: the first of them
    ("::ffff:10.16.3.80", "93.184.216.34", SPACE, "93.184.216.34"),
])
def test_whose_forwarded_for_is_believed(peer: str, forwarded: str, trusted: TrustedProxies, visitor: str) -> None:
    assert visitor_address(peer, forwarded, trusted) == visitor


def test_allowance_keys() -> None:
    assert allowance_key("2001:db8:1:2:3:4:5:6") == allowance_key("2001:db8:1:2::9") == "2001:db8:1:2::/64"
    assert allowance_key("2001:db8:1:3::1") != allowance_key("2001:db8:1:2::1")
    assert allowance_key("93.184.216.34") == "93.184.216.34" and allowance_key("::ffff:93.184.216.34") == "93.184.216.34"
    assert parse_address("not an address") is None and parse_address("") is None and parse_address("1.2.3.4:80") is not None


def test_the_trusted_proxies_setting(tmp_path: object) -> None:
    assert Settings.from_env({}, dotenv=None).trusted_proxies == ()
    assert Settings.from_env({"PLAYGROUND_HOSTED": "1"}, dotenv=None).trusted_proxies == ()
    on_space = Settings.from_env({"SPACE_ID": "a/b"}, dotenv=None).trusted_proxies
    assert [str(network) for network in on_space] == list(SPACE_PROXIES)
    assert Settings.from_env({"SPACE_ID": "a/b", "PLAYGROUND_TRUSTED_PROXIES": "none"}, dotenv=None).trusted_proxies == ()
    mine = Settings.from_env({"PLAYGROUND_TRUSTED_PROXIES": "127.0.0.1, 2001:db8::/48"}, dotenv=None).trusted_proxies
    assert [str(network) for network in mine] == ["127.0.0.1/32", "2001:db8::/48"]
    with pytest.raises(ValueError, match="PLAYGROUND_TRUSTED_PROXIES"):
        Settings.from_env({"PLAYGROUND_TRUSTED_PROXIES": "proxy.example"}, dotenv=None)
