# mcp-switchboard in a container: node 24 slim (the active LTS line), a non-root user, `switchboard start` as the entry.
#   docker build -t mcp-switchboard .
#   docker run -p 8808:8808 -v "$PWD/config:/config:ro" -e SWITCHBOARD_TOKEN_ALICE=… mcp-switchboard
# The config is /config/proxy.config.json. A container listens beyond loopback, so the config needs
# auth (auth.tokens or auth.oauth) and "listen": {"host": "0.0.0.0"}. The stdio servers it runs
# must exist in the image; extend it:
#   FROM mcp-switchboard
#   USER root
#   RUN npm install -g @modelcontextprotocol/server-memory
#   USER node
# Stop it with time for the drain: docker stop -t 30 (limits.shutdownGraceMs is 10 s).

FROM node:24-slim AS build
WORKDIR /app
COPY package.json package-lock.json tsconfig.json tsconfig.build.json ./
COPY src ./src
# Scripts off: `prepare` would build before the sources are in; the build runs next, on its own.
RUN npm ci --ignore-scripts && npm run build && npm prune --omit=dev

FROM node:24-slim
ENV NODE_ENV=production XDG_STATE_HOME=/state
# tini as PID 1 reaps the orphans a server's helpers leave behind (node would not).
RUN apt-get update && apt-get install -y --no-install-recommends tini && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY --from=build /app/package.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY README.md LICENSE ./
COPY docs ./docs
RUN ln -s /app/dist/cli/main.js /usr/local/bin/switchboard && mkdir -p /state /config && chown node:node /state
# The image's own unprivileged user: a tool a server runs cannot write outside /state.
USER node
EXPOSE 8808
VOLUME ["/state"]
# /readyz: 200 once every server is up, 503 while one is not or the daemon drains (SIGTERM). The
# port is the config's: change it here too.
HEALTHCHECK --interval=15s --timeout=3s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:8808/readyz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
STOPSIGNAL SIGTERM
ENTRYPOINT ["tini", "--", "switchboard", "start", "-c", "/config/proxy.config.json"]
