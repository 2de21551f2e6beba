"""Messages from a worker process to the server, framed so the event loop can read them in
pieces.

The server watches each worker's result pipe with ``loop.add_reader``. uvloop (uvicorn's
default loop) puts a watched descriptor in non-blocking mode, so
``multiprocessing.Connection.recv`` fails with ``BlockingIOError`` as soon as a message is
larger than what has arrived (about 16 KB: the size above which the sender writes its header
and its body separately), and the server took that for a dead worker. Here the reader never
blocks and never assumes a whole message has arrived: it keeps what it has read and hands
out only complete messages. Each message is an 8-byte big-endian length and a pickle; the
pickles come only from our own worker processes.
"""

from __future__ import annotations

import os
import pickle
import struct
from typing import Any

HEADER = struct.Struct("!Q")
READ_CHUNK = 1 << 20


class MessageWriter:
    """The worker's end: ``send`` writes one whole message (the descriptor is blocking)."""

    def __init__(self, fd: int) -> None:
        self.fd = fd

    def send(self, message: Any) -> None:
        """Write ``message`` (any picklable object) as one frame."""
        data = pickle.dumps(message, protocol=pickle.HIGHEST_PROTOCOL)
        view = memoryview(HEADER.pack(len(data)) + data)
        while view:
            view = view[os.write(self.fd, view):]


class MessageReader:
    """The server's end: :meth:`read` takes whatever the pipe holds now, without waiting."""

    def __init__(self, fd: int) -> None:
        self.fd = fd
        self.buffer = bytearray()
        os.set_blocking(fd, False)  # the same under asyncio and uvloop

    def read(self) -> list[Any]:
        """The complete messages that have arrived (maybe none). Raises ``EOFError`` when the
        writer has closed its end (the worker died or exited)."""
        while True:
            try:
                chunk = os.read(self.fd, READ_CHUNK)
            except (BlockingIOError, InterruptedError):
                break
            if not chunk:
                raise EOFError("the worker closed its pipe")
            self.buffer += chunk
            if len(chunk) < READ_CHUNK:
                break
        messages = []
        while len(self.buffer) >= HEADER.size:
            (size,) = HEADER.unpack_from(self.buffer)
            end = HEADER.size + size
            if len(self.buffer) < end:
                break
            messages.append(pickle.loads(self.buffer[HEADER.size:end]))
            del self.buffer[:end]
        return messages
