import { describe, expect, it } from 'vitest';
import { parseTagFlags, withStackTags } from '../../src/toolkit/stacks/stack-tags.js';

const stackTags = { team: 'core', 'aws:reserved': 'x' };
const one = (resource: Record<string, unknown>) => ({ Resources: { R: resource } });
const tagsOf = (template: Record<string, unknown>) =>
  ((template.Resources as Record<string, { Properties?: Record<string, unknown> }>).R!.Properties ?? {}).Tags;

describe('withStackTags: the stack tags CloudFormation would propagate to each resource', () => {
  const rows: Array<[string, Record<string, unknown>, unknown]> = [
    [
      'a tag list without tags gets the stack tags',
      { Type: 'AWS::SQS::Queue' },
      [{ Key: 'team', Value: 'core' }],
    ],
    [
      "a key the resource sets keeps the resource's value",
      { Type: 'AWS::SQS::Queue', Properties: { Tags: [{ Key: 'team', Value: 'own' }] } },
      [{ Key: 'team', Value: 'own' }],
    ],
    [
      'other keys are kept, the stack tags appended',
      { Type: 'AWS::S3::Bucket', Properties: { Tags: [{ Key: 'a', Value: '1' }] } },
      [
        { Key: 'a', Value: '1' },
        { Key: 'team', Value: 'core' },
      ],
    ],
    [
      'a map of tags (SSM parameter) gets the keys it lacks',
      { Type: 'AWS::SSM::Parameter', Properties: { Tags: { owner: 'me' } } },
      { team: 'core', owner: 'me' },
    ],
    [
      'an Auto Scaling group propagates them to its instances',
      { Type: 'AWS::AutoScaling::AutoScalingGroup', Properties: {} },
      [{ Key: 'team', Value: 'core', PropagateAtLaunch: true }],
    ],
    [
      'tags given by an intrinsic are left as they are',
      { Type: 'AWS::SQS::Queue', Properties: { Tags: { 'Fn::If': ['C', [], []] } } },
      { 'Fn::If': ['C', [], []] },
    ],
    ['a type that takes no tags is left alone', { Type: 'AWS::SQS::QueuePolicy', Properties: {} }, undefined],
    ['a custom resource is left alone', { Type: 'Custom::Thing', Properties: {} }, undefined],
  ];
  it.each(rows)('%s', (_, resource, expected) => {
    expect(tagsOf(withStackTags(one(resource), stackTags))).toEqual(expected);
  });

  it('returns the template itself when the stack has no tags to add', () => {
    const template = one({ Type: 'AWS::SQS::Queue' });
    expect(withStackTags(template, {})).toBe(template);
    expect(withStackTags(template, { 'AWS:Only': 'reserved' })).toBe(template);
  });
});

describe('parseTagFlags: --tags KEY=VALUE', () => {
  it('splits at the first =, a later value winning', () => {
    expect(parseTagFlags(['a=1', 'b=x=y', 'a=2', 'empty='])).toEqual({ a: '2', b: 'x=y', empty: '' });
  });
  it.each(['novalue', '=v'])('refuses %s', (raw) => {
    expect(() => parseTagFlags([raw])).toThrow(`--tags ${raw}: expected KEY=VALUE.`);
  });
});
