// A person's seat page (referee/web/seat_page.py, seat_server.py): polls its
// messages and shows them, sends the person's choice. The table's HTML is
// made by the referee and holds no name: each seat's name (a bot's own
// choice) stands there as a mark, ⁅k⁆, which this script replaces with the
// name as text. Everything else from the messages is written as text too.
(function () {
  "use strict";
  const $ = (id) => document.getElementById(id);
  const MARK = /⁅(\d+)⁆/g;
  const SVG = "http://www.w3.org/2000/svg";
  const RETRY_MS = 1000;
  const fragments = [];
  let names = [];
  let me = -1;
  let after = 0;
  let open = null; // the decision asked now: {request, menu, geometry, deadline, sent}
  let clock = null;
  let placing = {card: null, turned: false};
  let clicked = null; // when the last choice was clicked (performance.now())
  const seatPage = {waits: []}; // ms from a click to the next decision shown (bench/human_bench.py)
  window.seatPage = seatPage;

  const nameOf = (k) => (names[k] === undefined ? "seat " + k : names[k]);
  const unmark = (text) => text.replace(MARK, (_, k) => nameOf(Number(k)));

  function el(tag, text, className) {
    const element = document.createElement(tag);
    if (text !== undefined) element.textContent = text;
    if (className) element.className = className;
    return element;
  }

  function seatLabel(k) {
    return el("span", nameOf(k) + "[" + k + "]", "seat s" + k);
  }

  // Table fragments as sent: a new one is HTML, one sent before its number (in the order first sent).
  function fragmentsOf(sent) {
    return sent.map((part) => {
      if (typeof part === "number") return fragments[part];
      fragments.push(part);
      return part;
    });
  }

  // Referee-made HTML (no name in it); then each name mark becomes the name, as text.
  function showHtml(element, sent) {
    element.innerHTML = fragmentsOf(sent).join("");
    const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      if (node.nodeValue.includes("⁅")) node.nodeValue = unmark(node.nodeValue);
    }
    for (const titled of element.querySelectorAll("[title]")) {
      const title = titled.getAttribute("title");
      if (title.includes("⁅")) titled.setAttribute("title", unmark(title));
    }
  }

  function line(runs, className) {
    const item = el("li", undefined, className);
    for (const [text, css] of runs) {
      const span = el("span", unmark(text));
      if (css) span.style.cssText = css;
      item.appendChild(span);
    }
    return item;
  }

  function note(text) {
    $("recent").appendChild(el("li", text, "note"));
  }

  function words(parts) {
    const out = document.createDocumentFragment();
    for (const part of parts) {
      if (typeof part === "string") out.appendChild(document.createTextNode(part));
      else if ("seat" in part) out.appendChild(seatLabel(part.seat));
      else if ("iou" in part) out.appendChild(el("span", String(part.iou[1]), "iou bg" + part.iou[0]));
    }
    return out;
  }

  function setState(state, text) {
    document.body.dataset.state = state;
    $("turn").textContent = text;
  }

  // ------------------------------------------------------------ messages

  function started(m) {
    names = m.names;
    me = m.seat;
    document.title = m.title + ": " + nameOf(me) + "[" + me + "]";
    $("title").textContent = m.title + " · you are " + nameOf(me) + "[" + me + "]";
    const seats = $("seats");
    seats.replaceChildren();
    names.forEach((_, k) => {
      const label = seatLabel(k);
      if (k === me) label.classList.add("you");
      seats.appendChild(label);
    });
    const bank = m.time_bank ? " + a time bank of " + duration(m.time_bank) : "";
    $("facts").textContent = "match " + m.match_id + " · " + duration(m.move_time) + " a decision" + bank;
    showHtml($("table"), m.table);
    setState("waiting", "the match begins: waiting for your first turn");
  }

  function heard(m) {
    for (const runs of m.lines) $("recent").appendChild(line(runs));
    if (m.interlude) {
      showHtml($("interlude"), m.interlude);
      $("interlude").hidden = false;
    }
  }

  function asked(m) {
    open = {request: m.request, menu: m.menu, geometry: m.geometry || null, sent: false,
            deadline: performance.now() + m.allowance * 1000};
    document.body.dataset.request = String(m.request);
    showHtml($("table"), m.table);
    showMenu();
    setState("deciding", "your turn: " + m.menu.prompt);
    tick();
  }

  function closeDecision(request) {
    if (open === null || open.request !== request) return false;
    open = null;
    for (const button of document.querySelectorAll("#choices button")) button.disabled = true;
    removeTargets();
    $("choices").hidden = true;
    $("interlude").hidden = true;
    const log = $("log");
    for (const item of [...$("recent").children]) log.appendChild(item);
    log.scrollTop = log.scrollHeight;
    $("clock").textContent = "";
    return true;
  }

  function answered(m) {
    if (closeDecision(m.request)) setState("waiting", "you chose; waiting for the other seats");
  }

  function expired(m) {
    if (closeDecision(m.request)) {
      setState("waiting", "time ran out: the referee chose for you (a strike)");
      note("time ran out on decision " + m.request + ": the referee chose for you");
    }
  }

  function ended(m) {
    open = null;
    $("choices").hidden = true;
    removeTargets();
    const detail = m.detail ? " (" + m.detail + ")" : "";
    $("outcome").textContent = "Result: " + m.reason + detail;
    const ranking = $("ranking");
    ranking.replaceChildren();
    const head = el("tr");
    head.append(el("th", "place"), el("th", "seat"));
    ranking.appendChild(head);
    const order = m.ranks.map((rank, k) => [rank, k]).sort((a, b) => a[0] - b[0] || a[1] - b[1]);
    for (const [rank, k] of order) {
      const row = el("tr", undefined, k === me ? "you" : "");
      const cell = el("td");
      cell.appendChild(seatLabel(k));
      row.append(el("td", String(rank + 1)), cell);
      ranking.appendChild(row);
    }
    $("result").hidden = false;
    $("clock").textContent = "";
    setState("over", "the match is over: you placed " + (m.ranks[me] + 1) + " of " + m.ranks.length);
  }

  function viewerReady(m) {
    const link = $("viewer");
    link.setAttribute("href", m.href);
    link.hidden = false;
  }

  const handlers = {
    start: started,
    events: heard,
    ask: asked,
    answered: answered,
    expired: expired,
    end: ended,
    viewer: viewerReady,
    dismissed: () => setState("waiting", "your seat forfeited: the referee plays it to the end"),
  };

  // --------------------------------------------------------------- choices

  function showMenu() {
    const groups = $("groups");
    groups.replaceChildren();
    $("prompt").textContent = open.menu.prompt;
    const placeable = [];
    for (const group of open.menu.groups) {
      const box = el("div", undefined, "group");
      const options = el("div", undefined, "options");
      for (const option of group.options) options.appendChild(choiceButton(option));
      if (open.geometry && group.options.every((option) => option.place)) {
        placeable.push(group);
        const list = el("details", undefined, "list");
        list.appendChild(el("summary", group.title + ": " + group.options.length + " places, as a list"));
        list.appendChild(options);
        box.appendChild(list);
      } else {
        box.appendChild(el("h3", group.title));
        box.appendChild(options);
      }
      groups.appendChild(box);
    }
    showPlacing(placeable);
    $("choices").hidden = false;
  }

  function choiceButton(option) {
    const button = el("button", undefined, "choice");
    button.type = "button";
    button.dataset.action = option.action;
    button.dataset.index = String(option.i);
    button.appendChild(words(option.words));
    button.addEventListener("click", () => choose(option.i, button));
    return button;
  }

  async function choose(index, button) {
    if (open === null || open.sent) return;
    const request = open.request;
    open.sent = true;
    clicked = performance.now();
    if (button) button.classList.add("chosen");
    for (const other of document.querySelectorAll("#choices button")) other.disabled = true;
    try {
      const reply = await fetch("answer", {
        method: "POST", cache: "no-store", credentials: "same-origin",
        headers: {"Content-Type": "application/json"},
        body: JSON.stringify({request: request, choice: index}),
      });
      if (!reply.ok && open !== null && open.request === request) {
        note("not taken: " + (await reply.text()).trim());
        if (reply.status !== 409) retry();
      }
    } catch (error) {
      if (open !== null && open.request === request) {
        note("could not send the choice: try again");
        retry();
      }
    }
  }

  function retry() {
    open.sent = false;
    for (const button of document.querySelectorAll("#choices button")) {
      button.disabled = false;
      button.classList.remove("chosen");
    }
  }

  // Saboteur: a path card is placed on the maze (S-4.1): choose the card, turn it, click a place.
  function showPlacing(groups) {
    const cards = $("cards");
    cards.replaceChildren();
    placing = {card: null, turned: false, groups: groups};
    $("placing").hidden = groups.length === 0;
    $("rotate").setAttribute("aria-pressed", "false");
    for (const group of groups) {
      const card = group.options[0].place.card;
      const button = el("button", group.title);
      button.type = "button";
      button.dataset.card = card;
      button.setAttribute("aria-pressed", "false");
      button.addEventListener("click", () => selectCard(card));
      cards.appendChild(button);
    }
    if (groups.length) selectCard(groups[0].options[0].place.card);
  }

  function selectCard(card) {
    placing.card = card;
    const options = placeOptions(card);
    if (!options.some((o) => o.place.turned === placing.turned)) placing.turned = !placing.turned;
    for (const button of $("cards").children) button.setAttribute("aria-pressed", String(button.dataset.card === card));
    $("rotate").setAttribute("aria-pressed", String(placing.turned));
    showTargets();
  }

  function placeOptions(card) {
    const options = [];
    for (const group of placing.groups) for (const o of group.options) if (o.place.card === card) options.push(o);
    return options;
  }

  function removeTargets() {
    const old = document.getElementById("targets");
    if (old) old.remove();
  }

  function showTargets() {
    removeTargets();
    const maze = $("table").querySelector("svg.sb-maze");
    if (!maze || open === null || placing.card === null) return;
    const g = open.geometry;
    const face = g.faces[placing.card][placing.turned ? 1 : 0];
    const layer = document.createElementNS(SVG, "g");
    layer.id = "targets";
    const box = maze.viewBox.baseVal;
    let [x0, y0, x1, y1] = [box.x, box.y, box.x + box.width, box.y + box.height];
    for (const option of placeOptions(placing.card)) {
      if (option.place.turned !== placing.turned) continue;
      const left = g.margin + (option.place.x - g.x0) * g.w;
      const top = g.margin + (g.y1 - option.place.y) * g.h;
      [x0, y0, x1, y1] = [Math.min(x0, left), Math.min(y0, top), Math.max(x1, left + g.w), Math.max(y1, top + g.h)];
      const target = document.createElementNS(SVG, "g");
      target.setAttribute("class", "target");
      target.dataset.place = option.place.x + "," + option.place.y;
      target.dataset.action = option.action;
      const card = document.createElementNS(SVG, "use");
      card.setAttribute("href", "#sb-" + face);
      for (const [name, value] of [["x", left], ["y", top], ["width", g.w], ["height", g.h]]) {
        card.setAttribute(name, String(value));
      }
      const frame = document.createElementNS(SVG, "rect");
      for (const [name, value] of [["x", left + 1], ["y", top + 1], ["width", g.w - 2], ["height", g.h - 2], ["rx", 3]]) {
        frame.setAttribute(name, String(value));
      }
      const title = document.createElementNS(SVG, "title");
      title.textContent = "place " + placing.card + (placing.turned ? " turned" : "") + " at (" +
        option.place.x + ", " + option.place.y + ")";
      target.append(card, frame, title);
      target.addEventListener("click", () => choose(option.i, null));
      layer.appendChild(target);
    }
    maze.appendChild(layer);
    maze.setAttribute("viewBox", [x0, y0, x1 - x0, y1 - y0].join(" "));
    maze.setAttribute("width", String(x1 - x0));
    maze.setAttribute("height", String(y1 - y0));
  }

  $("rotate").addEventListener("click", () => {
    if (placing.card === null) return;
    const turned = !placing.turned;
    if (!placeOptions(placing.card).some((o) => o.place.turned === turned)) return;
    placing.turned = turned;
    $("rotate").setAttribute("aria-pressed", String(turned));
    showTargets();
  });
  document.addEventListener("keydown", (event) => {
    if (event.key === "r" && !event.altKey && !event.ctrlKey && !event.metaKey) $("rotate").click();
  });

  // ---------------------------------------------------------- the clock

  function duration(seconds) {
    if (!isFinite(seconds)) return "no limit";
    const whole = Math.max(0, Math.ceil(seconds));
    return Math.floor(whole / 60) + ":" + String(whole % 60).padStart(2, "0");
  }

  function tick() {
    if (clock !== null) clearTimeout(clock);
    clock = null;
    if (open === null) return;
    const left = (open.deadline - performance.now()) / 1000;
    $("clock").textContent = duration(left) + " left";
    $("clock").classList.toggle("short", left < 15);
    clock = setTimeout(tick, 250);
  }

  // ------------------------------------------------------------- polling

  function apply(message) {
    const handler = handlers[message.type];
    if (handler !== undefined) handler(message);
  }

  async function poll() {
    for (;;) {
      try {
        const reply = await fetch("poll?after=" + after, {cache: "no-store", credentials: "same-origin"});
        if (!reply.ok) throw new Error("status " + reply.status);
        const data = await reply.json();
        const waiting = open === null;
        for (const message of data.messages) apply(message);
        after = data.next;
        if (open !== null && data.open && data.open.request === open.request) {
          open.deadline = performance.now() + data.open.left * 1000;
        }
        if (waiting && open !== null && clicked !== null) {
          const since = clicked;
          clicked = null;
          requestAnimationFrame(() => seatPage.waits.push(performance.now() - since));  // once drawn
        }
        $("connection").textContent = "";
      } catch (error) {
        $("connection").textContent = "the referee cannot be reached: trying again";
        await new Promise((resolve) => setTimeout(resolve, RETRY_MS));
      }
    }
  }

  poll();
})();
