import { oneAtATime } from './one-at-a-time.js';

const tick = () => new Promise((resolve) => setTimeout(resolve, 5));

describe('oneAtATime', () => {
  it('runs work with the same key one after another, in call order, and other keys alongside', async () => {
    const log: string[] = [];
    const step = (name: string) => async () => {
      log.push(`${name} start`);
      await tick();
      log.push(`${name} end`);
      return name;
    };
    const results = await Promise.all([
      oneAtATime('a', step('a1')),
      oneAtATime('a', step('a2')),
      oneAtATime('b', step('b1')),
    ]);
    expect(results).toEqual(['a1', 'a2', 'b1']);
    expect(log.indexOf('a1 end')).toBeLessThan(log.indexOf('a2 start'));
    expect(log.indexOf('b1 start')).toBeLessThan(log.indexOf('a1 end'));
  });

  it('passes an error to its caller and lets the next work run', async () => {
    const failing = oneAtATime('c', async () => {
      await tick();
      throw new Error('boom');
    });
    const next = oneAtATime('c', async () => 'ran');
    await expect(failing).rejects.toThrow('boom');
    await expect(next).resolves.toBe('ran');
  });
});
