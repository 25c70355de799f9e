"""Getting updates: long polling and the webhook settings."""

from __future__ import annotations

import re
from typing import Any

from bot.sandbox.api_common import Ctx, Handler
from bot.sandbox.errors import CONFLICT_WEBHOOK, ApiError, bad_request

_SECRET = re.compile(r"[A-Za-z0-9_-]{1,256}")


async def get_updates(ctx: Ctx) -> Any:
    """getUpdates with real long polling: waits up to `timeout` s for an update."""
    if ctx.webhook.url:
        raise ApiError(409, CONFLICT_WEBHOOK)
    params = ctx.params
    limit = min(max(params.get_int("limit", 100) or 100, 1), 100)
    timeout = max(params.get_float("timeout", 0.0), 0.0)
    allowed = params.raw("allowed_updates")
    ctx.world.updates.set_allowed(allowed if isinstance(allowed, list) else None)
    updates = await ctx.world.updates.poll(params.get_int("offset"), limit, timeout)
    if updates:
        ctx.world.touch()
    return updates


async def set_webhook(ctx: Ctx) -> Any:
    """setWebhook: an empty url removes it; http is allowed, as on a self-hosted server."""
    params = ctx.params
    url = params.get_str("url") or ""
    secret = params.get_str("secret_token")
    if secret is not None and not _SECRET.fullmatch(secret):
        raise bad_request("secret token contains unallowed characters")
    if url and not url.lower().startswith(("http://", "https://")):
        raise bad_request("bad webhook: An HTTPS URL must be provided for webhook")
    if params.get_bool("drop_pending_updates"):
        ctx.world.updates.drop_all()
    allowed = params.raw("allowed_updates")
    allowed_list = allowed if isinstance(allowed, list) else None
    ctx.world.updates.set_allowed(allowed_list)
    if url:
        await ctx.webhook.set(url, secret, allowed_list)
        ctx.webhook.max_connections = params.get_int("max_connections", 40) or 40
    else:
        await ctx.webhook.stop()
    return True


async def delete_webhook(ctx: Ctx) -> Any:
    """deleteWebhook, optionally dropping pending updates."""
    await ctx.webhook.stop()
    if ctx.params.get_bool("drop_pending_updates"):
        ctx.world.updates.drop_all()
    return True


async def get_webhook_info(ctx: Ctx) -> Any:
    """getWebhookInfo."""
    return ctx.webhook.info()


HANDLERS: dict[str, Handler] = {
    "getupdates": get_updates,
    "setwebhook": set_webhook,
    "deletewebhook": delete_webhook,
    "getwebhookinfo": get_webhook_info,
}
