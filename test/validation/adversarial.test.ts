import { DeleteObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { emptyStateDocument } from '../../src/state/documents/state-document.js';
import { bootstrap } from '../../src/toolkit/bootstrap/bootstrap.js';
import { forceUnlock } from '../../src/toolkit/state/force-unlock.js';
import { silentIo } from '../../src/toolkit/io.js';
import { rollbackApp } from '../../src/toolkit/recovery/rollback-app.js';
import { stackEvents } from '../../src/toolkit/state/stack-events.js';
import { showStack } from '../../src/toolkit/state/state-inspection.js';
import { nestedRow, writeJson, type StackSpec } from '../assembly/helpers.js';
import { runCli } from '../helpers/cli.js';
import { sandboxEnv, useSandbox } from '../helpers/sandbox.js';
import {
  assembly,
  assemblyWithTemplateFile,
  deploy,
  destroy,
  outcomeOf,
  session,
  snapshot,
  STATE_BUCKET,
} from './harness.js';
import { eventsTo } from '../helpers/recording-io-host.js';

// Every malformed input of issue 12 (and the ones that already behaved), each refused
// before anything is touched: the command's error code, and the state bucket, the asset
// bucket and the sandbox's resources exactly as they were.
const sandbox = useSandbox();

const parameter = (value?: unknown) => ({
  Type: 'AWS::SSM::Parameter',
  Properties: { Type: 'String', ...(value === undefined ? {} : { Value: value }) },
});
const queue = (properties: Record<string, unknown> = {}) => ({
  Type: 'AWS::SQS::Queue',
  Properties: properties,
});
/** The deployed stack every template row tries to change. */
const VICTIM = 'Victim';
const victimTemplate = { Resources: { Param: parameter('kept'), Queue: queue() } };
const withResources = (resources: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  Resources: { Param: parameter('kept'), ...resources },
  ...extra,
});
const exportOutput = (name: string) => ({ Value: 'v', Export: { Name: name } });

beforeAll(async () => {
  await bootstrap(session());
  expect(await outcomeOf(() => deploy(assembly([{ id: VICTIM, template: victimTemplate }])))).toBe('ok');
  expect(
    await outcomeOf(() =>
      deploy(assembly([{ id: 'S', template: { Resources: { Param: parameter('s') } } }])),
    ),
  ).toBe('ok');
});

interface Row {
  input: string;
  command: string;
  /** The command, run in-process as the CLI runs it. */
  run: () => Promise<unknown>;
  code: string;
}

const deployTemplate =
  (template: unknown, spec: Partial<StackSpec> = {}) =>
  () =>
    deploy(assembly([{ id: VICTIM, template: template as Record<string, unknown>, ...spec }]));

const templateRows: Row[] = [
  ['a template without Resources', { Description: 'truncated' }],
  ['Resources: {}', { Resources: {} }],
  ['an AWS::SSM::Parameter without its required Value', withResources({ P2: parameter() })],
  ['a list where the schema says Number', withResources({ Q: queue({ VisibilityTimeout: [30] }) })],
  ['a word where the schema says Number', withResources({ Q: queue({ VisibilityTimeout: 'thirty' }) })],
  ['an object where the schema says List', withResources({ Q: queue({ Tags: { Key: 'k', Value: 'v' } }) })],
  ['a logical id that is not alphanumeric (Queueé队列)', withResources({ Queueé队列: queue() })],
  ['a logical id with a slash (a-b/c)', withResources({ 'a-b/c': queue() })],
  ['a 300-character logical id', withResources({ ['Q'.repeat(300)]: queue() })],
  ['an output name that is not alphanumeric', withResources({}, { Outputs: { 'Out-1': { Value: 'v' } } })],
  [
    'two outputs exporting the same name',
    withResources({}, { Outputs: { A: exportOutput('Shared'), B: exportOutput('Shared') } }),
  ],
  ['Fn::Sub with an unclosed ${', withResources({ P2: parameter({ 'Fn::Sub': 'arn:${AWS::Region' }) })],
  ['Fn::Sub with an empty ${}', withResources({ P2: parameter({ 'Fn::Sub': 'x-${}' }) })],
  [
    'Fn::Sub naming nothing the template declares',
    withResources({ P2: parameter({ 'Fn::Sub': '${Nope}' }) }),
  ],
  ['Fn::Join with three arguments', withResources({ P2: parameter({ 'Fn::Join': ['-', ['a'], 'b'] }) })],
  ['Fn::Select over a string', withResources({ P2: parameter({ 'Fn::Select': [0, 'a,b'] }) })],
  ['Fn::GetAtt without an attribute', withResources({ P2: parameter({ 'Fn::GetAtt': 'Param' }) })],
  ['Ref to an undeclared name', withResources({ P2: parameter({ Ref: 'Missing' }) })],
  ['an unknown intrinsic function', withResources({ P2: parameter({ 'Fn::Nope': 'x' }) })],
  ['Fn::If on an undeclared condition', withResources({ P2: parameter({ 'Fn::If': ['No', 'a', 'b'] }) })],
  ['DependsOn an undeclared resource', withResources({ P2: { ...parameter('x'), DependsOn: 'Ghost' } })],
  [
    'a Condition that references a resource',
    withResources({}, { Conditions: { C: { 'Fn::Equals': [{ Ref: 'Param' }, 'x'] } } }),
  ],
  [
    'a parameter value of the wrong type, known after evaluation',
    withResources(
      { Q: queue({ VisibilityTimeout: { Ref: 'Timeout' } }) },
      { Parameters: { Timeout: { Type: 'String', Default: 'thirty' } } },
    ),
  ],
  [
    'a required property that evaluates to AWS::NoValue',
    withResources({ P2: parameter({ Ref: 'AWS::NoValue' }) }),
  ],
  ['an unknown top-level section', { ...victimTemplate, Resourcez: {} }],
  ['a resource without a Type', withResources({ P2: { Properties: {} } })],
  ['Resources as a list', { Resources: [parameter('x')] }],
].map(([input, template]) => ({
  input: input as string,
  command: 'deploy',
  run: deployTemplate(template),
  code: 'TEMPLATE_INVALID',
}));

