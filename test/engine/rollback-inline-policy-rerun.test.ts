import { describe, expect, it } from 'vitest';
import { allowing, inlinePoliciesOf, rolePolicy } from './inline-policy-helpers.js';
import {
  iamRole,
  NEXT_CREATE_QUEUE_FAILS,
  REGION,
  rollbackRequest,
  useSandboxEngine,
} from '../helpers/sandbox-engine.js';

/**
 * Spec 000, "IAM inline policy names moved between resources": "A rollback killed between
 * such a removal and the put-back also leaves the policy off: a re-run does not repeat the
 * removal." With the real IAM provider on the sandbox. The kill is simulated where a killed
 * process leaves things: every step's state write done, the put-back not started, and the
 * journal not yet rewritten (the bookkeeping throws after the removal's step, as a process
 * dying there would stop).
 */
const sandbox = useSandboxEngine('inline-rerun');
const STACK = 'InlineRerun';
const ref = { stackName: STACK, region: REGION };

const role = iamRole();

async function admin(method: string, path: string, body?: unknown) {
  const response = await fetch(`${sandbox.url}/_sandbox/${path}`, {
    method,
    headers: { 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  expect(response.ok).toBe(true);
  return response.json() as Promise<{ calls: Record<string, { count: number }> }>;
}

const inlinePolicies = (roleName: string) => inlinePoliciesOf(sandbox.clients, roleName);

describe('IAM inline policy names moved between resources: a rollback killed before the put-back', () => {
  it('leaves the policy off, and a re-run does not repeat the removal', async () => {
    await sandbox.deploy(STACK, { Role: role, A: rolePolicy('shared', 's3:GetObject') });
    const roleName = (await sandbox.backend.store.read(ref))!.document.resources.Role!.physicalId;

    // B is created under "shared", which A still holds, over A's document; then the queue fails (--no-rollback).
    await sandbox.addFault(NEXT_CREATE_QUEUE_FAILS);
    await expect(
      sandbox.deploy(
        STACK,
        {
          Role: role,
          A: rolePolicy('shared', 's3:GetObject'),
          B: rolePolicy('shared', 'sqs:SendMessage', { DependsOn: 'A' }),
          Queue: { Type: 'AWS::SQS::Queue', DependsOn: 'B' },
        },
        { rollback: false },
      ),
    ).rejects.toMatchObject({ code: 'DEPLOY_FAILED' });
    expect(await inlinePolicies(roleName)).toEqual({ shared: allowing('sqs:SendMessage') });
    const journaled = (await sandbox.backend.journals.read(ref))!.document.segments[0]!.operations;

    // The first rollback deletes B, which removes "shared", a name A's record holds; it is
    // killed there, before the put-back of A's document.
    const killed = new Error('killed after B was deleted');
    await expect(
      (
        await sandbox.engine((event) => {
          if (event.kind === 'rollback' && event.logicalId === 'B') throw killed;
        })
      ).rollback(rollbackRequest(STACK)),
    ).rejects.toBe(killed);
    expect(await inlinePolicies(roleName)).toEqual({});
    const state = (await sandbox.backend.store.read(ref))!.document;
    expect(state.resources.B).toBeUndefined();
    expect(state.resources.A!.properties.PolicyName).toBe('shared');
    expect((await sandbox.backend.journals.read(ref))!.document.segments[0]!.operations).toEqual(journaled);

    // The re-run meets what the killed run already did: nothing is removed again, nothing put back.
    await admin('DELETE', 'calls');
    const rerun = await sandbox.rollback(STACK);
    expect(rerun.lines).toContain('B (AWS::IAM::Policy): skip: already cleaned up: no state record is left');
    const iamWrites = Object.entries((await admin('GET', 'calls')).calls)
      .filter(([operation]) => /^iam:(Put|Delete)RolePolicy$/.test(operation))
      .map(([operation, { count }]) => `${operation}×${count}`);
    expect(iamWrites).toEqual([]);
    expect(
      sandbox.events.filter((event) => event.kind === 'rollback' && event.message.includes('put back')),
    ).toEqual([]);
    expect(await inlinePolicies(roleName)).toEqual({});
    expect(await sandbox.backend.journals.read(ref)).toBeUndefined();
  });
});
