// turnscript serve: what both pages share — building elements (text is always set as text,
// never as HTML: names come from ruleset files), the live view, the strip.
"use strict";

const params = new URLSearchParams(location.search);

function el(tag, attrs, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k === "class") e.className = v;
    else if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
    else if (v !== null && v !== undefined && v !== false) e.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    e.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return e;
}

function $(id) { return document.getElementById(id); }

function fill(node, ...children) {
  node.replaceChildren();
  for (const c of children.flat()) if (c !== null && c !== undefined && c !== false) node.append(c);
}

// The URL of an API path with this page's key or token.
function withAuth(path) {
  const u = new URL(path, location.origin);
  for (const k of ["key", "token"]) if (params.get(k)) u.searchParams.set(k, params.get(k));
  return u.pathname + u.search;
}

// Follows the view: an event stream that reconnects by itself, with a mark while it is down.
function follow(audience, render) {
  let offline = null;
  const connect = () => {
    const src = new EventSource(withAuth("/api/events?audience=" + audience));
    src.addEventListener("view", (ev) => {
      if (offline) { offline.remove(); offline = null; }
      render(JSON.parse(ev.data));
    });
    src.onerror = () => {
      if (!offline) { offline = el("div", { class: "offline", role: "status" }, "reconnecting…"); document.body.append(offline); }
      if (src.readyState === EventSource.CLOSED) setTimeout(connect, 1000);
    };
  };
  connect();
}

const MARK = { up: "▸", reacting: "↳", acted: "✓", next: "›", out: "×", waiting: "" };
const MARK_WORD = { up: "up", reacting: "reacting", acted: "has acted", next: "next", out: "out of play", waiting: "" };

// The header, the banner at the end, the strip (with `tools(row)` per member on the GM's
// page), the table's facts and the last events.
function renderCommon(v, tools) {
  if (!v.loaded) {
    $("title").textContent = "turnscript";
    $("where").textContent = "no ruleset loaded";
    fill($("strip"));
    return;
  }
  $("title").textContent = `${v.encounter} · ${v.ruleset}`;
  document.title = `${v.where || v.encounter} · turnscript`;
  $("where").textContent = [v.at && v.at.length ? v.at.join(" › ") : null, v.clock ? `clock ${v.clock}` : null]
    .filter(Boolean).join(" · ") || v.where;
  const over = $("over");
  if (v.over) { over.textContent = `The encounter is over: ${v.over}`; over.className = "banner"; }
  else if (v.stopped || (v.status && !v.pending && !v.over)) { over.textContent = "The run stopped with an error: undo goes back."; over.className = "banner stopped"; }
  else over.className = "banner hidden";
  $("order-name").textContent = v.order ? `Order · ${v.order}` : "Characters";
  fill($("strip"), (v.strip || []).map((r) => el("li", { class: r.mark, "data-name": r.name, title: MARK_WORD[r.mark] || null },
    el("span", { class: "mark", "aria-label": MARK_WORD[r.mark] || null }, MARK[r.mark] || ""),
    el("span", { class: "name" }, r.name, r.score ? el("span", { class: "score" }, `  ${r.score.name} ${r.score.value}`) : null),
    tools ? tools(r) : el("span"),
    el("span", { class: "parts" }, (r.mark === "out" ? ["out of play"] : []).concat(r.parts).join(" · ")))));
  const facts = [];
  if ((v.globals || []).length) facts.push(el("div", {}, el("b", {}, "globals"), v.globals.map((g) => `${g.name} ${g.value}`).join(", ")));
  for (const s of v.sides || []) facts.push(el("div", {}, s));
  for (const p of v.piles || []) facts.push(el("div", {}, p));
  if ((v.effects || []).length) facts.push(el("div", {}, el("b", {}, "effects"),
    v.effects.map((e) => `${e.effect} on ${e.on}: ${e.left} more (counted at ${e.counted})`).join("; ")));
  fill($("facts"), facts);
  const events = $("events");
  events.textContent = (v.events || []).join("\n");
  events.scrollTop = events.scrollHeight;
}
