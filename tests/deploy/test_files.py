"""What the deployment files promise: the alert rules name figures ``/metrics`` really has,
logs rotate, replication is there but off, the image checks health truthfully and pins
what it installs, and the licence is the one pyproject declares."""

from __future__ import annotations

import re
import tempfile
import time
from pathlib import Path

from prometheus_client.parser import text_string_to_metric_families

from bot.metrics import Metrics
from bot.ops.backups import newest_backup_in
from tests.bot.proc import REPO


def test_alert_rules_name_figures_the_bot_exports() -> None:
    with tempfile.TemporaryDirectory() as folder:
        stamp = time.strftime("%Y%m%dT%H%M%SZ", time.gmtime())
        (Path(folder) / f"svara-{stamp}.sqlite3").write_bytes(b"")
        metrics = Metrics(newest_backup=newest_backup_in(Path(folder)), backups=True)
        metrics.ready = lambda: True
        metrics.update_received()
        metrics.fetched()
        metrics.call("editMessageText", 429, 0.1)
        exported = {s.name for f in text_string_to_metric_families(metrics.render().decode())
                    for s in f.samples}
    rules = (REPO / "deploy" / "alerts.yml").read_text(encoding="utf-8")
    named = set(re.findall(r"\bsvara_[a-z0-9_]+", rules))
    assert {"svara_last_fetch_age_seconds", "svara_last_backup_age_seconds"} <= named
    assert named <= exported, named - exported
    for alert in ("SvaraBotDown", "SvaraBotUpdatesStopped", "SvaraBotBackupsStale",
                  "SvaraBotNotReady", "SvaraBotSavesRefused"):
        assert f"alert: {alert}" in rules


def test_compose_rotates_logs_and_keeps_replication_off_by_default() -> None:
    compose = (REPO / "compose.yaml").read_text(encoding="utf-8")
    assert compose.count("max-size: 10m") == 2
    assert 'profiles: ["litestream"]' in compose  # started only with --profile litestream
    assert "./deploy/litestream.yml:/etc/litestream.yml:ro" in compose
    assert (REPO / "deploy" / "litestream.yml").is_file()


def test_the_image_checks_health_and_installs_the_locked_versions() -> None:
    docker = (REPO / "Dockerfile").read_text(encoding="utf-8")
    assert 'CMD ["python", "-m", "bot", "status"]' in docker
    assert "SVARA_HEALTH_PORT=8080" in docker and "MPLCONFIGDIR=" in docker
    assert "pip install -r /src/requirements.lock" in docker
    assert re.search(r"ARG PYTHON_IMAGE=python:\d+\.\d+\.\d+-slim", docker)
    lock = (REPO / "requirements.lock").read_text(encoding="utf-8").splitlines()
    pins = [line for line in lock if line and not line.startswith("#")]
    assert pins and all(re.fullmatch(r"[A-Za-z0-9_.-]+==[^=\s]+", p) for p in pins), pins
    names = {p.split("==")[0].lower().replace("_", "-") for p in pins}
    assert {"python-telegram-bot", "prometheus-client", "matplotlib", "aiosqlite"} <= names


def test_the_licence_is_mit_as_declared() -> None:
    text = (REPO / "LICENSE").read_text(encoding="utf-8")
    assert text.startswith("MIT License") and "svara-bot contributors" in text
    assert 'license = "MIT"' in (REPO / "pyproject.toml").read_text(encoding="utf-8")


def services(path: Path) -> dict[str, str]:
    """Each service of a compose file with the text of its block (comments left out)."""
    lines = path.read_text(encoding="utf-8").splitlines()
    text = "\n" + "\n".join(line.split(" #")[0] for line in lines
                     if not line.lstrip().startswith("#")) + "\n"
    text = text.split("\nservices:\n", 1)[1]
    text = text.split("\nvolumes:\n", 1)[0]
    blocks = re.split(r"\n(?=  [a-z][a-z0-9_-]*:\n)", "\n" + text)
    found = {}
    for block in blocks:
        name = re.match(r"\s*([a-z][a-z0-9_-]*):\n", block)
        if name:
            found[name.group(1)] = block
    return found


def test_each_compose_service_gets_only_its_own_secrets() -> None:
    compose = services(REPO / "compose.yaml")
    assert set(compose) == {"bot", "litestream"}
    assert "env_file: .env" in compose["bot"]
    assert "litestream.env" not in compose["bot"]
    assert ".env\n" not in compose["litestream"].replace("litestream.env", "")
    assert "path: litestream.env" in compose["litestream"]
    example = (REPO / ".env.example").read_text(encoding="utf-8")
    assert "LITESTREAM_" not in example  # the bot's file never holds the storage keys
    storage = (REPO / "litestream.env.example").read_text(encoding="utf-8")
    assert "LITESTREAM_SECRET_ACCESS_KEY=" in storage and "SVARA_BOT_TOKEN" not in storage


def test_every_image_is_pinned_to_an_exact_release() -> None:
    for path in (REPO / "compose.yaml", REPO / "deploy" / "compose.caddy.yaml"):
        for name, block in services(path).items():
            image = re.search(r"\n    image: (\S+)", block)
            if image is None or "\n    build:" in block:
                continue  # built here from the Dockerfile, whose base is pinned
            tag = image.group(1)
            assert re.search(r":\d+\.\d+\.\d+(@sha256:[0-9a-f]{64})?$", tag), (path, name, tag)
