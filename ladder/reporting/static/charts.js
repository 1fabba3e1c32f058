// The report's charts (ladder/reporting/report.py's `charts`), drawn by the page
// itself at the width their box has, and again when it changes: the page
// carries no chart library (plotly.js, inlined before, made each page
// weigh 4.8 MB). The rating history and the seat advantage are SVG images
// whose label tells a screen reader their numbers, with a <title> on every
// mark (shown on hover); the head to head is a table with coloured cells.
// Each legend is HTML beneath its chart, so nothing can cover it. Names go
// in through textContent, never as markup.
(function () {
  "use strict";
  const SVG = "http://www.w3.org/2000/svg";
  const PALETTE = ["#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f",
    "#bcbd22", "#17becf"];  // one colour per bot, in the standings' order (the category10 cycle)
  const NARROW = 600;  // px: a chart narrower than this is drawn lower, with fewer ticks
  const MARKER_GAP = 6;  // px between matches at which each point gets a marker of its own

  function svg(name, attributes, parent) {
    const element = document.createElementNS(SVG, name);
    for (const [key, value] of Object.entries(attributes)) element.setAttribute(key, String(value));
    if (parent) parent.appendChild(element);
    return element;
  }

  function label(parent, content, attributes) {
    const text = svg("text", attributes, parent);
    text.textContent = content;
    return text;
  }

  function tooltip(element, content) {
    svg("title", {}, element).textContent = content;
    return element;
  }

  function html(name, className, parent, content) {
    const element = document.createElement(name);
    if (className) element.className = className;
    if (content !== undefined) element.textContent = content;
    if (parent) parent.appendChild(element);
    return element;
  }

  function percent(value) {
    return Math.round(100 * value) + " %";
  }

  // Round ticks covering lo..hi, about `count` of them: {ticks, lo, hi} with the range widened to the ticks.
  function ticks(lo, hi, count, integer) {
    const span = hi - lo || 1;
    const raw = span / Math.max(count, 1);
    let step = Math.pow(10, Math.floor(Math.log10(raw)));
    step *= [1, 2, 5, 10].find((m) => step * m >= raw);
    if (integer) step = Math.max(1, Math.round(step));
    const first = Math.floor(lo / step) * step;
    const last = Math.ceil(hi / step) * step;
    const out = [];
    for (let i = 0; first + i * step <= last + step / 1e6; i++) out.push(+(first + i * step).toFixed(6));
    return {ticks: out, lo: first, hi: last};
  }

  function boxWidth(container) {
    return Math.max(container.clientWidth, 240);
  }

  // An empty chart `width` x `height` px: the SVG image (`summary` its label), its plot area and its scales.
  function frame(container, summary, width, height, margin, xRange, yRange) {
    const image = svg("svg", {width: width, height: height, viewBox: "0 0 " + width + " " + height, role: "img",
      "aria-label": summary}, container);
    const plot = {left: margin.left, right: width - margin.right, top: margin.top, bottom: height - margin.bottom};
    const x = (v) => plot.left + (plot.right - plot.left) * (v - xRange[0]) / (xRange[1] - xRange[0] || 1);
    const y = (v) => plot.bottom - (plot.bottom - plot.top) * (v - yRange[0]) / (yRange[1] - yRange[0] || 1);
    return {image, plot, x, y};
  }

  function yAxis(chart, values, format, title) {
    const {image, plot, y} = chart;
    for (const value of values) {
      svg("line", {x1: plot.left, x2: plot.right, y1: y(value), y2: y(value), class: "grid"}, image);
      label(image, format(value), {x: plot.left - 6, y: y(value) + 4, "text-anchor": "end"});
    }
    svg("line", {x1: plot.left, x2: plot.left, y1: plot.top, y2: plot.bottom, class: "axis"}, image);
    label(image, title, {x: 0, y: 0, "text-anchor": "middle", class: "title",
      transform: "translate(13 " + (plot.top + plot.bottom) / 2 + ") rotate(-90)"});
  }

  function legend(container, items) {
    const list = html("ul", "legend", container);
    for (const item of items) {
      const entry = html("li", "", list);
      const swatch = html("span", "swatch " + (item.kind || "box"), entry);
      swatch.style.setProperty("--colour", item.colour);
      swatch.setAttribute("aria-hidden", "true");
      entry.append(item.name);
    }
    return list;
  }

  function empty(container, text) {
    html("p", "note empty", container, text);
  }

  // Each bot's rating μ after its matches, with a band of μ ± k σ.
  function history(container, chart) {
    if (!chart.series.length) return empty(container, "No rated match yet.");
    const k = chart.band_sigmas;
    let lo = Infinity, hi = -Infinity;
    for (const series of chart.series) {
      for (const [, mu, sigma] of series.points) {
        lo = Math.min(lo, mu - k * sigma);
        hi = Math.max(hi, mu + k * sigma);
      }
    }
    const width = boxWidth(container);
    const height = width < NARROW ? 260 : 340;
    const last = Math.max(chart.matches, 1);  // the axis ends at the last match, its ticks before
    const yScale = ticks(lo, hi, height / 50, false);
    const xTicks = ticks(0, last, width / 90, true).ticks.filter((value) => value <= last);
    const summary = "Rating history over " + chart.matches + " matches; the latest μ: " + chart.series.map(
      (series) => series.bot + " " + series.points[series.points.length - 1][1].toFixed(2)).join(", ");
    const view = frame(container, summary, width, height, {left: 52, right: 16, top: 10, bottom: 42}, [0, last],
      [yScale.lo, yScale.hi]);
    const {image, plot, x, y} = view;
    yAxis(view, yScale.ticks, String, "rating μ (band: μ ± " + k + "σ)");
    for (const value of xTicks) {
      label(image, String(value), {x: x(value), y: plot.bottom + 16, "text-anchor": "middle"});
    }
    svg("line", {x1: plot.left, x2: plot.right, y1: plot.bottom, y2: plot.bottom, class: "axis"}, image);
    label(image, "match of the ladder", {x: (plot.left + plot.right) / 2, y: plot.bottom + 36,
      "text-anchor": "middle", class: "title"});
    const markers = (plot.right - plot.left) / last >= MARKER_GAP;
    const describe = (bot, [match, mu, sigma]) => bot + " after match " + match + ": μ " + mu.toFixed(2) +
      " ± " + k + "σ (σ " + sigma.toFixed(2) + ")";
    chart.series.forEach((series, index) => {
      const colour = PALETTE[index % PALETTE.length];
      const group = svg("g", {class: "series"}, image);
      const upper = series.points.map(([match, mu, sigma]) => x(match) + "," + y(mu + k * sigma));
      const lower = series.points.map(([match, mu, sigma]) => x(match) + "," + y(mu - k * sigma)).reverse();
      svg("polygon", {points: upper.concat(lower).join(" "), fill: colour, class: "band"}, group);
      const now = series.points[series.points.length - 1];
      tooltip(svg("polyline", {points: series.points.map(([match, mu]) => x(match) + "," + y(mu)).join(" "),
        stroke: colour, class: "line"}, group), describe(series.bot, now));
      for (const point of markers ? series.points : [now]) {
        tooltip(svg("circle", {cx: x(point[0]), cy: y(point[1]), r: point === now ? 3.5 : 2.5, fill: colour,
          class: point === now ? "marker now" : "marker"}, group), describe(series.bot, point));
      }
    });
    legend(container, chart.series.map((series, index) => ({name: series.bot,
      colour: PALETTE[index % PALETTE.length]})));
  }

  // From blue (never ahead) through white (half the time) to red (always ahead), as ColorBrewer's RdBu.
  function heat(share) {
    const stops = [[33, 102, 172], [247, 247, 247], [178, 24, 43]];
    const [from, to, t] = share < 0.5 ? [stops[0], stops[1], share * 2] : [stops[1], stops[2], share * 2 - 1];
    return "rgb(" + from.map((c, i) => Math.round(c + (to[i] - c) * t)).join(",") + ")";
  }

  // How often each row's bot finished ahead of each column's: a table, its cells coloured by the share.
  function headToHead(container, chart) {
    if (!chart.bots.length) return empty(container, "No bot yet.");
    const cells = new Map(chart.cells.map((cell) => [cell.row + "," + cell.col, cell]));
    const scroll = html("div", "scroll", container);
    const table = html("table", "h2h", scroll);
    const head = html("tr", "", html("thead", "", table));
    html("th", "corner", head, "bot \\ opponent");
    for (const bot of chart.bots) html("th", "", head, bot).scope = "col";
    const body = html("tbody", "", table);
    chart.bots.forEach((bot, row) => {
      const tr = html("tr", "", body);
      html("th", "", tr, bot).scope = "row";
      chart.bots.forEach((opponent, col) => {
        const cell = cells.get(row + "," + col);
        if (row === col || !cell) {
          html("td", row === col ? "self" : "none", tr, row === col ? "" : "–").title =
            row === col ? "" : bot + " and " + opponent + " have not met";
          return;
        }
        const td = html("td", "share", tr, cell.ahead + "/" + cell.together);
        td.style.background = heat(cell.share);
        if (Math.abs(cell.share - 0.5) > 0.3) td.classList.add("dark");
        td.title = bot + " ahead of " + opponent + ": " + cell.ahead + " of " + cell.together + " (" +
          percent(cell.share) + ", 95 % interval " + percent(cell.low) + "–" + percent(cell.high) + ")";
      });
    });
    const key = html("p", "heat-key", container);
    key.append("finished ahead: 0 %");
    html("span", "gradient", key).setAttribute("aria-hidden", "true");
    key.append("100 %");
  }

  // Each seat's win share per table size, with its interval and a fair share's line.
  function seats(container, sizes) {
    if (!sizes.length) return empty(container, "No rated match yet.");
    const width = boxWidth(container);
    const height = width < NARROW ? 240 : 300;
    const bars = sizes.reduce((sum, size) => sum + size.seats.length, 0);
    const summary = "Win share by seat: " + sizes.map((size) => "at " + size.size + "-player tables " +
      size.seats.map((seat) => "seat " + seat.seat + " " + (seat.share === null ? "no match" : percent(seat.share)))
        .join(", ")).join("; ");
    const view = frame(container, summary, width, height, {left: 52, right: 12, top: 10, bottom: 48}, [0, 1], [0, 1]);
    const {image, plot, y} = view;
    yAxis(view, [0, 0.2, 0.4, 0.6, 0.8, 1], percent, "win share");
    svg("line", {x1: plot.left, x2: plot.right, y1: plot.bottom, y2: plot.bottom, class: "axis"}, image);
    const slot = (plot.right - plot.left) / (bars + sizes.length);  // half a slot of room each side of a group
    let left = plot.left + slot / 2;
    sizes.forEach((size, index) => {
      const colour = PALETTE[index % PALETTE.length];
      const right = left + slot * size.seats.length;
      for (const seat of size.seats) {
        const centre = left + slot * (seat.seat + 0.5);
        const group = svg("g", {class: "seat"}, image);
        const said = "seat " + seat.seat + " at " + size.size + "-player tables: ";
        if (seat.share === null) {
          tooltip(group, said + "no match");
        } else {
          tooltip(group, said + "won " + seat.wins + " of " + seat.matches + " (" + percent(seat.share) +
            ", 95 % interval " + percent(seat.low) + "–" + percent(seat.high) + ")");
          svg("rect", {x: centre - slot * 0.35, width: slot * 0.7, y: y(seat.share),
            height: plot.bottom - y(seat.share), fill: colour, class: "bar"}, group);
          svg("line", {x1: centre, x2: centre, y1: y(seat.low), y2: y(seat.high), class: "interval"}, group);
          for (const end of [seat.low, seat.high]) {
            svg("line", {x1: centre - 5, x2: centre + 5, y1: y(end), y2: y(end), class: "interval"}, group);
          }
        }
        label(image, slot >= 48 ? "seat " + seat.seat : String(seat.seat),
          {x: centre, y: plot.bottom + 16, "text-anchor": "middle"});
      }
      tooltip(svg("line", {x1: left, x2: right, y1: y(1 / size.size), y2: y(1 / size.size), class: "fair"}, image),
        "a fair share at " + size.size + "-player tables: " + percent(1 / size.size));
      label(image, size.size + " players", {x: (left + right) / 2, y: plot.bottom + 36, "text-anchor": "middle",
        class: "title"});
      left = right + slot;
    });
    legend(container, [...sizes.map((size, index) => ({name: "win share, " + size.size + " players",
      colour: PALETTE[index % PALETTE.length]})), {name: "95 % interval", colour: "#333", kind: "interval"},
      {name: "fair share", colour: "#333", kind: "fair"}]);
  }

  const DRAW = {history, h2h: headToHead, seats};
  let shown = null;

  // Draw every chart of `charts` into the element of its name, each as wide as its box is when empty.
  function draw(charts) {
    shown = charts;
    const boxes = Object.keys(DRAW).map((id) => document.getElementById(id));
    for (const box of boxes) box.replaceChildren();
    for (const box of boxes) DRAW[box.id](box, charts[box.id]);
  }

  let pending = false;
  window.addEventListener("resize", () => {
    if (pending || shown === null) return;
    pending = true;
    requestAnimationFrame(() => {
      pending = false;
      draw(shown);
    });
  });

  window.ReportCharts = {draw};
})();
