// Talking to the server: JSON requests and the server-sent events of a search.

export class ApiError extends Error {}

// A random name for this page, sent with each request: the server shares its analysis
// worker fairly between pages, not only between addresses (web/validate.py, client_key).
const PAGE_ID = Array.from(crypto.getRandomValues(new Uint8Array(9)),
  (b) => b.toString(16).padStart(2, "0")).join("");
const HEADERS = { "Content-Type": "application/json", "X-Gamesearch-Page": PAGE_ID };

async function answer(response) {
  let data = null;
  try { data = await response.json(); } catch { data = null; }
  if (!response.ok) {
    throw new ApiError((data && data.error) || `request failed (${response.status})`);
  }
  return data;
}

export async function getJSON(url) {
  return answer(await fetch(url, { headers: { "X-Gamesearch-Page": PAGE_ID } }));
}

export async function postJSON(url, body, signal) {
  return answer(await fetch(url, {
    method: "POST", headers: HEADERS,
    body: JSON.stringify(body), signal,
  }));
}

// POST and read "event: NAME / data: JSON" blocks as they arrive; onEvent(name, data).
export async function streamEvents(url, body, onEvent, signal) {
  const response = await fetch(url, {
    method: "POST", headers: HEADERS,
    body: JSON.stringify(body), signal,
  });
  if (!response.ok) await answer(response);
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    buffer += decoder.decode(value, { stream: true });
    let end;
    while ((end = buffer.indexOf("\n\n")) >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      let name = "message", data = "";
      for (const line of block.split("\n")) {
        if (line.startsWith("event: ")) name = line.slice(7);
        else if (line.startsWith("data: ")) data += line.slice(6);
      }
      onEvent(name, data ? JSON.parse(data) : null);
    }
  }
}
