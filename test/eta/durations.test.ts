import { describe, expect, it } from 'vitest';
import {
  criticalPath,
  durationKey,
  expectedDuration,
  pastDurations,
  PHASE_BARRIER,
  scheduleNodes,
  type PastEvent,
} from '../../src/eta/index.js';
import { latencyProfile } from '../../src/latency-profiles/index.js';

const at = (seconds: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, seconds)).toISOString();

function event(type: string, action: string, took: number, status = 'CREATE_COMPLETE'): PastEvent {
  return { status, resourceType: type, action, startedAt: at(0), timestamp: at(took) };
}

describe('pastDurations', () => {
  it.each([
    ['no events', [], {}],
    ['one operation', [event('AWS::SQS::Queue', 'create', 2)], { 'AWS::SQS::Queue create': 2000 }],
    [
      'the median of an odd count',
      [event('T', 'create', 1), event('T', 'create', 9), event('T', 'create', 3)],
      { 'T create': 3000 },
    ],
    ['the median of an even count', [event('T', 'create', 1), event('T', 'create', 3)], { 'T create': 2000 }],
    [
      'per type and action',
      [event('T', 'create', 1), event('T', 'update', 4, 'UPDATE_COMPLETE'), event('U', 'create', 2)],
      { 'T create': 1000, 'T update': 4000, 'U create': 2000 },
    ],
    ['a failure says nothing of a success', [event('T', 'create', 5, 'CREATE_FAILED')], {}],
    ['a stack event (no resource type) is skipped', [{ status: 'UPDATE_COMPLETE', timestamp: at(1) }], {}],
    [
      'an event without its start is skipped',
      [{ status: 'CREATE_COMPLETE', resourceType: 'T', action: 'create', timestamp: at(1) }],
      {},
    ],
  ] as const)('%s', (_, events, expected) => {
    expect(pastDurations(events)).toEqual(expected);
  });
});

describe('expectedDuration', () => {
  const aws = latencyProfile('aws');
  const past = { [durationKey('AWS::EC2::NatGateway', 'create')]: 95_000 };
  it.each([
    ["the stack's own past first", 'AWS::EC2::NatGateway', 'create', 95_000],
    ['else the profile', 'AWS::EC2::NatGateway', 'delete', 60_000],
    ['a replacement makes a new copy', 'AWS::SSM::Parameter', 'replace', 100],
    ['a type the profile does not list: its fallback', 'AWS::Made::Up', 'create', 1_000],
    ['a no-op takes nothing', 'AWS::SQS::Queue', 'no-op', 0],
    ['a retained resource takes nothing', 'AWS::SQS::Queue', 'retain', 0],
  ] as const)('%s', (_, type, action, expected) => {
    expect(expectedDuration(type, action, past, aws)).toBe(expected);
  });

  // Another endpoint (AWS_ENDPOINT_URL): no profile describes its times.
  const stackPast = {
    [durationKey('AWS::EC2::NatGateway', 'create')]: 900,
    [durationKey('AWS::SQS::Queue', 'create')]: 100,
    [durationKey('AWS::IAM::Role', 'create')]: 300,
    [durationKey('AWS::SQS::Queue', 'delete')]: 50,
  };
  it.each([
    ["the stack's own past first", 'AWS::EC2::NatGateway', 'create', 900],
    ["else the median of the stack's past of that action", 'AWS::Lambda::Function', 'create', 300],
    ['a replacement: only past replacements count', 'AWS::SQS::Queue', 'replace', undefined],
    ['no past of that action: unknown', 'AWS::SQS::Queue', 'update', undefined],
    ['a no-op takes nothing', 'AWS::SQS::Queue', 'no-op', 0],
    ['a retained resource takes nothing', 'AWS::SQS::Queue', 'retain', 0],
  ] as const)('another endpoint: %s', (_, type, action, expected) => {
    expect(expectedDuration(type, action, stackPast, undefined)).toBe(expected);
  });
});

describe('scheduleNodes', () => {
  const flat = latencyProfile('flat');
  it('gives each operation its expected time and keeps its dependencies', () => {
    expect(
      scheduleNodes(
        [
          { logicalId: 'Role', type: 'AWS::IAM::Role', action: 'create', phase: 'deploy', dependsOn: [] },
          {
            logicalId: 'Fn',
            type: 'AWS::Lambda::Function',
            action: 'update',
            phase: 'deploy',
            dependsOn: ['Role'],
          },
        ],
        { [durationKey('AWS::Lambda::Function', 'update')]: 700 },
        flat,
      ),
    ).toEqual([
      { id: 'Role', durationMs: 1_000, dependsOn: [] },
      { id: 'Fn', durationMs: 700, dependsOn: ['Role'] },
    ]);
  });

  it('is none when an operation has no expected time (another endpoint, no past of its action)', () => {
    const ops = [
      { logicalId: 'Q', type: 'AWS::SQS::Queue', action: 'create', phase: 'deploy', dependsOn: [] },
    ] as const;
    expect(scheduleNodes(ops, {}, undefined)).toBeUndefined();
    expect(scheduleNodes(ops, { 'AWS::SQS::Queue create': 40 }, undefined)).toEqual([
      { id: 'Q', durationMs: 40, dependsOn: [] },
    ]);
  });

  it('runs cleanup after the whole deploy phase', () => {
    const nodes = scheduleNodes(
      [
        { logicalId: 'A', type: 'AWS::IAM::Role', action: 'create', phase: 'deploy', dependsOn: [] },
        { logicalId: 'B', type: 'AWS::IAM::Role', action: 'create', phase: 'deploy', dependsOn: [] },
        { logicalId: 'Old', type: 'T', action: 'delete', phase: 'cleanup', dependsOn: [] },
      ],
      { 'T delete': 500 },
      flat,
    );
    if (!nodes) throw new Error('every time is known');
    expect(nodes).toContainEqual({ id: 'Old', durationMs: 500, dependsOn: [PHASE_BARRIER] });
    expect(nodes).toContainEqual({ id: PHASE_BARRIER, durationMs: 0, dependsOn: ['A', 'B'] });
    expect(criticalPath(nodes).totalMs).toBe(1_500);
  });
});
