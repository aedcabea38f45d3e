import { AddPermissionCommand, GetPolicyCommand, RemovePermissionCommand } from '@aws-sdk/client-lambda';
import { awsErrorCode } from '../../aws/error-class.js';
import { tokenPhysicalName } from '../physical-names.js';
import type {
  CreateResult,
  DeleteRequest,
  JsonObject,
  LiveResource,
  ProviderContext,
  ResourceRequest,
  UpdateRequest,
  UpdateResult,
  LocateAnswer,
} from '../provider.js';
import { isNotFound, lambdaClient, string, sendDelete } from './common.js';
import { attributesFor } from './ref-attributes.js';
import { SdkProvider, type ProviderDescription } from '../skeleton.js';

const TYPE = 'AWS::Lambda::Permission';
const COVERED = new Set([
  'FunctionName',
  'Action',
  'Principal',
  'SourceArn',
  'SourceAccount',
  'PrincipalOrgID',
  'EventSourceToken',
  'FunctionUrlAuthType',
]);
/** Statement ids: up to 100 of `[a-zA-Z0-9-_.]`. */
export const STATEMENT_ID_RULES = { maxLength: 100, extraCharacters: '-_.' };

/**
 * AWS::Lambda::Permission: one statement of a function's resource policy, through
 * AddPermission / RemovePermission. Every property is create-only, as in CloudFormation.
 * Physical id, Ref and `Id`: the statement id.
 */
export class LambdaPermissionProvider extends SdkProvider {
  readonly description: ProviderDescription = { type: TYPE, covered: COVERED };

  async create(request: ResourceRequest, context: ProviderContext): Promise<CreateResult> {
    const client = await lambdaClient(context);
    const p = request.properties;
    const statementId = tokenPhysicalName(context.stackName, request, STATEMENT_ID_RULES);
    let resource: string;
    let observed: JsonObject | undefined;
    try {
      const added = await client.send(
        new AddPermissionCommand({
          FunctionName: string(p.FunctionName),
          StatementId: statementId,
          Action: string(p.Action),
          Principal: string(p.Principal),
          SourceArn: string(p.SourceArn),
          SourceAccount: string(p.SourceAccount),
          PrincipalOrgID: string(p.PrincipalOrgID),
          EventSourceToken: string(p.EventSourceToken),
          FunctionUrlAuthType: string(p.FunctionUrlAuthType) as 'NONE' | 'AWS_IAM' | undefined,
        }),
        { abortSignal: context.signal },
      );
      const statement = JSON.parse(added.Statement ?? '{}') as { Resource?: string; Action?: string };
      resource = String(statement.Resource ?? '');
      // The statement AddPermission answers: its action and the function it grants (as an ARN).
      observed = { Action: statement.Action, FunctionName: statement.Resource };
    } catch (error) {
      // The id derives from this create's token: a conflict means an earlier attempt of it added the statement.
      if (!(request.idempotencyToken && awsErrorCode(error) === 'ResourceConflictException')) throw error;
      const live = await this.read({ ...request, physicalId: statementId }, context);
      if (!live) throw error;
      resource = String(live.creationIdentity?.Resource ?? '');
    }
    return {
      physicalId: statementId,
      attributes: attributesFor(TYPE, { StatementId: statementId }),
      creationIdentity: { StatementId: statementId, Resource: resource },
      ...(observed ? { observed } : {}),
    };
  }

  /** The statement a create with this token added: its id derives from the token (none is ever given). */
  async locate(request: ResourceRequest, context: ProviderContext): Promise<LocateAnswer> {
    if (!request.idempotencyToken) return 'unknown';
    const statementId = tokenPhysicalName(context.stackName, request, STATEMENT_ID_RULES);
    const live = await this.read({ ...request, physicalId: statementId }, context);
    return live ? { physicalId: statementId } : 'none';
  }

  /** Nothing is updatable in place; the engine replaces instead. Reached only for no-op changes. */
  async update(request: UpdateRequest): Promise<UpdateResult> {
    // No call is made: nothing to observe.
    return {
      physicalId: request.physicalId,
      attributes: attributesFor(TYPE, { StatementId: request.physicalId }),
    };
  }

  async delete(request: DeleteRequest, context: ProviderContext): Promise<void> {
    await sendDelete(context, (client, options) =>
      client.send(
        new RemovePermissionCommand({
          FunctionName: string(request.properties.FunctionName),
          StatementId: request.physicalId,
        }),
        options,
      ),
    );
  }

  async read(request: DeleteRequest, context: ProviderContext): Promise<LiveResource | undefined> {
    const client = await lambdaClient(context);
    let policy: string | undefined;
    try {
      policy = (
        await client.send(new GetPolicyCommand({ FunctionName: string(request.properties.FunctionName) }), {
          abortSignal: context.signal,
        })
      ).Policy;
    } catch (error) {
      if (isNotFound(error)) return undefined;
      throw error;
    }
    const statements = (JSON.parse(policy ?? '{}') as { Statement?: Statement[] }).Statement ?? [];
    const statement = statements.find((candidate) => candidate.Sid === request.physicalId);
    if (!statement) return undefined;
    return {
      properties: {
        FunctionName: request.properties.FunctionName,
        Action: statement.Action,
        Principal: principalOf(statement.Principal),
        ...conditionProperties(statement.Condition),
      },
      attributes: attributesFor(TYPE, { StatementId: statement.Sid }),
      creationIdentity: { StatementId: statement.Sid, Resource: statement.Resource },
    };
  }
}

interface Statement {
  Sid: string;
  Action: string;
  Resource: string;
  Principal: string | { Service?: string; AWS?: string };
  Condition?: Record<string, Record<string, string>>;
}

/** The Principal property as the template gives it: a service, or an account id for `:root`. */
function principalOf(principal: Statement['Principal']): string | undefined {
  if (typeof principal === 'string') return principal;
  if (principal.Service) return principal.Service;
  const account = /^arn:aws[\w-]*:iam::(\d{12}):root$/.exec(principal.AWS ?? '')?.[1];
  return account ?? principal.AWS;
}

function conditionProperties(condition: Statement['Condition']): JsonObject {
  const out: JsonObject = {};
  const sourceArn = condition?.ArnLike?.['AWS:SourceArn'];
  const sourceAccount = condition?.StringEquals?.['AWS:SourceAccount'];
  const orgId = condition?.StringEquals?.['aws:PrincipalOrgID'];
  if (sourceArn) out.SourceArn = sourceArn;
  if (sourceAccount) out.SourceAccount = sourceAccount;
  if (orgId) out.PrincipalOrgID = orgId;
  return out;
}
