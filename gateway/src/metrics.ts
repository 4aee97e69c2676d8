// The gateway's metric set, beside the shared HTTP histogram and process metrics: what the intake
// route accepted and refused, the files it took, and how long inspection and scanning took.
import cluster from 'node:cluster';
import Router from './koa-router.js';
import type { Database } from '@intake/shared/db';
import type { RequestDetails, RequestObservation } from '@intake/shared/http';
import {
  createServiceMetrics,
  metricsEndpoint,
  registerDatabasePoolMetrics,
  type ServiceMetrics,
} from '@intake/shared/metrics';
import { Counter, Histogram } from 'prom-client';
import { clusterMetricsReader } from './cluster/cluster-metrics.js';
import type { IntakeContext } from './context.js';
import type { InspectionResult } from './files/pipeline.js';
import type { ScanVerdict } from './files/scan/scanner.js';
import type { SubmissionAnswer } from './submission/present-submission.js';

export const SEND_ROUTE = '/api/v1/send/:code';

export interface GatewayMetrics extends ServiceMetrics {
  submissionsAccepted: Counter;
  refusals: Counter<'code'>;
  spam: Counter<'reason'>;
  files: Counter<'type'>;
  inspectionDuration: Histogram<'type' | 'result'>;
  scanDuration: Histogram<'result'>;
  submissionGroupRows: Histogram;
}

// Inspection of a small document takes milliseconds; a large 7z through the wasm worker, seconds.
const FILE_STAGE_BUCKETS = [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

export function createGatewayMetrics(db: Database): GatewayMetrics {
  const base = createServiceMetrics('gateway');
  const registers = [base.registry];
  registerDatabasePoolMetrics(base.registry, db);
  return {
    ...base,
    submissionsAccepted: new Counter({
      name: 'intake_submissions_accepted_total',
      help: 'Submissions answered 201 (an Idempotency-Key replay included).',
      registers,
    }),
    refusals: new Counter({
      name: 'intake_refusals_total',
      help: 'Problem-details answers of the gateway, by error catalogue code.',
      labelNames: ['code'],
      registers,
    }),
    spam: new Counter({
      name: 'intake_spam_total',
      help: 'Submissions stored as spam (answered 201 like the others), by reason.',
      labelNames: ['reason'],
      registers,
    }),
    files: new Counter({
      name: 'intake_files_total',
      help: 'Files of accepted submissions, by detected MIME type.',
      labelNames: ['type'],
      registers,
    }),
    inspectionDuration: new Histogram({
      name: 'intake_file_inspection_duration_seconds',
      help: 'Archive and office document inspection time per file, by MIME type and result.',
      labelNames: ['type', 'result'],
      buckets: FILE_STAGE_BUCKETS,
      registers,
    }),
    scanDuration: new Histogram({
      name: 'intake_file_scan_duration_seconds',
      help: 'ClamAV scan time per file, by verdict (clean, infected, error).',
      labelNames: ['result'],
      buckets: FILE_STAGE_BUCKETS,
      registers,
    }),
    submissionGroupRows: new Histogram({
      name: 'intake_submission_group_rows',
      help: 'Submissions per group commit: its count is the commits, its sum the rows (docs/performance.md#group-commit).',
      // Powers of two, up to SUBMISSION_GROUP_MAX's ceiling (1000).
      buckets: [1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024],
      registers,
    }),
  };
}

/** Hooks for the file pipeline and the scanner. */
export function fileStageObservers(metrics: GatewayMetrics) {
  return {
    onInspected: (durationMs: number, mimeType: string, result: InspectionResult) =>
      metrics.inspectionDuration.observe({ type: mimeType, result }, durationMs / 1000),
    onScanned: (durationMs: number, verdict: ScanVerdict) =>
      metrics.scanDuration.observe({ result: verdict }, durationMs / 1000),
  };
}

function problemCodeOf(ctx: IntakeContext): string | undefined {
  // A browser's own form post is refused with a page, not a problem document (browser/answers.ts).
  if (ctx.state.pageRefusal !== undefined) {
    return ctx.state.pageRefusal;
  }
  if (ctx.response.type !== 'application/problem+json') {
    return undefined;
  }
  const code = (ctx.body as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

/** The ids an access line may carry: site and form once known, and the refusal code. */
export function describeIntakeRequest(ctx: IntakeContext): RequestDetails {
  return { siteId: ctx.state.site?.id, formId: ctx.state.form?.id, code: problemCodeOf(ctx) };
}

/** Counts what the answer says: an accepted submission and its files, or a refusal by code. */
export function countIntakeOutcome(metrics: GatewayMetrics) {
  return (ctx: IntakeContext, observation: RequestObservation): void => {
    if (observation.code !== undefined) {
      metrics.refusals.inc({ code: observation.code });
      return;
    }
    const accepted = observation.status === 201 || (observation.status === 303 && ctx.state.browser !== undefined);
    if (observation.route === SEND_ROUTE && accepted) {
      metrics.submissionsAccepted.inc();
      if (ctx.state.spamReason !== undefined) {
        metrics.spam.inc({ reason: ctx.state.spamReason });
      }
      for (const file of (ctx.body as SubmissionAnswer).files) {
        metrics.files.inc({ type: file.mimeType });
      }
    }
  };
}

/** GET /metrics, beside the other routes (outside the intake route's limits and counters). */
export function metricsRouter(metrics: ServiceMetrics): Router {
  const router = new Router();
  // One of GATEWAY_PROCESSES: the answer holds the counts of all of them.
  const read = cluster.isWorker ? clusterMetricsReader(metrics.registry) : undefined;
  router.get('/metrics', metricsEndpoint(metrics.registry, read));
  return router;
}
