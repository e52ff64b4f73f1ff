// Small DOM helpers shared by the page's modules (no state of their own).
import { cardId, cardText, isRed } from "./core.js";

export const $ = (sel, root = document) => root.querySelector(sel);
export const $$ = (sel, root = document) => [...root.querySelectorAll(sel)];

/** h("button", {id, class, data: {card: "QS"}, on: {click}}, ...children) */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k === "class") el.className = v;
    else if (k === "data") for (const [dk, dv] of Object.entries(v)) { if (dv !== null && dv !== undefined) el.dataset[dk] = dv; }
    else if (k === "on") for (const [ev, fn] of Object.entries(v)) el.addEventListener(ev, fn);
    else if (k === "text") el.textContent = v;
    else if (v === true) el.setAttribute(k, "");
    else el.setAttribute(k, v);
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return el;
}

/** A card face: `.card[data-card="QS"]`, red for hearts and diamonds. */
export function cardEl(c, attrs = {}) {
  const cls = ["card", isRed(c) ? "red" : "black", attrs.class || ""].join(" ").trim();
  return h(attrs.tag || "span", { ...attrs, tag: null, class: cls, data: { card: cardId(c), ...(attrs.data || {}) },
    "aria-label": cardText(c) }, cardText(c));
}

/** Make `el`'s children these (null, undefined and false skipped), keeping in place each
 * old child that is the same as its new one (same HTML): a repaint never swaps the button
 * under a finger (a tap spanning a repaint still clicks), a focused control or a choice. */
export function fill(el, ...children) {
  const next = children.flat().filter((c) => c !== null && c !== undefined && c !== false)
    .map((c) => (c instanceof Node ? c : document.createTextNode(String(c))));
  const old = [...el.childNodes];
  next.forEach((n, i) => {
    const o = old[i];
    if (!o) el.append(n);
    else if (!same(o, n)) o.replaceWith(n);
  });
  for (const o of old.slice(next.length)) o.remove();
}

const same = (a, b) => a.nodeType === b.nodeType
  && (a instanceof Element ? a.outerHTML === b.outerHTML : a.nodeValue === b.nodeValue);

export function show(el, on) { el.hidden = !on; }
