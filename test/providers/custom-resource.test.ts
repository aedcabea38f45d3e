import { describe, expect, it } from 'vitest';
import { CdkdError } from '../../src/errors.js';
import { CustomResourceProvider } from '../../src/providers/custom-resource/index.js';
import { reinvocationBudget, serviceTimeoutSeconds } from '../../src/providers/custom-resource/budgets.js';
import { requestIdFor } from '../../src/providers/custom-resource/delivery.js';
import { buildRequest, stringifyScalars } from '../../src/providers/custom-resource/request.js';
import { serviceTarget } from '../../src/providers/custom-resource/service-token.js';
import { OutcomeUnknownError, ResourceMadeError } from '../../src/providers/provider.js';
import { retryClassOf } from '../../src/providers/retry-class.js';
import {
  answer,
  fakeClock,
  fakeCustomResourceWorld,
  serviceError,
  type FakeHandler,
} from './custom-resource-fakes.js';

const FUNCTION = 'arn:aws:lambda:us-east-1:123456789012:function:Handler';
const TOPIC = 'arn:aws:sns:eu-west-1:123456789012:Requests';
const TOKEN = '0b5c6a3e-1f0e-4c1e-9a57-2f3b3c9a1d10';
const succeed =
  (physicalId = 'thing-1', data: Record<string, unknown> = {}): FakeHandler =>
  (event) =>
    answer(event, { Status: 'SUCCESS', PhysicalResourceId: physicalId, Data: data });

function setup(handler: FakeHandler, env: NodeJS.ProcessEnv = {}) {
  const world = fakeCustomResourceWorld(handler);
  const clock = fakeClock();
  const provider = new CustomResourceProvider({ transport: () => world.transport, clock, env });
  return { ...world, clock, provider };
}

const properties = { ServiceToken: FUNCTION, Size: 5, Enabled: true, Nested: { List: [1, 'a', false] } };

describe('the request, as CloudFormation sends it', () => {
  it('Create: every field, scalars as strings at any depth, ServiceToken among the properties, no id yet', async () => {
    const { provider, events, context } = setup(succeed());
    await provider.create(
      { logicalId: 'Thing', type: 'Custom::Thing', properties, idempotencyToken: TOKEN },
      context(),
    );
    expect(events).toEqual([
      {
        RequestType: 'Create',
        ServiceToken: FUNCTION,
        ResponseURL: `https://bucket.example/responses/${TOKEN}?signed`,
        StackId:
          'arn:aws:cloudformation:us-east-1:123456789012:stack/Stack/11111111-2222-3333-4444-555555555555',
        RequestId: TOKEN,
        LogicalResourceId: 'Thing',
        ResourceType: 'Custom::Thing',
        ResourceProperties: {
          ServiceToken: FUNCTION,
          Size: '5',
          Enabled: 'true',
          Nested: { List: ['1', 'a', 'false'] },
        },
      },
    ]);
  });

  it('Update: the physical id, the new properties and the old ones, both stringified', async () => {
    const { provider, events, context } = setup(succeed('thing-1'));
    await provider.update(
      {
        logicalId: 'Thing',
        type: 'Custom::Thing',
        physicalId: 'thing-1',
        properties: { ServiceToken: FUNCTION, Size: 6 },
        previousProperties: { ServiceToken: FUNCTION, Size: 5 },
      },
      context(),
    );
    expect(events[0]).toMatchObject({
      RequestType: 'Update',
      PhysicalResourceId: 'thing-1',
      ResourceProperties: { ServiceToken: FUNCTION, Size: '6' },
      OldResourceProperties: { ServiceToken: FUNCTION, Size: '5' },
    });
  });

  it('Delete: the physical id and the recorded properties, no old ones', async () => {
    const { provider, events, context } = setup(succeed('thing-1'));
    await provider.delete(
      {
        logicalId: 'Thing',
        type: 'Custom::Thing',
        physicalId: 'thing-1',
        properties: { ServiceToken: FUNCTION },
      },
      context(),
    );
    expect(events[0]).toMatchObject({ RequestType: 'Delete', PhysicalResourceId: 'thing-1' });
    expect(events[0]).not.toHaveProperty('OldResourceProperties');
  });

  it('waits for the function to be ready before sending, and sends an SNS ServiceToken by topic', async () => {
    const { provider, calls, context } = setup(succeed());
    await provider.create(
      { logicalId: 'T', type: 'Custom::T', properties: { ServiceToken: TOPIC } },
      context(),
    );
    expect(calls.filter((call) => !call.startsWith('prepare'))).toEqual(['ready sns', 'send sns']);
    expect(serviceTarget('T', TOPIC)).toEqual({ kind: 'sns', topicArn: TOPIC, region: 'eu-west-1' });
    expect(serviceTarget('T', `${FUNCTION}:live`)).toMatchObject({ kind: 'lambda', region: 'us-east-1' });
  });

  it.each([
    [undefined, 'T has no ServiceToken'],
    ['arn:aws:s3:::bucket', 'neither a Lambda function ARN nor an SNS topic ARN'],
    [{ 'Fn::GetAtt': ['F', 'Arn'] }, 'not a string'],
  ])('refuses the ServiceToken %j', (token, message) => {
    expect(() => serviceTarget('T', token)).toThrow(
      expect.objectContaining({
        code: 'CUSTOM_RESOURCE_SERVICE_TOKEN',
        message: expect.stringContaining(message),
      }),
    );
  });

  it('stringifies numbers and booleans but keeps strings, null and shapes', () => {
    expect(stringifyScalars({ a: 1.5, b: [true, null, 'x'], c: {} })).toEqual({
      a: '1.5',
      b: ['true', null, 'x'],
      c: {},
    });
    const request = buildRequest({
      requestType: 'Create',
      serviceToken: FUNCTION,
      responseUrl: 'u',
      stackId: 's',
      requestId: 'r',
      logicalId: 'L',
      resourceType: 'Custom::X',
      physicalId: 'ignored-on-create',
      properties: {},
      oldProperties: { ignored: 'on create' },
    });
    expect(request).not.toHaveProperty('PhysicalResourceId');
    expect(request).not.toHaveProperty('OldResourceProperties');
  });
});

