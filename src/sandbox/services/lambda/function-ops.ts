import {
  functionArn,
  lambdaTimestamp,
  newRevisionId,
  requiredMember,
  requireFunction,
  requireIdle,
  type LambdaCall,
  type LambdaHandler,
} from './call.js';
import { resolveCode } from './code.js';
import { dropEventInvokeConfig } from './event-invoke-ops.js';
import { applyConfig, configFromCreate } from './function-config.js';
import { codeLocation, configurationView } from './function-view.js';
import { checkPackageType, resolveImageCode } from './image-code.js';
import { lambdaErrors } from './lambda-errors.js';
import type { CodeRecord, FunctionConfig, FunctionRecord } from './model.js';

const NAME_PATTERN = /^[a-zA-Z0-9-_]{1,64}$/;
const FUNCTION_TYPE = 'AWS::Lambda::Function';

export const createFunction: LambdaHandler = async (call) => {
  const name = requiredMember(call.input, 'FunctionName');
  if (!NAME_PATTERN.test(name)) {
    throw lambdaErrors.validation(
      'functionName',
      name,
      `Member must satisfy regular expression pattern: ${NAME_PATTERN.source}`,
    );
  }
  const config = configFromCreate(call);
  if (typeof call.input.Code !== 'object' || call.input.Code === null) {
    throw lambdaErrors.invalid('Please provide a source for function code.');
  }
  const source = call.input.Code as Record<string, unknown>;
  const code =
    checkPackageType(call.input, source) === 'Image'
      ? await resolveImageCode(call, String(source.ImageUri), config.architectures[0] ?? 'x86_64')
      : await resolveCode(call, source);
  // Checked after the awaits so two concurrent creates of one name cannot both pass.
  if (call.store.function(call.region, name)) throw lambdaErrors.functionExists(name);
  const record: FunctionRecord = {
    name,
    region: call.region,
    arn: functionArn(call, name),
    latest: { ...config, code, revisionId: newRevisionId(), lastModified: lambdaTimestamp(call.now) },
    activeAt: call.now + call.context.latency.forType(FUNCTION_TYPE, 'create'),
    versions: [],
    nextVersion: 1,
    aliases: [],
    policies: {},
    tags: stringRecord(call.input.Tags),
    urls: [],
  };
  await call.store.saveFunction(record);
  if (call.input.Publish === true) await publish(call, record, '');
  // CreateFunction always answers Pending: callers must wait for Active.
  return configurationView({ now: record.activeAt - 1 }, record, record.latest);
};

export const getFunction: LambdaHandler = async (call) => {
  const { record, qualifier } = requireFunction(call);
  const reservedConcurrency = record.reservedConcurrency;
  return {
    Configuration: view(call, record, qualifier),
    Code: codeLocation(call, record),
    Tags: record.tags,
    ...(reservedConcurrency !== undefined
      ? { Concurrency: { ReservedConcurrentExecutions: reservedConcurrency } }
      : {}),
  };
};

export const getFunctionConfiguration: LambdaHandler = async (call) => {
  const { record, qualifier } = requireFunction(call);
  return view(call, record, qualifier);
};

export const updateFunctionCode: LambdaHandler = async (call) => {
  const { record } = requireFunction(call);
  requireIdle(record, call.now);
  checkRevision(call, record.latest);
  const architectures = Array.isArray(call.input.Architectures)
    ? call.input.Architectures.map(String)
    : record.latest.architectures;
  const code = await updatedCode(call, record.latest.code, architectures[0] ?? 'x86_64');
  return startUpdate(call, record, { ...record.latest, code, architectures });
};

/** An Image function's code changes only to another image; a Zip function's never to one. */
function updatedCode(call: LambdaCall, current: CodeRecord, architecture: string): Promise<CodeRecord> {
  const imageUri = call.input.ImageUri;
  if (current.image) {
    if (typeof imageUri !== 'string') {
      throw lambdaErrors.invalid('Please provide ImageUri when updating a function with packageType Image.');
    }
    return resolveImageCode(call, imageUri, architecture);
  }
  if (imageUri !== undefined) {
    throw lambdaErrors.invalid(
      "Please don't provide ImageUri when updating a function with packageType Zip.",
    );
  }
  return resolveCode(call, call.input);
}

export const updateFunctionConfiguration: LambdaHandler = async (call) => {
  const { record } = requireFunction(call);
  requireIdle(record, call.now);
  checkRevision(call, record.latest);
  const { code, revisionId, lastModified, ...fields } = record.latest;
  return startUpdate(call, record, { ...applyConfig(call, fields), code, revisionId, lastModified });
};

export const deleteFunction: LambdaHandler = async (call) => {
  const { record, qualifier } = requireFunction(call);
  if (qualifier !== undefined && qualifier !== '$LATEST') {
    record.versions = record.versions.filter((version) => version.version !== qualifier);
    dropEventInvokeConfig(record, qualifier);
    await call.store.saveFunction(record);
    return undefined;
  }
  await call.store.deleteFunction(record);
  return undefined;
};

/** Publishes `$LATEST` as the next numbered version (or returns the last one if unchanged). */
export async function publish(
  call: LambdaCall,
  record: FunctionRecord,
  description: string,
): Promise<string> {
  const last = record.versions[record.versions.length - 1];
  if (last && last.sourceRevisionId === record.latest.revisionId) return last.version;
  const version = String(record.nextVersion);
  record.nextVersion += 1;
  record.versions.push({
    version,
    description,
    config: { ...record.latest, revisionId: newRevisionId() },
    sourceRevisionId: record.latest.revisionId,
  });
  await call.store.saveFunction(record);
  return version;
}

function view(
  call: LambdaCall,
  record: FunctionRecord,
  qualifier: string | undefined,
): Record<string, unknown> {
  if (qualifier === undefined || qualifier === '$LATEST')
    return configurationView(call, record, record.latest);
  const alias = record.aliases.find((candidate) => candidate.name === qualifier);
  const versionName = alias ? alias.functionVersion : qualifier;
  if (versionName === '$LATEST') return configurationView(call, record, record.latest);
  const version = record.versions.find((candidate) => candidate.version === versionName);
  if (!version) throw lambdaErrors.functionNotFound(`${record.arn}:${qualifier}`);
  return configurationView(call, record, version.config, version.version);
}

async function startUpdate(
  call: LambdaCall,
  record: FunctionRecord,
  config: FunctionConfig,
): Promise<unknown> {
  record.latest = { ...config, revisionId: newRevisionId(), lastModified: lambdaTimestamp(call.now) };
  record.updateDoneAt = call.now + call.context.latency.forType(FUNCTION_TYPE, 'update');
  await call.store.saveFunction(record);
  // The update's own answer is InProgress; callers wait for Successful.
  return { ...configurationView(call, record, record.latest), LastUpdateStatus: 'InProgress' };
}

function checkRevision(call: LambdaCall, config: FunctionConfig): void {
  const expected = call.input.RevisionId;
  if (typeof expected === 'string' && expected !== config.revisionId) throw lambdaErrors.preconditionFailed();
}

export function stringRecord(value: unknown): Record<string, string> {
  if (typeof value !== 'object' || value === null) return {};
  return Object.fromEntries(Object.entries(value).map(([key, entry]) => [key, String(entry)]));
}
