// Summarises a V8 CPU profile (`npm run bench` with BENCH_CPU_PROF=<dir>) by where the time went:
// self time per package (or Intake workspace) and the heaviest functions, self and total.
//   node bench/dist/profile-summary.js <file.cpuprofile> [top]
import { readFile } from 'node:fs/promises';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** `pg`, `@mikro-orm/core`, `intake:gateway`, `node:internal`, `(garbage collector)`… */
export function packageOf(url: string, functionName: string): string {
  if (url === '') {
    return `(${functionName || 'native'})`;
  }
  const inModules = /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(url);
  if (inModules) {
    return inModules[1]!;
  }
  const workspace = /\/(gateway|shared|admin-api|worker|migrations)\/dist\//.exec(url);
  if (workspace) {
    return `intake:${workspace[1]}`;
  }
  if (url.startsWith('node:')) {
    return 'node:internal';
  }
  return url;
}

export interface ProfileSummary {
  totalMs: number;
  byPackage: { name: string; ms: number; share: number }[];
  bySelf: { name: string; ms: number; share: number }[];
  byTotal: { name: string; ms: number; share: number }[];
}

export function summarise(profile: CpuProfile, top = 25): ProfileSummary {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) {
    for (const child of node.children ?? []) {
      parent.set(child, node.id);
    }
  }
  const selfUs = new Map<number, number>();
  profile.samples.forEach((id, index) => {
    selfUs.set(id, (selfUs.get(id) ?? 0) + (profile.timeDeltas[index] ?? 0));
  });
  const label = (node: ProfileNode) => {
    const { functionName, url, lineNumber } = node.callFrame;
    const file = url.split('/').slice(-2).join('/');
    return `${functionName || '(anonymous)'} ${file}:${lineNumber + 1}`;
  };
  const packages = new Map<string, number>();
  const selves = new Map<string, number>();
  const totals = new Map<string, number>();
  let total = 0;
  for (const [id, us] of selfUs) {
    const node = byId.get(id)!;
    total += us;
    const pkg = packageOf(node.callFrame.url, node.callFrame.functionName);
    packages.set(pkg, (packages.get(pkg) ?? 0) + us);
    selves.set(label(node), (selves.get(label(node)) ?? 0) + us);
    // Total time: each distinct function on the stack once.
    const seen = new Set<string>();
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const name = label(byId.get(at)!);
      if (!seen.has(name)) {
        seen.add(name);
        totals.set(name, (totals.get(name) ?? 0) + us);
      }
    }
  }
  const rank = (map: Map<string, number>) =>
    [...map]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([name, us]) => ({ name, ms: us / 1000, share: total === 0 ? 0 : us / total }));
  return { totalMs: total / 1000, byPackage: rank(packages), bySelf: rank(selves), byTotal: rank(totals) };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const file = process.argv[2];
  if (!file) {
    throw new Error('usage: profile-summary <file.cpuprofile> [top]');
  }
  const summary = summarise(JSON.parse(await readFile(file, 'utf8')) as CpuProfile, Number(process.argv[3] ?? 25));
  const show = (rows: ProfileSummary['byPackage']) =>
    console.table(
      rows.map((row) => ({ name: row.name, ms: row.ms.toFixed(0), share: `${(row.share * 100).toFixed(1)} %` })),
    );
  console.log(`${file}: ${summary.totalMs.toFixed(0)} ms sampled`);
  console.log('Self time by package');
  show(summary.byPackage);
  console.log('Self time by function');
  show(summary.bySelf);
  console.log('Total time by function');
  show(summary.byTotal);
}
