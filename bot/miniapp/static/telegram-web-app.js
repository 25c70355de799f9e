// A stand-in of Telegram's telegram-web-app.js for the sandbox (no internet there): it
// reads what a Telegram client puts after the page's "#" (tgWebAppData, the signed
// initData; tgWebAppThemeParams; tgWebAppVersion), sets the theme's and the safe areas'
// CSS variables as the real script does, and offers the calls the page makes. What the
// page asked of it is kept in `calls` (and the haptics in `felt`); its MainButton,
// SecondaryButton and BackButton are drawn in the page, where a Telegram client draws
// them around it. Served only by the sandbox.
"use strict";

(function () {
  const hash = new URLSearchParams(location.hash.slice(1));
  const initData = hash.get("tgWebAppData") || "";
  const version = hash.get("tgWebAppVersion") || "8.0";
  const fields = new URLSearchParams(initData);
  let user = null;
  try { user = JSON.parse(fields.get("user") || "null"); } catch (err) { user = null; }
  let theme = {};
  try { theme = JSON.parse(hash.get("tgWebAppThemeParams") || "{}"); } catch (err) { theme = {}; }
  const root = document.documentElement.style;
  Object.entries(theme).forEach(([key, value]) => {
    root.setProperty("--tg-theme-" + key.replace(/_/g, "-"), String(value));
  });
  const zero = {top: 0, bottom: 0, left: 0, right: 0};
  ["safe-area-inset", "content-safe-area-inset"].forEach((name) => {
    Object.keys(zero).forEach((side) => root.setProperty(`--tg-${name}-${side}`, "0px"));
  });
  const felt = [];
  const calls = [];
  const handlers = {};
  const note = (name, ...args) => { calls.push([name, ...args]); };

  function atLeast(wanted) {
    const a = version.split(".").map(Number);
    const b = String(wanted).split(".").map(Number);
    for (let i = 0; i < Math.max(a.length, b.length); i++) {
      if ((a[i] || 0) !== (b[i] || 0)) return (a[i] || 0) > (b[i] || 0);
    }
    return true;
  }

  function bar() {
    let node = document.getElementById("tg-bottom-bar");
    if (!node && document.body) {
      node = document.createElement("div");
      node.id = "tg-bottom-bar";
      node.style.cssText = "position:sticky;bottom:0;display:flex;gap:8px;padding:8px 10px;"
        + "background:var(--tg-theme-secondary-bg-color,#f0f2f5)";
      document.body.append(node);
    }
    return node;
  }

  function bottomButton(name, id) {
    const clicks = [];
    const self = {
      text: "", isVisible: false, isActive: true,
      setParams(params) {
        note(name + ".setParams", params);
        if (params.text !== undefined) self.text = params.text;
        if (params.is_visible !== undefined) self.isVisible = params.is_visible;
        if (params.is_active !== undefined) self.isActive = params.is_active;
        draw();
        return self;
      },
      setText(text) { return self.setParams({text: text}); },
      show() { return self.setParams({is_visible: true}); },
      hide() { return self.setParams({is_visible: false}); },
      enable() { return self.setParams({is_active: true}); },
      disable() { return self.setParams({is_active: false}); },
      onClick(fn) { note(name + ".onClick"); clicks.push(fn); return self; },
      offClick(fn) { const i = clicks.indexOf(fn); if (i >= 0) clicks.splice(i, 1); return self; },
      showProgress() { return self; },
      hideProgress() { return self; },
    };
    function draw() {
      const holder = bar();
      if (!holder) return;
      let node = document.getElementById(id);
      if (!node) {
        node = document.createElement("button");
        node.id = id;
        node.type = "button";
        node.style.cssText = "flex:1;min-height:44px;border:0;border-radius:10px;font:inherit;"
          + "font-weight:600;background:var(--tg-theme-button-color,#2e7cf6);"
          + "color:var(--tg-theme-button-text-color,#fff)";
        node.addEventListener("click", () => { if (self.isActive) clicks.forEach((fn) => fn()); });
        if (name === "SecondaryButton") holder.prepend(node); else holder.append(node);
      }
      node.textContent = self.text;
      node.hidden = !self.isVisible;
      node.disabled = !self.isActive;
      holder.style.display = Array.from(holder.children).some((b) => !b.hidden) ? "flex" : "none";
    }
    return self;
  }

  const backClicks = [];
  const BackButton = {
    isVisible: false,
    show() { note("BackButton.show"); BackButton.isVisible = true; return BackButton; },
    hide() { note("BackButton.hide"); BackButton.isVisible = false; return BackButton; },
    onClick(fn) { note("BackButton.onClick"); backClicks.push(fn); return BackButton; },
    offClick() { return BackButton; },
    press() { backClicks.forEach((fn) => fn()); },  // the stand-in's "back" gesture
  };

  const app = {
    initData: initData,
    initDataUnsafe: {user: user, start_param: fields.get("start_param") || undefined,
                     auth_date: Number(fields.get("auth_date") || 0)},
    themeParams: theme,
    colorScheme: hash.get("tgWebAppColorScheme") || "light",
    platform: "sandbox",
    version: version,
    isFullscreen: false,
    isVerticalSwipesEnabled: true,
    isClosingConfirmationEnabled: false,
    safeAreaInset: {...zero},
    contentSafeAreaInset: {...zero},
    isVersionAtLeast: atLeast,
    ready() { note("ready"); },
    expand() { note("expand"); },
    close() { note("close"); },
    setHeaderColor(color) { note("setHeaderColor", color); },
    setBackgroundColor(color) { note("setBackgroundColor", color); },
    setBottomBarColor(color) { note("setBottomBarColor", color); },
    disableVerticalSwipes() { note("disableVerticalSwipes"); app.isVerticalSwipesEnabled = false; },
    enableVerticalSwipes() { note("enableVerticalSwipes"); app.isVerticalSwipesEnabled = true; },
    enableClosingConfirmation() {
      note("enableClosingConfirmation"); app.isClosingConfirmationEnabled = true;
    },
    disableClosingConfirmation() {
      note("disableClosingConfirmation"); app.isClosingConfirmationEnabled = false;
    },
    requestFullscreen() {
      note("requestFullscreen"); app.isFullscreen = true; app.emit("fullscreenChanged");
    },
    exitFullscreen() {
      note("exitFullscreen"); app.isFullscreen = false; app.emit("fullscreenChanged");
    },
    shareMessage(id, callback) { note("shareMessage", id); if (callback) callback(true); },
    openLink(url) { note("openLink", url); },
    onEvent(name, fn) { note("onEvent", name); (handlers[name] = handlers[name] || []).push(fn); },
    offEvent(name, fn) {
      const list = handlers[name] || [];
      const i = list.indexOf(fn);
      if (i >= 0) list.splice(i, 1);
    },
    emit(name) { (handlers[name] || []).forEach((fn) => fn.call(app)); },
    MainButton: bottomButton("MainButton", "tg-main-button"),
    SecondaryButton: bottomButton("SecondaryButton", "tg-secondary-button"),
    BackButton: BackButton,
    HapticFeedback: {
      impactOccurred(style) { felt.push("impact:" + style); },
      notificationOccurred(type) { felt.push("notification:" + type); },
      selectionChanged() { felt.push("selection"); },
    },
    felt: felt,
    calls: calls,
  };
  window.Telegram = {WebApp: app};
})();
