"""The connection pool's placing of requests on connections: each connection given to one request
at a time, in one walk of the pool.

httpcore places queued requests in one pass (`AsyncConnectionPool._assign_requests_to_connections`),
run each time a request arrives and each time a response closes. In httpcore 1.0.9 that pass:

- gives an idle connection to two requests. A connection stays idle until the request given it
  starts on it, and starting takes a turn of the event loop (anyio's lock), so a request placed in
  that turn gets the same connection; one of the two then meets `ConnectionNotAvailable` inside the
  pool and is placed again. With 8 requests at once on the demo gateway that was 1.6 extra passes
  per request (pydantic/httpx2#1075);
- keeps at most `max_keepalive_connections` idle connections by comparing the size of the whole
  pool, not the number idle, and builds that list once per connection: quadratic in the pool's
  size, and idle connections closed while fewer than the limit are idle (encode/httpcore#1035);
- may close, as surplus or to make room, an idle connection it has just given to a queued request
  (encode/httpcore#1110).

`PlacingPool` makes the same decisions in one walk: a connection held by a request the pool still
tracks (given to it, or carrying its response) is spoken for, never given again or closed; idle
connections beyond the keep-alive limit are counted as idle ones. That suits HTTP/1.1, where a
connection carries one request at a time (what `transport.GuardedHTTPTransport` builds; with HTTP/2
it would open a connection where one could be shared). On another httpcore version the pass is
httpcore's own: this one reads the pool's private lists (`RELIED_ON`), checked by
`tests/client/test_pool.py`.
"""

from __future__ import annotations

from typing import Any

import httpcore

PLACED_FOR = "1.0.9"
"""The httpcore version whose pass this one replaces (pinned in requirements.txt)."""
RELIED_ON = ("_connections", "_requests", "_max_connections", "_max_keepalive_connections", "_assign_requests_to_connections")
"""The pool's private attributes the pass reads and writes (a request's: `connection`, `is_queued`, `assign_to_connection`)."""
PLACES_REQUESTS = httpcore.__version__ == PLACED_FOR


class PlacingPool(httpcore.AsyncConnectionPool):
    """httpcore's pool, each connection given to one request at a time."""

    def _assign_requests_to_connections(self) -> list[Any]:
        if not PLACES_REQUESTS:
            return super()._assign_requests_to_connections()
        spoken_for = {request.connection for request in self._requests if request.connection is not None}
        closing: list[Any] = []
        kept: list[Any] = []
        for connection in self._connections:
            if connection.is_closed():
                continue
            if connection.has_expired():
                closing.append(connection)
            else:
                kept.append(connection)
        idle = [connection for connection in kept if connection not in spoken_for and connection.is_idle()]
        surplus = set(idle[:max(len(idle) - self._max_keepalive_connections, 0)])  # the oldest first, as httpcore closes them
        closing.extend(connection for connection in idle if connection in surplus)
        self._connections[:] = [connection for connection in kept if connection not in surplus]
        free = [connection for connection in self._connections if connection not in spoken_for and connection.is_available()]
        for request in self._requests:
            if not request.is_queued():
                continue
            origin = request.request.url.origin
            given = next((candidate for candidate in free if candidate.can_handle_request(origin)), None)
            if given is not None:
                free.remove(given)
            else:
                if len(self._connections) >= self._max_connections:
                    room = next((candidate for candidate in self._connections if candidate not in spoken_for and candidate.is_idle()), None)
                    if room is None:
                        continue  # every connection is busy: the request waits for a response to close
                    self._connections.remove(room)
                    closing.append(room)
                    if room in free:
                        free.remove(room)
                given = self.create_connection(origin)
                self._connections.append(given)
            request.assign_to_connection(given)
            spoken_for.add(given)
        return closing
