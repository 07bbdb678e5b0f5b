"""Settings come from the environment and an optional .env file; bad values are explained."""

from __future__ import annotations

from pathlib import Path

import pytest

from playground.settings import DEMO_API_KEY, Settings


def test_empty_environment_means_demo_gateway(tmp_path: Path) -> None:
    settings = Settings.from_env({}, dotenv=tmp_path / "missing.env")
    assert settings.uses_demo_gateway and settings.demo_api_key == DEMO_API_KEY
    assert (settings.server_name, settings.server_port, settings.connect_timeout) == ("127.0.0.1", 7860, 5.0)


def test_dotenv_is_read_and_the_environment_wins(tmp_path: Path) -> None:
    dotenv = tmp_path / ".env"
    dotenv.write_text('# comment\nGATEWAY_BASE_URL="https://gw.example/"\nexport GATEWAY_API_KEY=sk-file\nGATEWAY_READ_TIMEOUT=12\n')
    settings = Settings.from_env({"GATEWAY_API_KEY": "sk-env", "GRADIO_SERVER_PORT": "9000"}, dotenv=dotenv)
    assert settings.gateway_base_url == "https://gw.example" and not settings.uses_demo_gateway
    assert settings.gateway_api_key == "sk-env" and settings.read_timeout == 12.0 and settings.server_port == 9000
    assert "sk-env" not in repr(settings)


@pytest.mark.parametrize(("name", "value", "message"), [("GATEWAY_READ_TIMEOUT", "soon", "must be a number"), ("GATEWAY_CONNECT_TIMEOUT", "0", "greater than 0"), ("DEMO_TOKEN_DELAY", "-1", "0 or more")])
def test_bad_numbers_are_explained(tmp_path: Path, name: str, value: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        Settings.from_env({name: value}, dotenv=None)
    assert Settings.from_env({"DEMO_TOKEN_DELAY": "0"}, dotenv=None).demo_token_delay == 0.0


def test_closed_sessions_are_released_after_three_minutes_unless_turned_off() -> None:
    assert Settings.from_env({}, dotenv=None).session_release_s == 180.0
    assert Settings.from_env({"PLAYGROUND_SESSION_RELEASE_S": "0"}, dotenv=None).session_release_s == 0.0
    with pytest.raises(ValueError, match="0 or more"):
        Settings.from_env({"PLAYGROUND_SESSION_RELEASE_S": "-5"}, dotenv=None)
