// The match viewer (referee/web/viewer.py): steps through what was prepared
// for each viewpoint. Every HTML string in the data was built and escaped by
// the referee; this script only chooses which to show. Nothing is fetched.
(function () {
  "use strict";
  const data = JSON.parse(document.getElementById("page-data").textContent);
  const $ = (id) => document.getElementById(id);
  const LOG_LINES = 150;
  const PLAY_MS = 800;
  let view = 0;
  let step = 0;
  let timer = null;

  function joined(ids) {
    return ids.map((id) => data.texts[id]).join("");
  }

  function item(tag, html, attributes) {
    const element = document.createElement(tag);
    element.innerHTML = html;
    for (const [name, value] of Object.entries(attributes || {})) element.setAttribute(name, value);
    return element;
  }

  function eventItem(id) {
    const [number, index, text] = data.events[id];
    return item("li", data.texts[text], {"data-event": number + "." + index});
  }

  function meta() {
    const parts = data.seats.map((seat, index) =>
      '<span class="seat s' + index + '"></span> <span class="version"></span>');
    $("meta").innerHTML = parts.join(" · ");
    const labels = $("meta").querySelectorAll(".seat");
    const versions = $("meta").querySelectorAll(".version");
    data.seats.forEach((seat, index) => {
      labels[index].textContent = seat.name + "[" + index + "]";
      versions[index].textContent = seat.version;
    });
    const facts = document.createElement("div");
    facts.className = "facts";
    facts.textContent = data.time + (data.seed === null ? "" : " · seed " + data.seed) +
      (data.unfinished ? " · unfinished: the record ends before the match did" : "");
    $("meta").appendChild(facts);
    for (const [index, v] of data.views.entries()) {
      const option = document.createElement("option");
      option.value = String(index);
      option.textContent = v.title;
      $("view").appendChild(option);
    }
    $("slider").max = String(data.steps.length - 1);
  }

  function render() {
    const v = data.views[view];
    const frame = v.steps[step];
    document.body.dataset.view = v.key;
    document.body.dataset.step = String(step);
    $("view").value = String(view);
    $("slider").value = String(step);
    $("view-title").textContent = v.title;
    $("table").innerHTML = joined(frame.t);
    $("interlude").innerHTML = joined(frame.x);
    $("interlude").hidden = frame.x.length === 0;
    $("step-title").textContent = data.steps[step];
    $("position").textContent = "step " + step + " of " + (data.steps.length - 1);
    $("decisions").replaceChildren(...frame.d.map((id) => item("li", data.texts[id])));
    $("step-events").replaceChildren(...frame.e.map(eventItem));
    const last = step === data.steps.length - 1;
    $("result").innerHTML = last && data.result ? data.result : "";
    const earlier = [];
    for (let s = step - 1; s >= 0 && earlier.length < LOG_LINES; s--) {
      const ids = v.steps[s].e;
      for (let i = ids.length - 1; i >= 0 && earlier.length < LOG_LINES; i--) earlier.push(ids[i]);
    }
    $("log").replaceChildren(...earlier.reverse().map(eventItem));
    $("log").scrollTop = $("log").scrollHeight;
    try {
      history.replaceState(null, "", "#view=" + v.key + "&step=" + step);
    } catch (error) {
      // a page opened where the address cannot change: nothing to keep
    }
  }

  function go(to) {
    step = Math.max(0, Math.min(data.steps.length - 1, to));
    render();
  }

  function play(on) {
    if (timer !== null) clearInterval(timer);
    timer = null;
    if (on) {
      timer = setInterval(() => {
        if (step >= data.steps.length - 1) play(false);
        else go(step + 1);
      }, PLAY_MS);
    }
    $("play").textContent = on ? "pause" : "play";
  }

  function fromAddress() {
    const wanted = new URLSearchParams(location.hash.slice(1));
    const found = data.views.findIndex((v) => v.key === wanted.get("view"));
    if (found >= 0) view = found;
    const at = parseInt(wanted.get("step") || "0", 10);
    if (!Number.isNaN(at)) step = Math.max(0, Math.min(data.steps.length - 1, at));
  }

  const keys = {
    ArrowRight: () => go(step + 1),
    ArrowLeft: () => go(step - 1),
    PageDown: () => go(step + 10),
    PageUp: () => go(step - 10),
    Home: () => go(0),
    End: () => go(data.steps.length - 1),
    " ": () => play(timer === null),
    v: () => { view = (view + 1) % data.views.length; render(); },
  };

  document.addEventListener("keydown", (event) => {
    if (event.target instanceof HTMLSelectElement || event.altKey || event.ctrlKey || event.metaKey) return;
    const action = keys[event.key];
    if (action === undefined) return;
    event.preventDefault();
    action();
  });
  $("slider").addEventListener("input", () => go(parseInt($("slider").value, 10)));
  $("first").addEventListener("click", () => go(0));
  $("prev").addEventListener("click", () => go(step - 1));
  $("next").addEventListener("click", () => go(step + 1));
  $("last").addEventListener("click", () => go(data.steps.length - 1));
  $("play").addEventListener("click", () => play(timer === null));
  $("view").addEventListener("change", () => { view = parseInt($("view").value, 10); render(); });

  meta();
  fromAddress();
  render();
})();
