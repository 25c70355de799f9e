# svara-bot in a container: the database lives on the volume /data.
#   docker build -t svara-bot .
#   docker run -d --env-file .env -v svara-data:/data svara-bot
# (compose.yaml does the same). PYTHON_IMAGE may name any image with Python 3.11+ and venv.
# The base is pinned to an exact release tag; pin it by digest too where you build:
#   docker buildx imagetools inspect python:3.12.8-slim-bookworm   # prints the digest
#   docker build --build-arg PYTHON_IMAGE=python:3.12.8-slim-bookworm@sha256:<digest> .
ARG PYTHON_IMAGE=python:3.12.8-slim-bookworm
FROM ${PYTHON_IMAGE}

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    SVARA_DATABASE=/data/svara.sqlite3 \
    SVARA_HEALTH_PORT=8080 \
    SVARA_HEALTH_LISTEN=0.0.0.0 \
    MPLCONFIGDIR=/data/.cache/matplotlib \
    PATH=/opt/svara/bin:$PATH

# Charts write Hindi labels and names in Devanagari, which matplotlib's own font lacks.
RUN (command -v apt-get >/dev/null && apt-get update -qq \
        && apt-get install -y -qq --no-install-recommends fonts-lohit-deva \
        && rm -rf /var/lib/apt/lists/*) || echo "no Devanagari font: Hindi chart labels show as boxes"

# Installed as the README says, into its own virtual environment, with the exact versions
# of requirements.lock (what CI tests) and nothing else.
COPY requirements.lock pyproject.toml README.md LICENSE /src/
COPY bot /src/bot
COPY engine /src/engine
RUN python -m venv /opt/svara \
    && /opt/svara/bin/pip install -r /src/requirements.lock \
    && /opt/svara/bin/pip install --no-deps /src \
    && rm -rf /src

RUN useradd --system --uid 10001 --home-dir /data --shell /usr/sbin/nologin svara \
    && mkdir -p /data \
    && chown svara:svara /data
USER svara
WORKDIR /data
VOLUME ["/data"]
EXPOSE 8080

# Healthy while a bot process holds the database, the file is usable and the bot's own
# GET /livez (port 8080, SVARA_HEALTH_PORT) says updates come in. GET /metrics on the
# same port is for Prometheus; publish it only to your monitoring.
HEALTHCHECK --interval=60s --timeout=20s --start-period=30s --retries=3 \
    CMD ["python", "-m", "bot", "status"]

CMD ["python", "-m", "bot"]
