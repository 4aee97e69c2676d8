// The admin Koa app: GraphQL (Apollo Server on Koa) at POST /graphql, signed file and export downloads,
// health routes, `/metrics` (Prometheus) and the web console at `/`.
import 'reflect-metadata';
import { ApolloServer } from '@apollo/server';
import { ApolloServerPluginLandingPageDisabled } from '@apollo/server/plugin/disabled';
import { koaMiddleware } from '@as-integrations/koa';
import { answerJwks, observeRequests, requestId } from '@intake/shared/http';
import { CONNECTION_TIMEOUT_MS } from '@intake/shared/db';
import {
  createServiceMetrics,
  metricsEndpoint,
  registerDatabasePoolMetrics,
  type ServiceMetrics,
} from '@intake/shared/metrics';
import { dummyPasswordHash } from '@intake/shared/password';
import { connectRedisStore } from '@intake/shared/rate-limit';
import { adminIsHttps, publicOrigins, type Observed } from '@intake/shared/public-urls';
import type { Services } from '@intake/shared/services';
import { Router } from '@koa/router';
import Koa from 'koa';
import { createAdminTokens } from './access/admin-token.js';
import { createRecoveryCodeHasher } from './sign-in/two-factor/recovery-codes.js';
import { totpSecretBox } from './sign-in/two-factor/second-factor.js';
import { auditPlugin } from './audit/audit-plugin.js';
import { authPlugin } from './access/auth-plugin.js';
import { createAttemptLimiter } from './access/attempt-limiter.js';
import { LOGIN_LIMITS, LOGIN_WINDOW_SECONDS } from './access/login-policy.js';
import { createContextFunction, type AdminContext, type AdminDeps } from './context.js';
import { CONSOLE_ROUTE, serveConsole } from './console/serve-console.js';
import { createExportLinks } from './exports/export-link.js';
import { createDownloadLinks } from './lib/download-link.js';
import type { AdminState } from './koa-context.js';
import { currentPublicOrigins, rememberRequestOrigin } from './http/public-origins.js';
import { errorHandler } from './http/error-handler.js';
import { logResponseErrors } from './http/response-errors.js';
import { jsonBody } from './http/json-body.js';
import { securityHeaders } from './http/security-headers.js';
import { latestAuditCheckpoint } from './audit/audit-checkpoint-route.js';
import { downloadExport } from './exports/export-route.js';
import { downloadFile } from './files/file-route.js';
import { healthz, readyz } from './http/health.js';
import { finishSso, startSso } from './sign-in/sso/oidc-routes.js';
import { createSsoDeps } from './sign-in/sso/sso-deps.js';
import { proofMethods } from './sign-in/confirmation/proof-methods.js';
import { buildAdminSchema } from './schema/build-schema.js';
import { errorLoggingPlugin } from './schema/error-logging-plugin.js';
import { nulArgumentPlugin } from './schema/nul-argument-plugin.js';
import { formatError } from './errors.js';
import { sessionCookie } from './sign-in/sessions/session-cookie.js';
import { EVENTS_PATH, streamEvents } from './live/events-route.js';
import { createSubmissionEvents } from './live/submission-events.js';
import { aliasLimitRule, costLimitRule, depthLimitRule, rootFieldLimitRule } from './schema/limits.js';

export interface AdminAppOptions {
  /**
   * The real ports where ADMIN_PORT or GATEWAY_PORT is 0 (known only after listening), for the
   * public origins when nothing configures them; read per link.
   */
  observedPorts?: () => Omit<Observed, 'requestOrigin'>;
  /** The built console; default `admin-web/dist` of this repository. */
  consoleDir?: string;
}

export interface AdminApp {
  app: Koa<AdminState>;
  /** This app's registry (one per app instance) and its HTTP histogram. */
  metrics: ServiceMetrics;
  /** Ends the open live-update streams, which would otherwise hold a shutdown's drain to its end. */
  endStreams(): void;
  /** Stops Apollo, the live-update feed and Redis (call after the HTTP server stopped accepting requests). */
  stop(): Promise<void>;
}

// A bound on parse work for hostile documents; the standard introspection query is ~300 tokens.
const MAX_DOCUMENT_TOKENS = 10_000;

