import { afterEach, describe, expect, it, vi } from 'vitest';
import { Writable } from 'node:stream';
import { guardOutputs } from '../../src/cli/interrupts/closed-output.js';
import {
  handleInterrupts,
  signalRule,
  type Interrupts,
  type LockingCommand,
  type SignalRule,
} from '../../src/cli/interrupts/interrupts.js';

// Spec 003, "Signals": deploy, destroy, state destroy and rollback handle SIGINT and SIGTERM
// alike. The first stops new work; a second force-quits with exit 130, except in a rollback,
// which absorbs it. Every other command that takes a lock stops at the first signal (exit 130)
// and releases its lock before a forced quit.
let interrupts: Interrupts | undefined;
afterEach(() => {
  interrupts?.dispose();
  interrupts = undefined;
  vi.restoreAllMocks();
});

type Listener = (signal: NodeJS.Signals) => void;

/**
 * Starts handling and returns a way to deliver a signal to cdkd's handler alone: emitting
 * one on `process` would also reach the test runner's own handlers and stop its worker.
 */
function handling(...args: Parameters<typeof handleInterrupts>): (signal: NodeJS.Signals) => void {
  const listeners = new Map<string, Listener>();
  const on = vi.spyOn(process, 'on').mockImplementation(((event: string, listener: Listener) => {
    listeners.set(event, listener);
    return process;
  }) as never);
  vi.spyOn(process, 'off').mockImplementation((() => process) as never);
  interrupts = handleInterrupts(...args);
  on.mockRestore();
  expect([...listeners.keys()].sort()).toEqual(['SIGINT', 'SIGTERM']);
  return (signal) => listeners.get(signal)!(signal);
}

function exits() {
  vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
  return vi.spyOn(process, 'exit').mockImplementation((() => undefined) as never);
}

describe('handleInterrupts', () => {
  it.each(['SIGINT', 'SIGTERM'] as const)(
    '%s: the first stops new work and says what happens next',
    (signal) => {
      const warnings: string[] = [];
      const send = handling('deploy', (message) => warnings.push(message));
      const exit = exits();
      send(signal);
      expect(interrupts!.signal.aborted).toBe(true);
      expect(warnings).toEqual([
        expect.stringContaining(`${signal} received: finishing the operations in flight`),
      ]);
      expect(warnings[0]).toContain('the rollback journal');
      expect(exit).not.toHaveBeenCalled();
    },
  );

  it.each(['SIGINT', 'SIGTERM'] as const)('%s twice: a deploy force-quits with exit 130', (signal) => {
    const send = handling('deploy', () => undefined);
    const exit = exits();
    send(signal);
    send(signal);
    expect(exit).toHaveBeenCalledWith(130);
  });

  it('a rollback absorbs every further signal: stopping it takes SIGKILL', () => {
    const warnings: string[] = [];
    const send = handling('rollback', (message) => warnings.push(message));
    const exit = exits();
    send('SIGTERM');
    send('SIGINT');
    send('SIGTERM');
    expect(interrupts!.signal.aborted).toBe(true);
    expect(exit).not.toHaveBeenCalled();
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).not.toContain('Send it again');
  });

  it.each(['destroy', 'state destroy', 'orphan', 'import'] as const)(
    '%s releases its locks before the forced exit',
    async (command) => {
      const released: string[] = [];
      let quit: (code: number) => void = () => undefined;
      const exited = new Promise<number>((resolve) => (quit = resolve));
      const send = handling(
        command,
        () => undefined,
        async () => {
          released.push('lock');
        },
      );
      exits().mockImplementation(((code: number) => quit(code)) as never);
      // The grace timer would call the real process.exit once the mocks are gone.
      vi.useFakeTimers({ toFake: ['setTimeout'] });
      try {
        send('SIGINT');
        send('SIGTERM');
        expect(await exited).toBe(130);
        expect(released).toEqual(['lock']);
      } finally {
        vi.clearAllTimers();
        vi.useRealTimers();
      }
    },
  );

  it('a closed output stops the run as a first signal does; the SIGTERM after it does not force-quit', () => {
    const output = new Writable({ write: (_chunk, _encoding, done) => done() });
    guardOutputs([output as unknown as NodeJS.WriteStream]);
    const warnings: string[] = [];
    const send = handling('deploy', (message) => warnings.push(message));
    const exit = exits();
    output.emit('error', Object.assign(new Error('write EPIPE'), { code: 'EPIPE' }));
    expect(interrupts!.signal.aborted).toBe(true);
    expect(interrupts!.signal.reason).toBe('a closed output pipe (EPIPE)');
    expect(warnings).toEqual([expect.stringContaining('Output closed (EPIPE)')]);
    expect(output.write('after')).toBe(true);
    send('SIGTERM');
    expect(exit).not.toHaveBeenCalled();
    send('SIGTERM');
    expect(exit).toHaveBeenCalledWith(130);
  });

  it('an output error other than a closed reader is not swallowed', () => {
    const output = new Writable({ write: (_chunk, _encoding, done) => done() });
    guardOutputs([output as unknown as NodeJS.WriteStream]);
    expect(() => output.emit('error', Object.assign(new Error('disk full'), { code: 'ENOSPC' }))).toThrow(
      'disk full',
    );
  });
});

describe('signalRule: what each lock-taking command does on a signal', () => {
  const rows: Array<[LockingCommand, SignalRule]> = [
    ['deploy', { first: 'finish', second: 'quit', exitCode: 1 }],
    ['undo', { first: 'finish', second: 'quit', exitCode: 1 }],
    ['destroy', { first: 'finish', second: 'release-and-quit', exitCode: 1 }],
    ['state destroy', { first: 'finish', second: 'release-and-quit', exitCode: 1 }],
    ['rollback', { first: 'finish', second: 'absorb', exitCode: 1 }],
    ['drift --revert', { first: 'finish', second: 'release-and-quit', exitCode: 130 }],
    ['scrub', { first: 'finish', second: 'release-and-quit', exitCode: 130 }],
    ['rollback --drop-failed', { first: 'stop', second: 'release-and-quit', exitCode: 130 }],
    ['import', { first: 'stop', second: 'release-and-quit', exitCode: 130 }],
    ['orphan', { first: 'stop', second: 'release-and-quit', exitCode: 130 }],
    ['state orphan', { first: 'stop', second: 'release-and-quit', exitCode: 130 }],
    ['drift --accept', { first: 'stop', second: 'release-and-quit', exitCode: 130 }],
    ['state refresh-observed', { first: 'stop', second: 'release-and-quit', exitCode: 130 }],
  ];
  it.each(rows)('%s', (command, rule) => {
    expect(signalRule(command)).toEqual(rule);
  });

  it('a command that stops says the call in flight returns and nothing more is written', () => {
    const warnings: string[] = [];
    const send = handling('orphan', (message) => warnings.push(message));
    const exit = exits();
    send('SIGINT');
    expect(interrupts!.signal.aborted).toBe(true);
    expect(warnings).toEqual([
      'SIGINT received: stopping once the call in flight returns; nothing more is written, and the lock is released. Send it again to quit at once.',
    ]);
    expect(exit).not.toHaveBeenCalled();
  });
});
