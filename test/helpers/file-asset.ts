import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** The made-up CDK hash of a file asset holding `content`, and the object key it is published under. */
export const assetHash = (content: string) =>
  Buffer.from(content).toString('hex').padEnd(64, '0').slice(0, 64);
export const assetKey = (content: string) => `${assetHash(content)}.txt`;

/**
 * A file asset holding `content`, written into the assembly `dir` as CDK writes one: its
 * asset-manifest content (for writeAssembly's `assets`) and an SSM parameter whose value
 * names the published object, so the stack's template refers to the asset.
 */
export function fileAsset(dir: string, content: string) {
  const hash = assetHash(content);
  writeFileSync(join(dir, `asset.${hash}.txt`), content);
  const bucketName = 'cdk-hnb659fds-assets-${AWS::AccountId}-${AWS::Region}';
  return {
    pointer: {
      Type: 'AWS::SSM::Parameter',
      Properties: { Type: 'String', Value: { 'Fn::Sub': `s3://${bucketName}/${hash}.txt` } },
    },
    manifest: {
      version: '36.0.0',
      files: {
        [hash]: {
          source: { path: `asset.${hash}.txt`, packaging: 'file' },
          destinations: { 'current_account-current_region': { bucketName, objectKey: `${hash}.txt` } },
        },
      },
      dockerImages: {},
    },
  };
}
