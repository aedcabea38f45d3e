import { CreateSecretCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { describe, expect, it } from 'vitest';
import { AwsClients } from '../../src/aws/client-factory.js';
import type { StackRequest } from '../../src/engine/stack-request.js';
import { emptyStateDocument } from '../../src/state/documents/state-document.js';
import { stackStateKeys } from '../../src/state/keys.js';
import { rollbackApp } from '../../src/toolkit/recovery/rollback-app.js';
import { Session } from '../../src/toolkit/session/session.js';
import { nestedChildTemplate, options, useRollbackHarness } from './rollback-harness.js';
import { eventsTo } from '../helpers/recording-io-host.js';

// Spec 001, "Nested stacks": a nested stack's update is reverted by replaying its
// own journal segment of the same run, from its parent's rollback.
const h = useRollbackHarness();

/** The nested stack `Child` of `top`, as `cdkd rollback 'Top~Child'` names it. */
function nestedOf(top: StackRequest): StackRequest {
  return { ...top, stateName: `${top.stateName}/Child`, stackName: `${top.stackName}-Child`, isNested: true };
}

/** A deployed parent, then a `--no-rollback` deploy of it that fails on `failOn`. */
async function failedWithoutRollback(failOn: string, late: boolean): Promise<StackRequest> {
  const first = h.parentStack(30, false);
  await (await h.engine()).deploy(first, options);
  h.cloud.failOn.add(failOn);
  await expect(
    (await h.engine()).deploy(h.parentStack(60, late, first), { ...options, rollback: false }),
  ).rejects.toMatchObject({ code: 'DEPLOY_FAILED' });
  h.cloud.failOn.clear();
  return first;
}

describe('the stack records of a nested stack (spec 004)', () => {
  it('a child whose update failed is never recorded by the parent as an in-place success', async () => {
    const first = await failedWithoutRollback('update:Inner', false);
    const parentRecord = (await h.state(first))!.resources.Child!;
    expect(parentRecord.properties).toMatchObject({ Parameters: { V: '30' } });
    const op = (await h.journal(first))!.segments[0]!.operations.find((entry) => entry.logicalId === 'Child');
    expect(op).toMatchObject({ action: 'update', status: 'failed' });
  });

  it('a nested stack that rolled back restores its own template and parameters', async () => {
    const first = h.parentStack(30, false);
    await (await h.engine()).deploy(first, options);
    const childRef = { stackName: `${first.stateName}/Child`, region: first.region };
    const before = (await h.backend.store.read(childRef))!.document;
    h.cloud.failOn.add('create:Late');
    await expect((await h.engine()).deploy(h.parentStack(60, true, first), options)).rejects.toMatchObject({
      code: 'DEPLOY_FAILED',
    });
    const after = (await h.backend.store.read(childRef))!.document;
    expect(after.parameters).toEqual({ V: '30' });
    expect(after.parameters).toEqual(before.parameters);
    expect(after.template).toEqual(before.template);
  });
});

describe('nested stacks in a rollback', () => {
  it("a parent failing after its child was updated puts the child's resources back", async () => {
    const first = h.parentStack(30, false);
    await (await h.engine()).deploy(first, options);
    const childRef = { stackName: `${first.stateName}/Child`, region: first.region };
    const innerId = (await h.backend.store.read(childRef))!.document.resources.Inner!.physicalId;

    h.cloud.failOn.add('create:Late');
    await expect((await h.engine()).deploy(h.parentStack(60, true, first), options)).rejects.toMatchObject({
      code: 'DEPLOY_FAILED',
    });
    const innerUpdates = h.cloud.calls.filter(
      (call) => call.action === 'update' && call.logicalId === 'Inner',
    );
    expect(innerUpdates.map((call) => call.properties)).toEqual([
      { VisibilityTimeout: '60' },
      { VisibilityTimeout: '30' },
    ]);
    expect(h.cloud.live.get(innerId)?.properties).toEqual({ VisibilityTimeout: '30' });
    const childState = (await h.backend.store.read(childRef))!.document;
    expect(childState.resources.Inner!.properties).toEqual({ VisibilityTimeout: '30' });
    expect(h.rollbackEvents('Child').map((event) => event.status)).toEqual(['succeeded']);
  });

  it('a successful top-level deploy removes the journals its nested stacks kept', async () => {
    const first = h.parentStack(30, false);
    await (await h.engine()).deploy(first, options);
    const childRef = { stackName: `${first.stateName}/Child`, region: first.region };
    expect(await h.backend.journals.read(childRef)).toBeUndefined();
    expect(await h.journal(first)).toBeUndefined();
  });

  it('rolling back a nested stack directly while its parent holds the run is refused, naming the top-level stack', async () => {
    const first = await failedWithoutRollback('create:Late', true);
    await expect(
      h.rollback({
        ...first,
        stateName: `${first.stateName}/Child`,
        stackName: `${first.stackName}-Child`,
        isNested: true,
      }),
    ).rejects.toMatchObject({
      code: 'ROLLBACK_NESTED_VIA_PARENT',
      hint: expect.stringContaining(`cdkd rollback ${first.stateName}`),
    });
    const result = await h.rollback(first);
    expect(result.exitCode).toBe(0);
    // The plan shows the child's own steps under its line, so the confirmation covers them.
    const nestedLine = result.lines.findIndex((line) =>
      line.includes("replay the nested stack's operations"),
    );
    expect(nestedLine).toBeGreaterThanOrEqual(0);
    expect(result.lines[nestedLine + 1]).toMatch(
      /^ {2}Inner \(AWS::SQS::Queue\): revert \S+ to its pre-deploy properties$/,
    );
  });
});

describe('edge cases of a parent replaying its nested stack', () => {
  it.each([
    ['the journal was removed', 'removed'],
    ['an older cdkd wrote it (no segment for the run)', 'other-run'],
  ] as const)(
    "the nested stack has no journal for the run (%s): the parent's entry fails and the journal is kept",
    async (_label, how) => {
      const first = await failedWithoutRollback('create:Late', true);
      const nested = nestedOf(first);
      const inner = (await h.state(nested))!.resources.Inner!.physicalId;
      const runId = (await h.journal(first))!.segments[0]!.runId;
      if (how === 'removed') {
        await h.backend.journals.remove(h.ref(nested));
      } else {
        const stored = (await h.backend.journals.read(h.ref(nested)))!;
        stored.document.segments = stored.document.segments.map((segment) => ({
          ...segment,
          runId: 'an-older-run',
        }));
        await h.backend.journals.writer(h.ref(nested))(stored.document, stored.etag);
      }
      h.cloud.calls.length = 0;

      const result = await h.rollback(first);
      expect(result.exitCode).toBe(1);
      // The plan shows it before the confirmation.
      const line = result.lines.indexOf(
        "Child (AWS::CloudFormation::Stack): replay the nested stack's operations of this run",
      );
      expect(line).toBeGreaterThanOrEqual(0);
      expect(result.lines[line + 1]).toBe(
        '  (the nested stack has no journal segment for this run; its replay will fail)',
      );
      expect(h.rollbackEvents('Child')).toMatchObject([
        {
          status: 'failed',
          message: expect.stringContaining(
            'the nested stack has no journal segment for this run (an older cdkd wrote it, or it was removed)',
          ),
        },
      ]);
      expect(await h.stackEvents(first)).toContainEqual(
        expect.objectContaining({
          status: 'ROLLBACK_RESOURCE_FAILED',
          logicalId: 'Child',
          reason: expect.stringContaining('no journal segment for this run'),
        }),
      );
      // Nothing inside the nested stack was touched, and the parent keeps the run for a re-run.
      expect(h.cloud.calls.filter((call) => call.logicalId === 'Inner')).toEqual([]);
      expect(h.cloud.live.get(inner)?.properties).toEqual({ VisibilityTimeout: '60' });
      const kept = (await h.journal(first))!;
      expect(kept.segments.map((segment) => segment.runId)).toEqual([runId]);
      expect(kept.segments[0]!.operations).toContainEqual(
        expect.objectContaining({ logicalId: 'Child', action: 'update', status: 'completed' }),
      );
      // --orphan Child lets the parent's rollback finish without it.
      expect((await h.rollback(first, { orphan: new Set(['Child']) })).exitCode).toBe(0);
      expect(await h.journal(first)).toBeUndefined();
    },
  );

  it("the nested stack's replay skipped an operation: the parent's entry is reported as partial, and the rollback exits 2", async () => {
    const first = await failedWithoutRollback('create:Late', true);
    const nested = nestedOf(first);
    // A torn record of the nested stack: its revert cannot address the queue, so the replay skips it.
    const read = (await h.backend.store.read(h.ref(nested)))!;
    const inner = read.document.resources.Inner!.physicalId;
    read.document.resources.Inner = { ...read.document.resources.Inner!, physicalId: '   ' };
    await h.backend.store.save(h.ref(nested), read.document, read.etag);
    h.cloud.calls.length = 0;

    const result = await h.rollback(first);
    expect(result.exitCode).toBe(2);
    expect(h.cloud.calls.filter((call) => call.logicalId === 'Inner')).toEqual([]);
    expect(h.cloud.live.get(inner)?.properties).toEqual({ VisibilityTimeout: '60' });
    expect(h.rollbackEvents('Inner')).toMatchObject([{ status: 'skipped', warn: true }]);
    expect(h.rollbackEvents('Child')).toMatchObject([
      {
        status: 'succeeded',
        warn: true,
        message: expect.stringContaining(
          'replayed the nested stack (partial: some of its operations need attention; cdkd events lists them)',
        ),
      },
    ]);
    expect(await h.stackEvents(nested)).toContainEqual(
      expect.objectContaining({ status: 'ROLLBACK_RESOURCE_SKIPPED', logicalId: 'Inner' }),
    );
    // The parent's segment is cleared; the entry the replay could not address stays in the nested
    // stack's journal, as the only record of what to repair (issue 25 item 15).
    expect(await h.journal(first)).toBeUndefined();
    expect((await h.journal(nested))?.segments.flatMap((segment) => segment.operations)).toMatchObject([
      { logicalId: 'Inner', action: 'update' },
    ]);
  });
});

describe('a nested stack whose own deploy failed in the run', () => {
  it("a plain cdkd rollback of the parent refuses; --revert-failed replays the child and leaves what failed to the child's own rollback", async () => {
    const first = await failedWithoutRollback('update:Inner', false);

    const plain = await h.rollback(first);
    expect(plain.exitCode).toBe(1);
    expect(plain.lines).toContainEqual(expect.stringMatching(/^Child .*\(REFUSED\).*--revert-failed/));
    expect(plain.lines.join('\n')).toContain(`cdkd rollback '${first.stateName}~Child' --revert-failed`);
    expect(await h.journal(first)).toBeDefined();

    h.cloud.calls.length = 0;
    const forced = await h.rollback(first, { revertFailed: true });
    expect(forced.exitCode).toBe(2);
    const command = `cdkd rollback '${first.stateName}~Child' --revert-failed`;
    expect(forced.lines).toContainEqual(
      `  Inner (AWS::SQS::Queue): left for the nested stack's own rollback: ${command}`,
    );
    expect(h.cloud.calls).toEqual([]);
    expect(h.rollbackEvents('Child').at(-1)).toMatchObject({
      status: 'succeeded',
      warn: true,
      message: expect.stringContaining(command),
    });
    expect(await h.journal(first)).toBeUndefined();
    const kept = (await h.journal(nestedOf(first)))!.segments;
    expect(kept.map((segment) => segment.status)).toEqual(['failed-only']);
    expect(kept[0]!.operations.map((op) => [op.logicalId, op.status])).toEqual([['Inner', 'failed']]);
  });

  it('the documented two commands: the parent reverts what completed inside the child, the child’s own rollback what failed', async () => {
    const twoQueues = {
      Parameters: { V: { Type: 'Number' } },
      Resources: {
        First: { Type: 'AWS::SQS::Queue', Properties: { DelaySeconds: { Ref: 'V' } } },
        Inner: {
          Type: 'AWS::SQS::Queue',
          DependsOn: 'First',
          Properties: { VisibilityTimeout: { Ref: 'V' } },
        },
      },
    };
    const first = h.parentStack(30, false, undefined, twoQueues);
    await (await h.engine()).deploy(first, options);
    h.cloud.failOn.add('update:Inner');
    await expect(
      (await h.engine()).deploy(h.parentStack(60, false, first, twoQueues), { ...options, rollback: false }),
    ).rejects.toMatchObject({ code: 'DEPLOY_FAILED' });
    h.cloud.failOn.clear();
    const nested = nestedOf(first);
    const { First: firstQueue, Inner: inner } = (await h.state(nested))!.resources;
    expect(h.cloud.live.get(firstQueue!.physicalId)?.properties).toEqual({ DelaySeconds: '60' });
    // As an update that failed after AWS applied part of it leaves the queue.
    h.cloud.live.set(inner!.physicalId, { type: inner!.type, properties: { VisibilityTimeout: '60' } });

    const parentRollback = await h.rollback(first, { revertFailed: true });
    expect(parentRollback.exitCode).toBe(2);
    expect(parentRollback.lines).toContainEqual(
      `  Inner (AWS::SQS::Queue): left for the nested stack's own rollback: cdkd rollback '${first.stateName}~Child' --revert-failed`,
    );
    expect(h.cloud.live.get(firstQueue!.physicalId)?.properties).toEqual({ DelaySeconds: '30' });
    expect(h.cloud.live.get(inner!.physicalId)?.properties).toEqual({ VisibilityTimeout: '60' });
    expect(await h.journal(first)).toBeUndefined();
    expect((await h.journal(nested))!.segments[0]!.operations.map((op) => op.logicalId)).toEqual(['Inner']);

    const childRollback = await h.rollback(nested, { revertFailed: true });
    expect(childRollback.exitCode).toBe(0);
    expect(childRollback.lines).toContainEqual(
      expect.stringMatching(/^Inner \(AWS::SQS::Queue\): revert \S+ to its pre-deploy properties$/),
    );
    expect(await h.journal(nested)).toBeUndefined();
    expect(h.cloud.live.get(firstQueue!.physicalId)?.properties).toEqual({ DelaySeconds: '30' });
    expect(h.cloud.live.get(inner!.physicalId)?.properties).toEqual({ VisibilityTimeout: '30' });
  });

  it('a failed create inside the child that made its resource is deleted by a plain rollback of the child', async () => {
    const withMade = {
      ...nestedChildTemplate,
      Resources: { ...nestedChildTemplate.Resources, Made: { Type: 'AWS::SNS::Topic', DependsOn: 'Inner' } },
    };
    const first = h.parentStack(30, false);
    await (await h.engine()).deploy(first, options);
    h.cloud.madeThenFail.add('create:Made');
    await expect(
      (await h.engine()).deploy(h.parentStack(60, false, first, withMade), { ...options, rollback: false }),
    ).rejects.toMatchObject({ code: 'DEPLOY_FAILED' });
    const made = h.cloud.calls.find(
      (call) => call.action === 'create' && call.logicalId === 'Made',
    )!.physicalId;
    const nested = nestedOf(first);
    const inner = (await h.state(nested))!.resources.Inner!.physicalId;

    const parentRollback = await h.rollback(first, { revertFailed: true });
    expect(parentRollback.exitCode).toBe(2);
    expect(parentRollback.lines).toContainEqual(
      `  Made (AWS::SNS::Topic): left for the nested stack's own rollback: cdkd rollback '${first.stateName}~Child'`,
    );
    expect(h.cloud.live.get(inner)?.properties).toEqual({ VisibilityTimeout: '30' });
    expect(h.cloud.liveIds()).toContain(made);

    const childRollback = await h.rollback(nested);
    expect(childRollback.exitCode).toBe(0);
    expect(h.cloud.liveIds()).not.toContain(made);
    expect(await h.journal(nested)).toBeUndefined();
  });
});

describe('a nested stack’s journal for a run its parent no longer holds', () => {
  it('is listed as discarded, and dropped without reverting once confirmed', async () => {
    const first = await failedWithoutRollback('create:Late', true);
    const runId = (await h.journal(first))!.segments[0]!.runId;
    expect((await h.rollback(first, { orphan: new Set(['Child']) })).exitCode).toBe(0);
    expect(await h.journal(first)).toBeUndefined();
    const nested = nestedOf(first);
    expect((await h.journal(nested))!.segments.map((segment) => segment.runId)).toEqual([runId]);
    const inner = (await h.state(nested))!.resources.Inner!.physicalId;
    h.cloud.calls.length = 0;

    const discard = `Inner (AWS::SQS::Queue): discard: the journal of ${first.stateName} no longer holds run ${runId}; the nested stack keeps this change`;
    const declined = await h.rollback(nested, { confirm: async () => false });
    expect(declined).toMatchObject({ confirmed: false, lines: [discard] });
    expect(await h.journal(nested)).toBeDefined();

    const confirmed = await h.rollback(nested);
    expect(confirmed).toMatchObject({ confirmed: true, exitCode: 0, lines: [discard] });
    expect(await h.journal(nested)).toBeUndefined();
    expect(h.cloud.calls).toEqual([]);
    expect(h.cloud.live.get(inner)?.properties).toEqual({ VisibilityTimeout: '60' });
    const state = (await h.state(nested))!;
    expect(state.resources.Inner!.properties).toEqual({ VisibilityTimeout: '60' });
    expect(state.parameters).toMatchObject({ V: '60' });
    expect(await h.stackEvents(nested)).toContainEqual(
      expect.objectContaining({
        status: 'ROLLBACK_RESOURCE_SKIPPED',
        logicalId: 'Inner',
        reason: expect.stringContaining(`no longer holds run ${runId}`),
      }),
    );
  });
});

describe('rolling back a nested stack directly', () => {
  it('is refused while a running deploy holds the top-level stack’s lock', async () => {
    const first = h.parentStack(30, false);
    await (await h.engine()).deploy(first, options);
    const child = {
      ...first,
      stateName: `${first.stateName}/Child`,
      stackName: `${first.stackName}-Child`,
      isNested: true,
    };
    const lock = await h.backend.locks.acquire(h.ref(first), { operation: 'deploy' });
    try {
      await expect(h.rollback(child)).rejects.toMatchObject({
        code: 'ROLLBACK_NESTED_VIA_PARENT',
        message: expect.stringContaining('running deploy'),
      });
    } finally {
      await lock.release();
    }
    expect((await h.rollback(child)).found).toBe(false);
  });

  it("is also refused while the parent's journal cannot be read, naming the top-level stack", async () => {
    const first = await failedWithoutRollback('create:Late', true);
    const nested = nestedOf(first);
    const inner = (await h.state(nested))!.resources.Inner!.physicalId;
    const key = stackStateKeys(h.backend.store.prefix, first.stateName, first.region).journal;
    const stored = (await h.backend.objects.get(key))!;
    await h.backend.objects.put(key, '{ not json', { ifMatch: stored.etag });
    try {
      await expect(h.backend.journals.read(h.ref(first))).rejects.toThrow();
      h.cloud.calls.length = 0;
      await expect(h.rollback(nested)).rejects.toMatchObject({
        code: 'ROLLBACK_NESTED_VIA_PARENT',
        message: expect.stringContaining(`The journal of ${first.stateName} cannot be read`),
        hint: expect.stringContaining(`cdkd rollback ${first.stateName}`),
      });
      expect(h.cloud.calls).toEqual([]);
      expect(h.cloud.live.get(inner)?.properties).toEqual({ VisibilityTimeout: '60' });
      expect(await h.journal(nested)).toBeDefined();
    } finally {
      const torn = (await h.backend.objects.get(key))!;
      await h.backend.objects.put(key, stored.text, { ifMatch: torn.etag });
    }
    // With the parent's journal readable again, the top-level rollback reverts the nested stack.
    expect((await h.rollback(first)).exitCode).toBe(0);
    expect(h.cloud.live.get(inner)?.properties).toEqual({ VisibilityTimeout: '30' });
  });

  it('cdkd rollback without a stack name does not offer the nested journal when its parent has one', async () => {
    const first = await failedWithoutRollback('create:Late', true);
    expect(
      await h.backend.journals.read({ stackName: `${first.stateName}/Child`, region: first.region }),
    ).toBeDefined();
    try {
      // Other tests' stacks here have journals too: the answer is either this stack or a list.
      const offered = await rollbackApp({
        session: new Session({ stateBucket: 'rollback-test', statePrefix: 'cdkd', region: first.region }),
        revertFailed: false,
        orphan: [],
        force: false,
        io: eventsTo(() => undefined),
        command: 'rollback',
      }).then(
        (result) => result.stackName,
        (error: Error) => error.message,
      );
      expect(offered).toContain(first.stateName);
      expect(offered).not.toContain(`${first.stateName}/Child`);
    } finally {
      expect((await h.rollback(first)).exitCode).toBe(0);
    }
  });
});

describe('a secret reference written as a name in a nested stack its parent replays', () => {
  // cdkd deploys a nested stack in its parent's region (nestedIdentity), so no stack above it
  // reads from another region: the parent's replay resolves the name where the deploy did.
  it('is resolved in the region the nesting chain shares and sent resolved', async () => {
    const secrets = await new AwsClients().client(SecretsManagerClient);
    await secrets.send(new CreateSecretCommand({ Name: 'nested-delay', SecretString: '7' }));
    const withSecret = (delay: string) => ({
      Parameters: { V: { Type: 'Number' } },
      Resources: { Inner: { Type: 'AWS::SQS::Queue', Properties: { DelaySeconds: delay } } },
    });
    const first = h.parentStack(30, false, undefined, withSecret('{{resolve:secretsmanager:nested-delay}}'));
    await (await h.engine()).deploy(first, options);
    const inner = (await h.state(nestedOf(first)))!.resources.Inner!.physicalId;
    expect(h.cloud.live.get(inner)?.properties).toEqual({ DelaySeconds: '7' });

    h.cloud.failOn.add('create:Late');
    await expect(
      (await h.engine()).deploy(h.parentStack(30, true, first, withSecret('3')), options),
    ).rejects.toMatchObject({ code: 'DEPLOY_FAILED' });
    expect(
      h
        .rollbackEvents('Inner')
        .map((event) => event.message)
        .join('\n'),
    ).not.toContain('ROLLBACK_SECRET_REGION_UNKNOWN');
    expect(h.cloud.live.get(inner)?.properties).toEqual({ DelaySeconds: '7' });
    expect((await h.state(nestedOf(first)))!.resources.Inner!.properties).toEqual({
      DelaySeconds: '{{resolve:secretsmanager:nested-delay}}',
    });
  });
});

describe('a secret reference in a direct rollback of a nested stack', () => {
  // A direct rollback discards completed operations: only a failed one under --revert-failed reverts.
  async function childWithRevert(reference: string): Promise<StackRequest> {
    const top = h.stack({});
    const child = {
      ...top,
      stateName: `${top.stateName}/Child`,
      stackName: `${top.stackName}-Child`,
      isNested: true,
    };
    const current = {
      type: 'AWS::SQS::Queue',
      physicalId: 'inner-1',
      properties: { DelaySeconds: 5 },
      attributes: {},
      provisionedBy: 'cc-api' as const,
      dependencies: [],
    };
    h.cloud.live.set('inner-1', { type: current.type, properties: current.properties });
    const state = emptyStateDocument(child.stateName, child.region);
    state.resources.Inner = current;
    await h.backend.store.save(h.ref(child), state, undefined);
    await h.writeJournal(child, [
      {
        logicalId: 'Inner',
        action: 'update',
        type: current.type,
        status: 'failed',
        before: { ...current, properties: { DelaySeconds: reference } },
        after: current,
        physicalId: 'inner-1',
        previousPhysicalId: 'inner-1',
      },
    ]);
    return child;
  }

  it('written as a name (no region) fails the step and keeps the journal', async () => {
    const child = await childWithRevert('{{resolve:secretsmanager:delay}}');
    const result = await h.rollback(child, { revertFailed: true });
    expect(result.exitCode).toBe(1);
    expect(h.rollbackEvents('Inner')[0]?.message).toContain('ROLLBACK_SECRET_REGION_UNKNOWN');
    expect(h.cloud.live.get('inner-1')?.properties).toEqual({ DelaySeconds: 5 });
    expect(await h.journal(child)).toBeDefined();
  });

  it('written as an ARN is resolved in the region it names', async () => {
    const child = await childWithRevert(
      '{{resolve:secretsmanager:arn:aws:secretsmanager:us-east-1:000000000000:secret:delay-AbCdEf}}',
    );
    const result = await h.rollback(child, { revertFailed: true });
    expect(h.rollbackEvents('Inner')[0]?.message).not.toContain('ROLLBACK_SECRET_REGION_UNKNOWN');
    expect(result.exitCode).toBe(1);
  });
});

describe('cdkd destroy of a stack whose state records no resource', () => {
  it('deletes what a failed create made, which only the journal records, and removes the journal and state', async () => {
    const request = h.stack({ Resources: { Made: { Type: 'AWS::EC2::VPC' } } });
    h.cloud.madeThenFail.add('create:Made');
    await expect((await h.engine()).deploy(request, { ...options, rollback: false })).rejects.toMatchObject({
      code: 'DEPLOY_FAILED',
    });
    // --no-rollback keeps the attempted template (spec 004), but no record of what the create made.
    expect((await h.state(request))!.resources).toEqual({});
    expect(h.cloud.liveIds()).toHaveLength(1);
    await (await h.engine()).destroy(request, options);
    expect(h.cloud.liveIds()).toEqual([]);
    expect(await h.journal(request)).toBeUndefined();
    expect(await h.state(request)).toBeUndefined();
  });
});

describe('a nested stack whose own create failed on a new stack', () => {
  it('is reached by the parent’s destroy through its journal, though the rollback left it no state', async () => {
    const request = h.parentStack(30, false);
    h.cloud.failOn.add('create:Inner');
    await expect((await h.engine()).deploy(request, options)).rejects.toMatchObject({
      code: 'DEPLOY_FAILED',
    });
    const childRef = { stackName: `${request.stateName}/Child`, region: request.region };
    expect(await h.backend.store.read(childRef)).toBeUndefined();
    expect(await h.backend.journals.read(childRef)).toBeDefined();

    await (await h.engine()).destroy(request, options);
    expect(await h.backend.journals.read(childRef)).toBeUndefined();
    expect(await h.journal(request)).toBeUndefined();
  });
});
