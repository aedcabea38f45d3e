import { describe, expect, it } from 'vitest';
import {
  adoptable,
  createOrAdopt,
  documentText,
  iamRegion,
  integer,
  nameFor,
  parseDocument,
  undoCreate,
} from '../../src/providers/iam/common.js';
import { inlinePolicyDiff, setDiff, tagDiff } from '../../src/providers/iam/diff.js';
import { awsErrorCode, classifyAwsError } from '../../src/aws/error-class.js';
import { ResourceMadeError } from '../../src/providers/provider.js';
import { retryClassOf } from '../../src/providers/retry-class.js';
import { MadeByAttempts, resourceMade } from '../../src/providers/resource-made.js';
import { iamContext } from './iam-helpers.js';

const p = (name: string, action: string) => ({ PolicyName: name, PolicyDocument: { Action: action } });

describe('inlinePolicyDiff', () => {
  it.each([
    ['nothing changed', [p('a', 'x')], [p('a', 'x')], [], []],
    ['a new policy', [], [p('a', 'x')], [p('a', 'x')], []],
    ['a changed document', [p('a', 'x')], [p('a', 'y')], [p('a', 'y')], []],
    ['a removed policy', [p('a', 'x'), p('b', 'x')], [p('a', 'x')], [], ['b']],
    ['a rename is a put and a delete', [p('a', 'x')], [p('b', 'x')], [p('b', 'x')], ['a']],
  ])('%s', (_name, before, after, put, remove) => {
    expect(inlinePolicyDiff(before, after)).toEqual({ put, remove });
  });
});

describe('setDiff', () => {
  it.each([
    [['a'], ['a'], [], []],
    [['a'], ['b'], ['b'], ['a']],
    [['a', 'b'], ['b', 'a'], [], []],
    [[], ['a', 'a'], ['a'], []],
  ])('%j → %j', (before, after, add, remove) => {
    expect(setDiff(before, after)).toEqual({ add, remove });
  });
});

describe('tagDiff', () => {
  it.each([
    ['same', [{ Key: 'a', Value: '1' }], [{ Key: 'a', Value: '1' }], [], []],
    ['changed value', [{ Key: 'a', Value: '1' }], [{ Key: 'a', Value: '2' }], [{ Key: 'a', Value: '2' }], []],
    ['removed key', [{ Key: 'a', Value: '1' }], [], [], ['a']],
  ])('%s', (_name, before, after, set, remove) => {
    expect(tagDiff(before, after)).toEqual({ set, remove });
  });
});

describe('values as CloudFormation gives them', () => {
  it.each([
    ['3600', 3600],
    [7200, 7200],
    ['', undefined],
    [undefined, undefined],
    ['abc', undefined],
  ])('integer(%j) = %j', (value, expected) => {
    expect(integer(value)).toBe(expected);
  });

  it('sends an object document as JSON and a string one as is; reads URL-encoded JSON back', () => {
    expect(documentText({ Version: '2012-10-17' })).toBe('{"Version":"2012-10-17"}');
    expect(documentText('{"a":1}')).toBe('{"a":1}');
    expect(parseDocument(encodeURIComponent('{"a":1}'))).toEqual({ a: 1 });
  });

  it.each([
    ['us-east-1', 'us-east-1'],
    ['eu-west-1', 'us-east-1'],
    ['cn-northwest-1', 'cn-north-1'],
    ['us-gov-east-1', 'us-gov-west-1'],
  ])('IAM calls for %s are signed for %s', (region, expected) => {
    expect(iamRegion(region)).toBe(expected);
  });
});

