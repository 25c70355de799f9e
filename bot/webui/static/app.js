// The sandbox page: draws the stand-in's chats and sends presses and typing to it.
// Message text is built from plain text and Telegram's entities with DOM nodes only:
// nothing the bot or a user wrote is ever parsed as HTML here.
"use strict";

const state = { data: null, seat: null, busy: 0, revision: -1, replyTo: null };
const $ = (id) => document.getElementById(id);
const SUITS = { "♠": "black", "♣": "black", "♥": "red", "♦": "red" };
const CARD = /(10|[2-9JQKA])([♠♣♥♦])/g;

function seatOf(id) {
  return state.data ? state.data.seats.find((s) => s.id === id) : undefined;
}

// --------------------------------------------------------------- text and entities

function textWithCards(text, parent) {
  let last = 0;
  for (const m of text.matchAll(CARD)) {
    if (m.index > last) parent.append(document.createTextNode(text.slice(last, m.index)));
    const card = document.createElement("span");
    card.className = "card " + SUITS[m[2]];
    card.textContent = m[1] + m[2];
    parent.append(card);
    last = m.index + m[0].length;
  }
  if (last < text.length) parent.append(document.createTextNode(text.slice(last)));
}

function safeHref(url) {
  try {
    const u = new URL(url);
    return ["http:", "https:", "tg:"].includes(u.protocol) ? u.href : null;
  } catch (e) {
    return null;
  }
}

function appHref(url) {
  // The bot's Mini App: opened for the seat being played, signed by the sandbox.
  if (!/^https:\/\/t\.me\/[^/?]+\?startapp=|\/app\/\?t=/.test(url)) return null;
  return "/open-app?" + new URLSearchParams({ user: String(state.seat), link: url });
}

function elementFor(entity) {
  const tags = { bold: "b", italic: "i", underline: "u", strikethrough: "s", code: "code",
                 pre: "pre", blockquote: "blockquote", expandable_blockquote: "blockquote" };
  if (entity.type in tags) return document.createElement(tags[entity.type]);
  if (entity.type === "spoiler") {
    const span = document.createElement("span");
    span.className = "spoiler";
    span.addEventListener("click", () => span.classList.add("open"));
    return span;
  }
  if (entity.type === "text_link" || entity.type === "url") {
    const a = document.createElement("a");
    const href = safeHref(entity.url || "");
    if (href) { a.href = href; a.target = "_blank"; a.rel = "noopener noreferrer"; }
    return a;
  }
  return document.createElement("span");
}

// Entities are sorted by offset, longer first; offsets count UTF-16 units, as JS does.
function renderRange(text, entities, start, end, parent) {
  let pos = start;
  let i = 0;
  while (i < entities.length) {
    const e = entities[i];
    const from = Math.max(e.offset, pos);
    const to = Math.min(e.offset + e.length, end);
    let j = i + 1;
    while (j < entities.length && entities[j].offset < e.offset + e.length) j++;
    if (from < to) {
      if (from > pos) textWithCards(text.slice(pos, from), parent);
      const el = elementFor(e);
      renderRange(text, entities.slice(i + 1, j), from, to, el);
      parent.append(el);
      pos = to;
    }
    i = j;
  }
  if (pos < end) textWithCards(text.slice(pos, end), parent);
}

function renderText(text, entities, parent) {
  const sorted = [...(entities || [])].sort((a, b) => a.offset - b.offset || b.length - a.length);
  renderRange(text, sorted, 0, text.length, parent);
}

// --------------------------------------------------------------- chats