describe('the response', () => {
  it('SUCCESS: the physical id, and Data as the attributes Fn::GetAtt reads', async () => {
    const { provider, context } = setup(succeed('thing-7', { Endpoint: 'x.example', Port: '443' }));
    const result = await provider.create({ logicalId: 'T', type: 'Custom::T', properties }, context());
    expect(result).toEqual({ physicalId: 'thing-7', attributes: { Endpoint: 'x.example', Port: '443' } });
  });

  it.each([
    ['NoEcho: true', true, { noEcho: true }],
    ['NoEcho: "true", as a Python handler may write it', 'true', { noEcho: true }],
    ['NoEcho: false', false, {}],
    ['no NoEcho', undefined, {}],
  ])('%s: Data still as the attributes, flagged secret only when NoEcho is on', async (_, noEcho, flag) => {
    const { provider, context } = setup((event) =>
      answer(event, { Status: 'SUCCESS', PhysicalResourceId: 'p', Data: { Password: 'pw' }, NoEcho: noEcho }),
    );
    const request = { logicalId: 'T', type: 'Custom::T', properties };
    expect(await provider.create(request, context())).toEqual({
      physicalId: 'p',
      attributes: { Password: 'pw' },
      ...flag,
    });
    expect(
      await provider.update({ ...request, physicalId: 'p', previousProperties: properties }, context()),
    ).toEqual({ physicalId: 'p', attributes: { Password: 'pw' }, ...flag });
  });

  it('FAILED: the Reason in the error, with nothing made when no physical id came back', async () => {
    const { provider, context } = setup((event) =>
      answer(event, { Status: 'FAILED', Reason: 'bucket is gone' }),
    );
    const failure = await provider
      .create({ logicalId: 'T', type: 'Custom::T', properties }, context())
      .catch((e) => e);
    expect(failure).toBeInstanceOf(CdkdError);
    expect(failure).toMatchObject({
      code: 'CUSTOM_RESOURCE_FAILED',
      message: expect.stringContaining('bucket is gone'),
    });
  });

  it("FAILED: a multi-line Reason (the Provider framework's message, log group and stack) is one line without the frames", async () => {
    const reason =
      'boom\n\nLogs: /aws/lambda/F\n\n    at exports.handler (/var/task/index.js:2:48)\n    at new Promise (<anonymous>)';
    const { provider, context } = setup((event) => answer(event, { Status: 'FAILED', Reason: reason }));
    const failure = await provider
      .create({ logicalId: 'T', type: 'Custom::T', properties }, context())
      .catch((e) => e);
    expect(failure.message).toBe(
      'T: the handler answered FAILED to the Create request: boom; Logs: /aws/lambda/F',
    );
  });

  it('FAILED on Create with a physical id: the resource counts as made, so a rollback sends it a Delete', async () => {
    const { provider, context } = setup((event) =>
      answer(event, { Status: 'FAILED', Reason: 'half done', PhysicalResourceId: 'thing-9' }),
    );
    const failure = await provider
      .create({ logicalId: 'T', type: 'Custom::T', properties }, context())
      .catch((e) => e);
    expect(failure).toBeInstanceOf(ResourceMadeError);
    expect(failure.made).toEqual({ physicalId: 'thing-9' });
    expect(failure.message).toContain('half done');
  });

  // Issue 25 item 12: whatever makes the answer invalid, a physical id it still names counts as made.
  it.each<[string, (event: Record<string, unknown>) => string, string, string | undefined]>([
    [
      'no PhysicalResourceId',
      (e) => answer(e, { Status: 'SUCCESS' }),
      'has no PhysicalResourceId',
      undefined,
    ],
    [
      'an empty PhysicalResourceId',
      (e) => answer(e, { Status: 'SUCCESS', PhysicalResourceId: '' }),
      'has no PhysicalResourceId',
      undefined,
    ],
    ['not JSON', () => 'OK', 'is not JSON', undefined],
    [
      'JSON cut short that still names its resource',
      (e) =>
        answer(e, { Status: 'SUCCESS', PhysicalResourceId: 'cut "short"', Data: { A: 'b' } }).slice(0, -5),
      'is not JSON',
      'cut "short"',
    ],
    ['a JSON list', () => '[]', 'is not a JSON object', undefined],
    [
      'an unknown Status',
      (e) => answer(e, { Status: 'DONE', PhysicalResourceId: 'p' }),
      'has Status "DONE"',
      'p',
    ],
    [
      'a Data that is a string',
      (e) => answer(e, { Status: 'SUCCESS', PhysicalResourceId: 'p', Data: 'x' }),
      'Data that is not an object',
      'p',
    ],
    [
      'another request',
      (e) => answer({ ...e, RequestId: 'other' }, { Status: 'SUCCESS', PhysicalResourceId: 'p' }),
      'answers request other',
      undefined,
    ],
    [
      'over 4096 bytes',
      (e) => answer(e, { Status: 'SUCCESS', PhysicalResourceId: 'p', Data: { Big: 'x'.repeat(4096) } }),
      "over CloudFormation's limit of 4096",
      'p',
    ],
  ])('a response with %s is a clear failure', async (_case, handler, message, named) => {
    const { provider, context } = setup(handler);
    const failure = await provider
      .create({ logicalId: 'T', type: 'Custom::T', properties }, context())
      .catch((e: unknown) => e);
    const bad = { code: 'CUSTOM_RESOURCE_BAD_RESPONSE', message: expect.stringContaining(message) };
    if (named === undefined) {
      expect(failure).not.toBeInstanceOf(ResourceMadeError);
      expect(failure).toMatchObject(bad);
    } else {
      // The handler may have made what it names: a rollback sends it a Delete.
      expect(failure).toBeInstanceOf(ResourceMadeError);
      expect(failure).toMatchObject({ made: { physicalId: named }, failure: bad });
    }
  });

  it('a handler that never answers times out at its ServiceTimeout (CloudFormation default: one hour)', async () => {
    const quiet = setup(() => undefined);
    const withTimeout = { ...properties, ServiceTimeout: '90' };
    await expect(
      quiet.provider.create({ logicalId: 'T', type: 'Custom::T', properties: withTimeout }, quiet.context()),
    ).rejects.toMatchObject({
      code: 'CUSTOM_RESOURCE_TIMEOUT',
      message: expect.stringContaining('within 90 s'),
    });
    expect(quiet.clock.now()).toBeLessThanOrEqual(90_000);
    expect(quiet.clock.now()).toBeGreaterThan(85_000);
    // The placeholder, which no one will read again, is not left in the state bucket.
    expect([...quiet.objects.keys()]).toEqual([]);
    const fallback = setup(() => undefined);
    await expect(
      fallback.provider.create({ logicalId: 'T', type: 'Custom::T', properties }, fallback.context()),
    ).rejects.toMatchObject({ message: expect.stringContaining('within 3600 s') });
  });

  it('a harness cap bounds the wait below ServiceTimeout', async () => {
    const world = fakeCustomResourceWorld(() => undefined);
    const clock = fakeClock();
    const provider = new CustomResourceProvider({
      transport: () => world.transport,
      clock,
      timeoutCapSeconds: 5,
    });
    await expect(
      provider.create(
        { logicalId: 'T', type: 'Custom::T', properties: { ...properties, ServiceTimeout: 60 } },
        world.context(),
      ),
    ).rejects.toMatchObject({ message: expect.stringContaining('within 5 s') });
  });

  it('polls fast first, then backs off', async () => {
    const quiet = setup(() => undefined);
    await quiet.provider
      .create(
        { logicalId: 'T', type: 'Custom::T', properties: { ...properties, ServiceTimeout: 10 } },
        quiet.context(),
      )
      .catch(() => undefined);
    expect(quiet.clock.slept.slice(0, 4)).toEqual([20, 40, 80, 160]);
    expect(Math.max(...quiet.clock.slept)).toBe(1_000);
  });

  it("the deploy's signal stops the wait and leaves the request in flight", async () => {
    const quiet = setup(() => undefined);
    const controller = new AbortController();
    controller.abort();
    const failure = await quiet.provider
      .create(
        { logicalId: 'T', type: 'Custom::T', properties, idempotencyToken: TOKEN },
        quiet.context(controller.signal),
      )
      .catch((e) => e);
    expect(failure).toBeInstanceOf(OutcomeUnknownError);
    expect(quiet.calls).toContain('send lambda');
    // Kept for `cdkd rollback`, which reads the answer there.
    expect([...quiet.objects.values()]).toEqual(['placeholder']);
  });
});

