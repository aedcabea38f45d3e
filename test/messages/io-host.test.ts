import { describe, expect, it } from 'vitest';
import {
  confirmPlan,
  eventMessage,
  ioMessage,
  ioQuestion,
  levelOf,
  type DeployEvent,
} from '../../src/messages/index.js';
import { cliIoHost } from '../../src/cli/prompts/io-host.js';
import type { Progress } from '../../src/cli/progress/progress.js';
import { RecordingIoHost } from '../helpers/recording-io-host.js';

const resource: DeployEvent = {
  kind: 'resource',
  stack: 'App',
  logicalId: 'Queue',
  type: 'AWS::SQS::Queue',
  action: 'create',
  status: 'succeeded',
};

function recordingProgress(): Progress & { sunk: DeployEvent[]; notes: string[] } {
  const sunk: DeployEvent[] = [];
  const notes: string[] = [];
  return {
    sunk,
    notes,
    sink: (event) => sunk.push(event),
    note: (line) => notes.push(line),
    summary: () => '',
    timings: () => [],
    close: () => undefined,
  };
}

describe('messages', () => {
  it.each([
    ['CDKD_I2000', 'info'],
    ['CDKD_D2002', 'debug'],
    ['CDKD_R2003', 'result'],
    ['CDKD_W9000', 'warn'],
  ] as const)('%s is at level %s', (code, level) => {
    expect(levelOf(code)).toBe(level);
  });

  it.each([
    [resource, 'CDKD_I2000'],
    [{ kind: 'stack', stack: 'App', status: 'started' }, 'CDKD_I2001'],
    [{ kind: 'phase', stack: 'App', phase: 'plan', durationMs: 3 }, 'CDKD_D2002'],
    [
      { kind: 'rollback', stack: 'App', logicalId: 'Q', status: 'skipped', warn: true, message: 'kept' },
      'CDKD_I3000',
    ],
    [{ kind: 'warning', stack: 'App', message: 'careful' }, 'CDKD_W9000'],
  ] as Array<[DeployEvent, string]>)('an engine event of kind %o is message %s', (event, code) => {
    const message = eventMessage('deploy', event);
    expect(message.code).toBe(code);
    expect(message.command).toBe('deploy');
    expect(message.level).toBe(levelOf(message.code));
  });

  it('a recording host keeps what it is told and answers as told, else by default', async () => {
    const host = new RecordingIoHost({ CDKD_Q9000: false });
    host.notify(ioMessage('scrub', 'CDKD_I9001', 'note', {}));
    host.notify(eventMessage('deploy', resource));
    expect(host.withCode('CDKD_I2000').map((message) => message.data)).toEqual([resource]);
    expect(await host.ask(ioQuestion('scrub', 'CDKD_Q9000', 'Roll back?', { lines: [] }, true))).toBe(false);
    const dataLoss = ioQuestion('deploy', 'CDKD_Q2100', 'Deploy?', { stackName: 'App', rows: [] }, true);
    expect(await host.ask(dataLoss)).toBe(true);
    expect(host.questions.map((question) => question.code)).toEqual(['CDKD_Q9000', 'CDKD_Q2100']);
  });
});

describe('the CLI host', () => {
  it('renders events, warnings and notes through the progress view, as the commands do today', () => {
    const progress = recordingProgress();
    const host = cliIoHost({ progress, yes: true });
    host.notify(eventMessage('deploy', resource));
    host.notify(ioMessage('deploy', 'CDKD_W9000', 'retrying', {}));
    host.notify(ioMessage('deploy', 'CDKD_I9001', 'App: skipped', {}));
    expect(progress.sunk).toEqual([resource, { kind: 'warning', stack: 'cdkd', message: 'retrying' }]);
    expect(progress.notes).toEqual(['App: skipped']);
  });

  it('hands app output to its writer and answers a yes/no question yes under --yes', async () => {
    const chunks: string[] = [];
    const host = cliIoHost({
      progress: recordingProgress(),
      yes: true,
      appOutput: (chunk) => chunks.push(chunk),
    });
    host.notify(ioMessage('synth', 'CDKD_I1000', 'app output', { chunk: 'hello\n' }));
    expect(chunks).toEqual(['hello\n']);
    expect(await host.ask(ioQuestion('scrub', 'CDKD_Q9000', 'Roll back?', { lines: [] }, false))).toBe(true);
  });
});

