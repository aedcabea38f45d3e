import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadAssetManifest } from '../../src/assembly/asset-manifest.js';
import { rewriteAssetReferences } from '../../src/assets/rewrite-references.js';
import { corpusDir, describeCorpus } from '../template/corpus-support.js';

const TARGET = 'cdkd-assets-123456789012-us-east-1';
const DEFAULT_BUCKET = 'cdk-hnb659fds-assets-${AWS::AccountId}-${AWS::Region}';

interface Row {
  name: string;
  bucketNames: string[];
  input: Record<string, unknown>;
  expected: Record<string, unknown>;
  paths: string[];
}

// Snippets copied from /work/shared/corpus/templates (file named in each row) with the
// bucketName their asset manifest gives.
const rows: Row[] = [
  {
    name: 'Fn::Sub bucket, plain key (aws-lambda__integ.assets.lit__lambda-test-assets)',
    bucketNames: [DEFAULT_BUCKET],
    input: {
      Code: {
        S3Bucket: { 'Fn::Sub': DEFAULT_BUCKET },
        S3Key: '9678c34eca93259d11f2d714177347afd66c50116e1e08996eff893d3ca81232.zip',
      },
    },
    expected: {
      Code: {
        S3Bucket: { 'Fn::Sub': TARGET },
        S3Key: '9678c34eca93259d11f2d714177347afd66c50116e1e08996eff893d3ca81232.zip',
      },
    },
    paths: ['Code.S3Bucket.Fn::Sub'],
  },
  {
    name: 'plain string for a concrete environment (aws-servicecatalog__integ.two-products)',
    bucketNames: ['cdk-hnb659fds-assets-12345678-test-region'],
    input: {
      Content: {
        S3Bucket: 'cdk-hnb659fds-assets-12345678-test-region',
        S3Key: '3322b7049fb0ed2b7cbb644a2ada8d1116ff80c32dca89e6ada846b5de26f961.zip',
      },
      SourceBucketNames: [
        'cdk-hnb659fds-assets-12345678-test-region',
        'cdk-hnb659fds-assets-12345678-test-region',
      ],
    },
    expected: {
      Content: {
        S3Bucket: TARGET,
        S3Key: '3322b7049fb0ed2b7cbb644a2ada8d1116ff80c32dca89e6ada846b5de26f961.zip',
      },
      SourceBucketNames: [TARGET, TARGET],
    },
    paths: ['Content.S3Bucket', 'SourceBucketNames[0]', 'SourceBucketNames[1]'],
  },
  {
    name: 'Fn::Join parts of a policy ARN (aws-servicecatalog__integ.two-products)',
    bucketNames: ['cdk-hnb659fds-assets-12345678-test-region'],
    input: {
      Resource: [
        {
          'Fn::Join': [
            '',
            ['arn:', { Ref: 'AWS::Partition' }, ':s3:::cdk-hnb659fds-assets-12345678-test-region'],
          ],
        },
        {
          'Fn::Join': [
            '',
            ['arn:', { Ref: 'AWS::Partition' }, ':s3:::cdk-hnb659fds-assets-12345678-test-region/*'],
          ],
        },
      ],
    },
    expected: {
      Resource: [
        { 'Fn::Join': ['', ['arn:', { Ref: 'AWS::Partition' }, `:s3:::${TARGET}`]] },
        { 'Fn::Join': ['', ['arn:', { Ref: 'AWS::Partition' }, `:s3:::${TARGET}/*`]] },
      ],
    },
    paths: ['Resource[0].Fn::Join[1][2]', 'Resource[1].Fn::Join[1][2]'],
  },
  {
    name: 'nested stack TemplateURL (aws-cloudformation__integ.nested-stacks-assets)',
    bucketNames: [DEFAULT_BUCKET],
    input: {
      TemplateURL: {
        'Fn::Join': [
          '',
          [
            'https://s3.',
            { Ref: 'AWS::Region' },
            '.',
            { Ref: 'AWS::URLSuffix' },
            '/',
            { 'Fn::Sub': DEFAULT_BUCKET },
            '/e3958b0a2118294d13d958ce7f502b4f181d2e77ff4e216b3f21c91905414db0.json',
          ],
        ],
      },
    },
    expected: {
      TemplateURL: {
        'Fn::Join': [
          '',
          [
            'https://s3.',
            { Ref: 'AWS::Region' },
            '.',
            { Ref: 'AWS::URLSuffix' },
            '/',
            { 'Fn::Sub': TARGET },
            '/e3958b0a2118294d13d958ce7f502b4f181d2e77ff4e216b3f21c91905414db0.json',
          ],
        ],
      },
    },
    paths: ['TemplateURL.Fn::Join[1][5].Fn::Sub'],
  },
  {
    name: 'nested TemplateURL with a fixed region (aws-cloudformation__integ.core-cross-region-references)',
    bucketNames: ['cdk-hnb659fds-assets-${AWS::AccountId}-us-east-1'],
    input: {
      TemplateURL: {
        'Fn::Join': [
          '',
          [
            'https://s3.us-east-1.',
            { Ref: 'AWS::URLSuffix' },
            '/',
            { 'Fn::Sub': 'cdk-hnb659fds-assets-${AWS::AccountId}-us-east-1' },
            '/db4b89d277ac97fb3b94206516c7e60648f2e3a4d53793e2e8d073a607b04fdc.json',
          ],
        ],
      },
    },
    expected: {
      TemplateURL: {
        'Fn::Join': [
          '',
          [
            'https://s3.us-east-1.',
            { Ref: 'AWS::URLSuffix' },
            '/',
            { 'Fn::Sub': TARGET },
            '/db4b89d277ac97fb3b94206516c7e60648f2e3a4d53793e2e8d073a607b04fdc.json',
          ],
        ],
      },
    },
    paths: ['TemplateURL.Fn::Join[1][3].Fn::Sub'],
  },
  {
    name: 'URL inside an Fn::Sub string (aws-servicecatalog__integ.two-products)',
    bucketNames: ['cdk-hnb659fds-assets-12345678-test-region'],
    input: {
      LoadTemplateFromURL: {
        'Fn::Sub':
          'https://s3.test-region.${AWS::URLSuffix}/cdk-hnb659fds-assets-12345678-test-region/e3d02db86c0d1baccd824dbe984b3e37153502d8511f859c5664c716dc4ca3c9.json',
      },
    },
    expected: {
      LoadTemplateFromURL: {
        'Fn::Sub': `https://s3.test-region.\${AWS::URLSuffix}/${TARGET}/e3d02db86c0d1baccd824dbe984b3e37153502d8511f859c5664c716dc4ca3c9.json`,
      },
    },
    paths: ['LoadTemplateFromURL.Fn::Sub'],
  },
  {
    name: 's3:// location in Fn::Sub (aws-appsync__integ.js-resolver)',
    bucketNames: [DEFAULT_BUCKET],
    input: {
      CodeS3Location: {
        'Fn::Sub': `s3://${DEFAULT_BUCKET}/64f136fd66d0a20e8574eddfe2e50aa10168344ebac0f3ca03e5ae0b4b7475ec.js`,
      },
    },
    expected: {
      CodeS3Location: {
        'Fn::Sub': `s3://${TARGET}/64f136fd66d0a20e8574eddfe2e50aa10168344ebac0f3ca03e5ae0b4b7475ec.js`,
      },
    },
    paths: ['CodeS3Location.Fn::Sub'],
  },
  {
    name: 'container image URI is not a file asset bucket (aws-lambda__integ.lambda.docker)',
    bucketNames: [DEFAULT_BUCKET],
    input: {
      ImageUri: {
        'Fn::Sub':
          '${AWS::AccountId}.dkr.ecr.${AWS::Region}.${AWS::URLSuffix}/cdk-hnb659fds-container-assets-${AWS::AccountId}-${AWS::Region}:768d7b6c1d41b85135f498fe0cca69fea410be3c3322c69cf08690aaad29a610',
      },
    },
    expected: {
      ImageUri: {
        'Fn::Sub':
          '${AWS::AccountId}.dkr.ecr.${AWS::Region}.${AWS::URLSuffix}/cdk-hnb659fds-container-assets-${AWS::AccountId}-${AWS::Region}:768d7b6c1d41b85135f498fe0cca69fea410be3c3322c69cf08690aaad29a610',
      },
    },
    paths: [],
  },
  {
    name: 'custom qualifier and custom fileAssetsBucketName, whole names only',
    bucketNames: ['cdk-myqual-assets-${AWS::AccountId}-${AWS::Region}', 'my-org-assets'],
    input: {
      A: { 'Fn::Sub': 'cdk-myqual-assets-${AWS::AccountId}-${AWS::Region}' },
      B: 'my-org-assets',
      C: 'arn:aws:s3:::my-org-assets/*',
      D: 'my-org-assets-logs',
      E: 'old-my-org-assets',
      F: 'my-org-assets.s3.amazonaws.com',
    },
    expected: {
      A: { 'Fn::Sub': TARGET },
      B: TARGET,
      C: `arn:aws:s3:::${TARGET}/*`,
      D: 'my-org-assets-logs',
      E: 'old-my-org-assets',
      F: `${TARGET}.s3.amazonaws.com`,
    },
    paths: ['A.Fn::Sub', 'B', 'C', 'F'],
  },
];

