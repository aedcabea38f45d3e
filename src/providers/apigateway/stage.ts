import {
  CreateStageCommand,
  DeleteStageCommand,
  GetStageCommand,
  TagResourceCommand,
  UntagResourceCommand,
  UpdateStageCommand,
  type CacheClusterSize,
  type Stage,
} from '@aws-sdk/client-api-gateway';
import { awsErrorCode } from '../../aws/error-class.js';
import { deleteTreatingNotFoundAsGone } from '../delete-gone.js';
import { TOKEN_TAG } from '../physical-names.js';
import type {
  CreateResult,
  DeleteRequest,
  JsonObject,
  LiveResource,
  LocateAnswer,
  ProviderContext,
  ResourceRequest,
  UpdateRequest,
  UpdateResult,
} from '../provider.js';
import { SdkProvider, type ProviderDescription } from '../skeleton.js';
import { tagDiff, tagMap } from '../tags.js';
import {
  apigw,
  bool,
  isNotFound,
  mapPatch,
  restApiArn,
  scalarPatch,
  stringMap,
  text,
  unlessNotFound,
} from './common.js';

export const STAGE_TYPE = 'AWS::ApiGateway::Stage';

/**
 * What CDK's Stage emits by default. Method settings, access logs and canaries (patch paths
 * of their own) are Cloud Control's.
 */
const COVERED = [
  'RestApiId',
  'StageName',
  'DeploymentId',
  'Description',
  'Variables',
  'TracingEnabled',
  'CacheClusterEnabled',
  'CacheClusterSize',
  'Tags',
];

/**
 * AWS::ApiGateway::Stage through CreateStage (tags, with the create's token tag, in the same
 * call), UpdateStage's patch operations (a new deployment moves the stage) and DeleteStage.
 * Physical id and Ref: the stage name.
 */
export class StageProvider extends SdkProvider {
  readonly description: ProviderDescription = {
    type: STAGE_TYPE,
    covered: COVERED,
    // The name is the stage's id: one the template leaves out is Cloud Control's to make up.
    alsoUncovered: (properties) => (properties.StageName === undefined ? ['StageName'] : []),
  };

  async create(request: ResourceRequest, context: ProviderContext): Promise<CreateResult> {
    const p = request.properties;
    const token = request.idempotencyToken;
    const restApiId = String(p.RestApiId);
    const stageName = String(p.StageName);
    const tags = { ...tagMap(p.Tags), ...(token ? { [TOKEN_TAG]: token } : {}) };
    let stage: Stage;
    try {
      stage = await (
        await apigw(context, 'create')
      ).send(
        new CreateStageCommand({
          restApiId,
          stageName,
          deploymentId: text(p.DeploymentId),
          description: text(p.Description),
          variables: stringMap(p.Variables),
          tracingEnabled: bool(p.TracingEnabled),
          cacheClusterEnabled: bool(p.CacheClusterEnabled),
          cacheClusterSize: text(p.CacheClusterSize) as CacheClusterSize | undefined,
          ...(Object.keys(tags).length > 0 && { tags }),
        }),
        { abortSignal: context.signal },
      );
    } catch (error) {
      // An earlier attempt of this create made the stage and its answer was lost: adopt that one.
      const earlier =
        token && awsErrorCode(error) === 'ConflictException'
          ? await madeBy(restApiId, stageName, token, context)
          : undefined;
      if (!earlier) throw error;
      stage = earlier;
    }
    return { physicalId: stageName, attributes: {}, observed: propertiesOf(restApiId, stage) };
  }

  /** The stage a create with this token made: the token tag its CreateStage call wrote. */
  async locate(request: ResourceRequest, context: ProviderContext): Promise<LocateAnswer> {
    const token = request.idempotencyToken;
    if (!token) return 'unknown';
    const { RestApiId, StageName } = request.properties;
    const stage = await read(String(RestApiId), String(StageName), context);
    if (!stage) return 'none';
    return stage.tags?.[TOKEN_TAG] === token ? { physicalId: String(StageName) } : 'none';
  }

