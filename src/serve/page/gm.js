// turnscript serve: the GM's page. Every button sends a command line, as the REPL takes it, so a
// session played here saves, loads and replays exactly as one typed at the REPL.
"use strict";

let view = { loaded: false };

// A name as a command line writes it: quoted unless it is one word (`"Kobold 1"`).
function q(name) {
  return /^[\p{L}_][\p{L}\p{N}_]*$/u.test(name) ? name : `"${name}"`;
}

async function api(path, body) {
  const res = await fetch(withAuth(path), {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
  let data;
  try { data = await res.json(); } catch (_) { data = { out: `the server answered ${res.status}`, error: true }; }
  if (data.error === undefined) data = { out: data.error || `the server answered ${res.status}`, error: !res.ok };
  else if (typeof data.error === "string") data = { out: data.error, error: true };
  return data;
}

async function run(line) {
  const data = await api("/api/command", { line });
  const reply = $("reply");
  reply.textContent = data.out || "";
  reply.className = data.error ? "reply error" : "reply";
  if (data.view) render(data.view);
  return data;
}

function options(select, values, keep) {
  const was = select.value;
  fill(select, values.map((v) => el("option", { value: v }, v)));
  if (keep && values.includes(was)) select.value = was;
}

function kept(v) {
  return (v.kept || []).find((k) => k.order === v.order) ? v.order : null;
}

// A member's buttons: move up and down in a kept order, take out of play.
function rowTools(r) {
  const order = kept(view);
  // Moves are within the kept order's own members (the strip also lists those in no order).
  const names = order ? view.kept.find((k) => k.order === order).members : [];
  const i = names.indexOf(r.name);
  const b = [];
  if (order && i >= 0) {
    b.push(el("button", { title: `Move ${r.name} up in ${order}`, disabled: i <= 0,
      onclick: () => run(`place ${q(r.name)} before ${q(names[i - 1])} in ${order}`) }, "↑"));
    b.push(el("button", { title: `Move ${r.name} down in ${order}`, disabled: i >= names.length - 1,
      onclick: () => run(`place ${q(r.name)} after ${q(names[i + 1])} in ${order}`) }, "↓"));
  }
  if (r.mark !== "out") b.push(el("button", { title: `Take ${r.name} out of play`, onclick: () => run(`remove ${q(r.name)}`) }, "✕"));
  return el("span", { class: "tools" }, b);
}

// Dragging a member onto another in a kept order places it before that one.
function dragAndDrop() {
  const order = kept(view);
  for (const li of $("strip").children) {
    li.draggable = !!order;
    if (!order) continue;
    li.addEventListener("dragstart", (e) => { e.dataTransfer.setData("text/plain", li.dataset.name); li.classList.add("dragging"); });
    li.addEventListener("dragend", () => li.classList.remove("dragging"));
    li.addEventListener("dragover", (e) => { e.preventDefault(); li.classList.add("drop"); });
    li.addEventListener("dragleave", () => li.classList.remove("drop"));
    li.addEventListener("drop", (e) => {
      e.preventDefault();
      li.classList.remove("drop");
      const moved = e.dataTransfer.getData("text/plain");
      if (moved && moved !== li.dataset.name) run(`place ${q(moved)} before ${q(li.dataset.name)} in ${order}`);
    });
  }
}

function render(v) {
  view = v;
  renderCommon(v, rowTools);
  dragAndDrop();
  if (!v.loaded) { fill($("pending"), "No ruleset is loaded: Open… or Load."); fill($("options")); return; }
  if (v.players_token) $("players-link").href = "/players?token=" + encodeURIComponent(v.players_token);
  $("undo").disabled = !v.undo;
  // Over: nothing is left to play (undo goes back).
  for (const id of ["step", "continue"]) $(id).disabled = !!v.over;
  $("redo").disabled = !v.redo;
  const p = v.pending;
  if (p) {
    fill($("pending"), el("strong", {}, p.chooser), ` decides ${p.decision}`, p.secret ? " in secret" : "");
    fill($("options"), (p.options || []).map((o) => el("button", { class: "option", "data-n": o.n, onclick: () => run(`answer ${o.n}`) },
      el("span", { class: "n" }, o.n <= 9 ? o.n : ""), o.name)),
      el("button", { title: "Let the policy answer", onclick: () => run("answer") }, "policy"));
    fill($("refused"), (p.refused || []).map((r) => el("li", {}, `${r.name}: ${r.reason}`)));
    $("waiting").textContent = (p.waiting || []).map((w) => `waiting: ${w}`).join("\n");
    const attempts = p.attempts || [];
    $("attempt-form").classList.toggle("hidden", attempts.length === 0);
    options($("attempt-name"), attempts, true);
    options($("attempt-who"), (v.characters || []).map((c) => c.name).concat(v.choosers ? v.choosers.roles : []), true);
  } else {
    fill($("pending"), v.over ? "The encounter is over." : (v.status || ""));
    fill($("options")); fill($("refused")); $("waiting").textContent = "";
    $("attempt-form").classList.add("hidden");
  }
  const who = (v.characters || []).map((c) => c.name);
  options($("set-who"), who.concat((v.globals || []).length ? ["(global)"] : []), true);
  setFields();
  options($("begin-effect"), v.effect_names || [], true);
  $("begin-form").classList.toggle("hidden", !(v.effect_names || []).length);
  options($("begin-on"), who, true);
  // The effects running, each with a Stop button (`stop EFFECT on NAME`).
  fill($("running"), (v.effects || []).map((e) => el("li", {},
    `${e.effect} on ${e.on}: ${e.left} more `,
    el("button", { title: `End ${e.effect} on ${e.on} now`, onclick: () => run(`stop ${e.effect} on ${q(e.on)}`) }, "Stop"))));
  const ch = v.choosers || { sides: [], roles: [], characters: [] };
  options($("mode-who"), ["all"].concat(ch.sides, ch.roles, ch.characters), true);
  $("control").textContent = v.control ? `control: ${v.control}` : "";
  $("held").textContent = v.held || "";
  fill($("log"), (v.log || []).map((e) => el("li", { class: e.undone ? "undone" : "", value: e.n }, e.line)));
}

function setFields() {
  const who = $("set-who").value;
  const c = (view.characters || []).find((x) => x.name === who);
  // Effects are begun and stopped, not set.
  const effects = view.effect_names || [];
  const fields = c ? c.fields.map((f) => f.name).filter((n) => !effects.includes(n)) : [];
  options($("set-field"), who === "(global)" ? (view.globals || []).map((g) => g.name) : fields, true);
}

function submit(id, make) {
  $(id).addEventListener("submit", (e) => {
    e.preventDefault();
    const line = make();
    if (line) run(line);
  });
}

$("set-who").addEventListener("change", setFields);
submit("roll-form", () => $("roll").value.trim() && `roll ${$("roll").value.trim()}`);
submit("draw-form", () => $("draw").value.trim() && `draw ${$("draw").value.trim()}`);
submit("set-form", () => {
  const who = $("set-who").value, f = $("set-field").value, val = $("set-value").value.trim();
  if (!f || !val) return null;
  return who === "(global)" ? `set ${f} = ${val}` : `set ${q(who)}.${f} = ${val}`;
});
submit("begin-form", () => `begin ${$("begin-effect").value} on ${q($("begin-on").value)} for ${$("begin-for").value.trim() || 1}`);
submit("add-form", () => $("add").value.trim() && `add ${$("add").value.trim()}`);
submit("attempt-form", () => `attempt ${q($("attempt-who").value)} ${$("attempt-name").value}`);
submit("command-form", () => { const l = $("command").value; $("command").value = ""; return l.trim() && l; });
$("mode-auto").addEventListener("click", () => run(`auto ${q($("mode-who").value)}`));
$("mode-ask").addEventListener("click", () => run(`ask ${q($("mode-who").value)}`));
$("undo").addEventListener("click", () => run("undo"));
$("redo").addEventListener("click", () => run("redo"));
$("step").addEventListener("click", () => run("step"));
$("continue").addEventListener("click", () => run("continue"));
$("save").addEventListener("click", () => {
  const f = prompt("Save the session as (a file under the server's folder):", "table.tsession");
  if (f) run(`save ${f}`);
});
$("load").addEventListener("click", () => {
  const f = prompt("Load a saved session (a file under the server's folder):", "table.tsession");
  if (f) run(`load ${f}`);
});

// Opening a ruleset and encounter from those the server offers.
$("open").addEventListener("click", async () => {
  const res = await fetch(withAuth("/api/files"));
  const files = (await res.json()).files || [];
  options($("open-ruleset"), files, true);
  fill($("open-encounter"), el("option", { value: "" }, "(none: the ruleset's own characters)"), files.map((f) => el("option", { value: f }, f)));
  $("open-dialog").showModal();
});
$("open-form").addEventListener("submit", async (e) => {
  if (e.submitter && e.submitter.value !== "open") return;
  const seed = Number($("open-seed").value);
  const typed = $("open-path").value.trim();
  const data = await api("/api/open", { ruleset: typed || $("open-ruleset").value, encounter: $("open-encounter").value || null, seed: Number.isInteger(seed) && seed >= 0 ? seed : null });
  $("reply").textContent = data.out || "";
  $("reply").className = data.error ? "reply error" : "reply";
  if (data.view) render(data.view);
});

// Keys for the common steps, unless typing in a field.
document.addEventListener("keydown", (e) => {
  if (e.ctrlKey || e.metaKey || e.altKey) return;
  if (document.querySelector("dialog[open]")) return;
  const t = e.target;
  if (t instanceof HTMLInputElement || t instanceof HTMLSelectElement || t instanceof HTMLTextAreaElement) return;
  const p = view.pending;
  if (/^[1-9]$/.test(e.key) && p && (p.options || []).some((o) => o.n === Number(e.key))) { run(`answer ${e.key}`); e.preventDefault(); }
  else if (e.key === "u") { run("undo"); e.preventDefault(); }
  else if (e.key === "r") { run("redo"); e.preventDefault(); }
  else if (e.key === "s") { run("step"); e.preventDefault(); }
  else if (e.key === "c") { run("continue"); e.preventDefault(); }
  else if (e.key === "/") { $("command").focus(); e.preventDefault(); }
});

follow("gm", render);
