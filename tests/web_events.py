"""The server-sent events of a streaming endpoint (``/api/think``, ``/api/analyse``) as the
API tests read them, through FastAPI's test client."""

from __future__ import annotations

import json


def server_events(client: object, path: str, body: dict) -> list[tuple[str | None, object]]:
    """POST ``body`` to ``path`` and read its event stream: (event name, decoded data)
    pairs in order. The answer must be 200 (its body is the message otherwise)."""
    out, name = [], None
    with client.stream("POST", path, json=body) as response:
        assert response.status_code == 200, response.read()
        for line in response.iter_lines():
            if line.startswith("event: "):
                name = line[7:]
            elif line.startswith("data: "):
                out.append((name, json.loads(line[6:])))
    return out
