# svara-bot in a container: the database lives on the volume /data.
#   docker build -t svara-bot .
#   docker run -d --env-file .env -v svara-data:/data svara-bot
# (compose.yaml does the same). PYTHON_IMAGE may name any image with Python 3.11+ and venv.
ARG PYTHON_IMAGE=python:3.12-slim
FROM ${PYTHON_IMAGE}

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    SVARA_DATABASE=/data/svara.sqlite3 \
    PATH=/opt/svara/bin:$PATH

# Charts write Hindi labels and names in Devanagari, which matplotlib's own font lacks.
RUN (command -v apt-get >/dev/null && apt-get update -qq \
        && apt-get install -y -qq --no-install-recommends fonts-lohit-deva \
        && rm -rf /var/lib/apt/lists/*) || echo "no Devanagari font: Hindi chart labels show as boxes"

# Installed as the README says, into its own virtual environment.
COPY pyproject.toml README.md /src/
COPY bot /src/bot
COPY engine /src/engine
RUN python -m venv /opt/svara \
    && /opt/svara/bin/pip install /src \
    && rm -rf /src

RUN useradd --system --uid 10001 --home-dir /data --shell /usr/sbin/nologin svara \
    && mkdir -p /data \
    && chown svara:svara /data
USER svara
WORKDIR /data
VOLUME ["/data"]

# Healthy while a bot process holds the database and the file is usable; in webhook mode
# GET /healthz on the webhook port answers the same question over HTTP.
HEALTHCHECK --interval=60s --timeout=20s --start-period=30s --retries=3 \
    CMD ["python", "-m", "bot", "status"]

CMD ["python", "-m", "bot"]
