import { REGIONS } from '../../../account/regions.js';
import type { ResourceHandlers, ResourceModel } from '../../../resources.js';

/** The CloudFormation types a REST API (v1) and an HTTP API (v2) are deployed as. */
export const REST_TYPES = {
  api: 'AWS::ApiGateway::RestApi',
  resource: 'AWS::ApiGateway::Resource',
  method: 'AWS::ApiGateway::Method',
  authorizer: 'AWS::ApiGateway::Authorizer',
  deployment: 'AWS::ApiGateway::Deployment',
  stage: 'AWS::ApiGateway::Stage',
} as const;

export const HTTP_TYPES = {
  api: 'AWS::ApiGatewayV2::Api',
  route: 'AWS::ApiGatewayV2::Route',
  integration: 'AWS::ApiGatewayV2::Integration',
  authorizer: 'AWS::ApiGatewayV2::Authorizer',
  deployment: 'AWS::ApiGatewayV2::Deployment',
  stage: 'AWS::ApiGatewayV2::Stage',
} as const;

/** The parts a deployment freezes, per API kind: what a stage answers from. */
export const DEPLOYED_PARTS = {
  rest: [REST_TYPES.resource, REST_TYPES.method, REST_TYPES.authorizer],
  http: [HTTP_TYPES.route, HTTP_TYPES.integration, HTTP_TYPES.authorizer],
} as const;

export type ApiKind = 'rest' | 'http';

/** The property naming the API in each of its parts. */
export const API_ID_PROPERTY: Readonly<Record<ApiKind, string>> = { rest: 'RestApiId', http: 'ApiId' };

export interface LocatedApi {
  kind: ApiKind;
  region: string;
  model: ResourceModel;
}

/**
 * Reads what cdkd deployed for an API, wherever the sandbox keeps the type (Cloud Control's
 * generic store today), through the resource handlers, so there is one store per type.
 */
export class ApiConfigReader {
  constructor(
    private readonly resources: ResourceHandlers,
    private readonly accountId: string,
    private readonly homeRegion: string,
  ) {}

  /** The API with this id: in the region its host names, else the home region, else any region. */
  locate(apiId: string, regionHint?: string): LocatedApi | undefined {
    const regions = [...new Set([regionHint, this.homeRegion, ...REGIONS].filter((r): r is string => !!r))];
    for (const region of regions) {
      for (const kind of ['rest', 'http'] as const) {
        const type = kind === 'rest' ? REST_TYPES.api : HTTP_TYPES.api;
        const model = this.resources.resolve(type)?.read(apiId, region, this.accountId);
        if (model) return { kind, region, model };
      }
    }
    return undefined;
  }

  /** Every resource of `type` in the region that belongs to the API. */
  partsOf(type: string, kind: ApiKind, region: string, apiId: string): ResourceModel[] {
    const handler = this.resources.resolve(type);
    if (!handler) return [];
    return handler
      .list(region, this.accountId)
      .map((entry) => entry.model)
      .filter((model) => model[API_ID_PROPERTY[kind]] === apiId);
  }

  /** Every API of this kind in every region, for the endpoint listing. */
  all(kind: ApiKind): Array<{ region: string; model: ResourceModel }> {
    const handler = this.resources.resolve(kind === 'rest' ? REST_TYPES.api : HTTP_TYPES.api);
    if (!handler) return [];
    return [...new Set([this.homeRegion, ...REGIONS])].flatMap((region) =>
      handler.list(region, this.accountId).map((entry) => ({ region, model: entry.model })),
    );
  }
}
