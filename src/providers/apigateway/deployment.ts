import {
  CreateDeploymentCommand,
  DeleteDeploymentCommand,
  GetDeploymentCommand,
  paginateGetDeployments,
  UpdateDeploymentCommand,
} from '@aws-sdk/client-api-gateway';
import { deleteTreatingNotFoundAsGone } from '../delete-gone.js';
import type {
  CreateResult,
  DeleteRequest,
  LiveResource,
  LocateAnswer,
  ProviderContext,
  ResourceRequest,
  UpdateRequest,
  UpdateResult,
} from '../provider.js';
import { SdkProvider, type ProviderDescription } from '../skeleton.js';
import { apigw, isNotFound, scalarPatch, text, unlessNotFound } from './common.js';

export const DEPLOYMENT_TYPE = 'AWS::ApiGateway::Deployment';

/**
 * AWS::ApiGateway::Deployment through CreateDeployment, which freezes the API as it is: CDK
 * names a deployment after a hash of the API, so a changed API is a new deployment (a new
 * logical id) and the stage moves to it. Only the description changes in place, as in
 * CloudFormation. A deployment that makes its own stage (StageName, StageDescription) or a
 * canary is Cloud Control's. Physical id and Ref: the deployment id.
 */
export class DeploymentProvider extends SdkProvider {
  readonly description: ProviderDescription = {
    type: DEPLOYMENT_TYPE,
    covered: ['RestApiId', 'Description'],
  };

  async create(request: ResourceRequest, context: ProviderContext): Promise<CreateResult> {
    const deployment = await (
      await apigw(context, 'create')
    ).send(
      new CreateDeploymentCommand({
        restApiId: text(request.properties.RestApiId),
        description: text(request.properties.Description),
      }),
      { abortSignal: context.signal },
    );
    return {
      physicalId: deployment.id!,
      attributes: { DeploymentId: deployment.id },
      observed: propertiesOf(String(request.properties.RestApiId), deployment.description),
    };
  }

  /**
   * A deployment carries no token, tag or name: none made since the create was journaled
   * proves it made none; one that was may be another caller's, so it is unknown.
   */
  async locate(request: ResourceRequest, context: ProviderContext): Promise<LocateAnswer> {
    const restApiId = text(request.properties.RestApiId);
    if (!restApiId || !request.journaledAt) return 'unknown';
    const since = Date.parse(request.journaledAt) - 1000;
    const client = await apigw(context);
    const madeSince = await unlessNotFound(async () => {
      const pages = paginateGetDeployments(
        { client, pageSize: 500 },
        { restApiId },
        { abortSignal: context.signal },
      );
      for await (const page of pages) {
        if (page.items?.some((item) => (item.createdDate?.getTime() ?? Date.now()) >= since)) return true;
      }
      return false;
    });
    return madeSince ? 'unknown' : 'none';
  }

  async update(request: UpdateRequest, context: ProviderContext): Promise<UpdateResult> {
    const restApiId = String(request.properties.RestApiId);
    const patchOperations = scalarPatch(
      '/description',
      request.previousProperties.Description,
      request.properties.Description,
    );
    if (patchOperations.length > 0) {
      await (
        await apigw(context)
      ).send(new UpdateDeploymentCommand({ restApiId, deploymentId: request.physicalId, patchOperations }), {
        abortSignal: context.signal,
      });
    }
    return {
      physicalId: request.physicalId,
      attributes: { DeploymentId: request.physicalId },
      observed: propertiesOf(restApiId, text(request.properties.Description)),
    };
  }

  /** A deployment already gone (or its API) is deleted. */
  async delete(request: DeleteRequest, context: ProviderContext): Promise<void> {
    const client = await apigw(context);
    await deleteTreatingNotFoundAsGone(
      () =>
        client.send(
          new DeleteDeploymentCommand({
            restApiId: text(request.properties.RestApiId),
            deploymentId: request.physicalId,
          }),
          { abortSignal: context.signal },
        ),
      isNotFound,
    );
  }

  async read(request: DeleteRequest, context: ProviderContext): Promise<LiveResource | undefined> {
    const restApiId = String(request.properties.RestApiId);
    const client = await apigw(context);
    const deployment = await unlessNotFound(() =>
      client.send(new GetDeploymentCommand({ restApiId, deploymentId: request.physicalId }), {
        abortSignal: context.signal,
      }),
    );
    if (!deployment) return undefined;
    return {
      properties: propertiesOf(restApiId, deployment.description),
      attributes: { DeploymentId: deployment.id },
    };
  }
}

function propertiesOf(restApiId: string, description: string | undefined) {
  return { RestApiId: restApiId, ...(description !== undefined && { Description: description }) };
}