function renderMessage(message, chatId) {
  const box = document.createElement("div");
  box.className = "msg" + (message.from_id === state.seat ? " mine" : "") +
    (message.ephemeral ? " ephemeral" : "");
  box.dataset.message = message.id;
  const bubble = document.createElement("div");
  bubble.className = "bubble";
  if (message.bot || chatId < 0) {
    const sender = document.createElement("div");
    sender.className = "sender";
    sender.textContent = message.from;
    bubble.append(sender);
  }
  if (message.photo) {
    const img = document.createElement("img");
    img.className = "photo";
    img.src = message.photo.src;
    img.width = message.photo.width;
    img.height = message.photo.height;
    img.alt = word("photo");
    bubble.append(img);
  }
  if (message.reply_to) {
    const quote = document.createElement("div");
    quote.className = "quote";
    quote.textContent = "↩ " + message.reply_to.from + ": " + message.reply_to.text;
    bubble.append(quote);
  }
  const body = document.createElement("div");
  body.className = "text";
  renderText(message.text, message.entities, body);
  bubble.append(body);
  if (chatId < 0) {
    // Reply to it, as a long press does in Telegram (e.g. /give 100 to its sender).
    const answer = document.createElement("button");
    answer.type = "button";
    answer.className = "reply";
    answer.textContent = "↩";
    answer.title = word("reply");
    answer.setAttribute("aria-label", word("reply"));
    answer.addEventListener("click", () => {
      state.replyTo = { id: message.id, from: message.from };
      renderReply();
      $("group-input").focus();
    });
    bubble.append(answer);
  }
  if (message.edited) {
    const e = document.createElement("span");
    e.className = "edited";
    e.textContent = word("edited");
    bubble.append(e);
  }
  box.append(bubble);
  if (message.buttons.length) {
    const keyboard = document.createElement("div");
    keyboard.className = "keyboard";
    for (const row of message.buttons) {
      const r = document.createElement("div");
      r.className = "krow";
      for (const b of row) {
        let el;
        if (b.data) {
          el = document.createElement("button");
          el.type = "button";
          el.addEventListener("click", () => press(chatId, message.id, b.data, message.ephemeral));
        } else {
          el = document.createElement("a");
          const href = b.url ? appHref(b.url) || safeHref(b.url) : null;
          if (href) { el.href = href; el.target = "_blank"; el.rel = "noopener noreferrer"; }
        }
        el.textContent = b.text;
        el.dataset.label = b.text;
        r.append(el);
      }
      keyboard.append(r);
    }
    box.append(keyboard);
  }
  return box;
}

function renderChat(chat, container) {
  const atBottom = container.scrollHeight - container.scrollTop - container.clientHeight < 40;
  container.replaceChildren(...chat.messages.map((m) => renderMessage(m, chat.id)));
  if (atBottom || container.dataset.chat !== String(chat.id)) {
    container.scrollTop = container.scrollHeight;
  }
  container.dataset.chat = String(chat.id);
}

// The group as one seat sees it: its own ephemeral messages where they were sent, or in
// place of the message they replace; nobody else's.
function groupFor(seat, group) {
  const mine = seat.group_ephemeral || [];
  const replaced = new Set(mine.filter((m) => m.replaces !== null).map((m) => m.replaces));
  const messages = [];
  const place = (after) => {
    for (const m of mine) if (m.after === after && m.replaces === null) messages.push(m);
  };
  place(0);
  for (const m of group.messages) {
    if (replaced.has(m.id)) {
      for (const e of mine) if (e.replaces === m.id) messages.push(e);
    } else {
      messages.push(m);
    }
    place(m.id);
  }
  const shown = new Set(messages);
  for (const m of mine) if (!shown.has(m)) messages.push(m);
  return { ...group, messages };
}

function renderSeats() {
  const list = $("seat-list");
  list.replaceChildren(...state.data.seats.map((seat) => {
    const item = document.createElement("span");
    item.className = "seat" + (seat.id === state.seat ? " current" : "");
    item.dataset.seat = seat.id;
    const pick = document.createElement("button");
    pick.type = "button";
    pick.className = "seat-name";
    pick.textContent = seat.name;
    pick.title = word("play_seat") + (seat.username ? " (@" + seat.username + ")" : "");
    pick.addEventListener("click", () => chooseSeat(seat.id));
    const auto = document.createElement("label");
    const box = document.createElement("input");
    box.type = "checkbox";
    box.checked = seat.auto;
    box.className = "auto";
    box.addEventListener("change", () => post("/api/auto", { user: seat.id, on: box.checked }));
    auto.append(box, document.createTextNode(" " + word("computer")));
    item.append(pick, auto);
    return item;
  }));
}