describe('generated names', () => {
  it.each([
    ['AWS::IAM::Role', 64],
    ['AWS::IAM::User', 64],
    ['AWS::IAM::Group', 128],
    ['AWS::IAM::ManagedPolicy', 128],
    ['AWS::IAM::InstanceProfile', 128],
  ])('%s names fit %i characters of [\\w+=,.@-]', (type, limit) => {
    const name = nameFor(type, undefined, iamContext('S'.repeat(200)), { logicalId: 'L'.repeat(200) });
    expect(name).toHaveLength(limit);
    expect(name).toMatch(/^[\w+=,.@-]+$/);
  });

  it('keeps IAM characters and replaces others', () => {
    expect(
      nameFor('AWS::IAM::Role', undefined, iamContext('my_stack.v2'), { logicalId: 'Role@1/x' }),
    ).toMatch(/^my_stack\.v2-Role@1-x-[A-Z0-9]{12}$/);
  });

  it('uses the given name as is', () => {
    expect(nameFor('AWS::IAM::Role', 'given', iamContext(), { logicalId: 'Role' })).toBe('given');
  });

  it('every attempt of one logical create generates the same name; another create another name', () => {
    const name = (idempotencyToken: string) =>
      nameFor('AWS::IAM::Role', undefined, iamContext(), { logicalId: 'Role', idempotencyToken });
    expect(name('token-1')).toBe(name('token-1'));
    expect(name('token-1')).not.toBe(name('token-2'));
  });
});

describe('createOrAdopt', () => {
  const exists = Object.assign(new Error('Role with name r already exists.'), {
    name: 'EntityAlreadyExistsException',
  });
  const other = Object.assign(new Error('bad'), { name: 'MalformedPolicyDocumentException' });
  it.each([
    ['a create that succeeds', async () => 'made', true, 'made'],
    [
      "already exists, adoptable: the earlier attempt's resource",
      async () => Promise.reject(exists),
      true,
      'found',
    ],
  ])('%s', async (_name, create, canAdopt, expected) => {
    expect(await createOrAdopt(create, async () => 'found', canAdopt)).toBe(expected);
  });
  it.each([
    ['already exists, a given name: the error stands', exists, true, false],
    ['another error: it stands', other, true, true],
    ['already exists but nothing to find: the error stands', exists, false, true],
  ])('%s', async (_name, error, findable, canAdopt) => {
    const find = async () => (findable ? 'found' : undefined);
    await expect(createOrAdopt(() => Promise.reject(error), find, canAdopt)).rejects.toBe(error);
  });

  it.each([
    [undefined, 'token', true],
    ['', 'token', true],
    ['given', 'token', false],
    [undefined, undefined, false],
  ])('adoptable(name %j, token %j) = %j', (given, idempotencyToken, expected) => {
    expect(adoptable(given, idempotencyToken === undefined ? {} : { idempotencyToken })).toBe(expected);
  });
});

describe('undoCreate', () => {
  const original = Object.assign(new Error('Syntax errors in policy.'), {
    name: 'MalformedPolicyDocumentException',
    $metadata: { httpStatusCode: 400 },
  });
  const made = { physicalId: 'r', creationIdentity: { RoleId: 'AROA1' } };

  it('removes the half-made resource and rethrows the AWS error unchanged', async () => {
    let removed = false;
    const remove = async () => {
      removed = true;
    };
    await expect(undoCreate(made, remove, original)).rejects.toBe(original);
    expect(removed).toBe(true);
  });

  it('reports the resource made when the removal fails too, carrying the original error', async () => {
    const remove = () => Promise.reject(new Error('Throttling'));
    const attempts = { made: new MadeByAttempts(), token: 't' };
    const error = await undoCreate(made, remove, original, attempts).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ResourceMadeError);
    expect(error).toMatchObject({ made, failure: original, message: 'Syntax errors in policy.' });
    // Classified as the original: same code and HTTP status.
    expect(awsErrorCode(error)).toBe('MalformedPolicyDocumentException');
    expect(classifyAwsError(error)).toBe(classifyAwsError(original));
    expect(attempts.made.get('t')).toEqual(made);
  });
});

describe('resourceMade', () => {
  it('is classified for retry exactly as the failure it wraps', () => {
    const throttle = Object.assign(new Error('Rate exceeded'), {
      name: 'ThrottlingException',
      $metadata: { httpStatusCode: 400 },
      $retryable: { throttling: true },
    });
    const network = Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' });
    for (const failure of [throttle, network, new Error('plain'), 'text']) {
      const error = resourceMade({ physicalId: 'x' }, failure);
      expect(error).toBeInstanceOf(ResourceMadeError);
      expect(error.failure).toBe(failure);
      expect(retryClassOf(error)).toBe(retryClassOf(failure));
      expect(classifyAwsError(error)).toBe(classifyAwsError(failure));
    }
    expect(retryClassOf(resourceMade({ physicalId: 'x' }, throttle))).toBe('throttling');
  });
});
