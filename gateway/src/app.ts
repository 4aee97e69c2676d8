import { AppError, type Services } from '@intake/shared';
import Koa from 'koa';
import type { IntakeState } from './context.js';
import { DEFAULT_ARCHIVE_LIMITS } from './files/archive/index.js';
import { createFilePipeline } from './files/pipeline.js';
import { createScanner, type Scanner } from './files/scan/scanner.js';
import { errorHandler } from './middleware/error-handler.js';
import { requestId } from './middleware/request-id.js';
import { healthRouter } from './routes/health.js';
import { sendRouter } from './routes/send.js';

export interface GatewayApp {
  app: Koa<IntakeState, { services: Services }>;
  scanner: Scanner;
}

/** The gateway's Koa application: only the intake route, health and (later) metrics and OpenAPI. */
export function createGatewayApp(services: Services): GatewayApp {
  const scanner = createScanner(services.config.clamav);
  const archiveLimits = { ...DEFAULT_ARCHIVE_LIMITS, ...services.config.archiveLimits };
  const pipeline = createFilePipeline({ scanner, archiveLimits });
  const app = new Koa<IntakeState, { services: Services }>();
  app.proxy = services.config.rateLimits.trustProxy;
  app.context.services = services;
  // Koa's default handler would print errors; ours renders and logs them in errorHandler.
  app.silent = true;

  const send = sendRouter(services, pipeline);
  const health = healthRouter(services);
  app.use(requestId as never);
  app.use(errorHandler as never);
  app.use(health.routes());
  app.use(send.routes());
  app.use(
    send.allowedMethods({ throw: true, methodNotAllowed: () => new AppError('method_not_allowed', 'Use POST.') }),
  );
  return { app, scanner };
}
