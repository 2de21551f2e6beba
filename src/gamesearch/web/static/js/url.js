// Shareable state in the address: "#/VIEW?key=value&...".

export function readHash() {
  const hash = location.hash.replace(/^#\/?/, "");
  const [view, query] = hash.split("?");
  return { view: view || "play", params: new URLSearchParams(query || "") };
}

export function writeHash(view, params) {
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value !== undefined && value !== null && value !== "") query.set(key, value);
  }
  const text = query.toString();
  history.replaceState(null, "", `#/${view}${text ? "?" + text : ""}`);
}

// JSON in the URL: base64url of its UTF-8 text.
export function pack(data) {
  const bytes = new TextEncoder().encode(JSON.stringify(data));
  let text = "";
  for (const b of bytes) text += String.fromCharCode(b);
  return btoa(text).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

export function unpack(text) {
  const padded = text.replace(/-/g, "+").replace(/_/g, "/");
  const binary = atob(padded);
  const bytes = Uint8Array.from(binary, (c) => c.charCodeAt(0));
  return JSON.parse(new TextDecoder().decode(bytes));
}
