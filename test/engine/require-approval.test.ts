import { describe, expect, it } from 'vitest';
import type { IoHost, IoQuestion } from '../../src/messages/index.js';
import { iamRole, useSandboxEngine } from '../helpers/sandbox-engine.js';

/**
 * `--require-approval` in the engine: a changed stack's dry run is put to the IO host before
 * its lock is taken; a "no" leaves the stack as it was, with no lock taken.
 */
const harness = useSandboxEngine('cdkd-state-require-approval');

const statement = (Action: string, Resource: string) => ({ Effect: 'Allow', Action, Resource });
const role = (...statements: unknown[]) => ({
  Reader: iamRole({
    Policies: [{ PolicyName: 'read', PolicyDocument: { Version: '2012-10-17', Statement: statements } }],
  }),
});

function answering(answer: boolean) {
  const asked: IoQuestion[] = [];
  const ask = (async (question: IoQuestion) => {
    asked.push(question);
    return question.code === 'CDKD_Q2101' ? answer : question.defaultAnswer;
  }) as IoHost['ask'];
  return { asked, ask };
}

const phases = () => harness.events.flatMap((event) => (event.kind === 'phase' ? [event.phase] : []));

describe('requireApproval', () => {
  it('asks before the lock; a no leaves the stack untouched, a yes deploys', async () => {
    await harness.deploy('Approve', role(statement('s3:GetObject', 'arn:aws:s3:::b/*')), {
      requireApproval: 'never',
    });

    const no = answering(false);
    const wide = role(statement('s3:*', '*'), statement('sqs:*', '*'));
    await expect(
      harness.deploy('Approve', wide, { requireApproval: 'broadening' }, no.ask),
    ).rejects.toMatchObject({
      code: 'CANCELLED',
    });
    expect(no.asked.map((q) => q.code)).toEqual(['CDKD_Q2101']);
    const request = no.asked[0]!.data as {
      broadened: boolean;
      review: { security: { iamStatements: string[][] } };
    };
    expect(request.broadened).toBe(true);
    expect(request.review.security.iamStatements.map((row) => [row[0], row[3]])).toEqual([
      ['+', 's3:*'],
      ['+', 'sqs:*'],
      ['-', 's3:GetObject'],
    ]);
    expect(phases()).not.toContain('lock');
    const state = await harness.backend.store.read({ stackName: 'Approve', region: 'us-east-1' });
    expect(JSON.stringify(state?.document.resources.Reader?.properties)).toContain('s3:GetObject');

    const yes = answering(true);
    await harness.deploy('Approve', wide, { requireApproval: 'broadening' }, yes.ask);
    expect(yes.asked).toHaveLength(1);
    expect(phases().indexOf('approval')).toBeLessThan(phases().indexOf('lock'));
  });

  it('a narrowing change is not asked about under broadening; any change is under any-change', async () => {
    // Only a statement removed: a statement-level diff, as the CDK CLI's, calls that not broadening.
    const narrow = role(statement('s3:*', '*'));
    const broadening = answering(false);
    await harness.deploy('Approve', narrow, { requireApproval: 'broadening' }, broadening.ask);
    expect(broadening.asked).toEqual([]);

    const anyChange = answering(false);
    const described = {
      Reader: { ...narrow.Reader, Properties: { ...narrow.Reader.Properties, Description: 'reads' } },
    };
    await expect(
      harness.deploy('Approve', described, { requireApproval: 'any-change' }, anyChange.ask),
    ).rejects.toMatchObject({ code: 'CANCELLED' });
    expect(anyChange.asked.map((q) => (q.data as { broadened: boolean }).broadened)).toEqual([false]);
  });
});
