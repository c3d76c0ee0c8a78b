# The bot in a container. Untried where it was written (no Docker engine there): see
# "Containers" in the README's "Running at scale". From the repository's root:
#   docker build -t boardbot .
#   docker run --env-file .env -v boardbot-data:/app/data boardbot   # SQLite, one process
# or, with PostgreSQL beside it: docker compose up -d (compose.yaml).
FROM python:3.11-slim

ENV PYTHONUNBUFFERED=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    DATABASE_PATH=/app/data/boardbot.sqlite3 \
    HEALTH_PORT=8080

# A user of its own: the bot needs no root, only its data folder.
RUN useradd --system --create-home --home-dir /app --shell /usr/sbin/nologin boardbot
WORKDIR /app

# The README's install command, not editable (the image is not a checkout).
COPY pyproject.toml README.md ./
COPY rules ./rules
COPY render ./render
COPY ai ./ai
COPY bot ./bot
RUN python -m pip install --no-cache-dir . \
    && mkdir -p /app/data && chown boardbot /app/data

USER boardbot
VOLUME /app/data
EXPOSE 8080

# A stop (docker stop, compose down) is SIGTERM, which the bot takes as Ctrl-C: it
# finishes what it is doing, frees its shards at once and exits.
STOPSIGNAL SIGTERM
# /healthz on HEALTH_PORT: 200 when connected to Discord, the database answering and the
# outbox moving; 503 otherwise (HEALTH_PORT emptied: no check).
HEALTHCHECK --interval=30s --timeout=10s --start-period=60s --retries=3 \
    CMD ["python", "-c", "import os, sys, urllib.request; port = os.environ.get('HEALTH_PORT'); sys.exit(0 if not port else urllib.request.urlopen(f'http://127.0.0.1:{port}/healthz', timeout=8).status != 200)"]
CMD ["python", "-m", "bot"]
