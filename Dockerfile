# gammon-bot in a container: `docker compose up -d` runs it beside PostgreSQL (compose.yaml).
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 PIP_NO_CACHE_DIR=1
WORKDIR /app

# The package first (its dependencies change less often than the code).
COPY pyproject.toml README.md constraints.txt ./
COPY bot ./bot
COPY cogs ./cogs
COPY renderers ./renderers
# The PostgreSQL driver too (compose.yaml wires DATABASE_URL), at the versions the tests ran
# with (constraints.txt).
RUN pip install -c constraints.txt ".[postgres]" \
    && useradd --system --home-dir /app --shell /usr/sbin/nologin gammon \
    && mkdir -p /app/data && chown gammon /app/data

USER gammon
# Used only without DATABASE_URL: then mount a volume on /app/data to keep the games.
VOLUME ["/app/data"]
# The web board (only when WEB_URL is set): inside a container it must listen on every
# interface to be reached through the published port; WEB_PORT is 8080 unless set.
ENV WEB_HOST=0.0.0.0
EXPOSE 8080
# SIGTERM lets the bot finish the action in flight and close the database.
STOPSIGNAL SIGTERM
CMD ["python", "-m", "bot"]
