// The ladder report (ladder/reporting/report_page.py): the standings and recent
// matches as tables, the charts through charts.js (ReportCharts). Text
// goes in through textContent, never as HTML. A live page (data.live) gets
// new data from the server that sent it, through server-sent events.
(function () {
  "use strict";
  const $ = (id) => document.getElementById(id);

  function cell(row, text, className) {
    const td = document.createElement("td");
    td.textContent = text;
    if (className) td.className = className;
    row.appendChild(td);
    return td;
  }

  const NONE = "–";  // no value: never played, no next row

  function fixed(value, digits) {
    return value === null || value === undefined ? NONE : Number(value).toFixed(digits);
  }

  // TrueSkill's P(this bot > the next row's), but only between two bots that have played:
  // for one that has not, μ and σ are the starting rating (every such pair would say 50 %).
  function aboveNext(row, next) {
    if (!next) return ["", ""];
    if (row.matches === 0) return [NONE, "not rated yet: no match played"];
    if (next.matches === 0) return [NONE, "the next bot is not rated yet"];
    return [Math.round(100 * row.p_above_next) + " %", ""];
  }

  function strikes(value) {
    if (value === undefined || value === null) return "";
    if (typeof value === "number") return String(value);
    const parts = Object.entries(value).filter(([, n]) => n > 0);
    const total = parts.reduce((sum, [, n]) => sum + n, 0);
    return total === 0 ? "0" : total + " (" + parts.map(([reason, n]) => reason + " " + n).join(", ") + ")";
  }

  function header(table, names) {
    const tr = document.createElement("tr");
    for (const [name, numeric] of names) {
      const th = document.createElement("th");
      th.textContent = name;
      if (numeric) th.className = "num";
      tr.appendChild(th);
    }
    table.replaceChildren(tr);
  }

  // Leduc's chips per 100 hands beside the rating (ladder/rating/game_figures.py), by bot
  function scoresByBot(scores) {
    const byBot = new Map();
    for (const score of scores || []) byBot.set(score.bot, score);
    return byBot;
  }

  function signed(value) {
    return (value >= 0 ? "+" : "") + Number(value).toFixed(1);
  }

  function interval(score) {
    return score.low === null ? NONE : "[" + signed(score.low) + ", " + signed(score.high) + "]";
  }

  function standings(rows, scores) {
    const table = $("standings");
    const withStrikes = rows.some((row) => row.strikes !== undefined);
    const rates = scoresByBot(scores);
    const unit = scores && scores.length ? scores[0].score + "/" + scores[0].per : null;
    header(table, [["#", true], ["bot", false], ["version", false], ["μ", true], ["σ", true], ["μ − 3σ", true],
      ...(unit ? [[unit, true], ["95 % interval", true]] : []),
      ["P(> next)", true], ["matches", true], ["wins", true], ["avg place", true],
      ...(withStrikes ? [["strikes", true]] : []), ["forfeits", true]]);
    rows.forEach((row, index) => {
      const tr = document.createElement("tr");
      tr.dataset.bot = row.bot;
      if (!row.active) tr.className = "retired";
      cell(tr, String(row.rank), "num");
      cell(tr, row.bot, "bot");
      cell(tr, row.version);
      cell(tr, fixed(row.mu, 2), "num mu");
      cell(tr, fixed(row.sigma, 2), "num sigma");
      cell(tr, fixed(row.conservative, 2), "num conservative");
      if (unit) {
        const rate = rates.get(row.bot);
        cell(tr, rate ? signed(rate.rate) : NONE, "num score-rate");
        cell(tr, rate ? interval(rate) : NONE, "num score-interval");
      }
      const [above, why] = aboveNext(row, rows[index + 1]);
      cell(tr, above, "num p").title = why;
      cell(tr, String(row.matches), "num matches");
      cell(tr, String(row.wins), "num wins");
      cell(tr, fixed(row.average_place, 2), "num average-place");
      if (withStrikes) cell(tr, strikes(row.strikes), "num strikes");
      cell(tr, String(row.forfeits), "num forfeits");
      table.appendChild(tr);
    });
  }

  // Saboteur by role: rounds, wins and the team rating per role, and the role a place rests on
  function roles(records, rows) {
    const section = $("roles-section");
    const table = $("roles");
    section.hidden = !(records && records.length);
    if (section.hidden) return;
    const byBot = new Map(records.map((record) => [record.bot, record]));
    const names = [["gold_digger", "gold-digger"], ["saboteur", "saboteur"]];
    header(table, [["#", true], ["bot", false],
      ...names.flatMap(([, title]) => [[title + " rounds", true], [title + " won", true], [title + " μ − 3σ", true]]),
      ["rank rests on", false]]);
    for (const row of rows) {
      const record = byBot.get(row.bot);
      if (!record) continue;
      const tr = document.createElement("tr");
      tr.dataset.bot = row.bot;
      cell(tr, String(row.rank), "num");
      cell(tr, row.bot, "bot");
      for (const [role] of names) {
        const r = record[role];
        cell(tr, String(r.rounds), "num " + role + "-rounds");
        cell(tr, r.win_share === null ? "0" : r.won + " (" + Math.round(100 * r.win_share) + " %)", "num " + role + "-won");
        cell(tr, fixed(r.team_conservative, 2), "num " + role + "-rating");
      }
      const rest = names.find(([role]) => role === record.rests_on);
      cell(tr, rest ? rest[1] + " only" : "", "rests-on");
      table.appendChild(tr);
    }
  }

  function matches(recent) {
    const table = $("matches");
    header(table, [["#", true], ["finished (UTC)", false], ["seats and places", false], ["end", false],
      ["decisions", true], ["viewer", false]]);
    for (const match of recent) {
      const tr = document.createElement("tr");
      tr.dataset.match = match.match_id;
      cell(tr, String(match.number), "num");
      cell(tr, match.finished_at.slice(0, 16).replace("T", " "), "when");
      const seats = cell(tr, "");
      for (const seat of match.seats) {
        const span = document.createElement("span");
        span.className = "chip" + (seat.place === 1 ? " first" : "");
        const place = document.createElement("b");
        place.textContent = String(seat.place);
        span.append(place, " " + seat.bot);
        if (seat.forfeit) {
          const forfeit = document.createElement("span");
          forfeit.className = "forfeit";
          forfeit.textContent = " forfeit: " + seat.forfeit;
          span.append(forfeit);
        }
        seats.appendChild(span);
      }
      cell(tr, match.end_reason);
      cell(tr, String(match.decisions), "num");
      const link = cell(tr, match.href ? "" : (match.note || ""));
      if (match.href) {
        const a = document.createElement("a");
        a.href = match.href;
        a.textContent = "view";
        link.appendChild(a);
      }
      table.appendChild(tr);
    }
  }

  function render(data) {
    const summary = $("summary");
    summary.textContent = data.game + " · " + data.table.matches + " matches · " +
      data.table.standings.length + " bots · generated " + data.generated.replace("T", " ") + " UTC";
    if (data.live) {
      const live = document.createElement("span");
      live.className = "live";
      live.textContent = " · live";
      summary.appendChild(live);
    }
    if (data.tables) {  // beside the service: a token holder may play the ladder's bots (ladder/service/tables.py)
      const play = document.createElement("a");
      play.id = "play";
      play.href = data.tables;
      play.textContent = "play a table yourself";
      summary.append(" · ", play);
    }
    const others = data.other_rule_sets.map((r) => r.name + " (" + r.matches + " matches)");
    $("rule-sets").textContent = others.length ?
      "Other rule sets of this game, each rated apart: " + others.join("; ") + "." : "";
    document.body.dataset.matches = String(data.table.matches);
    standings(data.table.standings, data.table.scores);
    roles(data.table.roles, data.table.standings);
    matches(data.recent);
    window.ReportRankings.render(data);
    window.ReportCharts.draw(data.charts);
  }

  const first = JSON.parse(document.getElementById("page-data").textContent);
  render(first);
  if (first.live) {
    const source = new EventSource("events");
    source.onmessage = (message) => render(JSON.parse(message.data));
  }
})();