// The page's own words, in the language the sandbox was started with.
function word(key, values) {
  const text = (state.data && state.data.words && state.data.words[key]) || key;
  return text.replace(/\{(\w+)\}/g, (all, name) =>
    values && name in values ? String(values[name]) : all);
}

function translatePage() {
  const words = state.data.words || {};
  document.documentElement.lang = state.data.language || "en";
  for (const el of document.querySelectorAll("[data-word]")) {
    if (words[el.dataset.word]) el.textContent = words[el.dataset.word];
  }
  for (const attr of ["placeholder", "aria-label"]) {
    for (const el of document.querySelectorAll("[data-word-" + attr + "]")) {
      const text = words[el.getAttribute("data-word-" + attr)];
      if (text) el.setAttribute(attr, text);
    }
  }
}

function render() {
  const data = state.data;
  if (!data) return;
  translatePage();
  if (!seatOf(state.seat)) state.seat = data.seats[0].id;
  const seat = seatOf(state.seat);
  renderSeats();
  $("group-title").textContent = word("you_are", { chat: data.group.title, name: seat.name });
  $("private-title").textContent = word("private_with", { bot: data.bot, name: seat.name });
  renderChat(groupFor(seat, data.group), $("group-messages"));
  renderChat(seat.chat, $("private-messages"));
  document.body.dataset.revision = String(data.revision);
}

function renderReply() {
  const bar = $("group-reply");
  bar.hidden = !state.replyTo;
  $("group-reply-text").textContent = state.replyTo
    ? "↩ " + word("replying_to", { name: state.replyTo.from }) : "";
}

function chooseSeat(id) {
  state.seat = id;
  location.hash = "seat-" + id;
  render();
}

// --------------------------------------------------------------- server

async function refresh() {
  const response = await fetch("/api/state");
  if (!response.ok) return;
  state.data = await response.json();
  render();
}

// This run's token, from the page's own HTML: the server refuses posts without it.
function pageToken() {
  return document.querySelector('meta[name="sandbox-token"]').content;
}

async function post(path, body) {
  state.busy++;
  document.body.dataset.busy = String(state.busy);
  try {
    const response = await fetch(path, {
      method: "POST",
      headers: { "Content-Type": "application/json", "X-Sandbox-Token": pageToken() },
      body: JSON.stringify(body),
    });
    const answer = await response.json().catch(() => ({}));
    if (!response.ok) toast(answer.error || "That did not work.");
    return answer;
  } finally {
    state.busy--;
    document.body.dataset.busy = String(state.busy);
  }
}

async function press(chatId, messageId, data, ephemeral) {
  const body = { user: state.seat, chat: chatId, message: messageId, data };
  if (ephemeral) body.ephemeral = ephemeral;
  const answer = await post("/api/press", body);
  if (answer.gone) toast("That button is gone.");
  else if (answer.text && answer.alert) popup(answer.text);
  else if (answer.text) toast(answer.text);
}

function popup(text) {
  $("popup-text").textContent = text;
  $("popup").hidden = false;
}

let toastTimer = null;
function toast(text) {
  const t = $("toast");
  t.textContent = text;
  t.hidden = false;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => { t.hidden = true; }, 2500);
}

function composer(form, input, chatId, replies) {
  $(form).addEventListener("submit", async (event) => {
    event.preventDefault();
    const text = $(input).value;
    if (!text.trim()) return;
    $(input).value = "";
    const body = { user: state.seat, chat: chatId(), text };
    if (replies && state.replyTo) body.reply_to = state.replyTo.id;
    if (replies) { state.replyTo = null; renderReply(); }
    await post("/api/send", body);
  });
}

function start() {
  const m = /^#seat-(\d+)$/.exec(location.hash);
  if (m) state.seat = Number(m[1]);
  $("popup-ok").addEventListener("click", () => { $("popup").hidden = true; });
  composer("group-form", "group-input", () => state.data.group.id, true);
  composer("private-form", "private-input", () => state.seat, false);
  $("group-reply-cancel").addEventListener("click", () => { state.replyTo = null; renderReply(); });
  const events = new EventSource("/api/events");
  events.onmessage = () => refresh();
  refresh();
}

start();
