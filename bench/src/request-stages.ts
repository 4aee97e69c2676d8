// Splits a V8 CPU profile of the gateway into the stages of a submission, so the bench can print
// where a request's CPU goes. Each sample belongs to the first frame, from the leaf towards the root,
// whose source file a rule below declares: a `pg` socket write called by the insert is the insert's,
// an HMAC called by the token check is the token's. Node's generic internals (streams, sockets,
// buffers, promises) are declared nowhere, so they go to whoever called them; a sample with no
// declared frame at all is `other`, printed with its heaviest files, so nothing is hidden.

export interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string };
  children?: number[];
}

export interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

export const STAGES = [
  'HTTP in, Koa and router',
  'body read and parse',
  'API key, form, rate limits',
  'site token',
  'idempotency',
  'validation',
  'spam rules',
  'sanitiser',
  'file checks',
  'storage',
  'receipt',
  'insert',
  'answer',
  'submission command: route, create-submission',
  'log and metrics',
  'garbage collection',
  'V8 and native, outside JS',
  'other',
] as const;

export type Stage = (typeof STAGES)[number];

/** Intake's own code: compiled workspaces, matched on the path below `dist/`. */
const intake = (workspace: 'gateway' | 'shared' | 'contract', below: string) =>
  new RegExp(`/${workspace}/dist/${below}`);
/** A package, wherever node_modules puts it. */
const pkg = (...names: string[]) => new RegExp(`/node_modules/(?:${names.join('|')})/`);
/** One of Node's own modules (`node:_http_server`, `node:internal/...`). */
const builtin = (...names: string[]) => new RegExp(`^node:(?:${names.join('|')})$`);

/** Which stage a source file belongs to. Order matters only where patterns overlap. */
export const STAGE_RULES: readonly { stage: Stage; file: RegExp }[] = [
  { stage: 'body read and parse', file: intake('gateway', 'body/') },
  {
    stage: 'body read and parse',
    file: pkg(
      'raw-body',
      'co-body',
      '@koa/multer',
      'multer',
      'busboy',
      'iconv-lite',
      'append-field',
      'content-type',
      'bytes',
    ),
  },
  {
    stage: 'API key, form, rate limits',
    file: intake('gateway', 'middleware/(api-key|form-by-code|site-rate-limit|auth-failure-limit)\\.js'),
  },
  {
    stage: 'API key, form, rate limits',
    file: intake('gateway', '(rate-limit|site-cache/site-cache|site-cache/site-scoped-cache)'),
  },
  { stage: 'API key, form, rate limits', file: intake('shared', 'rate-limit/') },
  { stage: 'site token', file: intake('gateway', '(middleware/site-token|site-cache/token-memo)\\.js') },
  { stage: 'site token', file: intake('shared', 'site-token/') },
  { stage: 'site token', file: pkg('jsonwebtoken', 'jws', 'jwa') },
  { stage: 'idempotency', file: intake('gateway', '(middleware/idempotency-key|submission/idempotency)\\.js') },
  { stage: 'validation', file: intake('gateway', 'submission/(validate-body|form-shape)\\.js') },
  { stage: 'validation', file: intake('shared', '(form-shape|input-fields|field-path|plain-object)/') },
  { stage: 'validation', file: intake('contract', 'field-path\\.js') },
  { stage: 'validation', file: pkg('zod') },
  { stage: 'spam rules', file: intake('gateway', 'spam/') },
  { stage: 'spam rules', file: intake('shared', 'spam/') },
  { stage: 'sanitiser', file: intake('gateway', 'submission/(sanitize|sanitize-pool|purify-text)\\.js') },
  {
    stage: 'sanitiser',
    file: pkg(
      'jsdom',
      'dompurify',
      'parse5',
      'piscina',
      'nwsapi',
      'cssstyle',
      'whatwg-url',
      'tr46',
      'webidl-conversions',
    ),
  },
  { stage: 'file checks', file: intake('gateway', 'files/') },
  { stage: 'file checks', file: pkg('file-type', 'strtok3', 'token-types', 'peek-readable', '@tokenizer/[^/]+') },
  { stage: 'storage', file: intake('shared', 'storage/') },
  { stage: 'receipt', file: intake('shared', '(receipts|signing)/') },
  { stage: 'receipt', file: pkg('jose', 'canonicalize') },
  {
    stage: 'insert',
    file: intake('gateway', 'submission/(submission-store|guarded-insert|group-committer|one-at-a-time)\\.js'),
  },
  { stage: 'insert', file: intake('shared', '(db|entities|outage)/') },
  {
    stage: 'insert',
    file: pkg(
      'pg',
      'pg-protocol',
      'pg-pool',
      'pg-types',
      'postgres-[^/]+',
      '@mikro-orm/[^/]+',
      'kysely',
      'knex',
      '@electric-sql/pglite',
    ),
  },
  {
    stage: 'submission command: route, create-submission',
    file: intake('gateway', '(routes/send|submission/create-submission)\\.js'),
  },
  { stage: 'answer', file: intake('gateway', 'submission/present-submission\\.js') },
  { stage: 'answer', file: builtin('_http_outgoing') },
  { stage: 'answer', file: /\/node_modules\/koa\/lib\/(response|application)\.js$/ },
  { stage: 'log and metrics', file: intake('shared', '(logger|metrics|http|statistics)/') },
  { stage: 'log and metrics', file: intake('gateway', '(metrics|statistics/)') },
  {
    stage: 'log and metrics',
    file: pkg(
      'pino',
      'sonic-boom',
      'pino-std-serializers',
      'fast-redact',
      'quick-format-unescaped',
      'prom-client',
      'tdigest',
      'bintrees',
    ),
  },
  { stage: 'HTTP in, Koa and router', file: builtin('_http_server', '_http_incoming', '_http_common') },
  {
    stage: 'HTTP in, Koa and router',
    file: pkg(
      'koa',
      '@koa/router',
      'koa-compose',
      'path-to-regexp',
      'http-errors',
      'statuses',
      'accepts',
      'type-is',
      'mime-types',
      'negotiator',
      'cookies',
      'depd',
      'on-finished',
      'ee-first',
    ),
  },
  {
    stage: 'HTTP in, Koa and router',
    file: intake('gateway', '(app|context|routes/|middleware/(error-handler|request-id))'),
  },
];