describe('Update and the physical id', () => {
  const update = {
    logicalId: 'T',
    type: 'Custom::T',
    properties: { ServiceToken: FUNCTION, Name: 'b' },
    previousProperties: { ServiceToken: FUNCTION, Name: 'a' },
  };

  it('a new physical id asks for the old one to be deleted in the cleanup phase', async () => {
    const { provider, context } = setup(succeed('name-b'));
    expect(await provider.update({ ...update, physicalId: 'name-a' }, context())).toEqual({
      physicalId: 'name-b',
      attributes: {},
      oldNeedsDelete: true,
    });
  });

  it('the same physical id asks for no delete', async () => {
    const { provider, context } = setup(succeed('name-a'));
    expect(await provider.update({ ...update, physicalId: 'name-a' }, context())).toEqual({
      physicalId: 'name-a',
      attributes: {},
    });
  });
});

describe('the two internal retry budgets (spec 003)', () => {
  const notPropagated = (event: Record<string, unknown>) =>
    answer(event, {
      Status: 'FAILED',
      Reason: 'User: arn:aws:sts::1:assumed-role/R is not authorized to perform: s3:ListBucket',
      PhysicalResourceId: 'p',
    });

  it('a send the service refused before any handler ran is sent again, the handler running once', async () => {
    const world = setup(succeed());
    world.faults.send.push(
      serviceError('TooManyRequestsException', 429),
      serviceError('ServiceException', 500),
    );
    await world.provider.create({ logicalId: 'T', type: 'Custom::T', properties }, world.context());
    expect(world.calls.filter((call) => call === 'send lambda')).toHaveLength(3);
    expect(world.events).toHaveLength(1);
  });

  it('a refusal that will not clear, or a network failure that may have delivered, is not sent again', async () => {
    for (const fault of [
      serviceError('InvalidRequestContentException', 400),
      Object.assign(new Error('socket hang up'), { code: 'ECONNRESET', name: 'ECONNRESET' }),
    ]) {
      const world = setup(succeed());
      world.faults.send.push(fault);
      await expect(
        world.provider.create({ logicalId: 'T', type: 'Custom::T', properties }, world.context()),
      ).rejects.toBe(fault);
      expect(world.calls.filter((call) => call === 'send lambda')).toHaveLength(1);
      expect([...world.objects.keys()]).toEqual([]);
    }
  });

  it('the pre-delivery budget runs out', async () => {
    const world = setup(succeed());
    world.faults.send.push(...Array.from({ length: 10 }, () => serviceError('ThrottlingException', 429)));
    await expect(
      world.provider.create({ logicalId: 'T', type: 'Custom::T', properties }, world.context()),
    ).rejects.toMatchObject({ name: 'ThrottlingException' });
    expect(world.calls.filter((call) => call === 'send lambda')).toHaveLength(6);
  });

  it('a handler failing on IAM propagation is re-invoked, each time under a new RequestId, within a small budget', async () => {
    let runs = 0;
    const world = setup((event) => (++runs < 3 ? notPropagated(event) : succeed('p')(event)));
    const result = await world.provider.create(
      { logicalId: 'T', type: 'Custom::T', properties, idempotencyToken: TOKEN },
      world.context(),
    );
    expect(result.physicalId).toBe('p');
    expect(world.events.map((event) => event.RequestId)).toEqual([
      TOKEN,
      requestIdFor(TOKEN, 1),
      requestIdFor(TOKEN, 2),
    ]);
    expect(new Set(world.events.map((event) => event.ResponseURL)).size).toBe(3);
  });

  it('the re-invocation budget runs out on the default of 2', async () => {
    const world = setup(notPropagated);
    await expect(
      world.provider.create({ logicalId: 'T', type: 'Custom::T', properties }, world.context()),
    ).rejects.toMatchObject({
      message: expect.stringContaining('not authorized to perform'),
    });
    expect(world.events).toHaveLength(3);
  });

  it('a handler failing for another reason is not re-invoked', async () => {
    const world = setup((event) => answer(event, { Status: 'FAILED', Reason: 'Bucket name taken' }));
    await expect(
      world.provider.create({ logicalId: 'T', type: 'Custom::T', properties }, world.context()),
    ).rejects.toThrow();
    expect(world.events).toHaveLength(1);
  });

  it('CDKD_CR_AUTHZ_MAX_RETRIES=0 turns re-invocations off, and only them', async () => {
    const world = setup(notPropagated, { CDKD_CR_AUTHZ_MAX_RETRIES: '0' });
    world.faults.send.push(serviceError('TooManyRequestsException', 429));
    world.faults.prepare.push(serviceError('SlowDown', 503));
    await expect(
      world.provider.create({ logicalId: 'T', type: 'Custom::T', properties }, world.context()),
    ).rejects.toThrow(/not authorized/);
    expect(world.events).toHaveLength(1);
    expect(world.calls.filter((call) => call === 'send lambda')).toHaveLength(2);
    expect(world.calls.filter((call) => call.startsWith('prepare'))).toHaveLength(2);
  });

  it('the response placeholder PutObject is retried before anything is sent', async () => {
    const world = setup(succeed());
    world.faults.prepare.push(serviceError('InternalError', 500), serviceError('SlowDown', 503));
    await world.provider.create({ logicalId: 'T', type: 'Custom::T', properties }, world.context());
    expect(world.calls.filter((call) => call.startsWith('prepare'))).toHaveLength(3);
    expect(world.events).toHaveLength(1);
  });

  it('what leaves the provider is never replayed by the outer schedule, even a propagation message', async () => {
    const world = setup(notPropagated, { CDKD_CR_AUTHZ_MAX_RETRIES: '0' });
    const failure = await world.provider
      .create({ logicalId: 'T', type: 'Custom::T', properties }, world.context())
      .catch((e) => e);
    expect(failure.message).toContain('not authorized to perform');
    expect(retryClassOf(failure)).toBeUndefined();
    const throttled = setup(succeed());
    throttled.faults.send.push(...Array.from({ length: 10 }, () => serviceError('ThrottlingException', 429)));
    const spent = await throttled.provider
      .create({ logicalId: 'T', type: 'Custom::T', properties }, throttled.context())
      .catch((e) => e);
    expect(retryClassOf(spent)).toBeUndefined();
  });

  it.each([
    [undefined, 2],
    ['', 2],
    ['0', 0],
    [' 5 ', 5],
  ])('CDKD_CR_AUTHZ_MAX_RETRIES=%j is %i re-invocations', (value, budget) => {
    expect(reinvocationBudget(value === undefined ? {} : { CDKD_CR_AUTHZ_MAX_RETRIES: value })).toBe(budget);
  });

  it.each(['-1', 'two', '1.5'])('CDKD_CR_AUTHZ_MAX_RETRIES=%j is refused', (value) => {
    expect(() => reinvocationBudget({ CDKD_CR_AUTHZ_MAX_RETRIES: value })).toThrow(
      expect.objectContaining({ code: 'CUSTOM_RESOURCE_RETRIES_INVALID' }),
    );
  });

  it.each([
    [undefined, 3600],
    ['60', 60],
    [1, 1],
  ])('ServiceTimeout %j is %i s', (value, seconds) => {
    expect(serviceTimeoutSeconds('T', value)).toBe(seconds);
  });

  it.each([0, 3601, 'soon', 2.5])('ServiceTimeout %j is refused', (value) => {
    expect(() => serviceTimeoutSeconds('T', value)).toThrow(
      expect.objectContaining({ code: 'CUSTOM_RESOURCE_SERVICE_TIMEOUT' }),
    );
  });
});

