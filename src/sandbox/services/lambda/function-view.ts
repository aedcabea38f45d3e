import type { LambdaCall } from './call.js';
import { settingsView } from './function-settings.js';
import type { FunctionConfig, FunctionRecord } from './model.js';

/** The FunctionConfiguration shape of `$LATEST` or a published version. */
export function configurationView(
  call: Pick<LambdaCall, 'now'>,
  record: FunctionRecord,
  config: FunctionConfig,
  version = '$LATEST',
): Record<string, unknown> {
  const latest = version === '$LATEST';
  const pending = latest && call.now < record.activeAt;
  const updating = latest && record.updateDoneAt !== undefined && call.now < record.updateDoneAt;
  return {
    FunctionName: record.name,
    FunctionArn: latest ? record.arn : `${record.arn}:${version}`,
    ...(config.runtime ? { Runtime: config.runtime } : {}),
    Role: config.role,
    ...(config.handler ? { Handler: config.handler } : {}),
    CodeSize: config.code.size,
    Description: config.description,
    Timeout: config.timeout,
    MemorySize: config.memorySize,
    LastModified: config.lastModified,
    CodeSha256: config.code.sha256,
    Version: version,
    ...(config.vpcConfig
      ? {
          VpcConfig: {
            ...config.vpcConfig,
            VpcId: config.vpcConfig.SubnetIds.length > 0 ? 'vpc-sandbox' : '',
          },
        }
      : {}),
    ...(config.deadLetterTargetArn ? { DeadLetterConfig: { TargetArn: config.deadLetterTargetArn } } : {}),
    ...(config.environment ? { Environment: { Variables: config.environment } } : {}),
    RevisionId: config.revisionId,
    ...(config.layers.length > 0 ? { Layers: config.layers.map((arn) => ({ Arn: arn, CodeSize: 0 })) } : {}),
    State: pending ? 'Pending' : 'Active',
    ...(pending ? { StateReason: 'The function is being created.', StateReasonCode: 'Creating' } : {}),
    LastUpdateStatus: pending || updating ? 'InProgress' : 'Successful',
    PackageType: config.code.image ? 'Image' : 'Zip',
    ...(config.imageConfig ? { ImageConfigResponse: { ImageConfig: config.imageConfig } } : {}),
    Architectures: config.architectures,
    ...settingsView(record.name, config, !latest),
  };
}

/** GetFunction's Code member: where the package can be downloaded (a placeholder URL). */
export function codeLocation(
  call: Pick<LambdaCall, 'region'>,
  record: FunctionRecord,
): Record<string, string> {
  const image = record.latest.code.image;
  if (image) return { RepositoryType: 'ECR', ImageUri: image.uri, ResolvedImageUri: image.resolvedUri };
  return {
    RepositoryType: 'S3',
    Location: `https://awslambda-${call.region}-tasks.s3.${call.region}.amazonaws.com/snapshots/${record.name}`,
  };
}