describe('rewriteAssetReferences', () => {
  it.each(rows)('$name', ({ bucketNames, input, expected, paths }) => {
    const before = structuredClone(input);
    const result = rewriteAssetReferences(
      { Resources: { R: { Type: 'T', Properties: input } } },
      bucketNames.map((bucketName) => ({ bucketName })),
      TARGET,
    );
    expect(result.template).toEqual({ Resources: { R: { Type: 'T', Properties: expected } } });
    expect(result.rewrites.map((rewrite) => rewrite.path)).toEqual(
      paths.map((p) => `Resources.R.Properties.${p}`),
    );
    expect(input).toEqual(before);
  });

  it('reports each rewritten string with its value before and after', () => {
    const { rewrites } = rewriteAssetReferences(
      { Outputs: { Bucket: { Value: { 'Fn::Sub': DEFAULT_BUCKET } } } },
      [{ bucketName: DEFAULT_BUCKET }],
      TARGET,
    );
    expect(rewrites).toEqual([{ path: 'Outputs.Bucket.Value.Fn::Sub', from: DEFAULT_BUCKET, to: TARGET }]);
  });

  it('returns the same object when nothing refers to an asset bucket', () => {
    const template = {
      Resources: {
        Queue: { Type: 'AWS::SQS::Queue', Properties: { QueueName: { 'Fn::Sub': '${AWS::StackName}-q' } } },
      },
      Rules: { CheckBootstrapVersion: { Assertions: [{ AssertDescription: 'cdk-hnb659fds' }] } },
    };
    const result = rewriteAssetReferences(template, [{ bucketName: DEFAULT_BUCKET }], TARGET);
    expect(result.template).toBe(template);
    expect(result.rewrites).toEqual([]);
  });

  it('shares the parts it did not change', () => {
    const untouched = { Type: 'AWS::SQS::Queue' };
    const template = {
      Resources: { Queue: untouched, Fn: { Type: 'X', Properties: { B: DEFAULT_BUCKET } } },
    };
    const result = rewriteAssetReferences(template, [{ bucketName: DEFAULT_BUCKET }], TARGET);
    expect(result.template.Resources.Queue).toBe(untouched);
  });

  it('rewrites nothing when there are no destinations', () => {
    const template = { Resources: { Fn: { Type: 'X', Properties: { B: DEFAULT_BUCKET } } } };
    expect(rewriteAssetReferences(template, [], TARGET).template).toBe(template);
  });
});

