// The Svara table as a Telegram Mini App: who we are comes from Telegram's signed
// initData (checked by the server); the table comes from the server's events; a button
// press is sent back and answered with nothing or with why it did nothing.
"use strict";

(function () {
  const tg = window.Telegram && window.Telegram.WebApp;
  const $ = (id) => document.getElementById(id);
  const REDS = new Set(["♥", "♦"]);
  let session = null;
  let state = null;
  let skew = 0;          // server clock minus ours, in seconds
  let stream = null;
  let myTurn = false;
  let busy = false;

  function payload() {
    const unsafe = tg && tg.initDataUnsafe;
    if (unsafe && unsafe.start_param) return unsafe.start_param;
    return new URLSearchParams(location.search).get("t") || "";
  }

  function el(tag, cls, text) {
    const node = document.createElement(tag);
    if (cls) node.className = cls;
    if (text !== undefined && text !== null) node.textContent = text;
    return node;
  }

  function card(c) {
    const suit = c.text.slice(-1);
    const node = el("span", "card" + (REDS.has(suit) ? " red" : ""));
    node.setAttribute("aria-label", c.text);
    node.append(el("span", "rank", c.text.slice(0, -1)), el("span", "suit", suit));
    return node;
  }

  function seatPlaces(count, mine) {
    // Around an ellipse, the viewer (or the first seat) at the bottom.
    const places = [];
    for (let i = 0; i < count; i++) {
      const k = (i - mine + count) % count;
      const angle = Math.PI / 2 + (2 * Math.PI * k) / count;
      places.push([50 + 42 * Math.cos(angle), 42 + 40 * Math.sin(angle)]);
    }
    return places;
  }

  function render() {
    const s = state;
    const w = s.words;
    document.documentElement.lang = s.language;
    $("title").textContent = s.title || "🃏 Svara";
    $("pot").textContent = s.pot ? `${w.pot}: ${s.pot}` : "";
    $("prompt").textContent = s.prompt;
    const seats = $("seats");
    seats.replaceChildren();
    const mine = Math.max(0, s.seats.findIndex((x) => x.me));
    const places = seatPlaces(s.seats.length, mine);
    s.seats.forEach((x, i) => {
      const node = el("div", "seat" + (x.acting ? " acting" : "") + (x.me ? " me" : "")
        + (x.in ? "" : " out"));
      node.style.left = places[i][0] + "%";
      node.style.top = places[i][1] + "%";
      const name = el("div", "name", x.name);
      if (x.dealer) name.append(el("span", "dealer", "D"));
      node.append(name, el("div", "stack", String(x.stack)));
      if (x.bet) node.append(el("div", "bet", "● " + x.bet));
      if (x.shown) {
        const row = el("div", "cards");
        x.shown.forEach((c) => row.append(card(c)));
        node.append(row);
        if (x.points !== undefined) node.append(el("div", "status", x.points));
      } else {
        if (x.backs && !x.me) {
          const row = el("div", "cards");
          for (let k = 0; k < x.backs; k++) row.append(el("span", "card back"));
          node.append(row);
        }
        if (x.status) node.append(el("div", "status", x.status));
      }
      seats.append(node);
    });
    const me = s.me;
    const mineBox = $("mine");
    mineBox.hidden = !(me && me.cards.length);
    $("my-cards").replaceChildren(...(me ? me.cards.map(card) : []));
    $("my-points").textContent = me && me.points ? me.points : "";
    const buttons = $("buttons");
    buttons.replaceChildren();
    s.buttons.forEach((row) => {
      const line = el("div", "row");
      row.forEach((b) => {
        const button = el("button", "", b.label);
        button.type = "button";
        button.dataset.press = b.data;
        button.addEventListener("click", () => press(b.data));
        line.append(button);
      });
      buttons.append(line);
    });
    const results = $("results");
    results.replaceChildren(...s.results.map((line) => el("p", "", line)));
    $("log").textContent = s.log;
    $("note").textContent = s.note || (!s.seated && s.status !== "closed" ? w.watching : "");
    const turn = Boolean(me && me.turn && s.buttons.length);
    if (turn && !myTurn && tg && tg.HapticFeedback) {
      tg.HapticFeedback.notificationOccurred("warning");
    }
    myTurn = turn;
    document.body.dataset.rev = String(s.rev);
    document.body.dataset.status = s.status;
    tick();
  }

  function tick() {
    const clock = $("clock");
    if (!state || !state.deadline || state.status === "closed") {
      clock.hidden = true;
      return;
    }
    const left = Math.max(0, Math.ceil(state.deadline - (Date.now() / 1000 + skew)));
    clock.hidden = false;
    clock.textContent = `⏳ ${Math.floor(left / 60)}:${String(left % 60).padStart(2, "0")}`;
    clock.classList.toggle("low", left <= 10);
  }

  function take(next) {
    if (state && next.rev === state.rev) return;
    skew = next.now - Date.now() / 1000;
    state = next;
    render();
  }

  function showError(text) {
    const node = $("error");
    node.textContent = text;
    node.hidden = !text;
    if (text && tg && tg.HapticFeedback) tg.HapticFeedback.notificationOccurred("error");
  }

  async function press(data) {
    if (busy) return;
    busy = true;
    showError("");
    document.querySelectorAll("#buttons button").forEach((b) => { b.disabled = true; });
    try {
      const reply = await fetch("api/press", {
        method: "POST", headers: {"Content-Type": "application/json"},
        body: JSON.stringify({s: session, data: data}),
      });
      const answer = await reply.json();
      if (!answer.ok) showError(answer.error || String(reply.status));
      else if (tg && tg.HapticFeedback) tg.HapticFeedback.impactOccurred("light");
    } catch (err) {
      showError(state ? state.words.offline : String(err));
    } finally {
      busy = false;
      document.querySelectorAll("#buttons button").forEach((b) => { b.disabled = false; });
    }
  }

  function listen() {
    if (stream) stream.close();
    stream = new EventSource("api/events?s=" + encodeURIComponent(session));
    stream.onmessage = (event) => {
      $("offline").hidden = true;
      take(JSON.parse(event.data));
    };
    stream.onerror = () => {
      // The browser reconnects by itself, sending the last revision it saw; a stream the
      // server ended (a closed table, an expired session) stays closed.
      if (state && state.status === "closed") { stream.close(); return; }
      const banner = $("offline");
      banner.textContent = state ? state.words.offline : "…";
      banner.hidden = false;
      if (stream.readyState === EventSource.CLOSED) setTimeout(start, 3000);
    };
  }

  async function start() {
    const init = tg ? tg.initData : "";
    try {
      const reply = await fetch("api/session", {
        method: "POST", headers: {"Content-Type": "application/json"},
        body: JSON.stringify({init: init, table: payload()}),
      });
      const answer = await reply.json();
      if (!reply.ok) {
        // Open too long: Telegram's signed data is old (the words of the last state).
        showError(state && reply.status === 401 ? state.words.reopen
                  : answer.error || String(reply.status));
        return;
      }
      session = answer.session;
      take(answer.state);
      listen();
    } catch (err) {
      showError(String(err));
      setTimeout(start, 3000);
    }
  }

  if (tg) {
    tg.ready();
    tg.expand();
  }
  setInterval(tick, 250);
  start();
})();
