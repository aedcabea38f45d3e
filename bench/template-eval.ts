/**
 * Template evaluation benchmark (not a test): a generated 1,000-resource template with a
 * mix of Ref / GetAtt / Sub / Join / Select / If and conditions is parsed, prepared, every
 * resource and output evaluated and the dependency graph built. Prints the median time and
 * its ratio to a bare JSON.parse of the same text. Run: npx tsx bench/template-eval.ts
 */
import { parseTemplate, prepareTemplate, type ExternalResolver } from '../src/template/index.js';

const RESOURCES = 1_000;
const ITERATIONS = 15;

function generateTemplate(count: number): string {
  const resources: Record<string, unknown> = {};
  const outputs: Record<string, unknown> = {};
  for (let i = 0; i < count; i++) {
    const id = `Res${i}`;
    // Each resource reads up to three earlier ones, so the graph has depth and fan-in.
    const a = `Res${Math.max(0, i - 1)}`;
    const b = `Res${Math.floor(i / 2)}`;
    const c = `Res${Math.floor(i / 3)}`;
    const refs =
      i === 0
        ? {}
        : {
            Parent: { Ref: a },
            ParentArn: { 'Fn::GetAtt': [b, 'Arn'] },
            Name: { 'Fn::Sub': `\${AWS::StackName}-\${Env}-${id}-\${${c}.Arn}` },
            Path: {
              'Fn::Join': [
                '/',
                [
                  'root',
                  { Ref: 'Env' },
                  { Ref: a },
                  { 'Fn::Select': [1, { 'Fn::Split': [':', { 'Fn::GetAtt': [c, 'Arn'] }] }] },
                ],
              ],
            },
            Size: {
              'Fn::If': ['IsProd', { 'Fn::FindInMap': ['Sizes', 'prod', 'Memory'] }, { Ref: 'AWS::NoValue' }],
            },
          };
    resources[id] = {
      Type: i % 3 === 0 ? 'AWS::Lambda::Function' : i % 3 === 1 ? 'AWS::SQS::Queue' : 'AWS::IAM::Role',
      ...(i % 50 === 49 ? { Condition: 'IsProd' } : {}),
      ...(i % 7 === 0 && i > 0 ? { DependsOn: [`Res${i - 1}`] } : {}),
      Properties: {
        ...refs,
        Tags: [
          { Key: 'env', Value: { Ref: 'Env' } },
          { Key: 'region', Value: { 'Fn::Sub': '${AWS::Region}' } },
        ],
        Policy: {
          Statement: [
            {
              Effect: 'Allow',
              Action: ['s3:GetObject', 's3:PutObject'],
              Resource: {
                'Fn::Join': ['', ['arn:', { Ref: 'AWS::Partition' }, ':s3:::bucket-', String(i), '/*']],
              },
            },
          ],
        },
      },
    };
    if (i % 10 === 0)
      outputs[`Out${i}`] = {
        Value: { 'Fn::GetAtt': [id, 'Arn'] },
        Export: { Name: { 'Fn::Sub': `\${AWS::StackName}-${id}` } },
      };
  }
  return JSON.stringify({
    Parameters: { Env: { Type: 'String', Default: 'prod', AllowedValues: ['dev', 'prod'] } },
    Conditions: {
      IsProd: { 'Fn::Equals': [{ Ref: 'Env' }, 'prod'] },
      IsUsEast: {
        'Fn::Or': [{ 'Fn::Equals': [{ Ref: 'AWS::Region' }, 'us-east-1'] }, { Condition: 'IsProd' }],
      },
    },
    Mappings: { Sizes: { prod: { Memory: 1024 }, dev: { Memory: 128 } } },
    Resources: resources,
    Outputs: outputs,
  });
}

const resolver: ExternalResolver = {
  ref: (id) => `${id}-physical-id`,
  getAtt: (id, attribute) => `arn:aws:svc:us-east-1:123456789012:${id}/${attribute}`,
  importValue: () => undefined,
};

async function fullEvaluation(text: string): Promise<number> {
  const template = parseTemplate(text, 'bench.json');
  const prepared = await prepareTemplate(template, {
    pseudo: { accountId: '123456789012', region: 'us-east-1', stackName: 'Bench' },
  });
  let evaluated = 0;
  for (const id of prepared.activeResources) {
    prepared.evaluateResourceProperties(id, resolver);
    evaluated++;
  }
  prepared.evaluateOutputs(resolver);
  prepared.dependencyGraph().criticalPathLength();
  return evaluated;
}

function median(values: number[]): number {
  const sorted = [...values].sort((x, y) => x - y);
  return sorted[Math.floor(sorted.length / 2)]!;
}

async function main(): Promise<void> {
  const text = generateTemplate(RESOURCES);
  await fullEvaluation(text); // warm-up: JIT and the Fn::Sub parse cache
  JSON.parse(text);
  const parseTimes: number[] = [];
  const evalTimes: number[] = [];
  let evaluated = 0;
  for (let i = 0; i < ITERATIONS; i++) {
    let start = performance.now();
    JSON.parse(text);
    parseTimes.push(performance.now() - start);
    start = performance.now();
    evaluated = await fullEvaluation(text);
    evalTimes.push(performance.now() - start);
  }
  const parse = median(parseTimes);
  const full = median(evalTimes);
  console.log(
    `template: ${RESOURCES} resources (${evaluated} active), ${(text.length / 1024).toFixed(0)} KiB`,
  );
  console.log(`JSON.parse:                     ${parse.toFixed(2)} ms (median of ${ITERATIONS})`);
  console.log(`parse + prepare + eval + graph: ${full.toFixed(2)} ms (median of ${ITERATIONS})`);
  console.log(
    `ratio to JSON.parse: ${(full / parse).toFixed(1)}x; goal < 1000 ms: ${full < 1000 ? 'met' : 'MISSED'}`,
  );
}

await main();
