"""The sandbox in a browser: the stand-in, the real bot on it, and a page to play from.

``python -m bot sandbox`` starts it (`bot.webui.run`); `bot.webui.site` serves the page
and its small JSON API, `bot.webui.robots` plays the seats handed to the computer.
"""
