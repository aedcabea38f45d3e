import {
  CreateResourceCommand,
  DeleteResourceCommand,
  GetResourceCommand,
  paginateGetResources,
  type Resource,
} from '@aws-sdk/client-api-gateway';
import { deleteTreatingNotFoundAsGone } from '../delete-gone.js';
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
import { apigw, isNotFound, text, unlessNotFound } from './common.js';

export const RESOURCE_TYPE = 'AWS::ApiGateway::Resource';

/**
 * AWS::ApiGateway::Resource through CreateResource and DeleteResource (every property is
 * create-only: a change is a new resource). Physical id and Ref: the resource id.
 */
export class ResourceProvider extends SdkProvider {
  readonly description: ProviderDescription = {
    type: RESOURCE_TYPE,
    covered: ['RestApiId', 'ParentId', 'PathPart'],
  };

  async create(request: ResourceRequest, context: ProviderContext): Promise<CreateResult> {
    const { properties } = request;
    const resource = await (
      await apigw(context, 'create')
    ).send(
      new CreateResourceCommand({
        restApiId: text(properties.RestApiId),
        parentId: text(properties.ParentId),
        pathPart: text(properties.PathPart),
      }),
      { abortSignal: context.signal },
    );
    return {
      physicalId: resource.id!,
      attributes: { ResourceId: resource.id },
      observed: propertiesOf(String(properties.RestApiId), resource),
    };
  }

  /**
   * The resource at this path part under this parent: a path part is unique under its parent,
   * and the API is one this stack made (its id comes from the stack's own RestApi), so a
   * resource there is this create's.
   */
  async locate(request: ResourceRequest, context: ProviderContext): Promise<LocateAnswer> {
    const restApiId = text(request.properties.RestApiId);
    if (!restApiId) return 'unknown';
    const client = await apigw(context);
    const made = await unlessNotFound(async () => {
      const pages = paginateGetResources(
        { client, pageSize: 500 },
        { restApiId },
        { abortSignal: context.signal },
      );
      for await (const page of pages) {
        const found = page.items?.find(
          (item) =>
            item.parentId === text(request.properties.ParentId) &&
            item.pathPart === text(request.properties.PathPart),
        );
        if (found) return found;
      }
      return undefined;
    });
    return made ? { physicalId: made.id! } : 'none';
  }

  /** Nothing to change in place: every property is create-only. */
  async update(request: UpdateRequest, context: ProviderContext): Promise<UpdateResult> {
    const live = await this.read(request, context);
    return {
      physicalId: request.physicalId,
      attributes: { ResourceId: request.physicalId },
      ...(live && { observed: live.properties }),
    };
  }

  /** A resource already gone is deleted (deleting a parent deletes the resources below it). */
  async delete(request: DeleteRequest, context: ProviderContext): Promise<void> {
    const client = await apigw(context);
    await deleteTreatingNotFoundAsGone(
      () =>
        client.send(
          new DeleteResourceCommand({
            restApiId: text(request.properties.RestApiId),
            resourceId: request.physicalId,
          }),
          { abortSignal: context.signal },
        ),
      isNotFound,
    );
  }

  async read(request: DeleteRequest, context: ProviderContext): Promise<LiveResource | undefined> {
    const restApiId = String(request.properties.RestApiId);
    const client = await apigw(context);
    const resource = await unlessNotFound(() =>
      client.send(new GetResourceCommand({ restApiId, resourceId: request.physicalId }), {
        abortSignal: context.signal,
      }),
    );
    if (!resource) return undefined;
    return { properties: propertiesOf(restApiId, resource), attributes: { ResourceId: resource.id } };
  }
}

function propertiesOf(restApiId: string, resource: Resource): JsonObject {
  return { RestApiId: restApiId, ParentId: resource.parentId, PathPart: resource.pathPart };
}
