import { describe, expect, it } from 'vitest';
import { leftoverContainers } from '../../src/leftover-containers.js';
import { sandboxContainers } from '../../src/sandbox/services/lambda/runtime/image/image-leftovers.js';

describe("the image functions' containers a ps line names", () => {
  it.each([
    ['podman prints labels as a map', 'cdkd-lambda-fn-1\tmap[a:b cdkd.sandbox-pid:123]', [123]],
    ['Docker prints them as k=v,k=v', 'cdkd-lambda-fn-1\ta=b,cdkd.sandbox-pid=123,c=d', [123]],
    ['the label alone', 'cdkd-lambda-fn-1\tcdkd.sandbox-pid=77', [77]],
    ['a name not of an image function', 'cdkd-Svc-Web-web-1-1\tcdkd.sandbox-pid=123', []],
    ['a label that only ends like the pid label', 'cdkd-lambda-fn-1\tx.cdkd.sandbox-pid=123', []],
    ['a label that only starts like it', 'cdkd-lambda-fn-1\tcdkd.sandbox-pid-old=123', []],
    ['a pid that is no number', 'cdkd-lambda-fn-1\tcdkd.sandbox-pid=abc', []],
    ['no labels', 'cdkd-lambda-fn-1', []],
  ])('%s', (_case, line, pids) => {
    expect(sandboxContainers([line])).toEqual(pids.map((pid) => ({ name: 'cdkd-lambda-fn-1', pid })));
  });
});

describe('which containers of cdkd processes to remove', () => {
  const running = (pid: number) => pid === 10;
  it.each([
    ['its process no longer runs: removed', [{ name: 'a', pid: 11 }], ['a']],
    ['its process runs (another cdkd, or this one): kept', [{ name: 'a', pid: 10 }], []],
    [
      'each by its own process',
      [
        { name: 'a', pid: 10 },
        { name: 'b', pid: 11 },
        { name: 'c', pid: 12 },
      ],
      ['b', 'c'],
    ],
    ['none', [], []],
  ])('%s', (_case, containers, removed) => {
    expect(leftoverContainers(containers, running)).toEqual(removed);
  });

  it("reads a process's liveness from the machine by default", () => {
    // The test's own process runs; a pid past any pid_max does not.
    expect(
      leftoverContainers([
        { name: 'live', pid: process.pid },
        { name: 'dead', pid: 999_999_999 },
      ]),
    ).toEqual(['dead']);
  });
});
