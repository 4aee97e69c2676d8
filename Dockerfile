# Multi-stage build: compile with dev dependencies, run with production dependencies only.
FROM node:24-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
COPY migrations/package.json migrations/
COPY shared/package.json shared/
COPY admin-api/package.json admin-api/
COPY gateway/package.json gateway/
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build && npm prune --omit=dev

FROM node:24-slim
ENV NODE_ENV=production
WORKDIR /app
COPY --from=build /app /app
USER node
EXPOSE 3000 4000
CMD ["node", "scripts/start.js"]
