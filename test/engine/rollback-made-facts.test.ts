import { describe, expect, it } from 'vitest';
import { EventLog } from '../../src/state/event-log.js';
import { emptyStateDocument } from '../../src/state/documents/state-document.js';
import { stackStateKeys } from '../../src/state/keys.js';
import { options, useRollbackHarness } from './rollback-harness.js';

/**
 * Spec 000, "Failed CREATEs that made their resource": the facts beyond the stack's own
 * journal and state (rollback-orphan records, other stacks under the prefix, the live
 * comparison a fix-forward needs), gathered by engine/made-facts.ts.
 */
const h = useRollbackHarness();

const callsOf = (action: string, logicalId: string) =>
  h.cloud.calls.filter((call) => call.action === action && call.logicalId === logicalId);

/** A `--no-rollback` deploy whose `Made` create made its resource and then failed; later creates succeed. */
async function madeWithoutRollback(type: string) {
  const made = await h.madeWithoutRollback(type);
  h.cloud.madeThenFail.clear();
  return made;
}

/** Another stack under the same prefix, whose one record holds `physicalId`. */
async function otherStackHolding(physicalId: string, type: string) {
  const other = h.stack({ Resources: { Held: { Type: 'AWS::SQS::Queue' } } });
  await (await h.engine()).deploy(other, options);
  const read = await h.backend.store.read(h.ref(other));
  read!.document.resources.Held = { ...read!.document.resources.Held!, type, physicalId };
  await h.backend.store.save(h.ref(other), read!.document, read!.etag);
  return h.ref(other);
}

describe('a fix-forward that puts another resource under the logical id: the live comparison', () => {
  it('an AWS::Kinesis::Stream proven a different stream is deleted', async () => {
    const { request, made } = await madeWithoutRollback('AWS::Kinesis::Stream');
    const result = await (await h.engine()).deploy(request, options);
    expect(result.unaddressed).toEqual([]);
    expect(h.cloud.live.has(made)).toBe(false);
    expect(h.rollbackEvents('Made')).toEqual([
      expect.objectContaining({ warn: false, message: expect.stringContaining(`Journal: deleted ${made}`) }),
    ]);
    expect(callsOf('delete', 'Made').map((call) => call.physicalId)).toEqual([made]);
    expect(await h.journal(request)).toBeUndefined();
  });

  it('an earlier stream already gone is named at info and nothing is deleted', async () => {
    const { request, made } = await madeWithoutRollback('AWS::Kinesis::Stream');
    h.cloud.live.delete(made);
    const result = await (await h.engine()).deploy(request, options);
    expect(result.unaddressed).toEqual([]);
    expect(callsOf('delete', 'Made')).toEqual([]);
    expect(h.rollbackEvents('Made')).toEqual([
      expect.objectContaining({
        warn: false,
        message: `Journal: ${made}, which Made's failed create made, is already gone`,
      }),
    ]);
    expect(await h.journal(request)).toBeUndefined();
  });

  it('a read that fails proves nothing: warned about, not deleted', async () => {
    const { request, made } = await madeWithoutRollback('AWS::Kinesis::Stream');
    h.cloud.failOn.add('read:Made');
    const result = await (await h.engine()).deploy(request, options);
    expect(result.unaddressed).toEqual([expect.stringContaining(made)]);
    expect(h.cloud.live.has(made)).toBe(true);
  });
});

describe('other stacks under the same state prefix', () => {
  it('a record of another stack holding the resource stops the delete, with a warning naming it', async () => {
    const { request, made } = await madeWithoutRollback('AWS::SQS::Queue');
    const other = await otherStackHolding(made, 'AWS::SQS::Queue');
    try {
      const result = await (
        await h.engine()
      ).deploy({ ...request, template: { Resources: { Keep: { Type: 'AWS::SQS::Queue' } } } }, options);
      expect(result.unaddressed).toEqual([expect.stringMatching(new RegExp(`${made}.*another stack`))]);
      expect(h.cloud.live.has(made)).toBe(true);
      expect(await h.journal(request)).toBeUndefined();
    } finally {
      // The fake cloud's ids repeat from test to test: later tests must not meet this record.
      await h.backend.store.remove(other);
    }
  });

  it('a state record that cannot be read keeps the entry in the journal for the next deploy (exit 2)', async () => {
    const { request, made } = await madeWithoutRollback('AWS::SQS::Queue');
    // In another region, so only the made-resource check reads it (the deploy's export index reads its own region).
    const torn = stackStateKeys(h.backend.store.prefix, 'Torn', 'eu-west-1').state;
    await h.backend.objects.put(torn, '{ not json', { ifNoneMatch: '*' });
    try {
      const result = await (
        await h.engine()
      ).deploy({ ...request, template: { Resources: { Keep: { Type: 'AWS::SQS::Queue' } } } }, options);
      expect(result.unaddressed).toEqual([expect.stringMatching(/could not be read/)]);
      expect(h.cloud.live.has(made)).toBe(true);
      const kept = (await h.journal(request))!.segments.flatMap((segment) => segment.operations);
      expect(kept).toMatchObject([{ logicalId: 'Made', keptByDeploy: true, made: { physicalId: made } }]);
    } finally {
      await h.backend.objects.delete(torn);
    }
    // Once the prefix reads again, the next successful deploy deletes it.
    const again = await (
      await h.engine()
    ).deploy({ ...request, template: { Resources: { Keep: { Type: 'AWS::SQS::Queue' } } } }, options);
    expect(again.unaddressed).toEqual([]);
    expect(h.cloud.live.has(made)).toBe(false);
    expect(await h.journal(request)).toBeUndefined();
  });
});