describe('locate: what an interrupted Create made, from its journaled request', () => {
  const request = { logicalId: 'T', type: 'Custom::T', properties, idempotencyToken: TOKEN };

  it('reads the answer that arrived after the deploy stopped, without invoking again', async () => {
    const world = setup(succeed('made-later'));
    world.objects.set(
      TOKEN,
      Buffer.from(answer({ RequestId: TOKEN }, { Status: 'SUCCESS', PhysicalResourceId: 'made-later' })),
    );
    expect(await world.provider.locate(request, world.context())).toEqual({ physicalId: 'made-later' });
    expect(world.calls.filter((call) => call.startsWith('send'))).toEqual([]);
  });

  it('a FAILED answer names what it made, or nothing', async () => {
    const world = setup(succeed());
    world.objects.set(TOKEN, Buffer.from(answer({ RequestId: TOKEN }, { Status: 'FAILED', Reason: 'no' })));
    expect(await world.provider.locate(request, world.context())).toBe('none');
  });

  it('an answer over 4 KB still names what it made', async () => {
    const world = setup(succeed());
    const big = { Status: 'SUCCESS', PhysicalResourceId: 'made-big', Data: { Big: 'x'.repeat(4096) } };
    world.objects.set(TOKEN, Buffer.from(answer({ RequestId: TOKEN }, big)));
    expect(await world.provider.locate(request, world.context())).toEqual({ physicalId: 'made-big' });
  });

  it('no request object: unknown; a placeholder never answered: unknown after a bounded wait', async () => {
    const world = setup(succeed());
    expect(await world.provider.locate(request, world.context())).toBe('unknown');
    world.objects.set(TOKEN, 'placeholder');
    expect(await world.provider.locate(request, world.context())).toBe('unknown');
    expect(world.clock.now()).toBeLessThanOrEqual(60_000);
  });
});