/** Builds the app and starts Apollo; `stop` ends Apollo. */
export async function buildAdminApp(services: Services, options: AdminAppOptions = {}): Promise<AdminApp> {
  const { config, logger } = services;
  const observedPorts = options.observedPorts ?? (() => ({}));
  const publicOrigin = () => currentPublicOrigins(config, observedPorts()).admin;
  // With REDIS_URL every admin process shares the login counters (the gateway's Redis settings).
  const redis = config.rateLimits.redisUrl
    ? connectRedisStore(config.rateLimits.redisUrl, logger, 'login limits')
    : undefined;
  const deps: AdminDeps = {
    services,
    adminTokens: createAdminTokens(config),
    downloadLinks: createDownloadLinks({
      jwtSecret: config.jwtSecret,
      ttlSeconds: config.downloadUrlTtlSeconds,
      publicOrigin,
    }),
    exportLinks: createExportLinks({
      jwtSecret: config.jwtSecret,
      ttlSeconds: config.downloadUrlTtlSeconds,
      publicOrigin,
    }),
    exportFileLinks: createDownloadLinks({
      jwtSecret: config.jwtSecret,
      ttlSeconds: config.exportDownloadUrlTtlSeconds,
      publicOrigin,
    }),
    secondFactorKeys: {
      box: totpSecretBox(config.tokenEncryptionKey),
      hashRecoveryCode: createRecoveryCodeHasher(config.jwtSecret),
    },
    loginAttempts: createAttemptLimiter({
      limits: LOGIN_LIMITS,
      windowSeconds: LOGIN_WINDOW_SECONDS,
      redis,
      redisKeyPrefix: config.rateLimits.redisKeyPrefix,
    }),
    exportProcess: !config.databaseUrl
      ? null
      : {
          databaseUrl: config.databaseUrl,
          connectionTimeoutMs: CONNECTION_TIMEOUT_MS,
          jwtSecret: config.jwtSecret,
          fileLinkTtlSeconds: config.exportDownloadUrlTtlSeconds,
          publicOrigin,
        },
    publicOrigin,
    mailedLinkOrigin: () => publicOrigins(config, observedPorts()).admin,
    gatewayOrigin: () => currentPublicOrigins(config, observedPorts()).gateway,
    sso: createSsoDeps(config, publicOrigin),
    proofMethods: (em, adminId) => proofMethods(em, config, adminId),
  };

  const apollo = new ApolloServer<AdminContext>({
    schema: await buildAdminSchema(),
    logger,
    formatError,
    validationRules: [depthLimitRule(), aliasLimitRule(), rootFieldLimitRule(), costLimitRule()],
    parseOptions: { maxTokens: MAX_DOCUMENT_TOKENS },
    plugins: [
      authPlugin(),
      nulArgumentPlugin(),
      auditPlugin(),
      errorLoggingPlugin(),
      ApolloServerPluginLandingPageDisabled(),
    ],
    // Introspection is allowed, behind the same token as everything else (see auth-plugin.ts).
    introspection: true,
    includeStacktraceInErrorResponses: false,
    // Validation runs before authentication: no "did you mean" hints for anonymous callers.
    hideSchemaDetailsFromClientErrors: true,
    allowBatchedHttpRequests: false,
    // The process entry point owns SIGINT/SIGTERM and the shutdown order.
    stopOnTerminationSignals: false,
  });
  try {
    await apollo.start();
  } catch (error) {
    await redis?.close();
    throw error;
  }
  // Computed now, not at the first login with an unknown e-mail, where its cost would show.
  await dummyPasswordHash();

  // With a proxy in front, the client is TRUST_PROXY_HOPS entries from the right of X-Forwarded-For:
  // entries further left may have been written by the client itself.
  const app = new Koa<AdminState>({
    proxy: config.rateLimits.trustProxy,
    maxIpsCount: config.rateLimits.trustProxyHops,
  });
  // Errors before the answer are handled by errorHandler; this sees the rest (a download stream
  // failing half-way, a client gone mid-answer) instead of Koa printing them to stderr.
  app.on('error', logResponseErrors(logger));

  const metrics = createServiceMetrics('admin');
  registerDatabasePoolMetrics(metrics.registry, services.db);

  const submissionEvents = createSubmissionEvents(services);
  const events = streamEvents(services, deps.adminTokens, submissionEvents, {
    readSession: (ctx) => sessionCookie(ctx, config).read(),
  });

  const router = new Router<AdminState>();
  router.get('/healthz', healthz);
  router.get('/readyz', readyz(services));
  router.get('/metrics', metricsEndpoint(metrics.registry));
  // The receipt keys here too, for deployments that expose only the admin origin to auditors.
  router.get('/.well-known/jwks.json', (ctx) => answerJwks(ctx, services));
  router.get('/.well-known/audit-checkpoint', latestAuditCheckpoint(services));
  router.get('/files/:id', downloadFile(services, deps.downloadLinks));
  router.get('/exports/:token', downloadExport(deps));
  router.get('/auth/oidc/start', startSso(services, deps.sso));
  router.get('/auth/oidc/callback', finishSso(deps));
  router.get(EVENTS_PATH, events.handle);
  router.post('/graphql', jsonBody(), koaMiddleware(apollo, { context: createContextFunction(deps) }));

  app.use(requestId);
  app.use(rememberRequestOrigin);
  app.use(observeRequests({ metrics, logger, quietRoutes: [CONSOLE_ROUTE] }));
  app.use(errorHandler(logger));
  app.use(securityHeaders(adminIsHttps(config)));
  app.use(router.routes());
  app.use(serveConsole(options.consoleDir));
  app.use(router.allowedMethods());

  return {
    app,
    metrics,
    endStreams: () => events.endAll(),
    stop: async () => {
      events.endAll();
      await submissionEvents.close();
      await apollo.stop();
      await redis?.close();
    },
  };
}

/** The admin Koa app with Apollo started (schema built once). To stop Apollo too, use `startAdmin`. */
export async function createAdminApp(services: Services, options: AdminAppOptions = {}): Promise<Koa<AdminState>> {
  return (await buildAdminApp(services, options)).app;
}
