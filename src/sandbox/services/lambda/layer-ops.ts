import { lambdaTimestamp, stringMember, type LambdaCall, type LambdaHandler } from './call.js';
import { resolveCode } from './code.js';
import { lambdaErrors } from './lambda-errors.js';
import type { LayerVersionRecord } from './model.js';

/** Layer versions: immutable once published; each publish gets the next number. */

export const publishLayerVersion: LambdaHandler = async (call) => {
  const layerName = call.labels.LayerName ?? '';
  if (typeof call.input.Content !== 'object' || call.input.Content === null) {
    throw lambdaErrors.invalid('Please provide a source for layer content.');
  }
  const code = await resolveCode(call, call.input.Content as Record<string, unknown>);
  // Numbers are never reused, even after a delete (deleted versions stay as tombstones).
  const existing = call.store.layerVersions(call.region, layerName);
  const record: LayerVersionRecord = {
    layerName,
    region: call.region,
    version: Math.max(0, ...existing.map((layer) => layer.version)) + 1,
    description: stringMember(call.input, 'Description') ?? '',
    compatibleRuntimes: stringList(call.input.CompatibleRuntimes),
    compatibleArchitectures: stringList(call.input.CompatibleArchitectures),
    ...(stringMember(call.input, 'LicenseInfo') !== undefined
      ? { licenseInfo: stringMember(call.input, 'LicenseInfo')! }
      : {}),
    code,
    createdDate: lambdaTimestamp(call.now),
  };
  await call.store.saveLayerVersion(record);
  return view(call, record);
};

export const getLayerVersion: LambdaHandler = async (call) => view(call, requireLayerVersion(call));

export const listLayerVersions: LambdaHandler = async (call) => ({
  LayerVersions: call.store
    .layerVersions(call.region, call.labels.LayerName ?? '')
    .filter((record) => !record.deleted)
    .reverse()
    .map((record) => view(call, record)),
});

export const deleteLayerVersion: LambdaHandler = async (call) => {
  const record = findLayerVersion(call);
  // Deleting a layer version that is gone succeeds, as on AWS.
  if (record) await call.store.saveLayerVersion({ ...record, deleted: true });
  return undefined;
};

function findLayerVersion(call: LambdaCall): LayerVersionRecord | undefined {
  const number = Number(call.labels.VersionNumber);
  return call.store
    .layerVersions(call.region, call.labels.LayerName ?? '')
    .find((layer) => layer.version === number && !layer.deleted);
}

function requireLayerVersion(call: LambdaCall): LayerVersionRecord {
  const record = findLayerVersion(call);
  if (!record) throw lambdaErrors.notFound('The resource you requested does not exist.');
  return record;
}

function layerArn(call: LambdaCall, layerName: string): string {
  return `arn:aws:lambda:${call.region}:${call.accountId}:layer:${layerName}`;
}

function view(call: LambdaCall, record: LayerVersionRecord): Record<string, unknown> {
  return {
    Content: {
      Location: `https://awslambda-${call.region}-layers.s3.amazonaws.com/snapshots/${record.layerName}`,
      CodeSha256: record.code.sha256,
      CodeSize: record.code.size,
    },
    LayerArn: layerArn(call, record.layerName),
    LayerVersionArn: `${layerArn(call, record.layerName)}:${record.version}`,
    Description: record.description,
    CreatedDate: record.createdDate,
    Version: record.version,
    CompatibleRuntimes: record.compatibleRuntimes,
    CompatibleArchitectures: record.compatibleArchitectures,
    ...(record.licenseInfo !== undefined ? { LicenseInfo: record.licenseInfo } : {}),
  };
}

function stringList(value: unknown): string[] {
  return Array.isArray(value) ? value.map(String) : [];
}
