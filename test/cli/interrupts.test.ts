import { afterEach, describe, expect, it, vi } from 'vitest';
import { handleInterrupts, type Interrupts } from '../../src/cli/interrupts.js';

// Spec 003, "Signals": deploy, destroy, state destroy and rollback handle SIGINT and SIGTERM
// alike. The first stops new work; a second force-quits with exit 130, except in a rollback,
// which absorbs it.
let interrupts: Interrupts | undefined;
afterEach(() => {
  interrupts?.dispose();
  interrupts = undefined;
  vi.restoreAllMocks();
});

function exits() {
  return vi.spyOn(process, 'exit').mockImplementation((() => undefined) as never);
}

describe('handleInterrupts', () => {
  it.each(['SIGINT', 'SIGTERM'] as const)(
    '%s: the first stops new work and says what happens next',
    (signal) => {
      const warnings: string[] = [];
      interrupts = handleInterrupts('deploy', (message) => warnings.push(message));
      const exit = exits();
      process.emit(signal, signal);
      expect(interrupts.signal.aborted).toBe(true);
      expect(warnings).toEqual([
        expect.stringContaining(`${signal} received: finishing the operations in flight`),
      ]);
      expect(warnings[0]).toContain('the rollback journal');
      expect(exit).not.toHaveBeenCalled();
    },
  );

  it.each(['SIGINT', 'SIGTERM'] as const)('%s twice: a deploy force-quits with exit 130', (signal) => {
    interrupts = handleInterrupts('deploy', () => undefined);
    const exit = exits();
    vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    process.emit(signal, signal);
    process.emit(signal, signal);
    expect(exit).toHaveBeenCalledWith(130);
  });

  it('a rollback absorbs every further signal: stopping it takes SIGKILL', () => {
    const warnings: string[] = [];
    interrupts = handleInterrupts('rollback', (message) => warnings.push(message), { absorb: true });
    const exit = exits();
    process.emit('SIGTERM', 'SIGTERM');
    process.emit('SIGINT', 'SIGINT');
    process.emit('SIGTERM', 'SIGTERM');
    expect(interrupts.signal.aborted).toBe(true);
    expect(exit).not.toHaveBeenCalled();
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).not.toContain('Send it again');
  });

  it('a destroy releases its locks before the forced exit', async () => {
    const released: string[] = [];
    let quit: (code: number) => void = () => undefined;
    const exited = new Promise<number>((resolve) => (quit = resolve));
    vi.spyOn(process, 'exit').mockImplementation(((code: number) => quit(code)) as never);
    vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    interrupts = handleInterrupts('destroy', () => undefined, {
      onForceQuit: async () => {
        released.push('lock');
      },
    });
    process.emit('SIGINT', 'SIGINT');
    process.emit('SIGTERM', 'SIGTERM');
    expect(await exited).toBe(130);
    expect(released).toEqual(['lock']);
  });
});
