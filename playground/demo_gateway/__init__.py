"""The demo gateway: an offline ASGI server that speaks the gateway spec on the wire.

It is written against the spec alone and imports nothing from `playground.client` or
`playground.ui`, so tests where the client talks to it check two independent readings.
"""

from playground.demo_gateway.app import create_app
from playground.demo_gateway.config import DemoConfig

__all__ = ["DemoConfig", "create_app"]