const otherRows: Row[] = [
  {
    input: 'a nested template without Resources',
    command: 'deploy',
    code: 'TEMPLATE_INVALID',
    run: () => {
      const dir = assembly([
        { id: VICTIM, template: withResources({ Child: nestedRow('child.nested.template.json') }) },
      ]);
      writeJson(join(dir, 'child.nested.template.json'), { Resources: {} });
      return deploy(dir);
    },
  },
  {
    input: 'the same export name in two selected stacks',
    command: 'deploy --all',
    code: 'TEMPLATE_INVALID',
    run: () =>
      deploy(
        assembly([
          { id: VICTIM, template: withResources({}, { Outputs: { A: exportOutput('Twice') } }) },
          { id: 'Other', template: withResources({}, { Outputs: { B: exportOutput('Twice') } }) },
        ]),
        { all: true },
      ),
  },
  ...[
    ['S/Q', 'a slash, reaching into stack S’s nested-stack namespace'],
    ['..', 'a parent-directory name'],
    ['my stack ☃', 'spaces and a snowman'],
    ['S'.repeat(129), '129 characters'],
    ['1Stack', 'a leading digit'],
  ].map(([stackName, why]) => ({
    input: `the stack name ${JSON.stringify(stackName!.slice(0, 20))} (${why})`,
    command: 'deploy',
    code: 'STACK_NAME_INVALID',
    run: deployTemplate(victimTemplate, { stackName: stackName! }),
  })),
  {
    input: 'the stack name "" (an empty name)',
    command: 'deploy',
    code: 'STACK_NAME_INVALID',
    run: () => deploy(assemblyWithTemplateFile('Escaping.template.json', victimTemplate, { stackName: '' })),
  },
  {
    input: 'the stack name "S/Q"',
    command: 'destroy',
    code: 'STACK_NAME_INVALID',
    run: () => destroy(assembly([{ id: 'Nested', stackName: 'S/Q', template: victimTemplate }])),
  },
  {
    input: 'a manifest templateFile of ../',
    command: 'deploy',
    code: 'TEMPLATE_PATH_ESCAPES',
    run: () => deploy(assemblyWithTemplateFile('../escaping.template.json', victimTemplate)),
  },
  {
    input: 'an absolute manifest templateFile outside the assembly',
    command: 'deploy',
    code: 'TEMPLATE_PATH_ESCAPES',
    run: async () => {
      const outside = join(
        assembly([{ id: 'Elsewhere', template: victimTemplate }]),
        'Elsewhere.template.json',
      );
      return deploy(assemblyWithTemplateFile(outside, victimTemplate));
    },
  },
  {
    input: 'an asset source.path of ../',
    command: 'deploy',
    code: 'ASSET_PATH_ESCAPES',
    run: deployTemplate(victimTemplate, {
      assets: {
        files: {
          abc: {
            source: { path: '../../etc', packaging: 'zip' },
            destinations: { d: { bucketName: 'b', objectKey: 'k.zip' } },
          },
        },
      },
    }),
  },
  {
    input: 'a nested template path of ../',
    command: 'deploy',
    code: 'NESTED_TEMPLATE_PATH_ESCAPES',
    run: deployTemplate(withResources({ Child: nestedRow('../outside.template.json') })),
  },
  {
    input: 'a truncated template file',
    command: 'deploy',
    code: 'ASSEMBLY_MALFORMED',
    run: () => {
      const dir = assembly([{ id: VICTIM, template: victimTemplate }]);
      writeJson(join(dir, 'Victim.template.json'), 0);
      return deploy(dir);
    },
  },
  {
    input: '--state-prefix ../..',
    command: 'deploy',
    code: 'STATE_PREFIX_INVALID',
    run: () => deploy(assembly([{ id: VICTIM, template: victimTemplate }]), { statePrefix: '../..' }),
  },
  {
    input: '--state-prefix a//b',
    command: 'deploy',
    code: 'STATE_PREFIX_INVALID',
    run: () => deploy(assembly([{ id: VICTIM, template: victimTemplate }]), { statePrefix: 'a//b' }),
  },
  {
    input: 'a --parameters entry without =',
    command: 'deploy',
    code: 'PARAMETER_SYNTAX',
    run: () => deploy(assembly([{ id: VICTIM, template: victimTemplate }]), { parameters: ['oops'] }),
  },
  {
    input: 'the stack argument ../../etc',
    command: 'state show',
    code: 'STACK_NAME_INVALID',
    run: () => showStack(session(), '../../etc', 'us-east-1'),
  },
  {
    input: 'the stack argument ..',
    command: 'events',
    code: 'STACK_NAME_INVALID',
    run: () => stackEvents({ session: session(), stackName: '..', region: 'us-east-1' }),
  },
  {
    input: 'the stack argument ../x',
    command: 'force-unlock',
    code: 'STACK_NAME_INVALID',
    run: () =>
      forceUnlock(
        session(),
        { stackName: '../x', region: 'us-east-1' },
        { force: false, thisHost: 'here', now: new Date() },
        { io: silentIo, command: 'force-unlock' },
      ),
  },
  {
    input: 'the stack argument Victim~..',
    command: 'rollback',
    code: 'STACK_NAME_INVALID',
    run: () =>
      rollbackApp({
        session: session(),
        stackName: 'Victim~..',
        region: 'us-east-1',
        revertFailed: false,
        orphan: [],
        force: false,
        io: eventsTo(
          () => undefined,
          async () => true,
        ),
        command: 'rollback',
      }),
  },
  {
    input: 'a region argument of ../us-east-1',
    command: 'state show',
    code: 'REGION_INVALID',
    run: () => showStack(session(), VICTIM, '../us-east-1'),
  },
];

