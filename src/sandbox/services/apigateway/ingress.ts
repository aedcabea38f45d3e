import {
  hostId,
  localAuthority,
  type Ingress,
  type IngressEndpoint,
  type IngressRequest,
} from '../../ingress.js';
import { jsonAnswer } from '../../../http-events/request-parts.js';
import { stagesOf } from './config/stages.js';
import type { ApiKind } from './config/reader.js';
import { apiDomain, type ApiAddress, type GatewayDeps } from './gateway.js';
import { serveHttpApi } from './http/http-api.js';
import { serveRestApi } from './rest/rest-api.js';

const PATH_STYLE = /^\/restapis\/([^/]+)\/([^/]+)\/_user_request_(\/.*)?$/;
const REGION = /^[a-z]{2}(-[a-z]+)+-\d$/;

/**
 * REST and HTTP APIs over plain HTTP: host style (`{id}.execute-api.{region}.amazonaws.com`,
 * `{id}.execute-api.localhost`: any Host whose second label is `execute-api`) or path style
 * on the sandbox's port (`/restapis/{id}/{stage}/_user_request_/…`, `$default` for an HTTP
 * API's default stage).
 */
export function apiIngress(deps: GatewayDeps): Ingress {
  return {
    claim: (request) => (address(request) ? 'Invoke' : undefined),
    serve(request) {
      const where = address(request)!;
      const api = deps.reader.locate(where.apiId, where.regionHint);
      if (!api) {
        return Promise.resolve(
          jsonAnswer(
            404,
            { message: `No API with id '${where.apiId}' is deployed on this sandbox.` },
            {
              'x-amzn-errortype': 'NotFoundException',
            },
          ),
        );
      }
      return api.kind === 'rest'
        ? serveRestApi(deps, request, where, api)
        : serveHttpApi(deps, request, where, api);
    },
    endpoints: () => {
      const { host, port } = localAuthority(deps.context.endpoint);
      return (['rest', 'http'] as const).flatMap((kind: ApiKind) =>
        deps.reader.all(kind).flatMap(({ region, model }) => {
          const apiId = String(kind === 'rest' ? model.RestApiId : model.ApiId);
          return stagesOf(deps.reader, kind, region, apiId).map((stage): IngressEndpoint => {
            const stagePath = stage.name === '$default' ? '' : `${stage.name}/`;
            return {
              kind: kind === 'rest' ? 'rest-api' : 'http-api',
              id: apiId,
              region,
              name: stage.name,
              awsUrl: `https://${apiDomain(apiId, region)}/${stagePath}`,
              hostStyleUrl: `http://${apiId}.execute-api.localhost:${port}/${stagePath}`,
              pathStyleUrl: `http://${host}:${port}/restapis/${apiId}/${stage.name}/_user_request_/`,
            };
          });
        }),
      );
    },
  };
}

function address(request: IngressRequest): ApiAddress | undefined {
  // A request signed for another service is that service's (an S3 key can look like anything).
  if (request.signedFor !== undefined && request.signedFor !== 'execute-api') return undefined;
  const apiId = hostId(request.host, 'execute-api');
  if (apiId) {
    const region = request.host.split('.')[2];
    return {
      apiId,
      ...(region && REGION.test(region) ? { regionHint: region } : {}),
      path: request.path,
      domainName: request.host,
    };
  }
  const match = PATH_STYLE.exec(request.path);
  if (!match) return undefined;
  return { apiId: match[1]!, stage: decodeURIComponent(match[2]!), path: match[3] ?? '/' };
}
