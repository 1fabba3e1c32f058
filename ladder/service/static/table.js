// The form that opens a person's table (ladder/service/tables.py): chosen bots,
// a seat, the token; the server answers with the seat page's address.
// Bot names come from submitters: they are written as text only.
(function () {
  "use strict";
  const data = JSON.parse(document.getElementById("page-data").textContent);
  const $ = (id) => document.getElementById(id);
  const chosen = [];

  function render() {
    const bots = $("bots");
    bots.replaceChildren();
    for (const label of data.bots) {
      const row = document.createElement("label");
      row.className = "bot";
      const add = document.createElement("button");
      add.type = "button";
      add.textContent = "+";
      add.dataset.bot = label;
      add.addEventListener("click", () => { chosen.push(label); render(); });
      row.append(add, document.createTextNode(" " + label));
      bots.appendChild(row);
    }
    const list = document.createElement("ul");
    list.id = "chosen";
    chosen.forEach((label, index) => {
      const item = document.createElement("li");
      const drop = document.createElement("button");
      drop.type = "button";
      drop.textContent = "−";
      drop.addEventListener("click", () => { chosen.splice(index, 1); render(); });
      item.append(document.createTextNode(label + " "), drop);
      list.appendChild(item);
    });
    bots.appendChild(list);
    $("seats-note").textContent = "a table seats " + data.seats[0] + " to " + data.seats[1] +
      " (you and " + chosen.length + " bot" + (chosen.length === 1 ? "" : "s") + ")";
    const seat = $("seat");
    const was = seat.value;
    seat.replaceChildren();
    for (let index = 0; index <= chosen.length; index++) {
      const option = document.createElement("option");
      option.value = String(index);
      option.textContent = String(index);
      seat.appendChild(option);
    }
    if (Number(was) <= chosen.length) seat.value = was;
  }

  $("table-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    $("problem").textContent = "";
    $("open").disabled = true;
    try {
      const reply = await fetch("play/table", {
        method: "POST", cache: "no-store", credentials: "same-origin",
        headers: {"Content-Type": "application/json"},
        body: JSON.stringify({token: $("token").value, bots: chosen, seat: Number($("seat").value)}),
      });
      if (reply.ok) {
        location.assign((await reply.json()).href);
        return;
      }
      $("problem").textContent = (await reply.text()).trim();
    } catch (error) {
      $("problem").textContent = "the ladder cannot be reached: try again";
    }
    $("open").disabled = false;
  });

  render();
})();
