"""Running the bot for real: start-up checks, the database lock, the webhook server with its
health check, automatic backups, ``restore`` and ``status``."""
