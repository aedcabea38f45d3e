import { describe, expect, it } from 'vitest';
import { refuseAfterFailedRollback } from '../../src/engine/journal/failed-rollback-guard.js';
import type { JournalDocument, JournalSegment } from '../../src/state/documents/journal-document.js';
import { options, useRollbackHarness } from './rollback-harness.js';

/**
 * Spec 004: "A rollback that fails leaves the stack in UPDATE_ROLLBACK_FAILED, which is
 * delete-or-continue only": cdkd refuses a deploy of a stack whose last rollback failed until
 * `cdkd rollback` completes it, `cdkd destroy` deletes it, or `--fix-forward` deploys over it.
 */
const segment = (fields: Partial<JournalSegment> = {}): JournalSegment => ({
  runId: 'run-1',
  startedAt: '2025-01-01T00:00:00.000Z',
  cdkdVersion: 'test',
  flags: {},
  previous: { parameters: {}, tags: {}, outputs: {}, imports: [] },
  status: 'failed',
  operations: [],
  importMarks: [],
  ...fields,
});
const journal = (...segments: JournalSegment[]): JournalDocument => ({
  version: 1,
  stackName: 'App',
  region: 'us-east-1',
  segments,
});
const rollbackFailed = { at: '2025-01-01T00:01:00.000Z', reason: 'Queue: injected update failure' };

describe('refuseAfterFailedRollback', () => {
  const allowed: Array<[string, JournalDocument | undefined, boolean]> = [
    ['no journal', undefined, false],
    [
      'a deploy that failed under --no-rollback (no rollback ran): fixing forward is allowed',
      journal(segment()),
      false,
    ],
    [
      'a clean automatic rollback that kept the failed operations',
      journal(segment({ status: 'failed-only' })),
      false,
    ],
    ['a failed rollback, with --fix-forward', journal(segment({ rollbackFailed })), true],
  ];
  it.each(allowed)('%s: the deploy goes ahead', (_label, document, fixForward) => {
    expect(() => refuseAfterFailedRollback('App', document, fixForward)).not.toThrow();
  });

  it('a run whose last rollback failed: refused with UPDATE_ROLLBACK_FAILED, naming rollback, destroy and --fix-forward', () => {
    expect(() =>
      refuseAfterFailedRollback(
        'App',
        journal(segment(), segment({ runId: 'run-2', rollbackFailed })),
        false,
      ),
    ).toThrow(
      expect.objectContaining({
        code: 'UPDATE_ROLLBACK_FAILED',
        message: expect.stringContaining(
          'The last rollback of App failed (run run-2, 2025-01-01T00:01:00.000Z: Queue: injected update failure)',
        ),
        hint: expect.stringMatching(/cdkd rollback App .*cdkd destroy App.*--fix-forward/),
      }),
    );
  });

  it("a nested stack's failed rollback names the nested stack as the command line does, and destroy of its top level", () => {
    expect(() => refuseAfterFailedRollback('App/Child', journal(segment({ rollbackFailed })), false)).toThrow(
      expect.objectContaining({ hint: expect.stringMatching(/cdkd rollback App~Child .*cdkd destroy App;/) }),
    );
  });
});

const h = useRollbackHarness();

const template = (visibility: number) => ({
  Resources: {
    Queue: { Type: 'AWS::SQS::Queue', Properties: { VisibilityTimeout: visibility } },
    Late: { Type: 'AWS::SNS::Topic', DependsOn: 'Queue', Properties: { DisplayName: `late-${visibility}` } },
  },
});

/** Deploys `template(30)`, then `template(60)`: Late's update fails, and so does the rollback's revert of Queue. */
async function failedRollback() {
  const request = h.stack(template(30));
  await (await h.engine()).deploy(request, options);
  h.cloud.failOn.add('update:Late');
  const update = h.cloud.provider.update.bind(h.cloud.provider);
  let queueUpdates = 0;
  h.cloud.provider.update = async (call, context) => {
    if (call.logicalId === 'Queue' && ++queueUpdates === 2) throw new Error('revert refused');
    return update(call, context);
  };
  await expect(
    (await h.engine()).deploy({ ...request, template: template(60) }, options),
  ).rejects.toMatchObject({
    code: 'DEPLOY_FAILED',
    message: expect.stringContaining('The automatic rollback failed too'),
  });
  h.cloud.provider.update = update;
  h.cloud.failOn.clear();
  h.cloud.calls.length = 0;
  return request;
}

describe('a deploy after a failed rollback', () => {
  it('is refused, with nothing sent and nothing written, and so is its dry run', async () => {
    const request = await failedRollback();
    const journalBefore = await h.journal(request);
    expect(journalBefore!.segments[0]!.rollbackFailed).toMatchObject({
      reason: expect.stringContaining('revert refused'),
    });
    const stateBefore = await h.state(request);
    const next = { ...request, template: template(90) };
    await expect((await h.engine()).deploy(next, options)).rejects.toMatchObject({
      code: 'UPDATE_ROLLBACK_FAILED',
    });
    await expect((await h.engine()).deploy(next, { ...options, dryRun: true })).rejects.toMatchObject({
      code: 'UPDATE_ROLLBACK_FAILED',
    });
    expect(h.cloud.calls).toEqual([]);
    expect(await h.state(request)).toEqual(stateBefore);
    expect(await h.journal(request)).toEqual(journalBefore);
  });

  it('goes ahead once cdkd rollback completes it (continue)', async () => {
    const request = await failedRollback();
    expect((await h.rollback(request)).exitCode).not.toBe(1);
    expect((await h.journal(request))?.segments.some((s) => s.rollbackFailed)).not.toBe(true);
    await (await h.engine()).deploy({ ...request, template: template(90) }, options);
    expect((await h.state(request))!.resources.Queue!.properties).toEqual({ VisibilityTimeout: 90 });
  });

  it('a cdkd rollback that fails again keeps the stack refused', async () => {
    const request = await failedRollback();
    h.cloud.failOn.add('update:Queue');
    expect((await h.rollback(request)).exitCode).toBe(1);
    h.cloud.failOn.clear();
    await expect(
      (await h.engine()).deploy({ ...request, template: template(90) }, options),
    ).rejects.toMatchObject({ code: 'UPDATE_ROLLBACK_FAILED' });
  });

  it('goes ahead with --fix-forward, which settles the journal as a successful deploy does', async () => {
    const request = await failedRollback();
    const result = await (
      await h.engine()
    ).deploy({ ...request, template: template(90) }, { ...options, fixForward: true });
    expect(result.changed).toBe(true);
    expect((await h.state(request))!.resources.Queue!.properties).toEqual({ VisibilityTimeout: 90 });
    expect(await h.journal(request)).toBeUndefined();
  });
});