describeCorpus('rewriteAssetReferences over the CDK corpus', () => {
  it('leaves no reference to a manifest bucket and changes nothing else', () => {
    const manifestsDir = path.join(corpusDir, 'manifests');
    // A test app's nested and sibling templates share its asset manifests.
    const bucketsByApp = new Map<string, Set<string>>();
    for (const file of readdirSync(manifestsDir).filter((f) => f.endsWith('.assets.json'))) {
      const app = file.slice(0, file.lastIndexOf('__'));
      const names = bucketsByApp.get(app) ?? new Set<string>();
      for (const asset of loadAssetManifest(path.join(manifestsDir, file)).files) {
        for (const destination of asset.destinations) names.add(destination.bucketName);
      }
      bucketsByApp.set(app, names);
    }
    let rewritten = 0;
    for (const file of readdirSync(corpusDir).filter((f) => f.endsWith('.template.json'))) {
      const names = [...(bucketsByApp.get(file.slice(0, file.lastIndexOf('__'))) ?? [])];
      const text = readFileSync(path.join(corpusDir, file), 'utf8');
      const template: unknown = JSON.parse(text);
      const result = rewriteAssetReferences(
        template,
        names.map((bucketName) => ({ bucketName })),
        TARGET,
      );
      const expected = names.reduce((json, name) => json.split(name).join(TARGET), JSON.stringify(template));
      expect(JSON.stringify(result.template), file).toBe(expected);
      expect(JSON.stringify(result.template), file).not.toMatch(/cdk-hnb659fds-assets-/);
      rewritten += result.rewrites.length;
    }
    expect(rewritten).toBeGreaterThan(900);
  });
});
