import { describe, expect, it } from 'vitest';
import type { StackArtifact } from '../../../src/assembly/index.js';
import { changedStacks, stackFingerprint } from '../../../src/toolkit/watch/changed-stacks.js';

function stack(changes: Partial<StackArtifact> = {}, assets: { files?: string[]; images?: string[] } = {}) {
  return {
    artifactId: 'Api',
    stackName: 'Api',
    displayName: 'Api',
    topLevel: true,
    assemblyDir: '/app/cdk.out',
    environment: {
      account: 'unknown-account',
      region: 'unknown-region',
      name: 'aws://unknown-account/unknown-region',
    },
    templateFile: '/app/cdk.out/Api.template.json',
    template: {
      Resources: { Fn: { Type: 'AWS::Lambda::Function', Properties: { Handler: 'index.handler' } } },
    },
    tags: {},
    terminationProtection: false,
    notificationArns: [],
    parameters: {},
    dependencies: [],
    assetManifests: [
      {
        file: '/app/cdk.out/Api.assets.json',
        files: (assets.files ?? ['aaa']).map((hash) => ({
          hash,
          packaging: 'zip' as const,
          destinations: [],
        })),
        containers: (assets.images ?? []).map((hash) => ({ hash, destinations: [] })),
      },
    ],
    annotations: [],
    ...changes,
  } satisfies StackArtifact;
}

describe('stackFingerprint: what a stack deploys from', () => {
  const base = stackFingerprint(stack());
  const rows: Array<[name: string, other: StackArtifact, same: boolean]> = [
    ['synthesized again, unchanged', stack(), true],
    [
      'in another assembly directory',
      stack({ assemblyDir: '/tmp/out', templateFile: '/tmp/out/Api.template.json' }),
      true,
    ],
    [
      'the same template with its keys in another order',
      stack({
        template: {
          Resources: { Fn: { Properties: { Handler: 'index.handler' }, Type: 'AWS::Lambda::Function' } },
        },
      }),
      true,
    ],
    [
      'a template property changed',
      stack({
        template: {
          Resources: { Fn: { Type: 'AWS::Lambda::Function', Properties: { Handler: 'main.handler' } } },
        },
      }),
      false,
    ],
    ['a file asset changed', stack({}, { files: ['bbb'] }), false],
    ['an image asset added', stack({}, { files: ['aaa'], images: ['ccc'] }), false],
    ['a parameter the assembly passes changed', stack({ parameters: { Stage: 'prod' } }), false],
    ['a tag changed', stack({ tags: { team: 'b' } }), false],
    ['termination protection turned on', stack({ terminationProtection: true }), false],
  ];
  it.each(rows)('%s: same fingerprint %s', (_name, other, same) => {
    expect(stackFingerprint(other) === base).toBe(same);
  });
});

describe('changedStacks: which selected stacks deploy after a synthesis', () => {
  const rows: Array<
    [name: string, deployed: Record<string, string>, current: Record<string, string>, expected: string[]]
  > = [
    ['the first synthesis deploys every selected stack', {}, { A: '1', B: '2' }, ['A', 'B']],
    ['nothing changed: nothing deploys', { A: '1', B: '2' }, { A: '1', B: '2' }, []],
    ['one changed: only it deploys', { A: '1', B: '2' }, { A: '1', B: '3' }, ['B']],
    ['a stack new to the app deploys', { A: '1' }, { A: '1', C: '9' }, ['C']],
    [
      'a stack whose last deploy failed (no fingerprint) deploys again',
      { B: '2' },
      { A: '1', B: '2' },
      ['A'],
    ],
    ['a stack that left the app is not deployed (nor destroyed)', { A: '1', Gone: '5' }, { A: '1' }, []],
    ['selection order is kept', {}, { Z: '1', A: '2' }, ['Z', 'A']],
  ];
  it.each(rows)('%s', (_name, deployed, current, expected) => {
    expect(
      changedStacks(
        new Map(Object.entries(deployed)),
        Object.entries(current).map(([displayName, fingerprint]) => ({ displayName, fingerprint })),
      ),
    ).toEqual(expected);
  });
});
