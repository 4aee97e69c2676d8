// How `--shard` splits the suite (CI runs each pass in two halves side by side): every area's files
// are dealt out in turn, in path order, so each half gets its share of each area, above all of the
// console's browser tests, the heaviest files. Jest's default split by a hash of each path gave one
// half of the PGlite pass 23 of the 38 console files (482 s of file time against 356), and that
// half ended 95 s after the other. The order within a half stays Jest's own.
import TestSequencer from '@jest/test-sequencer';

// A CommonJS module: its class is the `default` of what it exports.
const Sequencer = TestSequencer.default ?? TestSequencer;

export default class AreaBalancedSequencer extends Sequencer {
  shard(tests, { shardIndex, shardCount }) {
    const byArea = new Map();
    for (const test of [...tests].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))) {
      const area = test.context.config.displayName?.name ?? test.context.config.rootDir;
      byArea.set(area, [...(byArea.get(area) ?? []), test]);
    }
    const dealt = [...byArea.values()].flat();
    return dealt.filter((_, index) => index % shardCount === shardIndex - 1);
  }
}
