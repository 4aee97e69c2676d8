import { AppError } from '@intake/shared/errors';
import { observeRequests, requestId } from '@intake/shared/http';
import { gatewayIsHttps } from '@intake/shared/public-urls';
import type { Services } from '@intake/shared/services';
import { createCaptchaSecretBox } from '@intake/shared/spam';
import Koa from 'koa';
import type { IntakeCustomContext, IntakeState } from './context.js';
import { DEFAULT_ARCHIVE_LIMITS } from './files/archive/budget.js';
import { loadBrowserAssets } from './browser/assets.js';
import { challengeKeys } from './browser/challenge.js';
import { createFilePipeline } from './files/pipeline.js';
import { createScanner, type Scanner } from './files/scan/scanner.js';
import { errorHandler } from './middleware/error-handler.js';
import { transportSecurity } from './middleware/transport-security.js';
import {
  countIntakeOutcome,
  createGatewayMetrics,
  describeIntakeRequest,
  fileStageObservers,
  metricsRouter,
  type GatewayMetrics,
} from './metrics.js';
import { submissionStore } from './submission/submission-store.js';
import { createRateLimits, type RateLimits } from './rate-limit/rate-limits.js';
import { openApiRouter } from './openapi/route.js';
import { browserRouter } from './routes/browser.js';
import { healthRouter } from './routes/health.js';
import { jwksRouter } from './routes/jwks.js';
import { sendRouter } from './routes/send.js';
import { createSiteCache, type SiteCache } from './site-cache/site-cache.js';
import { createCaptchaVerifier, type CaptchaVerifier } from './spam/captcha.js';
import { createRefusalTally, isCountedRefusal, type RefusalTally } from './statistics/refusal-tally.js';

export interface GatewayApp {
  app: Koa<IntakeState, IntakeCustomContext>;
  scanner: Scanner;
  rateLimits: RateLimits;
  metrics: GatewayMetrics;
  /** Cached sites and forms, kept right by the database's change feed; close it on shutdown. */
  siteCache: SiteCache;
  /** The kept-alive client of the CAPTCHA providers; close it on shutdown. */
  captcha: CaptchaVerifier;
  /** Refusals per day and code for the console's statistics; start it, and stop it on shutdown. */
  refusals: RefusalTally;
}

/** The gateway's Koa application: the intake route, health, metrics and (later) OpenAPI. */
export function createGatewayApp(services: Services): GatewayApp {
  const metrics = createGatewayMetrics(services.db);
  const { onInspected, onScanned } = fileStageObservers(metrics);
  const scanner = createScanner({ ...services.config.clamav, onScanned });
  const archiveLimits = { ...DEFAULT_ARCHIVE_LIMITS, ...services.config.archiveLimits };
  const pipeline = createFilePipeline({ scanner, archiveLimits, onInspected });
  const rateLimits = createRateLimits(services.config.rateLimits, services.logger);
  const app = new Koa<IntakeState, IntakeCustomContext>();
  app.proxy = services.config.rateLimits.trustProxy;
  // Each trusted proxy appends the address it saw: the client is that many entries from the right,
  // never an entry further left, which the client may have written itself.
  app.maxIpsCount = services.config.rateLimits.trustProxyHops;
  app.context.services = services;
  // Koa's default handler would print errors; ours renders and logs them in errorHandler.
  app.silent = true;

  const siteCache = createSiteCache(services);
  const captcha = createCaptchaVerifier(services.config.captcha, services.logger);
  // The embedded PGlite runs on this thread: there, groups gather over one turn of the event loop.
  const grouping = { ...services.config.submissionGroup, gatherTurn: services.config.databaseUrl === undefined };
  const store = submissionStore(services.db, grouping, {
    onGroup: (rows) => metrics.submissionGroupRows.observe(rows),
    files: services.storage,
  });
  const keys = challengeKeys(services.config.jwtSecret);
  const send = sendRouter(
    services,
    pipeline,
    store,
    rateLimits,
    siteCache,
    { verifier: captcha, secrets: createCaptchaSecretBox(services.config.tokenEncryptionKey) },
    keys,
  );
  const browser = browserRouter(services, siteCache, rateLimits, keys, loadBrowserAssets(services.logger));
  const health = healthRouter(services, rateLimits);
  const refusals = createRefusalTally(services);
  const countOutcome = countIntakeOutcome(metrics);
  app.use(requestId);
  app.use(transportSecurity(gatewayIsHttps(services.config)));
  app.use(
    observeRequests({
      metrics,
      logger: services.logger,
      describe: describeIntakeRequest,
      onObserved: (ctx, observation) => {
        countOutcome(ctx, observation);
        if (isCountedRefusal(observation)) {
          refusals.record(observation.code!);
        }
      },
    }),
  );
  app.use(errorHandler);
  app.use(health.routes());
  app.use(metricsRouter(metrics).routes());
  app.use(openApiRouter().routes());
  app.use(jwksRouter(services).routes());
  app.use(browser.routes());
  app.use(send.routes());
  app.use(
    send.allowedMethods({ throw: true, methodNotAllowed: () => new AppError('method_not_allowed', 'Use POST.') }),
  );
  return { app, scanner, rateLimits, metrics, siteCache, captcha, refusals };
}
