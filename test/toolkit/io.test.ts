import { describe, expect, it } from 'vitest';
import { eventMessage, ioMessage, ioQuestion, type DeployEvent } from '../../src/messages/index.js';
import { note, silentIo, warn, withoutProgress } from '../../src/toolkit/io.js';
import { RecordingIoHost } from '../helpers/recording-io-host.js';

const events: DeployEvent[] = [
  {
    kind: 'resource',
    stack: 'App',
    logicalId: 'Q',
    type: 'AWS::SQS::Queue',
    action: 'create',
    status: 'started',
  },
  { kind: 'stack', stack: 'App', status: 'started' },
  { kind: 'phase', stack: 'App', phase: 'plan', durationMs: 1 },
  { kind: 'rollback', stack: 'App', logicalId: 'Q', status: 'succeeded', warn: false, message: 'deleted' },
];

describe('toolkit messages', () => {
  it('a warning and a note carry their codes, the command and the stack when given', () => {
    const io = new RecordingIoHost();
    warn({ io, command: 'deploy' }, 'careful', 'App');
    warn({ io, command: 'deploy' }, 'retrying');
    note({ io, command: 'deploy' }, 'skipped');
    expect(
      io.messages.map(({ code, level, command, text, data }) => ({ code, level, command, text, data })),
    ).toEqual([
      { code: 'CDKD_W9000', level: 'warn', command: 'deploy', text: 'careful', data: { stack: 'App' } },
      { code: 'CDKD_W9000', level: 'warn', command: 'deploy', text: 'retrying', data: {} },
      { code: 'CDKD_I9001', level: 'info', command: 'deploy', text: 'skipped', data: {} },
    ]);
  });

  it('without progress, the engine events are dropped and its warnings kept', () => {
    const io = new RecordingIoHost();
    const quiet = withoutProgress(io);
    for (const event of events) quiet.notify(eventMessage('drift', event));
    quiet.notify(eventMessage('drift', { kind: 'warning', stack: 'App', message: 'slow' }));
    quiet.notify(ioMessage('drift', 'CDKD_I9001', 'detail', {}));
    expect(io.messages.map((message) => message.code)).toEqual(['CDKD_W9000', 'CDKD_I9001']);
  });

  it("the silent host takes each question's default", async () => {
    const question = ioQuestion('ui', 'CDKD_Q9000', 'Go?', { lines: ['x'] }, false);
    expect(await silentIo.ask(question)).toBe(false);
  });
});
