// The report's tournament table and its ordinal ranking beside TrueSkill
// (ladder/reporting/ordinal_view.py, ladder/tournament/results.py). Text goes
// in through textContent, never as HTML. report.js calls ReportRankings.render
// with every page's data, a live page's updates too.
(function () {
  "use strict";
  const $ = (id) => document.getElementById(id);

  function row(table, cells, tag) {
    const tr = document.createElement("tr");
    for (const text of cells) {
      const td = document.createElement(tag || "td");
      td.textContent = text;
      tr.appendChild(td);
    }
    table.appendChild(tr);
  }

  function pairs(list, element, empty) {
    element.replaceChildren();
    if (!list.length) {
      const li = document.createElement("li");
      li.textContent = empty;
      element.appendChild(li);
    }
    for (const text of list) {
      const li = document.createElement("li");
      li.textContent = text;
      element.appendChild(li);
    }
  }

  function ordinal(data) {
    const table = $("ordinal");
    table.replaceChildren();
    row(table, ["bot", "TrueSkill #", data.method + " #"], "th");
    for (const r of data.rows) row(table, [r.bot, String(r.trueskill), String(r.ordinal)]);
    $("ordinal-note").textContent = data.method + " order of the same results: it agrees with " +
      Math.round(100 * data.agreement) + " % of the pairwise results (who finished ahead of whom, ties half)." +
      (data.method === "Kemeny-Young" ? "" : " Beyond " + data.exact_limit +
        " bots the exact search is too long: Copeland's order (pairwise wins minus losses) is shown.");
    pairs(data.disagree.map((p) => "TrueSkill ranks " + p.above + " above " + p.below + "; " + data.method +
      " the other way: " + p.below + " finished ahead of " + p.above + " in " + p.ahead + " of their " +
      p.together + " matches together, " + p.above + " ahead in " + p.behind + "."), $("disagree"),
      "TrueSkill and " + data.method + " agree on every pair.");
  }

  function tournament(data) {
    const section = $("tournament-section");
    if (!data) {
      section.hidden = true;
      return;
    }
    section.hidden = false;
    $("tournament-title").textContent = "Tournament: " + data.format + ", tables of " + data.seats +
      " (" + data.design + ")";
    $("tournament-summary").textContent = data.matches_played + " of " + data.matches_scheduled +
      " matches played · rounds committed " + data.rounds_committed + " of " + data.rounds +
      " · schedule commitment " + data.commitment + " · deals " + data.deals_commitment;
    const table = $("tournament");
    table.replaceChildren();
    const swiss = data.format === "swiss";  // Buchholz breaks the ties of a Swiss event only
    row(table, ["#", "bot", "points", "matches", "score", "95 %", ...(swiss ? ["Buchholz"] : []),
      "TrueSkill μ−3σ", data.ordinal.method + " #"], "th");
    data.table.forEach((e, i) => row(table, [String(i + 1), e.bot, String(e.points), String(e.matches),
      e.score === null ? "–" : e.score.toFixed(3), e.low.toFixed(2) + " – " + e.high.toFixed(2),
      ...(swiss ? [String(e.buchholz)] : []), e.conservative.toFixed(2), String(e.ordinal_rank)]));
  }

  window.ReportRankings = {
    render(data) {
      if (data.ordinal) ordinal(data.ordinal);
      tournament(data.tournament);
    },
  };
})();
