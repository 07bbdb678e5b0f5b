"""A loopback server that records every connection and request reaching it (and answers 200)."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from playground.demo_gateway.server import free_port


class Recorder:
    def __init__(self, host: str = "127.0.0.1") -> None:
        self.requests: list[str] = []
        recorder = self

        class Handler(BaseHTTPRequestHandler):
            def _answer(self) -> None:
                recorder.requests.append(f"{self.command} {self.path}")
                body = b"<html><body>internal admin page</body></html>"
                self.send_response(200)
                self.send_header("content-type", "text/html")
                self.send_header("content-length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            do_GET = do_POST = _answer

            def log_message(self, *args: object) -> None:
                pass

        self.server = ThreadingHTTPServer((host, free_port(host)), Handler)
        self.url = f"http://{host}:{self.server.server_port}"

    @contextmanager
    def running(self) -> Iterator[Recorder]:
        thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        thread.start()
        try:
            yield self
        finally:
            self.server.shutdown()
