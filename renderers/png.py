"""The PNG writer: palette pictures from their rows, deflated with ISA-L when it is there.

Written here rather than by Pillow so that the deflate step can use ISA-L (``isal``, five
times faster than zlib at about the same size) when it is installed. Knows nothing of
boards: rows of palette indices and a palette in, PNG bytes out.
"""

from __future__ import annotations

import struct
import zlib
from types import ModuleType

fast_zlib: ModuleType | None
try:  # ISA-L's deflate: about five times faster than zlib's at level 1, as small
    from isal import isal_zlib as fast_zlib
except ImportError:  # pragma: no cover - where isal has no wheel
    fast_zlib = None

# Chosen by measurement (benchmarks/render.py's pictures at 1000 px, 2 slow cores): ISA-L
# level 1 takes 0.5 ms for at most 80 KB (median 69 KB); its level 2 is a little slower for
# 0.5 KB less, 0 is 12 KB larger, 3 three times slower. Without isal, zlib's level 2 takes
# 2.9 ms for about the same sizes: level 1 is as fast but larger, 3 slower, 6 twice as slow
# for 62 KB; the Z_RLE strategy doubles the size. Pillow's own encoder (level 3, as before)
# took 3.5 ms. The busiest pictures (about 1 in 100 of a game's) come out above
# DEFLATE_BUDGET and are compressed again at zlib's level 6 (6-8 ms, under 66 KB), which
# keeps every PNG under 80 KB.
ISAL_LEVEL = 1
ZLIB_LEVEL = 2
BUSY_LEVEL = 6
DEFLATE_BUDGET = 78 * 1024


def _deflate(data: bytes) -> bytes:
    if fast_zlib is not None:
        out = fast_zlib.compress(data, ISAL_LEVEL)
    else:
        out = zlib.compress(data, ZLIB_LEVEL)
    if len(out) > DEFLATE_BUDGET:
        out = zlib.compress(data, BUSY_LEVEL)
    return out


def write_png(rows: bytes, width: int, height: int, palette: bytes) -> bytes:
    """A palette PNG from its filtered rows: each row a 0 (no filter) then its indices.

    >>> png = write_png(bytes([0, 1, 0, 0]), 1, 2, bytes(6))
    >>> png[:8] == b"\\x89PNG\\r\\n\\x1a\\n"
    True
    """

    def chunk(kind: bytes, data: bytes) -> bytes:
        crc = zlib.crc32(data, zlib.crc32(kind))
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", crc)

    header = struct.pack(">IIBBBBB", width, height, 8, 3, 0, 0, 0)  # 8-bit palette indices
    return b"".join(
        (
            b"\x89PNG\r\n\x1a\n",
            chunk(b"IHDR", header),
            chunk(b"PLTE", palette),
            chunk(b"IDAT", _deflate(rows)),
            chunk(b"IEND", b""),
        )
    )
