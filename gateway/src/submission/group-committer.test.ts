// The committer's timing and grouping rules, with a group write the test holds open; the store's
// tests (submission-group-commit.test.ts) play them on the real databases.
import { GroupCommitter } from './group-committer.js';

/** A group write that records its groups and finishes only when the test says so. */
function heldWrites() {
  const groups: number[][] = [];
  const finish: (() => void)[] = [];
  const write = (items: readonly number[]) => {
    groups.push([...items]);
    return new Promise<readonly number[]>((resolve) => finish.push(() => resolve(items.map((item) => item * 10))));
  };
  return { groups, write, finishNext: () => finish.shift()!() };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('group committer', () => {
  it('writes a lone item at once, and the items that came meanwhile as the next group, each answered', async () => {
    const held = heldWrites();
    const committer = new GroupCommitter(held.write, { maxRows: 64, windowMs: 0 });
    const first = committer.write(1);
    expect(held.groups).toEqual([[1]]);
    const rest = [2, 3, 4].map((item) => committer.write(item));
    expect(held.groups).toEqual([[1]]);
    held.finishNext();
    expect(await first).toBe(10);
    await tick();
    expect(held.groups).toEqual([[1], [2, 3, 4]]);
    held.finishNext();
    expect(await Promise.all(rest)).toEqual([20, 30, 40]);
    expect(committer.counts).toEqual({ groups: 2, rows: 4, largestGroup: 3 });
  });

  it('with gatherTurn, writes the items of one event-loop turn together, and a lone item at the end of its turn', async () => {
    const held = heldWrites();
    const committer = new GroupCommitter(held.write, { maxRows: 64, windowMs: 0, gatherTurn: true });
    const together = [1, 2, 3].map((item) => committer.write(item));
    expect(held.groups).toEqual([]);
    await tick();
    expect(held.groups).toEqual([[1, 2, 3]]);
    held.finishNext();
    expect(await Promise.all(together)).toEqual([10, 20, 30]);

    // Alone on an idle committer: written at the end of its turn (one setImmediate), no timer.
    const lone = committer.write(4);
    expect(held.groups).toEqual([[1, 2, 3]]);
    await tick();
    expect(held.groups).toEqual([[1, 2, 3], [4]]);
    held.finishNext();
    expect(await lone).toBe(40);
  });

  it('with gatherTurn, still writes a full group at once', async () => {
    const held = heldWrites();
    const committer = new GroupCommitter(held.write, { maxRows: 2, windowMs: 0, gatherTurn: true });
    const all = [1, 2, 3].map((item) => committer.write(item));
    expect(held.groups).toEqual([[1, 2]]);
    held.finishNext();
    await tick();
    expect(held.groups).toEqual([[1, 2], [3]]);
    held.finishNext();
    expect(await Promise.all(all)).toEqual([10, 20, 30]);
  });

  it('caps a group at maxRows; the others follow in the next', async () => {
    const held = heldWrites();
    const committer = new GroupCommitter(held.write, { maxRows: 2, windowMs: 0 });
    const all = [1, 2, 3, 4, 5].map((item) => committer.write(item));
    for (let group = 0; group < 3; group++) {
      await tick();
      held.finishNext();
    }
    expect(await Promise.all(all)).toEqual([10, 20, 30, 40, 50]);
    expect(held.groups).toEqual([[1], [2, 3], [4, 5]]);
  });

  it('fails every item of a group whose write fails, and goes on with the next group', async () => {
    let calls = 0;
    const committer = new GroupCommitter(
      async (items: readonly number[]) => {
        calls++;
        if (calls === 2) {
          throw new Error('the database is away');
        }
        return items;
      },
      { maxRows: 64, windowMs: 0 },
    );
    const lone = committer.write(1);
    const failing = [2, 3].map((item) => committer.write(item));
    expect(await lone).toBe(1);
    for (const item of failing) {
      await expect(item).rejects.toThrow('the database is away');
    }
    expect(await committer.write(4)).toBe(4);
  });

  it('never holds a lone item for the window; holds a group that waited behind another until it closes', async () => {
    const held = heldWrites();
    const committer = new GroupCommitter(held.write, { maxRows: 64, windowMs: 200 });
    const started = performance.now();
    const lone = committer.write(1);
    expect(held.groups).toEqual([[1]]);
    held.finishNext();
    await lone;
    expect(performance.now() - started).toBeLessThan(100);
    await tick();

    const first = committer.write(2);
    const waiting = committer.write(3);
    held.finishNext();
    await first;
    await tick();
    // The window of the waiting group is still open: more may join it.
    expect(held.groups).toEqual([[1], [2]]);
    const joining = committer.write(4);
    await new Promise((resolve) => setTimeout(resolve, 250));
    expect(held.groups).toEqual([[1], [2], [3, 4]]);
    held.finishNext();
    expect(await Promise.all([waiting, joining])).toEqual([30, 40]);
  });

  it('writes a held group at once when it fills up', async () => {
    const held = heldWrites();
    const committer = new GroupCommitter(held.write, { maxRows: 2, windowMs: 10_000 });
    const first = committer.write(1);
    const waiting = committer.write(2);
    held.finishNext();
    await first;
    await tick();
    expect(held.groups).toEqual([[1]]);
    const filling = committer.write(3);
    expect(held.groups).toEqual([[1], [2, 3]]);
    held.finishNext();
    expect(await Promise.all([waiting, filling])).toEqual([20, 30]);
  });
});