describe('malformed input is refused before anything is touched', () => {
  it.each([...templateRows, ...otherRows])('$input → $command: $code', async ({ run, code }) => {
    const before = await snapshot(sandbox.current.url);
    expect(await outcomeOf(run)).toBe(code);
    expect(await snapshot(sandbox.current.url)).toBe(before);
  });

  it('a state.json naming another stack is refused as foreign, naming its key, and left as it is', async () => {
    const s3 = new S3Client({ endpoint: sandbox.current.url, region: 'us-east-1', forcePathStyle: true });
    const key = 'cdkd/Foreign/us-east-1/state.json';
    await s3.send(
      new PutObjectCommand({
        Bucket: STATE_BUCKET,
        Key: key,
        Body: JSON.stringify(emptyStateDocument(VICTIM, 'us-east-1')),
      }),
    );
    try {
      const before = await snapshot(sandbox.current.url);
      const error = await deploy(assembly([{ id: 'Foreign', template: victimTemplate }])).catch(
        (e: unknown) => e,
      );
      expect(error).toMatchObject({ code: 'STATE_DOCUMENT_FOREIGN' });
      expect((error as Error).message).toContain(key);
      expect(await snapshot(sandbox.current.url)).toBe(before);
    } finally {
      // Every deploy in the region reads every state document (exports), so it would refuse them all.
      await s3.send(new DeleteObjectCommand({ Bucket: STATE_BUCKET, Key: key }));
    }
  });

  it('an export name another deployed stack exports is refused, as CloudFormation does', async () => {
    const exporting = (id: string) =>
      assembly([{ id, template: withResources({}, { Outputs: { O: exportOutput('TakenName') } }) }]);
    expect(await outcomeOf(() => deploy(exporting('Exporter')))).toBe('ok');
    const before = await snapshot(sandbox.current.url);
    expect(await outcomeOf(() => deploy(exporting('Thief')))).toBe('EXPORT_NAME_TAKEN');
    expect(await snapshot(sandbox.current.url)).toBe(before);
    expect(await outcomeOf(() => deploy(exporting('Exporter')))).toBe('ok');
  });

  it('lists every problem of a stack in one error, each at its JSON path', async () => {
    const error = await deployTemplate(
      withResources({
        'Bad-Id': queue({ VisibilityTimeout: [1] }),
        P2: parameter({ 'Fn::Sub': '${AWS::Region' }),
      }),
    )().catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'TEMPLATE_INVALID' });
    const message = (error as Error).message;
    expect(message).toContain('3 problems');
    expect(message).toContain('Resources.Bad-Id: Resource name "Bad-Id" is non alphanumeric');
    expect(message).toContain('Resources.Bad-Id.Properties.VisibilityTimeout: ');
    expect(message).toContain('Resources.P2.Properties.Value.Fn::Sub: Fn::Sub string has an unclosed "${"');
    expect(message).not.toContain('\n');
  });

  it('says "At least one Resources member must be defined" and points at cdkd destroy', async () => {
    const error = await deployTemplate({ Resources: {} })().catch((e: unknown) => e);
    expect((error as Error).message).toContain('At least one Resources member must be defined');
    expect((error as { hint?: string }).hint).toContain('cdkd destroy');
  });
});

