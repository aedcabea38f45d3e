import {
  requiredMember,
  requireFunction,
  stringMember,
  type LambdaCall,
  type LambdaHandler,
} from './call.js';
import { lambdaErrors } from './lambda-errors.js';
import type { FunctionRecord, PolicyStatement } from './model.js';

/** AddPermission / RemovePermission / GetPolicy over a function's resource-based policy. */

function target(call: LambdaCall): { record: FunctionRecord; qualifier: string; resource: string } {
  const { record, qualifier } = requireFunction(call);
  if (qualifier !== undefined && qualifier !== '$LATEST') {
    const known =
      record.versions.some((version) => version.version === qualifier) ||
      record.aliases.some((alias) => alias.name === qualifier);
    if (!known) throw lambdaErrors.functionNotFound(`${record.arn}:${qualifier}`);
  }
  const key = qualifier ?? '';
  return { record, qualifier: key, resource: key === '' ? record.arn : `${record.arn}:${key}` };
}

export const addPermission: LambdaHandler = async (call) => {
  const { record, qualifier, resource } = target(call);
  const sid = requiredMember(call.input, 'StatementId');
  const action = requiredMember(call.input, 'Action');
  const principal = requiredMember(call.input, 'Principal');
  const statements = record.policies[qualifier] ?? [];
  if (statements.some((statement) => statement.Sid === sid)) {
    throw lambdaErrors.conflict(
      `The statement id (${sid}) provided already exists. Please provide a new statement id, or remove the existing statement.`,
    );
  }
  const statement: PolicyStatement = {
    Sid: sid,
    Effect: 'Allow',
    Principal: principal.includes('.') ? { Service: principal } : { AWS: principalArn(principal) },
    Action: action,
    Resource: resource,
    ...conditions(call.input),
  };
  record.policies[qualifier] = [...statements, statement];
  await call.store.saveFunction(record);
  return { Statement: JSON.stringify(statement) };
};

export const removePermission: LambdaHandler = async (call) => {
  const { record, qualifier } = target(call);
  const sid = call.labels.StatementId ?? '';
  const statements = record.policies[qualifier] ?? [];
  if (!statements.some((statement) => statement.Sid === sid)) {
    throw lambdaErrors.notFound(`Statement ${sid} is not found in resource policy.`);
  }
  record.policies[qualifier] = statements.filter((statement) => statement.Sid !== sid);
  await call.store.saveFunction(record);
  return undefined;
};

export const getPolicy: LambdaHandler = async (call) => {
  const { record, qualifier, resource } = target(call);
  const statements = record.policies[qualifier] ?? [];
  if (statements.length === 0) {
    throw lambdaErrors.notFound('The resource you requested does not exist.');
  }
  const policy = { Version: '2012-10-17', Id: 'default', Statement: statements };
  return { Policy: JSON.stringify(policy), RevisionId: `${resource}#${statements.length}` };
};

function principalArn(principal: string): string {
  return /^\d{12}$/.test(principal) ? `arn:aws:iam::${principal}:root` : principal;
}

function conditions(input: Record<string, unknown>): Pick<PolicyStatement, 'Condition'> {
  const condition: Record<string, Record<string, string>> = {};
  const sourceArn = stringMember(input, 'SourceArn');
  const sourceAccount = stringMember(input, 'SourceAccount');
  const orgId = stringMember(input, 'PrincipalOrgID');
  const urlAuth = stringMember(input, 'FunctionUrlAuthType');
  if (sourceArn) condition.ArnLike = { 'AWS:SourceArn': sourceArn };
  if (sourceAccount)
    condition.StringEquals = { ...condition.StringEquals, 'AWS:SourceAccount': sourceAccount };
  if (orgId) condition.StringEquals = { ...condition.StringEquals, 'aws:PrincipalOrgID': orgId };
  if (urlAuth) condition.StringEquals = { ...condition.StringEquals, 'lambda:FunctionUrlAuthType': urlAuth };
  return Object.keys(condition).length > 0 ? { Condition: condition } : {};
}
