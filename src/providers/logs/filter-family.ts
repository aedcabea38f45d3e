import type { CloudWatchLogsClient } from '@aws-sdk/client-cloudwatch-logs';
import { nameFromToken, tokenPhysicalName } from '../physical-names.js';
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
import { isNotFound, optionalText } from './common.js';
import { logsClient } from './log-group.js';
import { deleteTreatingNotFoundAsGone } from '../delete-gone.js';

/** Filter names take anything but `:` and `*`. */
export const FILTER_NAME_RULES = { maxLength: 512, extraCharacters: '-_./#' };

/** A filter as the Logs API answers it, whatever its kind. */
export interface LogsFilter {
  filterName?: string;
  creationTime?: number;
}

type Send = { abortSignal?: AbortSignal };

/**
 * One kind of Logs filter (metric, subscription ...) as data: a filter lives in a log group
 * under a name, is written whole by one put call, found by a describe call and removed by
 * a delete call. Physical id and Ref: the filter name; its group comes from the properties.
 */
export interface LogsFilterDescription<F extends LogsFilter> extends ProviderDescription {
  put(client: CloudWatchLogsClient, name: string, properties: JsonObject, options: Send): Promise<unknown>;
  /** The filters of the group whose names start with `prefix`. */
  describe(client: CloudWatchLogsClient, logGroupName: string, prefix: string): Promise<F[] | undefined>;
  delete(
    client: CloudWatchLogsClient,
    logGroupName: string,
    filterName: string,
    options: Send,
  ): Promise<unknown>;
  /** The filter's own properties as a read answers them (its name and group are added). */
  observed(filter: F): JsonObject;
}

/** The provider of every Logs filter kind: each kind supplies a description, not a class. */
export class LogsFilterProvider<F extends LogsFilter> extends SdkProvider {
  constructor(readonly description: LogsFilterDescription<F>) {
    super();
  }

  async create(request: ResourceRequest, context: ProviderContext): Promise<CreateResult> {
    const name =
      optionalText(request.properties.FilterName) ??
      tokenPhysicalName(context.stackName, request, FILTER_NAME_RULES);
    await this.put(name, request.properties, context);
    const logGroupName = String(request.properties.LogGroupName);
    const filter = await this.find(context, logGroupName, name);
    return {
      physicalId: name,
      attributes: {},
      creationIdentity: { logGroupName, creationTime: filter!.creationTime! },
      observed: this.observedOf(filter!, logGroupName),
    };
  }

  /** The filter a create with this token put: its generated name derives from the token. */
  async locate(request: ResourceRequest, context: ProviderContext): Promise<LocateAnswer> {
    if (!nameFromToken(request.properties.FilterName, request)) return 'unknown';
    const name = tokenPhysicalName(context.stackName, request, FILTER_NAME_RULES);
    const filter = await this.find(context, String(request.properties.LogGroupName), name);
    return filter ? { physicalId: name } : 'none';
  }

  async update(request: UpdateRequest, context: ProviderContext): Promise<UpdateResult> {
    await this.put(request.physicalId, request.properties, context);
    // The put answers nothing, and the lookup a create makes for its identity is not needed here.
    return { physicalId: request.physicalId, attributes: {} };
  }

  async delete(request: DeleteRequest, context: ProviderContext): Promise<void> {
    const client = await logsClient(context);
    await deleteTreatingNotFoundAsGone(
      () =>
        this.description.delete(client, String(request.properties.LogGroupName), request.physicalId, {
          abortSignal: context.signal,
        }),
      isNotFound,
    );
  }

  async read(request: DeleteRequest, context: ProviderContext): Promise<LiveResource | undefined> {
    const logGroupName = String(request.properties.LogGroupName);
    const filter = await this.find(context, logGroupName, request.physicalId);
    if (!filter) return undefined;
    return {
      properties: this.observedOf(filter, logGroupName),
      attributes: {},
      creationIdentity: { logGroupName, creationTime: filter.creationTime! },
    };
  }

  private async put(name: string, properties: JsonObject, context: ProviderContext): Promise<void> {
    const client = await logsClient(context);
    await this.description.put(client, name, properties, { abortSignal: context.signal });
  }

  private async find(context: ProviderContext, logGroupName: string, name: string): Promise<F | undefined> {
    const client = await logsClient(context);
    try {
      const filters = await this.description.describe(client, logGroupName, name);
      return filters?.find((filter) => filter.filterName === name);
    } catch (error) {
      if (isNotFound(error)) return undefined;
      throw error;
    }
  }

  /** The filter as the create's own lookup (which its identity needs) finds it. */
  private observedOf(filter: F, logGroupName: string): JsonObject {
    return {
      FilterName: filter.filterName,
      LogGroupName: logGroupName,
      ...this.description.observed(filter),
    };
  }
}
