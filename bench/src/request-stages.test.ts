// The file → stage attribution of a CPU profile (request-stages.ts), on hand-made profiles.
import { splitByStage, stageCosts, stageOfFile, type CpuProfile } from './request-stages.js';

const root = '/srv/intake';

/** A profile from stacks (root first) and the µs each was sampled for. */
function profileOf(stacks: { frames: [string, string][]; micros: number }[]): CpuProfile {
  const nodes: CpuProfile['nodes'] = [{ id: 1, callFrame: { functionName: '(root)', url: '' }, children: [] }];
  const samples: number[] = [];
  const timeDeltas: number[] = [];
  for (const { frames, micros } of stacks) {
    let at = nodes[0]!;
    for (const [functionName, url] of frames) {
      const existing = (at.children ?? [])
        .map((id) => nodes.find((node) => node.id === id)!)
        .find((node) => node.callFrame.functionName === functionName && node.callFrame.url === url);
      if (existing) {
        at = existing;
      } else {
        const node = { id: nodes.length + 1, callFrame: { functionName, url }, children: [] };
        nodes.push(node);
        at.children!.push(node.id);
        at = node;
      }
    }
    samples.push(at.id);
    timeDeltas.push(micros);
  }
  return { nodes, samples, timeDeltas };
}

describe('request stages from a CPU profile', () => {
  it('declares Intake files, packages and Node modules by path', () => {
    expect(stageOfFile(`file://${root}/gateway/dist/body/json-body.js`)).toBe('body read and parse');
    expect(stageOfFile(`file://${root}/node_modules/jsonwebtoken/verify.js`)).toBe('site token');
    expect(stageOfFile(`file://${root}/node_modules/pg-protocol/dist/parser.js`)).toBe('insert');
    expect(stageOfFile(`file://${root}/node_modules/pino/lib/proto.js`)).toBe('log and metrics');
    expect(stageOfFile('node:_http_outgoing')).toBe('answer');
    // Generic internals belong to their caller.
    expect(stageOfFile('node:internal/streams/writable')).toBeUndefined();
    expect(stageOfFile('node:net')).toBeUndefined();
  });

  it('gives a sample to the first declared frame from the leaf, shows the rest as other, leaves idle out', () => {
    const koa = ['dispatch', `file://${root}/node_modules/koa-compose/index.js`] as [string, string];
    const split = splitByStage(
      profileOf([
        // A socket write called by the insert is the insert's, though Koa is further up.
        {
          frames: [
            koa,
            ['write', `file://${root}/gateway/dist/submission/guarded-insert.js`],
            ['writeGeneric', 'node:net'],
            ['writeBuffer', ''],
          ],
          micros: 300,
        },
        // An HMAC called by the token check is the token's.
        {
          frames: [
            koa,
            ['siteToken', `file://${root}/gateway/dist/middleware/site-token.js`],
            ['hmac', 'node:internal/crypto/hash'],
          ],
          micros: 100,
        },
        { frames: [['(garbage collector)', '']], micros: 50 },
        { frames: [['(idle)', '']], micros: 900 },
        // The profiler handing its profile over is the bench's work, not the request's.
        {
          frames: [
            ['(program)', ''],
            ['parse', 'node:inspector'],
          ],
          micros: 100,
        },
        // Nothing declared on the stack.
        { frames: [['listOnTimeout', 'node:internal/timers']], micros: 50 },
      ]),
    );
    expect(split.totalMicros).toBe(500);
    expect(split.idleMicros).toBe(1000);
    expect(split.micros.get('V8 and native, outside JS')).toBe(0);
    expect(split.micros.get('insert')).toBe(300);
    expect(split.micros.get('site token')).toBe(100);
    expect(split.micros.get('garbage collection')).toBe(50);
    expect(split.micros.get('other')).toBe(50);
    expect(split.otherFiles).toEqual([{ file: 'node:internal/timers', micros: 50 }]);
  });

  it('scales the shares to the main thread CPU and adds the other threads, so the rows sum to the measured CPU', () => {
    const split = splitByStage(
      profileOf([
        { frames: [['parse', `file://${root}/gateway/dist/body/json-body.js`]], micros: 750 },
        { frames: [['info', `file://${root}/node_modules/pino/pino.js`]], micros: 250 },
      ]),
    );
    const costs = stageCosts(split, { processMicros: 140, mainThreadMicros: 100 });
    const of = (stage: string) => costs.perRequest.find((row) => row.stage === stage)!.micros;
    expect(of('body read and parse')).toBeCloseTo(75);
    expect(of('log and metrics')).toBeCloseTo(25);
    expect(costs.otherThreadsMicros).toBeCloseTo(40);
    const sum = costs.perRequest.reduce((total, row) => total + row.micros, 0) + costs.otherThreadsMicros;
    expect(sum).toBeCloseTo(costs.totalMicros);
  });
});