// Issue 25 item 9: a Delete is sent with its journaled token as RequestId, so a later read finds its answer.
describe('a Delete sent under its journaled token', () => {
  const target = { logicalId: 'T', type: 'Custom::T', physicalId: 'thing-1', properties };

  it('is sent with the token as its RequestId', async () => {
    const world = setup(succeed('thing-1'));
    await world.provider.delete({ ...target, idempotencyToken: TOKEN }, world.context());
    expect(world.events.at(-1)).toMatchObject({ RequestType: 'Delete', RequestId: TOKEN });
  });

  it.each<[string, string | 'placeholder' | undefined, 'gone' | 'recorded' | 'rejects']>([
    [
      'a SUCCESS answer: gone',
      answer({ RequestId: TOKEN }, { Status: 'SUCCESS', PhysicalResourceId: 'thing-1' }),
      'gone',
    ],
    [
      'a FAILED answer: as recorded',
      answer({ RequestId: TOKEN }, { Status: 'FAILED', Reason: 'no' }),
      'recorded',
    ],
    ['no request object (never sent): as recorded', undefined, 'recorded'],
    ['no answer yet: the read rejects, so the record stays', 'placeholder', 'rejects'],
  ])(
    'read with the token of a Delete a killed process left in flight, %s',
    async (_case, object, expected) => {
      const world = setup(succeed());
      if (object !== undefined)
        world.objects.set(TOKEN, object === 'placeholder' ? object : Buffer.from(object));
      const read = world.provider.read({ ...target, idempotencyToken: TOKEN }, world.context());
      if (expected === 'rejects') return expect(read).rejects.toThrow(/has not answered the Delete request/);
      expect(await read).toEqual(expected === 'gone' ? undefined : { properties, attributes: {} });
    },
  );

  it('read without a token: taken to be as recorded, nothing read', async () => {
    const world = setup(succeed());
    expect(await world.provider.read(target, world.context())).toEqual({ properties, attributes: {} });
  });
});
