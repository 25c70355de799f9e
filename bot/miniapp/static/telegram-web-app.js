// A stand-in of Telegram's telegram-web-app.js for the sandbox (no internet there): it
// reads what a Telegram client puts after the page's "#" (tgWebAppData, the signed
// initData; tgWebAppThemeParams), sets the theme's CSS variables as the real script does,
// and offers the calls the page makes. Served only by the sandbox.
"use strict";

(function () {
  const hash = new URLSearchParams(location.hash.slice(1));
  const initData = hash.get("tgWebAppData") || "";
  const fields = new URLSearchParams(initData);
  let user = null;
  try { user = JSON.parse(fields.get("user") || "null"); } catch (err) { user = null; }
  let theme = {};
  try { theme = JSON.parse(hash.get("tgWebAppThemeParams") || "{}"); } catch (err) { theme = {}; }
  const root = document.documentElement.style;
  Object.entries(theme).forEach(([key, value]) => {
    root.setProperty("--tg-theme-" + key.replace(/_/g, "-"), String(value));
  });
  const felt = [];
  window.Telegram = {
    WebApp: {
      initData: initData,
      initDataUnsafe: {user: user, start_param: fields.get("start_param") || undefined,
                       auth_date: Number(fields.get("auth_date") || 0)},
      themeParams: theme,
      colorScheme: hash.get("tgWebAppColorScheme") || "light",
      platform: "sandbox",
      version: "8.0",
      ready() {},
      expand() {},
      close() {},
      HapticFeedback: {
        impactOccurred(style) { felt.push("impact:" + style); },
        notificationOccurred(type) { felt.push("notification:" + type); },
        selectionChanged() { felt.push("selection"); },
      },
      felt: felt,
    },
  };
})();
