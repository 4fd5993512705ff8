# syntax=docker/dockerfile:1
# The service image: TypeScript compiled in a build stage, only production dependencies shipped.

FROM node:20-bookworm-slim AS build
WORKDIR /app
# better-sqlite3 downloads a prebuilt binary; the compilers are its fallback when none matches.
RUN apt-get update \
 && apt-get install -y --no-install-recommends python3 make g++ \
 && rm -rf /var/lib/apt/lists/*
COPY package.json package-lock.json ./
# npm ci runs the package's `prepare` script, which must be there; without src/ and dashboard/
# it builds nothing, so this layer is reused until the dependencies change.
COPY scripts/ensure-built.mjs ./scripts/
RUN npm ci
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
COPY dashboard ./dashboard
RUN npm run build && npm prune --omit=dev

FROM node:20-bookworm-slim
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=8080 \
    DATABASE_URL=sqlite:/data/verify.db
WORKDIR /app
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
# Read at run time: the version (package.json), the SQL migrations and the code calls' voice
# prompts; the dashboard is in dist/.
COPY package.json ./
COPY migrations ./migrations
COPY assets ./assets
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME ["/data"]
EXPOSE 8080
# 200 while the database is reachable (ok or degraded); 503 when it is not.
HEALTHCHECK --interval=10s --timeout=3s --start-period=15s --retries=3 \
  CMD ["node", "-e", "fetch(`http://127.0.0.1:${process.env.PORT}/health`).then((r) => process.exit(r.status === 200 ? 0 : 1), () => process.exit(1))"]
# node itself is PID 1 and handles SIGTERM (graceful stop); compose adds `init: true` to reap zombies.
CMD ["node", "dist/main.js"]
