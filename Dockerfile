# Keyward server image: the API server with its production packages, running as a non-root
# user, data (embedded database or none, server and JWT keys, outbox) on a volume.
# Build: docker build -t keyward .   Run with PostgreSQL: docker compose up -d (compose.yaml)

FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund
COPY api ./api
COPY plugins ./plugins
COPY bin/api.js bin/cache-dir.js bin/register-ts.js ./bin/
COPY tsconfig.json LICENSE ./

FROM node:20-bookworm-slim
ENV NODE_ENV=production \
    KEYWARD_HOST=0.0.0.0 \
    KEYWARD_PORT=8080 \
    KEYWARD_DATA_DIR=/var/lib/keyward \
    KEYWARD_CACHE_DIR=/var/cache/keyward
RUN groupadd --system keyward \
 && useradd --system --gid keyward --home-dir /var/lib/keyward --shell /usr/sbin/nologin keyward \
 && mkdir -p /var/lib/keyward /var/cache/keyward \
 && chown keyward:keyward /var/lib/keyward /var/cache/keyward \
 && chmod 0750 /var/lib/keyward /var/cache/keyward
COPY --from=build /app /usr/lib/keyward
USER keyward
WORKDIR /var/lib/keyward
VOLUME ["/var/lib/keyward"]
EXPOSE 8080
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch(`http://127.0.0.1:${process.env.KEYWARD_PORT}/healthcheck/status.json`).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
CMD ["node", "/usr/lib/keyward/bin/api.js", "start"]
