// turnscript serve: the players' screen. Read-only; it shows what the trace shows.
"use strict";

follow("players", (v) => {
  renderCommon(v, null);
  const now = $("now");
  const p = v.pending;
  if (v.over) fill(now, "The encounter is over.");
  else if (p && p.secret) fill(now, "A choice is being made in secret");
  else if (p) fill(now, el("span", { class: "who" }, p.chooser), ` decides ${p.decision}`);
  else fill(now, v.where || "");
});
