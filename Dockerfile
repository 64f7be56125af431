# commandpost: the Discord bot (or the console without a token), installed as in the README.
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    COMMANDPOST_DB=/data/commandpost.db \
    COMMANDPOST_PICTURES=/data/boards

WORKDIR /app
COPY pyproject.toml README.md ./
COPY engine ./engine
COPY renderer ./renderer
COPY bot ./bot
# the players' rules documents, read by `rules` from the working directory
COPY docs/rules ./docs/rules
RUN pip install . && useradd --create-home --uid 10001 commandpost \
    && mkdir -p /data && chown commandpost:commandpost /data

USER commandpost
VOLUME ["/data"]
CMD ["commandpost"]
