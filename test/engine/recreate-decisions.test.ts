import { describe, expect, it } from 'vitest';
import { recreateOrder } from '../../src/engine/planning/recreate-order.js';
import { updateFallback } from '../../src/engine/execute/update-fallback.js';

// The two decision tables of a re-create: its order (spec 001, 002) and the update-failure fallback (spec 002).
describe('recreateOrder', () => {
  it.each([
    [
      'the template keeps the name: delete first',
      'AWS::SQS::Queue',
      { QueueName: 'a' },
      { QueueName: 'a' },
      undefined,
      'delete-first',
    ],
    [
      'the template renames it: create first',
      'AWS::SQS::Queue',
      { QueueName: 'b' },
      { QueueName: 'a' },
      undefined,
      'create-first',
    ],
    [
      'a name given now, generated before: create first',
      'AWS::SQS::Queue',
      { QueueName: 'b' },
      {},
      undefined,
      'create-first',
    ],
    ['a generated name on both sides: delete first', 'AWS::SQS::Queue', {}, {}, undefined, 'delete-first'],
    [
      'a name dropped for a generated one: delete first',
      'AWS::SQS::Queue',
      {},
      { QueueName: 'a' },
      undefined,
      'delete-first',
    ],
    [
      'a name differing only in case where the service ignores case: delete first',
      'AWS::IAM::Role',
      { RoleName: 'Admin' },
      { RoleName: 'admin' },
      undefined,
      'delete-first',
    ],
    [
      'a nested name path (Glue table) renamed: create first',
      'AWS::Glue::Table',
      { TableInput: { Name: 'b' } },
      { TableInput: { Name: 'a' } },
      undefined,
      'create-first',
    ],
    [
      'a type with no known name property: delete first',
      'AWS::Athena::WorkGroup',
      { Name: 'b' },
      { Name: 'a' },
      undefined,
      'delete-first',
    ],
    [
      'UpdateReplacePolicy: Retain keeps the old one: create first',
      'AWS::SQS::Queue',
      { QueueName: 'a' },
      { QueueName: 'a' },
      'Retain',
      'create-first',
    ],
    [
      'UpdateReplacePolicy: Delete: delete first',
      'AWS::SQS::Queue',
      { QueueName: 'a' },
      { QueueName: 'a' },
      'Delete',
      'delete-first',
    ],
  ] as const)('%s', (_row, type, desired, recorded, updateReplacePolicy, order) => {
    expect(
      recreateOrder({
        type,
        desired,
        recorded,
        ...(updateReplacePolicy !== undefined && { updateReplacePolicy }),
      }),
    ).toBe(order);
  });

  // Other stacks of the run read it through an export: its old copy must outlive their deploys.
  it.each([
    [
      'imported elsewhere, unnamed (an AWS-assigned id): create first',
      'AWS::EC2::SecurityGroup',
      { GroupDescription: 'd' },
      { GroupDescription: 'd' },
      'create-first',
    ],
    [
      'imported elsewhere, a generated name on both sides: create first',
      'AWS::SQS::Queue',
      {},
      {},
      'create-first',
    ],
    [
      'imported elsewhere, the template keeps its name: delete first (the id is kept)',
      'AWS::SQS::Queue',
      { QueueName: 'a' },
      { QueueName: 'a' },
      'delete-first',
    ],
    [
      'imported elsewhere, renamed: create first',
      'AWS::SQS::Queue',
      { QueueName: 'b' },
      { QueueName: 'a' },
      'create-first',
    ],
  ] as const)('%s', (_row, type, desired, recorded, order) => {
    expect(recreateOrder({ type, desired, recorded, importedElsewhere: true })).toBe(order);
  });
});

const awsError = (name: string) => Object.assign(new Error(`${name} from AWS`), { name });

describe('updateFallback', () => {
  it.each([
    [
      'Cloud Control UnsupportedAction: re-created',
      'cc-api',
      'UnsupportedActionException',
      false,
      'recreate',
    ],
    [
      'Cloud Control UnsupportedAction under --replace: re-created',
      'cc-api',
      'UnsupportedActionException',
      true,
      'recreate',
    ],
    ['Cloud Control NotUpdatable under --replace: re-created', 'cc-api', 'NotUpdatable', true, 'recreate'],
    ['Cloud Control NotUpdatable without --replace: fails', 'cc-api', 'NotUpdatable', false, 'fail'],
    ['any other Cloud Control failure: fails', 'cc-api', 'InvalidRequest', true, 'fail'],
    ['an SDK provider update never falls back', 'sdk', 'UnsupportedActionException', true, 'fail'],
  ] as const)('%s', (_row, provisionedBy, code, replace, decision) => {
    expect(updateFallback({ provisionedBy, error: awsError(code), replace })).toBe(decision);
  });

  it('a thrown value that is not an AWS error fails', () => {
    expect(updateFallback({ provisionedBy: 'cc-api', error: 'boom', replace: true })).toBe('fail');
  });
});