  async update(request: UpdateRequest, context: ProviderContext): Promise<UpdateResult> {
    const client = await apigw(context);
    const restApiId = String(request.properties.RestApiId);
    const stageName = request.physicalId;
    const before = request.previousProperties;
    const after = request.properties;
    const signal = { abortSignal: context.signal };
    const patchOperations = [
      ...scalarPatch('/deploymentId', before.DeploymentId, after.DeploymentId),
      ...scalarPatch('/description', before.Description, after.Description),
      ...scalarPatch(
        '/tracingEnabled',
        bool(before.TracingEnabled) ?? false,
        bool(after.TracingEnabled) ?? false,
      ),
      ...scalarPatch(
        '/cacheClusterEnabled',
        bool(before.CacheClusterEnabled) ?? false,
        bool(after.CacheClusterEnabled) ?? false,
      ),
      ...scalarPatch('/cacheClusterSize', before.CacheClusterSize, after.CacheClusterSize),
      ...mapPatch('/variables', before.Variables, after.Variables),
    ];
    if (patchOperations.length > 0) {
      await client.send(new UpdateStageCommand({ restApiId, stageName, patchOperations }), signal);
    }
    // Only the template's own tags change; the token tag and tags added out of band stay.
    const { set, remove } = tagDiff(tagMap(before.Tags), tagMap(after.Tags));
    const resourceArn = restApiArn(context, restApiId, stageName);
    if (remove.length > 0)
      await client.send(new UntagResourceCommand({ resourceArn, tagKeys: remove }), signal);
    if (Object.keys(set).length > 0)
      await client.send(new TagResourceCommand({ resourceArn, tags: set }), signal);
    const live = await read(restApiId, stageName, context);
    return {
      physicalId: stageName,
      attributes: {},
      ...(live && { observed: propertiesOf(restApiId, live) }),
    };
  }

  /** A stage already gone (or its API) is deleted. */
  async delete(request: DeleteRequest, context: ProviderContext): Promise<void> {
    const client = await apigw(context);
    await deleteTreatingNotFoundAsGone(
      () =>
        client.send(
          new DeleteStageCommand({
            restApiId: text(request.properties.RestApiId),
            stageName: request.physicalId,
          }),
          { abortSignal: context.signal },
        ),
      isNotFound,
    );
  }

  async read(request: DeleteRequest, context: ProviderContext): Promise<LiveResource | undefined> {
    const restApiId = String(request.properties.RestApiId);
    const stage = await read(restApiId, request.physicalId, context);
    return stage ? { properties: propertiesOf(restApiId, stage), attributes: {} } : undefined;
  }
}

async function read(
  restApiId: string,
  stageName: string,
  context: ProviderContext,
): Promise<Stage | undefined> {
  const client = await apigw(context);
  return unlessNotFound(() =>
    client.send(new GetStageCommand({ restApiId, stageName }), { abortSignal: context.signal }),
  );
}

async function madeBy(restApiId: string, stageName: string, token: string, context: ProviderContext) {
  const stage = await read(restApiId, stageName, context);
  return stage?.tags?.[TOKEN_TAG] === token ? stage : undefined;
}

/** The template's properties as GetStage describes the stage (the token tag left out). */
function propertiesOf(restApiId: string, stage: Stage): JsonObject {
  const tags = Object.entries(stage.tags ?? {})
    .filter(([key]) => key !== TOKEN_TAG && !key.startsWith('aws:'))
    .map(([Key, Value]) => ({ Key, Value }));
  return {
    RestApiId: restApiId,
    StageName: stage.stageName,
    DeploymentId: stage.deploymentId,
    ...(stage.description !== undefined && { Description: stage.description }),
    ...(stage.variables && Object.keys(stage.variables).length > 0 && { Variables: stage.variables }),
    ...(stage.tracingEnabled && { TracingEnabled: true }),
    ...(stage.cacheClusterEnabled && { CacheClusterEnabled: true }),
    ...(stage.cacheClusterSize !== undefined && { CacheClusterSize: stage.cacheClusterSize }),
    ...(tags.length > 0 && { Tags: tags }),
  };
}