/**
 * The bench's own work in the gateway process: the profiler handing its profile over (parsed in
 * `node:inspector` while it still samples) and the runner's IPC. Left out like idle time.
 */
const BENCH_FILES = /^node:(?:inspector|inspector\/promises|internal\/child_process(?:\/serialization)?)$/;

/** V8's pseudo-frames: their samples are not JavaScript, but they are the process's own work. */
const PSEUDO_FRAMES: Record<string, Stage | 'idle'> = {
  '(garbage collector)': 'garbage collection',
  '(program)': 'V8 and native, outside JS',
  '(idle)': 'idle',
};

export function stageOfFile(url: string): Stage | undefined {
  return STAGE_RULES.find((rule) => rule.file.test(url))?.stage;
}

/** A short name for a file of `other`: the package, or the last two path parts. */
export function fileLabel(url: string): string {
  const inModules = /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(url);
  return inModules ? inModules[1]! : url.split('/').slice(-2).join('/') || '(no file)';
}

export interface StageSplit {
  /** Sampled microseconds per stage; idle time and the bench's own work (profiler, IPC) left out. */
  micros: Map<Stage, number>;
  totalMicros: number;
  idleMicros: number;
  /** The heaviest files of `other`, by the nearest frame with a file. */
  otherFiles: { file: string; micros: number }[];
}

export function splitByStage(profile: CpuProfile): StageSplit {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) {
    for (const child of node.children ?? []) {
      parent.set(child, node.id);
    }
  }
  const stageOfNode = new Map<number, Stage | 'idle'>();
  const resolve = (id: number): Stage | 'idle' => {
    const known = stageOfNode.get(id);
    if (known !== undefined) {
      return known;
    }
    const { functionName, url } = byId.get(id)!.callFrame;
    const own = url === '' ? PSEUDO_FRAMES[functionName] : BENCH_FILES.test(url) ? 'idle' : stageOfFile(url);
    const up = parent.get(id);
    const stage = own ?? (up === undefined ? 'other' : resolve(up));
    stageOfNode.set(id, stage);
    return stage;
  };
  const micros = new Map<Stage, number>(STAGES.map((stage) => [stage, 0]));
  const otherFiles = new Map<string, number>();
  let idleMicros = 0;
  let totalMicros = 0;
  profile.samples.forEach((id, index) => {
    const delta = profile.timeDeltas[index] ?? 0;
    const stage = resolve(id);
    if (stage === 'idle') {
      idleMicros += delta;
      return;
    }
    totalMicros += delta;
    micros.set(stage, micros.get(stage)! + delta);
    if (stage === 'other') {
      let at: number | undefined = id;
      while (at !== undefined && byId.get(at)!.callFrame.url === '') {
        at = parent.get(at);
      }
      const file = at === undefined ? '(native)' : fileLabel(byId.get(at)!.callFrame.url);
      otherFiles.set(file, (otherFiles.get(file) ?? 0) + delta);
    }
  });
  return {
    micros,
    totalMicros,
    idleMicros,
    otherFiles: [...otherFiles]
      .sort((a, b) => b[1] - a[1])
      .slice(0, 5)
      .map(([file, us]) => ({ file, micros: us })),
  };
}

export interface StageCosts {
  /** CPU µs per request of each stage: the main thread's CPU per request shared out by the samples. */
  perRequest: { stage: Stage; micros: number }[];
  /** The process's other threads (V8's GC helpers, libuv's file-system pool, the profiler's). */
  otherThreadsMicros: number;
  totalMicros: number;
  otherFiles: { file: string; micros: number }[];
}

/**
 * The measured CPU per request, split: the main thread's share by the profile's samples (a sample
 * counts the wall time between two ticks, so it is scaled to the thread's CPU), the other threads'
 * as one row. The rows add up to the measured figure exactly.
 */
export function stageCosts(split: StageSplit, cpu: { processMicros: number; mainThreadMicros: number }): StageCosts {
  const scale = split.totalMicros > 0 ? cpu.mainThreadMicros / split.totalMicros : 0;
  return {
    perRequest: STAGES.map((stage) => ({ stage, micros: (split.micros.get(stage) ?? 0) * scale })),
    otherThreadsMicros: Math.max(0, cpu.processMicros - cpu.mainThreadMicros),
    totalMicros: Math.max(cpu.processMicros, cpu.mainThreadMicros),
    otherFiles: split.otherFiles.map(({ file, micros }) => ({ file, micros: micros * scale })),
  };
}