describe('the CLI host, as each command sets it up', () => {
  it('shows warnings and notes its own way when the command gives one, and no events without a progress view', () => {
    const shown: string[] = [];
    const host = cliIoHost({
      yes: true,
      warn: (message, stack) => shown.push(`warn ${stack ?? '-'} ${message}`),
      note: (line) => shown.push(`note ${line}`),
    });
    host.notify(eventMessage('drift', resource));
    host.notify(eventMessage('drift', { kind: 'warning', stack: 'App', message: 'slow' }));
    host.notify(ioMessage('drift', 'CDKD_W9000', 'could not record', {}));
    host.notify(ioMessage('drift', 'CDKD_I9001', 'detail', {}));
    expect(shown).toEqual(['warn App slow', 'warn - could not record', 'note detail']);
  });

  it('hands results to the command, and only results', () => {
    const results: string[] = [];
    const host = cliIoHost({
      yes: true,
      note: () => undefined,
      result: (message) => results.push(message.code),
    });
    host.notify(ioMessage('diff', 'CDKD_I9001', 'detail', {}));
    host.notify(
      ioMessage('diff', 'CDKD_R2003', 'App done', {
        stackName: 'App',
        plan: { operations: [] } as never,
        outputs: {},
        changed: false,
        unaddressed: [],
      }),
    );
    expect(results).toEqual(['CDKD_R2003']);
  });

  it("writes a yes/no question's lines where the command shows its plans, leaving the live view open", async () => {
    const written: string[] = [];
    let closed = 0;
    const host = cliIoHost({
      progress: { ...recordingProgress(), close: () => void closed++ },
      yes: true,
      questionOutput: (text) => written.push(text),
    });
    const plan = { lines: ['Rollback plan:', '  delete Queue'] };
    expect(
      await host.ask(ioQuestion('rollback', 'CDKD_Q9000', 'Carry out this rollback?', plan, false)),
    ).toBe(true);
    expect(written).toEqual(['Rollback plan:\n', '  delete Queue\n']);
    expect(closed).toBe(0);
  });
});

describe('a plan to confirm', () => {
  it('is a Q9000 question with its heading and lines, answered no when nobody can answer', async () => {
    const host = new RecordingIoHost();
    const plan = { heading: 'Rollback plan:', lines: ['delete Queue'], question: 'Carry out this rollback?' };
    expect(await confirmPlan(host, 'rollback', plan)).toBe(false);
    expect(host.questions.map(({ code, command, text, data }) => ({ code, command, text, data }))).toEqual([
      {
        code: 'CDKD_Q9000',
        command: 'rollback',
        text: 'Carry out this rollback?',
        data: { heading: 'Rollback plan:', lines: ['delete Queue'] },
      },
    ]);
  });

  it('is shown by the CLI as its heading with the lines indented under it, an empty plan as a blank line', async () => {
    const written: string[] = [];
    const host = cliIoHost({ yes: true, questionOutput: (text) => written.push(text) });
    const ask = (lines: string[]) =>
      confirmPlan(host, 'rollback', { heading: 'Rollback plan:', lines, question: 'Go?' });
    expect(await ask(['delete Queue', 'restore Topic'])).toBe(true);
    await ask([]);
    expect(written).toEqual(['Rollback plan:\n  delete Queue\n  restore Topic\n', 'Rollback plan:\n\n']);
  });
});

describe("scrub's offers and import's choices, asked through the CLI host", () => {
  const lock = {
    kind: 'stale-lock' as const,
    ref: { stackName: 'App', region: 'us-east-1' },
    holder: 'ci@host',
  };
  const candidate = { logicalId: 'Bucket', physicalId: 'my-bucket', type: 'AWS::S3::Bucket' };

  it('are answered yes under --yes, writing nothing', async () => {
    const written: string[] = [];
    const host = cliIoHost({ yes: true, questionOutput: (text) => written.push(text) });
    expect(await host.ask(ioQuestion('scrub', 'CDKD_Q4100', 'clean?', lock, false))).toBe(true);
    expect(await host.ask(ioQuestion('import', 'CDKD_Q5100', 'Import?', candidate, false))).toBe(true);
    expect(written).toEqual([]);
  });

  it('without --yes and no terminal, refuse with the prompt the commands ask', async () => {
    const host = cliIoHost({ yes: false });
    await expect(host.ask(ioQuestion('scrub', 'CDKD_Q4100', 'clean?', lock, false))).rejects.toThrow(
      'App (us-east-1): a lock past its expiry, written by ci@host: Delete it? No terminal to ask on.',
    );
    const text = 'Import my-bucket as Bucket (AWS::S3::Bucket)?';
    await expect(host.ask(ioQuestion('import', 'CDKD_Q5100', text, candidate, false))).rejects.toThrow(
      `${text} No terminal to ask on.`,
    );
  });
});
