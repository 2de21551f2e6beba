// Small helpers for building SVG pictures.

const NS = "http://www.w3.org/2000/svg";

export function el(tag, attrs = {}, parent = null) {
  const node = document.createElementNS(NS, tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (key === "text") node.textContent = value;
    else node.setAttribute(key, value);
  }
  if (parent) parent.appendChild(node);
  return node;
}

export function svg(width, height, parent) {
  parent.replaceChildren();
  return el("svg", { width, height, viewBox: `0 0 ${width} ${height}`, xmlns: NS }, parent);
}