describe('inputs that are valid keep working', () => {
  it.each([
    ['a stack name with hyphens and digits', { stackName: 'Valid-Name-2' }],
    ['a 128-character stack name', { stackName: `V${'a'.repeat(127)}` }],
  ])('%s deploys', async (_input, spec) => {
    expect(await outcomeOf(deployTemplate({ Resources: { Param: parameter('ok') } }, spec))).toBe('ok');
  });

  it('a value of an intrinsic function is judged by what it evaluates to, a dynamic reference not at all', async () => {
    const template = {
      Parameters: { Timeout: { Type: 'Number', Default: 30 } },
      Resources: {
        Param: parameter('kept'),
        Queue: queue({ VisibilityTimeout: { Ref: 'Timeout' }, MessageRetentionPeriod: '600' }),
      },
    };
    expect(await outcomeOf(deployTemplate(template, { stackName: 'Evaluated' }))).toBe('ok');
  });

  it('above a CloudFormation limit: one warning line, and the deploy goes on', async () => {
    const resources = Object.fromEntries(
      Array.from({ length: 501 }, (_, i) => [
        `Handle${i}`,
        { Type: 'AWS::CloudFormation::WaitConditionHandle' },
      ]),
    );
    const warnings: string[] = [];
    const outcome = await outcomeOf(() =>
      deploy(assembly([{ id: 'Big', template: { Resources: resources } }]), {
        dryRun: true,
        io: eventsTo((event) => {
          if (event.kind === 'warning') warnings.push(event.message);
        }),
      }),
    );
    expect(outcome).toBe('ok');
    expect(warnings).toEqual([
      "Stack Big is above CloudFormation's limits (501 resources (limit 500)): cdkd deploys it, but the CDK CLI could not.",
    ]);
  });
});

describe('through the built CLI: one error line and a hint, exit 1, nothing touched', () => {
  it.each([
    [
      'Resources: {}',
      () => ['deploy', '-a', assembly([{ id: VICTIM, template: { Resources: {} } }])],
      'TEMPLATE_INVALID',
    ],
    [
      'the stack name S/Q',
      () => ['deploy', '-a', assembly([{ id: 'Nested', stackName: 'S/Q', template: victimTemplate }])],
      'STACK_NAME_INVALID',
    ],
    [
      '--state-prefix ../../etc',
      () => [
        'deploy',
        '--state-prefix',
        '../../etc',
        '-a',
        assembly([{ id: VICTIM, template: victimTemplate }]),
      ],
      'STATE_PREFIX_INVALID',
    ],
    ['state show ../../etc', () => ['state', 'show', '../../etc'], 'STACK_NAME_INVALID'],
    [
      'destroy of the stack name S/Q',
      () => [
        'destroy',
        '--yes',
        '-a',
        assembly([{ id: 'Nested', stackName: 'S/Q', template: victimTemplate }]),
      ],
      'STACK_NAME_INVALID',
    ],
  ])('%s', async (_input, args, code) => {
    const before = await snapshot(sandbox.current.url);
    const result = await runCli(args(), { env: sandboxEnv(sandbox.current.url) });
    expect(result.code, result.stderr).toBe(1);
    const lines = result.stderr.trimEnd().split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(new RegExp(`^Error \\[${code}\\]: `));
    expect(lines[1]).toMatch(/^ {2}\S/);
    expect(await snapshot(sandbox.current.url)).toBe(before);
  });
});
