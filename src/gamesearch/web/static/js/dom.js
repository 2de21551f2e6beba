// Building HTML elements without parsing HTML: every piece of data becomes a text node or
// an attribute value, never markup (strategy names, agent fields, errors come from users).

// h("td", { class: "x", onclick: f }, "text", child, ...): an element with its children.
export function h(tag, props = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(props || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith("on") && typeof value === "function") {
      node.addEventListener(key.slice(2), value);
    } else if (key === "dataset") Object.assign(node.dataset, value);
    else if (key in node && typeof value !== "string") node[key] = value;
    else node.setAttribute(key, value === true ? "" : String(value));
  }
  for (const child of children.flat()) {
    if (child === undefined || child === null || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

// Replace the options of a <select> with [value, label] pairs (labels are text).
export function setOptions(select, pairs) {
  select.replaceChildren(...pairs.map(([value, label, title]) =>
    h("option", { value, title }, label ?? value)));
}
