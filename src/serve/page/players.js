// turnscript serve: the players' screen. Read-only; it shows what the trace shows.
"use strict";

follow("players", (v) => {
  renderCommon(v, null);
  const now = $("now");
  const p = v.pending;
  if (v.over) fill(now, "The encounter is over.");
  else if (p) fill(now, el("span", { class: "who" }, p.chooser), p.secret ? ` is choosing ${p.decision} in secret` : ` decides ${p.decision}`);
  else fill(now, v.where || "");
});
