import type { Em } from '@intake/shared/db';
import type { Form, Site } from '@intake/shared/entities';
import type { AppError } from '@intake/shared/errors';
import type { Services } from '@intake/shared/services';
import type { RouterContext } from '@koa/router';
import type { Middleware, ParameterizedContext } from 'koa';
import type { BrowserLimits } from '@intake/shared/browser-posting';
import type { ReceivedFile } from './files/types.js';
import type { SpamReason } from './spam/content-rules.js';
import type { BodyKind, FormShape } from './submission/form-shape.js';
import type { SubmissionAnswer } from './submission/present-submission.js';

// What the intake middleware chain adds to a request, step by step.
export interface IntakeState {
  requestId: string;
  /** The request's one EntityManager fork (intake route). */
  em: Em;
  /** Temporary upload files of this request, removed whatever the outcome. */
  uploads: string[];
  site?: Site;
  form?: Form;
  /** The form's enabled webhooks as cached with it (see site-cache.ts). */
  webhookIds?: readonly string[];
  /** The form's declared shape as cached with it; null: every key is accepted. */
  shape?: FormShape | null;
  fields?: Record<string, unknown>;
  /** Whether the fields kept their JSON types or arrived as text (multipart, urlencoded). */
  bodyKind?: BodyKind;
  files?: ReceivedFile[];
  /**
   * The Idempotency-Key, read once (middleware/idempotency-key.ts): the key and the first answer
   * given for it, or why the key is refused.
   */
  idempotency?: { key?: string; replay?: SubmissionAnswer; refusal?: AppError };
  /** Set when the submission was stored as spam (counted in metrics, never told to the client). */
  spamReason?: SpamReason;
  /** A post without credentials whose form and origin passed (docs/static-sites.md). */
  browser?: BrowserPost;
  /** The refusal code of a browser post answered with a page instead of a problem document. */
  pageRefusal?: string;
}

/** What the gateway knows of a browser post (browser/browser-post.ts) once its form and origin passed. */
export interface BrowserPost {
  /** The page's origin, one of the form's: the only origin CORS answers ever name. */
  origin: string;
  limits: BrowserLimits;
  /** A form sent by the browser itself (no script): answered with a page or a redirect. */
  navigation: boolean;
}

/** What the gateway's app puts on every request's context (`app.context.services`). */
export interface IntakeCustomContext {
  services: Services;
}

/** The context every gateway middleware reads: Koa's, with the intake state and the services. */
export type IntakeContext = ParameterizedContext<IntakeState, IntakeCustomContext>;

/**
 * The type of every step of the intake route: Koa's middleware over the intake state and context,
 * plus the route's parameters from @koa/router. The Koa app and the routers are made with the same
 * two parameters (`new Koa<IntakeState, IntakeCustomContext>()`, `new Router<IntakeState,
 * IntakeCustomContext>()`), so a step fits the route without a cast, and so does one written as
 * `(ctx: IntakeContext, next)`. Not @koa/router's `RouterMiddleware`: its context holds the router
 * itself, which `router.post` cannot infer its parameters back from.
 */
export type IntakeMiddleware = Middleware<IntakeState, IntakeCustomContext & Pick<RouterContext, 'params'>>;
