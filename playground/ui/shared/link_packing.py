"""A value too large for a plain link parameter, packed: UTF-8 text compressed with zlib (level 9,
its checksum kept) and written in base64url without padding, so a Batch data set fits a page link.

Packing states its cap: `pack` refuses text whose packed form would be longer than the parameter may
be, and text longer than the unpacked cap (so what is packed can always be unpacked). Unpacking reads
a stranger's query parameter, bounded at every step before the next: the parameter's length, the
base64url alphabet, the size while decompressing (a decompression bomb stops at the cap, it is never
inflated whole), a stream that is complete and undamaged (zlib's checksum), strict UTF-8, and for
JSON the nesting measured on the text before `json` recurses, NaN and Infinity refused. Each refusal
is a `PackedError` whose words come from the catalogue (`packed.*`)."""

from __future__ import annotations

import base64
import binascii
import json
import re
import zlib
from typing import Any

from playground.client.json_depth import deeper_than
from playground.ui.i18n import say

BASE64URL = re.compile(r"[A-Za-z0-9_-]*")


class PackedError(ValueError):
    """A packed value refused: `key` (a catalogue key under `packed.`) and its values."""

    def __init__(self, key: str, **values: Any) -> None:
        super().__init__(key)
        self.key, self.values = key, values

    def words(self) -> str:
        """The reason in the visitor's language."""
        return say(f"packed.{self.key}", **self.values)


def _kb(size: int) -> str:
    return f"{size / 1000:,.1f}"


def pack(text: str, max_chars: int, max_unpacked: int) -> str:
    """`text` packed for a link (raises `PackedError` `too_large` / `packed_too_long` past either cap)."""
    data = text.encode("utf-8")
    if len(data) > max_unpacked:
        raise PackedError("too_large", kb=_kb(len(data)), limit=_kb(max_unpacked))
    packed = base64.urlsafe_b64encode(zlib.compress(data, 9)).rstrip(b"=").decode("ascii")
    if len(packed) > max_chars:
        raise PackedError("packed_too_long", kb=_kb(len(packed)), limit=_kb(max_chars))
    return packed


def unpack(packed: str, max_chars: int, max_unpacked: int) -> str:
    """The text `pack` wrote, read bounded (raises `PackedError` naming the first thing refused)."""
    if len(packed) > max_chars:
        raise PackedError("packed_too_long", kb=_kb(len(packed)), limit=_kb(max_chars))
    if not BASE64URL.fullmatch(packed) or len(packed) % 4 == 1:
        raise PackedError("not_base64url")
    try:
        data = base64.b64decode(packed + "=" * (-len(packed) % 4), altchars=b"-_", validate=True)
    except (binascii.Error, ValueError):
        raise PackedError("not_base64url") from None
    inflater = zlib.decompressobj()
    try:
        text = inflater.decompress(data, max_unpacked + 1)
    except zlib.error:
        raise PackedError("damaged") from None
    if len(text) > max_unpacked or inflater.unconsumed_tail:
        raise PackedError("unpacks_too_large", limit=_kb(max_unpacked))
    if not inflater.eof or inflater.unused_data:
        raise PackedError("damaged")
    try:
        return text.decode("utf-8")
    except UnicodeDecodeError:
        raise PackedError("not_utf8") from None


def _no_constant(name: str) -> Any:
    raise PackedError("not_json")


def unpack_json(packed: str, max_chars: int, max_unpacked: int, max_depth: int) -> Any:
    """A JSON value `pack(json.dumps(...))` wrote, read bounded as `unpack`, nested at most `max_depth`."""
    text = unpack(packed, max_chars, max_unpacked)
    if deeper_than(text, max_depth):
        raise PackedError("too_deep", limit=max_depth)
    try:
        return json.loads(text, parse_constant=_no_constant)
    except RecursionError:  # not reached: the nesting is measured above
        raise PackedError("too_deep", limit=max_depth) from None
    except ValueError as error:
        if isinstance(error, PackedError):
            raise
        raise PackedError("not_json") from None
