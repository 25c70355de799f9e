"""The table as a Telegram Mini App: the page, who opened it, its state and its presses."""
