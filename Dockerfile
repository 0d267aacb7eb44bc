# syntax=docker/dockerfile:1
# The Filings server: `filings serve` as a non-root user. Build: docker build -t filings .
# Run on the embedded database: docker run -p 8080:8080 -v filings-data:/data filings
# Run on PostgreSQL: add -e FILINGS_DATABASE_URL=postgres://user:password@host:5432/filings

# Build stage: install every dependency from the lockfile, compile, then keep production ones only.
FROM node:20.20.2-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json tsconfig.base.json tsconfig.json ./
COPY packages ./packages
# `npm ci` compiles the workspace (its `prepare` script runs `tsc -b`).
RUN npm ci --no-audit --no-fund \
  && npm prune --omit=dev --no-audit --no-fund \
  && find packages -name '*.tsbuildinfo' -delete

# Runtime stage: the compiled packages and their production dependencies, nothing else.
FROM node:20.20.2-bookworm-slim
ENV NODE_ENV=production \
  FILINGS_HOST=0.0.0.0 \
  FILINGS_PORT=8080 \
  FILINGS_DATA_DIR=/data
WORKDIR /app
COPY --from=build --chown=root:root /app/package.json ./
COPY --from=build --chown=root:root /app/node_modules ./node_modules
COPY --from=build --chown=root:root /app/packages ./packages
# The embedded database lives in /data, the one directory the server may write.
RUN mkdir /data && chown node:node /data
USER node
VOLUME ["/data"]
EXPOSE 8080
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + process.env.FILINGS_PORT + '/healthz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# SIGTERM stops it gracefully (FILINGS_SHUTDOWN_GRACE); give `docker stop` more time than that grace.
STOPSIGNAL SIGTERM
ENTRYPOINT ["node", "packages/server/bin/filings.js"]
CMD ["serve"]
