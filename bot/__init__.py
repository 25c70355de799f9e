"""The Telegram bot that deals Svara in group chats."""
