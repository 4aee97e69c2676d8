# Multi-stage build. The build stage installs every dependency and compiles the workspaces; the
# runtime stage installs production dependencies only and takes the compiled output (the migrations
# included, compiled into migrations/dist, and the contract the kernel re-exports, contract/dist).
# The development-only workspaces (test-files, tests, bench) declare devDependencies only and never
# reach the runtime image (test-files and bench are built; tests, the runs across services, has
# nothing to build and is here for npm ci's sake). The command line (cli) and the site-backend
# client (client) are built too but not shipped in the image: people install them with `npm pack`
# tarballs (docs/cli.md, docs/client.md). One image runs every service; docker-compose.yml picks the
# entry point of each:
#   node gateway/dist/main.js           the intake gateway (GATEWAY_PORT, 3000)
#   node admin-api/dist/main.js         the admin API (ADMIN_PORT, 4000)
#   node worker/dist/main.js            the delivery worker
#   node shared/dist/db/migrate-cli.js  apply pending migrations and exit
#   node scripts/start.js               all of it in one process (the default)
# Health checks belong to the orchestrator (docker-compose.yml probes /readyz).

# The workspaces' manifests, which both stages install from (npm ci needs every workspace's).
FROM node:24-slim AS manifests
WORKDIR /app
COPY package.json package-lock.json ./
COPY contract/package.json contract/
COPY migrations/package.json migrations/
COPY shared/package.json shared/
COPY admin-api/package.json admin-api/
COPY gateway/package.json gateway/
COPY worker/package.json worker/
COPY test-files/package.json test-files/
COPY cli/package.json cli/
COPY tests/package.json tests/
COPY bench/package.json bench/
COPY admin-web/package.json admin-web/
COPY client/package.json client/

FROM manifests AS build
RUN npm ci --no-audit --no-fund
COPY tsconfig.base.json tsconfig.json ./
COPY scripts scripts
# docs/ and the README: docs/schema.graphql types the console, and both become its Docs pages.
COPY README.md ./
COPY docs docs
COPY contract contract
COPY migrations migrations
COPY shared shared
COPY admin-api admin-api
COPY gateway gateway
COPY worker worker
COPY test-files test-files
COPY cli cli
COPY bench bench
COPY admin-web admin-web
COPY client client
# tsc, then docs/schema.graphql, then the console (typed against that schema) into admin-web/dist.
RUN npm run build

FROM manifests AS runtime
ENV NODE_ENV=production
RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force
COPY --from=build /app/contract/dist contract/dist
COPY --from=build /app/migrations/dist migrations/dist
COPY --from=build /app/shared/dist shared/dist
COPY --from=build /app/admin-api/dist admin-api/dist
COPY --from=build /app/gateway/dist gateway/dist
COPY --from=build /app/worker/dist worker/dist
# The console: static files the admin service serves at / (nothing of admin-web runs on the server).
COPY --from=build /app/admin-web/dist admin-web/dist
COPY scripts scripts
# DATA_DIR: local file storage and uploads in progress. A named volume mounted here starts with
# this ownership, so the unprivileged user can write it.
RUN mkdir -p /data && chown node:node /data
ENV DATA_DIR=/data
USER node
EXPOSE 3000 4000
CMD ["node", "scripts/start.js"]