describe('other stacks under the same state prefix, anywhere', () => {
  it('a record of another stack’s NESTED stack holding the resource stops the delete', async () => {
    const { request, made } = await madeWithoutRollback('AWS::SQS::Queue');
    const nested = { stackName: 'Elsewhere/Child', region: request.region };
    const state = emptyStateDocument(nested.stackName, nested.region);
    state.resources.Held = {
      type: 'AWS::SQS::Queue',
      physicalId: made,
      properties: {},
      attributes: {},
      provisionedBy: 'sdk',
      dependencies: [],
    };
    await h.backend.store.save(nested, state, undefined);
    try {
      const result = await (
        await h.engine()
      ).deploy({ ...request, template: { Resources: { Keep: { Type: 'AWS::SQS::Queue' } } } }, options);
      expect(result.unaddressed).toEqual([expect.stringMatching(new RegExp(`${made}.*another stack`))]);
      expect(h.cloud.live.has(made)).toBe(true);
    } finally {
      await h.backend.store.remove(nested);
    }
  });

  it('a legacy state document that names no region keeps the entry in the journal (exit 2)', async () => {
    const { request, made } = await madeWithoutRollback('AWS::SQS::Queue');
    const legacy = `${h.backend.store.prefix.replace(/\/+$/, '')}/Legacy/state.json`;
    await h.backend.objects.put(legacy, '{}', { ifNoneMatch: '*' });
    try {
      const result = await (
        await h.engine()
      ).deploy({ ...request, template: { Resources: { Keep: { Type: 'AWS::SQS::Queue' } } } }, options);
      expect(result.unaddressed).toEqual([
        expect.stringMatching(/Legacy: a legacy state document that names no region/),
      ]);
      expect(h.cloud.live.has(made)).toBe(true);
      const kept = (await h.journal(request))!.segments.flatMap((segment) => segment.operations);
      expect(kept).toMatchObject([{ logicalId: 'Made', keptByDeploy: true }]);
    } finally {
      await h.backend.objects.delete(legacy);
    }
  });
});

describe('rollback-orphan records', () => {
  it('a survivor a rollback recorded under its physical id stops cdkd rollback deleting it (exit 2)', async () => {
    const { request, made } = await madeWithoutRollback('AWS::SQS::Queue');
    const log = new EventLog(h.backend.objects, h.backend.store.prefix, h.ref(request), 'earlier-rollback');
    log.record({ status: 'DELETE_SKIPPED', logicalId: 'Other', survivorId: made, managedBy: 'cc-api' });
    await log.flush();
    const result = await h.rollback(request);
    expect(result.exitCode).toBe(2);
    expect(h.cloud.live.has(made)).toBe(true);
    expect(h.rollbackEvents('Made')).toMatchObject([
      { status: 'skipped', warn: true, message: expect.stringContaining('rollback-orphan record') },
    ]);
  });

  it('a survivor recorded under its logical id, by any earlier run, stops the delete too (exit 2)', async () => {
    const { request, made } = await madeWithoutRollback('AWS::SQS::Queue');
    const log = new EventLog(h.backend.objects, h.backend.store.prefix, h.ref(request), 'earlier-rollback');
    log.record({
      status: 'DELETE_SKIPPED',
      logicalId: 'Made',
      survivorId: 'another-id',
      managedBy: 'cc-api',
    });
    await log.flush();
    // The failed run's segment starts after that rollback recorded its survivor.
    const read = (await h.backend.journals.read(h.ref(request)))!;
    read.document.segments[0]!.startedAt = '2999-01-01T00:00:00.000Z';
    await h.backend.journals.writer(h.ref(request))(read.document, read.etag);
    const result = await h.rollback(request);
    expect(result.exitCode).toBe(2);
    expect(h.cloud.live.has(made)).toBe(true);
  });

  it('without one, cdkd rollback deletes it', async () => {
    const { request, made } = await madeWithoutRollback('AWS::SQS::Queue');
    const result = await h.rollback(request);
    expect(result.exitCode).toBe(0);
    expect(h.cloud.live.has(made)).toBe(false);
  });
});
