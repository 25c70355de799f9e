// The Svara table as a Telegram Mini App: who we are comes from Telegram's signed
// initData (checked by the server); the table comes from the server's events; a button
// press is sent back and answered with nothing or with why it did nothing.
//
// Telegram's own conventions where its script is there (the MainButton and
// SecondaryButton for the lobby's main actions and for sharing a hand, the BackButton for
// the table's sub-screen, no swipe-to-close and a closing confirmation while the viewer
// sits in a hand, its colours, colour scheme and safe areas, fullscreen on request,
// haptics); the page's own buttons where it is not (a browser, the sandbox).
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
  let sheet = false;     // the table's sub-screen (rules, players, next hand) is open
  let guarded = null;    // swipes off and closing confirmed (seated in a hand)
  let mainAction = null; // what Telegram's MainButton / SecondaryButton do now
  let secondAction = null;

  // ------------------------------------------------------------ Telegram's features

  function can(version) {
    return Boolean(tg && (!tg.isVersionAtLeast || tg.isVersionAtLeast(version)));
  }

  function call(name, ...args) {
    // A feature of a newer client than this one is left out, never an error.
    if (!tg || typeof tg[name] !== "function") return undefined;
    try { return tg[name](...args); } catch (err) { return undefined; }
  }

  function themed() {
    const dark = tg && tg.colorScheme ? tg.colorScheme === "dark"
      : window.matchMedia && window.matchMedia("(prefers-color-scheme: dark)").matches;
    document.documentElement.dataset.theme = dark ? "dark" : "light";
    if (!tg) return;
    if (can("6.1")) {
      call("setHeaderColor", "bg_color");
      call("setBackgroundColor", "bg_color");
    }
    if (can("7.10")) call("setBottomBarColor", "secondary_bg_color");
  }

  function telegramButton(which) {
    const button = tg && tg[which];
    if (!button || (which === "SecondaryButton" && !can("7.10"))) return null;
    return button;
  }

  function setTelegramButtons(main, second) {
    // Telegram's bottom buttons, or false where the page must draw its own.
    const mainButton = telegramButton("MainButton");
    if (!mainButton) return false;
    const secondButton = telegramButton("SecondaryButton");
    if (second && !secondButton) return false;
    mainAction = main;
    secondAction = second;
    const show = (button, action) => {
      if (!button) return;
      if (action) {
        button.setParams({text: action.label, is_visible: true, is_active: true});
      } else {
        button.hide();
      }
    };
    show(mainButton, main);
    show(secondButton, second);
    return true;
  }

  function guard(inHand) {
    if (!tg || guarded === inHand) return;
    guarded = inHand;
    if (can("7.7")) call(inHand ? "disableVerticalSwipes" : "enableVerticalSwipes");
    if (can("6.2")) call(inHand ? "enableClosingConfirmation" : "disableClosingConfirmation");
  }

  function setup() {
    if (!tg) return;
    call("ready");
    call("expand");
    themed();
    if (tg.onEvent) {
      tg.onEvent("themeChanged", () => { themed(); });
      ["viewportChanged", "safeAreaChanged", "contentSafeAreaChanged", "fullscreenChanged"]
        .forEach((name) => tg.onEvent(name, () => { if (state) placeSeats(); }));
    }
    const mainButton = telegramButton("MainButton");
    if (mainButton) mainButton.onClick(() => { if (mainAction) mainAction.run(); });
    const secondButton = telegramButton("SecondaryButton");
    if (secondButton) secondButton.onClick(() => { if (secondAction) secondAction.run(); });
    if (tg.BackButton) tg.BackButton.onClick(() => { openSheet(false); });
    if (can("8.0") && typeof tg.requestFullscreen === "function") {
      const full = $("full");
      full.hidden = false;
      full.addEventListener("click", () => {
        call(tg.isFullscreen ? "exitFullscreen" : "requestFullscreen");
      });
    }
  }

  function buzz(kind, style) {
    if (!tg || !tg.HapticFeedback) return;
    if (kind === "impact") tg.HapticFeedback.impactOccurred(style);
    else tg.HapticFeedback.notificationOccurred(style);
  }

  // ------------------------------------------------------------ drawing

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

  function seatBox(count, width) {
    // Compact boxes from seven seats on (or five on the narrowest phones).
    const compact = count > 6 || (count > 4 && width < 330);
    return compact ? {w: 70, h: 74, gap: 6, compact} : {w: 92, h: 84, gap: 8, compact};
  }

  function seatPlaces(count, mine, width) {
    // The viewer (or the first seat) at the bottom in the middle; the others clockwise
    // from him: up the left side, along the top, down the right side. The top row holds
    // as many boxes as fit the width, the sides the rest: no two boxes meet and none
    // leaves the table's width. Answers the boxes' places and the table's height.
    const box = seatBox(count, width);
    const {w, h, gap} = box;
    const others = count - 1;
    const perRow = Math.max(1, Math.floor((width + gap) / (w + gap)));
    const side = others > perRow ? Math.ceil((others - perRow) / 2) : 0;
    const top = others - 2 * side;
    const sides = side * (h + gap) - gap;
    const middle = Math.max(sides, box.compact ? 110 : 130);
    const height = h + gap + middle + gap + h;
    const first = h + gap + (middle - sides) / 2;
    const spots = [[(width - w) / 2, height - h]];
    for (let k = side - 1; k >= 0; k--) spots.push([0, first + k * (h + gap)]);
    for (let k = 0; k < top; k++) {
      const x = top === 1 ? (width - w) / 2
        : side === 0 && top === 2 ? (width * (k + 1)) / 3 - w / 2
          : (k * (width - w)) / (top - 1);
      spots.push([x, 0]);
    }
    for (let k = 0; k < side; k++) spots.push([width - w, first + k * (h + gap)]);
    const places = [];
    for (let i = 0; i < count; i++) places.push(spots[(i - mine + count) % count]);
    return {places, height, box};
  }

  function placeSeats() {
    const s = state;
    const table = $("table");
    const width = table.clientWidth;
    const mine = Math.max(0, s.seats.findIndex((x) => x.me));
    const {places, height, box} = seatPlaces(Math.max(1, s.seats.length), mine, width);
    table.style.height = height + "px";
    table.classList.toggle("compact", box.compact);
    const felt = $("felt");
    const sideways = s.seats.length > 1 ? box.w + box.gap : 0;
    felt.style.left = felt.style.right = (places.some((p) => p[0] === 0 && p[1] > 0)
      ? sideways : 0) + "px";
    felt.style.top = (s.seats.length > 1 ? box.h + box.gap : 0) + "px";
    felt.style.bottom = box.h + box.gap + "px";
    Array.from($("seats").children).forEach((node, i) => {
      node.style.left = places[i][0] + "px";
      node.style.top = places[i][1] + "px";
      node.style.width = box.w + "px";
      node.style.height = box.h + "px";
    });
  }

  function drawSeats(s) {
    const seats = $("seats");
    seats.replaceChildren();
    s.seats.forEach((x) => {
      const node = el("div", "seat" + (x.acting ? " acting" : "") + (x.me ? " me" : "")
        + (x.in ? "" : " out"));
      // The dealer's chip beside the name, never cut off with a long name.
      const name = el("div", "name");
      name.append(el("span", "who", x.name));
      if (x.dealer) name.append(el("span", "dealer", "D"));
      if (x.badges && x.badges.length) {
        // The badges he holds: a count on the seat, each badge's name on a long press.
        const badges = el("span", "badges", "🏅" + x.badges.length);
        badges.title = x.badges.map((b) => b.emoji + " " + b.name).join("\n");
        name.append(badges);
      }
      const money = el("div", "stack", String(x.stack));
      if (x.bet) money.append(el("span", "bet", " ● " + x.bet));
      node.append(name, money);
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
    placeSeats();
  }

  function button(label, cls, run) {
    const node = el("button", cls, label);
    node.type = "button";
    node.addEventListener("click", run);
    return node;
  }

  function drawButtons(s) {
    // The turn's buttons in the page, Fold apart below them; the lobby's Join/Leave/Start
    // in Telegram's bottom buttons where there are any.
    const buttons = $("buttons");
    const foldRow = $("fold");
    buttons.replaceChildren();
    foldRow.replaceChildren();
    const presses = s.buttons.flat().map((b) => ({
      label: b.label, kind: b.kind, data: b.data, run: () => press(b.data)}));
    let main = null;
    let second = null;
    let page = presses;
    if (s.status === "lobby") {
      const start = presses.find((p) => p.kind === "start");
      const join = presses.find((p) => p.kind === "join");
      const leave = presses.find((p) => p.kind === "leave");
      main = join || (s.lobby.creator ? start : null) || null;
      second = leave || null;
      page = presses.filter((p) => p !== main && p !== second);
    } else if (s.share && can("8.0") && typeof tg.shareMessage === "function") {
      main = {label: s.words.share, kind: "share", run: share};
    }
    if (!setTelegramButtons(main, second)) {
      page = presses;
      if (main && main.kind === "share") page = presses.concat([main]);
    }
    let row = el("div", "row");
    page.forEach((p) => {
      const node = button(p.label, p.kind === "fold" ? "fold" : "", p.run);
      if (p.data) node.dataset.press = p.data;
      node.dataset.kind = p.kind;
      if (p.kind === "fold") {
        foldRow.append(node);
        return;
      }
      if (row.children.length === 3) {
        buttons.append(row);
        row = el("div", "row");
      }
      row.append(node);
    });
    if (row.children.length) buttons.append(row);
  }

  function drawLobby(s) {
    const lobby = s.lobby;
    $("rules").replaceChildren(...lobby.rules.map((line) => el("li", "", line)));
    $("players-heading").textContent = lobby.heading;
    $("players").replaceChildren(...lobby.players.map((p) => {
      const item = el("li", p.me ? "me" : "", p.name);
      item.append(el("span", "stack", String(p.stack)));
      if (p.away) item.classList.add("away");
      return item;
    }));
    const actions = $("lobby-actions");
    // In the lobby Join and Leave are the main actions (above); the rest stay here.
    const here = s.status === "lobby"
      ? lobby.actions.filter((a) => a.do !== "app:join" && a.do !== "app:leave")
      : lobby.actions;
    const nodes = here.map((a) => {
      const node = button(a.label, a.do === "app:leave" ? "quiet" : "", () => press(a.do));
      node.dataset.press = a.do;
      return node;
    });
    if (lobby.seed) {
      const node = button(lobby.seed, "quiet", ownSeed);
      node.id = "own-seed";
      nodes.push(node);
    }
    actions.replaceChildren(...nodes);
    $("info").hidden = s.status !== "playing";
    $("info").setAttribute("aria-label", s.words.table);
    openSheet(sheet && s.status === "playing");
  }

  function openSheet(open) {
    sheet = open;
    const lobbyShown = state && (state.status === "lobby" || open);
    $("lobby").hidden = !lobbyShown;
    document.body.classList.toggle("sheet", open);
    if (tg && tg.BackButton) {
      if (open) tg.BackButton.show(); else tg.BackButton.hide();
    }
  }

  function drawAfter(s) {
    const proof = $("proof");
    proof.hidden = !s.proof;
    if (s.proof) {
      // The page's own seed goes in the part of the address no server sees.
      const seed = keptSeed();
      proof.href = s.proof + (seed ? "&my=" + encodeURIComponent(seed) : "");
      proof.textContent = "🔐 " + s.words.check;
    }
  }

  function render() {
    const s = state;
    const w = s.words;
    document.documentElement.lang = s.language;
    $("title").textContent = s.title || "🃏 Svara";
    $("pot").textContent = s.pot ? `${w.pot}: ${s.pot}` : "";
    $("prompt").textContent = s.prompt;
    drawSeats(s);
    const me = s.me;
    $("mine").hidden = !(me && me.cards.length);
    $("my-cards").replaceChildren(...(me ? me.cards.map(card) : []));
    $("my-points").textContent = me && me.points ? me.points : "";
    drawButtons(s);
    drawLobby(s);
    drawAfter(s);
    // A tournament's pool, level (with its next rise) and places, as the table message says.
    $("tournament").replaceChildren(...(s.tournament ? s.tournament.lines : [])
      .map((line) => el("p", "", line)));
    $("results").replaceChildren(...s.results.map((line) => el("p", "", line)));
    $("log").textContent = s.log;
    $("note").textContent = s.note || (!s.seated && s.status !== "closed" ? w.watching : "");
    const turn = Boolean(me && me.turn && s.buttons.length);
    if (turn && !myTurn) buzz("notification", "warning");
    myTurn = turn;
    guard(Boolean(me && s.status === "playing" && s.phase !== null && s.phase !== "over"));
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
    const time = `${Math.floor(left / 60)}:${String(left % 60).padStart(2, "0")}`;
    // Between hands the clock says what it counts down to.
    const between = state.status === "playing" && state.seq === null;
    clock.hidden = false;
    clock.textContent = between ? state.words.next_hand.replace("{time}", time) : `⏳ ${time}`;
    clock.classList.toggle("next", between);
    clock.classList.toggle("low", left <= 10 && !between);
  }

  function take(next) {
    if (state && next.rev === state.rev) return;
    skew = next.now - Date.now() / 1000;
    state = next;
    render();
  }

  function showError(text, said) {
    const node = $("error");
    node.textContent = text;
    node.hidden = !text;
    node.classList.toggle("said", Boolean(said));
    if (text && !said) buzz("notification", "error");
  }

  function enable(on) {
    document.querySelectorAll("#buttons button, #fold button, #lobby-actions button")
      .forEach((b) => { b.disabled = !on; });
  }

  async function post(path, body) {
    const reply = await fetch(path, {
      method: "POST", headers: {"Content-Type": "application/json"},
      body: JSON.stringify(body),
    });
    return [reply, await reply.json()];
  }

  async function press(data) {
    if (busy) return false;
    busy = true;
    showError("");
    enable(false);
    try {
      const [reply, answer] = await post("api/press", {s: session, data: data});
      if (!answer.ok) showError(answer.error || String(reply.status));
      else {
        if (answer.said) showError(answer.said, true);
        buzz("impact", "light");
      }
      return Boolean(answer.ok);
    } catch (err) {
      showError(state ? state.words.offline : String(err));
      return false;
    } finally {
      busy = false;
      enable(true);
    }
  }

  // A seed of the player's own in one tap: 128 bits drawn here, after the table's
  // commitment is shown, kept on this device for the checking page.
  const SEED_KEY = "svara-seed";

  async function ownSeed() {
    const bytes = new Uint8Array(16);
    crypto.getRandomValues(bytes);
    const seed = Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
    if (await press("app:seed:" + seed)) {
      try { localStorage.setItem(SEED_KEY, seed); } catch (err) { /* kept by the bot */ }
    }
  }

  function keptSeed() {
    try { return localStorage.getItem(SEED_KEY) || ""; } catch (err) { return ""; }
  }

  async function share() {
    try {
      const [reply, answer] = await post("api/share", {s: session});
      if (!answer.ok) { showError(answer.error || String(reply.status)); return; }
      tg.shareMessage(answer.id, () => {});
    } catch (err) {
      showError(state ? state.words.offline : String(err));
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
    // Without Telegram's script (it could not load), the signed data Telegram put after
    // the "#" is read here as the script would read it; the server checks it all the same.
    const init = tg ? tg.initData
      : new URLSearchParams(location.hash.slice(1)).get("tgWebAppData") || "";
    try {
      const [reply, answer] = await post("api/session", {init: init, table: payload()});
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

  $("info").addEventListener("click", () => openSheet(!sheet));
  $("proof").addEventListener("click", (event) => {
    // The verifier page, in Telegram's browser where there is one.
    if (tg && typeof tg.openLink === "function") {
      event.preventDefault();
      tg.openLink($("proof").href);
    }
  });
  window.addEventListener("resize", () => { if (state) placeSeats(); });
  setup();
  if (!tg) themed();
  setInterval(tick, 250);
  start();
})();
