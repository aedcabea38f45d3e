import {
  newRevisionId,
  requiredMember,
  requireFunction,
  requireIdle,
  stringMember,
  type LambdaCall,
  type LambdaHandler,
} from './call.js';
import { dropEventInvokeConfig } from './event-invoke-ops.js';
import { publish } from './function-ops.js';
import { configurationView } from './function-view.js';
import { lambdaErrors } from './lambda-errors.js';
import type { AliasRecord, FunctionRecord } from './model.js';

/** PublishVersion / ListVersionsByFunction and the alias operations. */

export const publishVersion: LambdaHandler = async (call) => {
  const { record } = requireFunction(call);
  requireIdle(record, call.now);
  const expectedSha = stringMember(call.input, 'CodeSha256');
  if (expectedSha !== undefined && expectedSha !== record.latest.code.sha256) {
    throw lambdaErrors.invalid(
      `CodeSHA256 (${expectedSha}) is different from current CodeSHA256 in $LATEST (${record.latest.code.sha256}). Please try again with the CodeSHA256 in $LATEST.`,
    );
  }
  const version = await publish(call, record, stringMember(call.input, 'Description') ?? '');
  const published = record.versions.find((candidate) => candidate.version === version)!;
  return {
    ...configurationView(call, record, published.config, version),
    Description: published.description,
  };
};

export const listVersionsByFunction: LambdaHandler = async (call) => {
  const { record } = requireFunction(call);
  return {
    Versions: [
      configurationView(call, record, record.latest),
      ...record.versions.map((version) => configurationView(call, record, version.config, version.version)),
    ],
  };
};

export const createAlias: LambdaHandler = async (call) => {
  const { record } = requireFunction(call);
  const name = requiredMember(call.input, 'Name');
  if (record.aliases.some((alias) => alias.name === name)) {
    throw lambdaErrors.conflict(`Alias already exists: ${record.arn}:${name}`);
  }
  const alias: AliasRecord = { name, functionVersion: '', description: '', revisionId: '' };
  applyAlias(call, record, alias);
  record.aliases.push(alias);
  await call.store.saveFunction(record);
  return aliasView(record, alias);
};

export const getAlias: LambdaHandler = async (call) => {
  const { record, alias } = requireAlias(call);
  return aliasView(record, alias);
};

export const listAliases: LambdaHandler = async (call) => {
  const { record } = requireFunction(call);
  return { Aliases: record.aliases.map((alias) => aliasView(record, alias)) };
};

export const updateAlias: LambdaHandler = async (call) => {
  const { record, alias } = requireAlias(call);
  const expected = stringMember(call.input, 'RevisionId');
  if (expected !== undefined && expected !== alias.revisionId) throw lambdaErrors.preconditionFailed();
  applyAlias(call, record, alias);
  await call.store.saveFunction(record);
  return aliasView(record, alias);
};

export const deleteAlias: LambdaHandler = async (call) => {
  const { record } = requireFunction(call);
  const name = call.labels.Name ?? '';
  record.aliases = record.aliases.filter((alias) => alias.name !== name);
  delete record.policies[name];
  record.urls = record.urls.filter((url) => url.qualifier !== name);
  dropEventInvokeConfig(record, name);
  await call.store.saveFunction(record);
  return undefined;
};

function requireAlias(call: LambdaCall): { record: FunctionRecord; alias: AliasRecord } {
  const { record } = requireFunction(call);
  const name = call.labels.Name ?? '';
  const alias = record.aliases.find((candidate) => candidate.name === name);
  if (!alias) throw lambdaErrors.notFound(`Alias not found: ${record.arn}:${name}`);
  return { record, alias };
}

function applyAlias(call: LambdaCall, record: FunctionRecord, alias: AliasRecord): void {
  const version = stringMember(call.input, 'FunctionVersion');
  if (version !== undefined) alias.functionVersion = requireVersion(record, version);
  if (alias.functionVersion === '') requiredMember(call.input, 'FunctionVersion');
  const description = stringMember(call.input, 'Description');
  if (description !== undefined) alias.description = description;
  const routing = call.input.RoutingConfig as
    { AdditionalVersionWeights?: Record<string, number> } | undefined;
  if (routing !== undefined) {
    const weights = routing.AdditionalVersionWeights ?? {};
    for (const weighted of Object.keys(weights)) requireVersion(record, weighted);
    if (Object.keys(weights).length > 0) alias.additionalVersionWeights = weights;
    else delete alias.additionalVersionWeights;
  }
  alias.revisionId = newRevisionId();
}

function requireVersion(record: FunctionRecord, version: string): string {
  if (version === '$LATEST' || record.versions.some((candidate) => candidate.version === version))
    return version;
  throw lambdaErrors.notFound(`Function not found: ${record.arn}:${version}`);
}

function aliasView(record: FunctionRecord, alias: AliasRecord): Record<string, unknown> {
  return {
    AliasArn: `${record.arn}:${alias.name}`,
    Name: alias.name,
    FunctionVersion: alias.functionVersion,
    Description: alias.description,
    RevisionId: alias.revisionId,
    ...(alias.additionalVersionWeights
      ? { RoutingConfig: { AdditionalVersionWeights: alias.additionalVersionWeights } }
      : {}),
  };
}
