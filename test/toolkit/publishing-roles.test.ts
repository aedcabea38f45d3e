import { describe, expect, it } from 'vitest';
import type { AssetManifest } from '../../src/assembly/index.js';
import type { StackAssets } from '../../src/assets/publish-assets.js';
import { manifestPublishingRole, partitionOf } from '../../src/toolkit/bootstrap/publishing-roles.js';

const TARGET = { accountId: '222222222222', region: 'eu-west-1' };
const FILE_ROLE =
  'arn:${AWS::Partition}:iam::${AWS::AccountId}:role/cdk-hnb659fds-file-publishing-role-${AWS::AccountId}-${AWS::Region}';
const IMAGE_ROLE =
  'arn:${AWS::Partition}:iam::222222222222:role/cdk-hnb659fds-image-publishing-role-222222222222-eu-west-1';

function stack(
  files: Array<{ source: string; role?: string; externalId?: string }>,
  imageRole?: string,
): StackAssets {
  const manifest = {
    file: '/app/S.assets.json',
    files: files.map((file, i) => ({
      id: `f${i}`,
      absoluteSourcePath: file.source,
      destinations: [
        {
          id: 'd',
          bucketName: 'b',
          objectKey: `k${i}`,
          ...(file.role ? { assumeRoleArn: file.role } : {}),
          ...(file.externalId ? { assumeRoleExternalId: file.externalId } : {}),
        },
      ],
    })),
    containers: imageRole
      ? [
          {
            id: 'i',
            destinations: [{ id: 'd', repositoryName: 'r', imageTag: 't', assumeRoleArn: imageRole }],
          },
        ]
      : [],
  } as unknown as AssetManifest;
  return { displayName: 'S', templateFile: '/app/S.template.json', assetManifests: [manifest] };
}

describe('partitionOf', () => {
  it.each([
    ['us-east-1', 'aws'],
    ['cn-north-1', 'aws-cn'],
    ['us-gov-west-1', 'aws-us-gov'],
  ])('%s is in %s', (region, partition) => {
    expect(partitionOf(region)).toBe(partition);
  });
});

describe("manifestPublishingRole: the asset manifest's role for a kind of asset, placeholders filled in", () => {
  it('resolves partition, account and region placeholders', () => {
    expect(
      manifestPublishingRole(stack([{ source: '/app/asset.x', role: FILE_ROLE }]), 'file', TARGET),
    ).toEqual({
      roleArn: 'arn:aws:iam::222222222222:role/cdk-hnb659fds-file-publishing-role-222222222222-eu-west-1',
    });
  });

  it("passes the destination's external id", () => {
    const found = manifestPublishingRole(
      stack([{ source: '/app/asset.x', role: FILE_ROLE, externalId: 'pipeline' }]),
      'file',
      TARGET,
    );
    expect(found?.externalId).toBe('pipeline');
  });

  it("ignores the stack's own template (cdkd deploys it, nothing is published for it)", () => {
    expect(
      manifestPublishingRole(stack([{ source: '/app/S.template.json', role: FILE_ROLE }]), 'file', TARGET),
    ).toBe(undefined);
  });

  it('takes no role of another account than the one deployed to', () => {
    const foreign =
      'arn:aws:iam::999999999999:role/cdk-hnb659fds-file-publishing-role-999999999999-eu-west-1';
    expect(manifestPublishingRole(stack([{ source: '/app/asset.x', role: foreign }]), 'file', TARGET)).toBe(
      undefined,
    );
  });

  it('reads the image role from image destinations, the file role from file destinations', () => {
    const both = stack([{ source: '/app/asset.x', role: FILE_ROLE }], IMAGE_ROLE);
    expect(manifestPublishingRole(both, 'image', TARGET)?.roleArn).toContain('image-publishing-role');
    expect(manifestPublishingRole(both, 'file', TARGET)?.roleArn).toContain('file-publishing-role');
    expect(manifestPublishingRole(stack([{ source: '/app/asset.x' }]), 'file', TARGET)).toBe(undefined);
  });
});
