import { describe, expect, it } from 'vitest';
import { maskErrorEchoes, maskingErrors } from '../../src/stack-state/echoed-secrets.js';
import { withRetry } from '../../src/providers/retry.js';
import { options, useRollbackHarness } from './rollback-harness.js';

/**
 * Spec 001, "NoEcho values are not reverted": "The value never appears in the state record, the
 * events or the log in the clear" (ARCHITECTURE invariant 10), also when AWS echoes what it was
 * sent in an error: every message and log line made from a provider error is masked, except a
 * value shorter than 4 characters inside a longer line.
 */
const SECRET = 'hunter2-secret';

describe('maskErrorEchoes', () => {
  it('masks the message, the stack and every cause, in place', () => {
    const root = new Error(`root saw ${SECRET}`);
    const error = new Error(`Invalid value ${SECRET} for Tags`, { cause: root });
    maskErrorEchoes(error, [SECRET]);
    expect(error.message).toBe('Invalid value *** for Tags');
    expect(error.stack).not.toContain(SECRET);
    expect(root.message).toBe('root saw ***');
  });

  it('leaves a secret shorter than 4 characters inside a longer line (spec 001)', () => {
    const error = new Error('value abc is not allowed');
    maskErrorEchoes(error, ['abc']);
    expect(error.message).toBe('value abc is not allowed');
  });

  it("masks the retry's give-up line, which is written from the provider's error", async () => {
    const lines: string[] = [];
    const throttled = () =>
      Promise.reject(
        Object.assign(new Error(`Rate exceeded for ${SECRET}`), {
          name: 'ThrottlingException',
          $metadata: { httpStatusCode: 400 },
        }),
      );
    await expect(
      withRetry(maskingErrors([SECRET], throttled), {
        label: 'Queue',
        clock: { now: () => 0, sleep: async () => undefined },
        onGiveUp: (line) => lines.push(line),
      }),
    ).rejects.toThrow('Rate exceeded for ***');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('Rate exceeded for ***');
    expect(lines[0]).not.toContain(SECRET);
  });
});

const h = useRollbackHarness();

const template = (visibility: number) => ({
  Parameters: { Secret: { Type: 'String', NoEcho: true } },
  Resources: {
    Queue: {
      Type: 'AWS::SQS::Queue',
      Properties: { VisibilityTimeout: visibility, Tags: [{ Key: 's', Value: { Ref: 'Secret' } }] },
    },
  },
});

/** The provider answers every create and update with an error echoing what it was sent, as AWS services do. */
function echoingProvider(): void {
  const refuse = async (request: { properties: Record<string, unknown> }) => {
    throw new Error(`1 validation error detected: Value '${JSON.stringify(request.properties)}' is invalid`);
  };
  h.cloud.provider.create = refuse;
  h.cloud.provider.update = refuse;
}

/** Every place a failed deploy leaves a message: the error and its causes, events, journal, stack events. */
async function everythingSaid(request: ReturnType<typeof h.stack>, error: unknown): Promise<string> {
  const said: string[] = [];
  for (let at: unknown = error; at instanceof Error; at = at.cause) said.push(at.message, at.stack ?? '');
  said.push(JSON.stringify(h.events));
  said.push(JSON.stringify(await h.journal(request)));
  said.push(JSON.stringify(await h.stackEvents(request)));
  return said.join('\n');
}

describe('a provider error echoing a NoEcho value', () => {
  it('on a create: the error, the events, the journal and the stack events hold only the mask', async () => {
    const request = h.stack(template(30), { Secret: SECRET });
    echoingProvider();
    const error = await (await h.engine()).deploy(request, { ...options, rollback: false }).then(
      () => undefined,
      (thrown: unknown) => thrown,
    );
    expect(error).toMatchObject({ code: 'DEPLOY_FAILED', message: expect.stringContaining('"Value":"***"') });
    const said = await everythingSaid(request, error);
    expect(said).toContain('"Value":"***"');
    expect(said).not.toContain(SECRET);
  });

  it('on an update: the same', async () => {
    const request = h.stack(template(30), { Secret: SECRET });
    await (await h.engine()).deploy(request, options);
    echoingProvider();
    const error = await (
      await h.engine()
    )
      .deploy({ ...request, template: template(60) }, { ...options, rollback: false })
      .then(
        () => undefined,
        (thrown: unknown) => thrown,
      );
    expect(error).toMatchObject({ code: 'DEPLOY_FAILED' });
    const said = await everythingSaid(request, error);
    expect(said).toContain('"Value":"***"');
    expect(said).not.toContain(SECRET);
  });

  it("on a rollback's revert, which sends the value read back from AWS: the same", async () => {
    const withLate = (visibility: number) => ({
      ...template(visibility),
      Resources: {
        ...template(visibility).Resources,
        Late: { Type: 'AWS::SNS::Topic', DependsOn: 'Queue', Properties: { DisplayName: `l-${visibility}` } },
      },
    });
    const request = h.stack(withLate(30), { Secret: SECRET });
    await (await h.engine()).deploy(request, options);
    h.cloud.failOn.add('update:Late');
    await expect(
      (await h.engine()).deploy({ ...request, template: withLate(60) }, { ...options, rollback: false }),
    ).rejects.toMatchObject({ code: 'DEPLOY_FAILED' });
    echoingProvider();
    h.events.length = 0;
    const result = await h.rollback(request);
    expect(result.exitCode).toBe(1);
    const said = await everythingSaid(request, undefined);
    expect(said).toContain('"Value":"***"');
    expect(said).not.toContain(SECRET);
  });
});
