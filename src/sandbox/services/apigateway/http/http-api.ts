import { SandboxError } from '../../../errors.js';
import {
  isPreflight,
  preflightResponse,
  withCorsHeaders,
  type CorsConfig,
} from '../../../../http-events/cors.js';
import { ANONYMOUS, v1Event, v1Response } from '../../../../http-events/payload-v1.js';
import { isRecord, v2Event, v2Response } from '../../../../http-events/payload-v2.js';
import { decodeSegment, extendedRequestId } from '../../../../http-events/request-parts.js';
import { checkSigV4Shape, iamAuthorizer } from '../../../http-events/sigv4-shape.js';
import type { IngressRequest } from '../../../ingress.js';
import type { SandboxResponse } from '../../../request.js';
import type { ResourceModel } from '../../../resources.js';
import { authorizeHttpLambda } from '../../../../http-events/authorizers/http-authorizer.js';
import { authorizeJwt } from '../authorizers/jwt.js';
import { HTTP_TYPES, type LocatedApi } from '../config/reader.js';
import { deployedParts, stagesOf, type StageView } from '../config/stages.js';
import { apiDomain, authorizerInvoke, executeApiArn, type ApiAddress, type GatewayDeps } from '../gateway.js';
import { httpResponses, unsupported } from '../../../../http-events/gateway-responses.js';
import { forwardHttp } from '../integrations/http-proxy.js';
import { lambdaArnOf, withStageVariables } from '../../../../http-events/lambda-target.js';
import { parseRouteKey, pathSegments, selectRoute } from '../../../../http-events/routing.js';

/**
 * A request to an HTTP API: its stage (`$default`, or a named stage as the path's first
 * segment), CORS preflight answered from the API's CorsConfiguration, the route it selects,
 * the route's authorization (NONE, AWS_IAM, a Lambda or JWT authorizer), then the route's
 * integration (Lambda proxy in payload format 1.0 or 2.0, HTTP proxy).
 */
export async function serveHttpApi(
  deps: GatewayDeps,
  request: IngressRequest,
  address: ApiAddress,
  api: LocatedApi,
): Promise<SandboxResponse> {
  const requestId = extendedRequestId();
  const cors = isRecord(api.model.CorsConfiguration)
    ? (api.model.CorsConfiguration as CorsConfig)
    : undefined;
  let response: SandboxResponse;
  if (api.model.ProtocolType !== 'HTTP') response = unsupported(`${String(api.model.ProtocolType)} APIs`);
  else if (cors && isPreflight(request)) response = preflightResponse(cors, request);
  else {
    response = await answer(deps, request, address, api, requestId);
    if (cors) response = withCorsHeaders(cors, request, response);
  }
  return { ...response, headers: { ...response.headers, 'apigw-requestid': requestId } };
}

async function answer(
  deps: GatewayDeps,
  request: IngressRequest,
  address: ApiAddress,
  api: LocatedApi,
  requestId: string,
): Promise<SandboxResponse> {
  const apiId = String(api.model.ApiId);
  const stages = stagesOf(deps.reader, 'http', api.region, apiId);
  const located = locateStage(stages, address);
  if (!located) return httpResponses.notFound();
  const { stage, path } = located;
  const parts = deployedParts(deps.reader, deps.snapshots, 'http', api.region, apiId, stage, [
    HTTP_TYPES.route,
    HTTP_TYPES.integration,
    HTTP_TYPES.authorizer,
  ]);
  const routes = (parts[HTTP_TYPES.route] ?? []).map((route) => ({
    route,
    routeKey: parseRouteKey(String(route.RouteKey ?? '')),
  }));
  const selected = selectRoute(routes, request.method, path);
  if (!selected) return httpResponses.notFound();
  const { route } = selected.item;
  const routeKey = selected.item.routeKey.key;
  const accountId = deps.context.accountId;
  const rawPath = stage.name === '$default' ? path : `/${stage.name}${path === '/' ? '' : path}`;
  const decodedPath = `/${pathSegments(path).map(decodeSegment).join('/')}`;
  const routeArn = executeApiArn(api.region, accountId, apiId, stage.name, request.method, decodedPath);
  const domainName = address.domainName ?? apiDomain(apiId, api.region);
  let authorizer: Record<string, unknown> | undefined;
  const event = (format: '1.0' | '2.0'): Record<string, unknown> =>
    format === '2.0'
      ? v2Event(request, {
          accountId,
          apiId,
          domainName,
          domainPrefix: apiId,
          routeKey,
          stage: stage.name,
          rawPath,
          pathParameters: selected.pathParameters,
          stageVariables: stage.variables,
          ...(authorizer ? { authorizer } : {}),
          requestId,
          epochMs: Date.now(),
        })
      : v1Event(request, {
          version: '1.0',
          accountId,
          apiId,
          domainName,
          domainPrefix: apiId,
          stage: stage.name,
          resource: selected.item.routeKey.path || '$default',
          path: rawPath,
          stagePath: rawPath,
          resourceId: null,
          pathParameters: selected.pathParameters,
          stageVariables: stage.variables,
          identity: ANONYMOUS,
          ...(authorizer ? { authorizer } : {}),
          binaryBody: false,
          requestId,
          extendedRequestId: requestId,
          epochMs: Date.now(),
        });

  const authorizerModel = (): ResourceModel | undefined =>
    (parts[HTTP_TYPES.authorizer] ?? []).find((candidate) => candidate.AuthorizerId === route.AuthorizerId);
  switch (route.AuthorizationType ?? 'NONE') {
    case 'NONE':
      break;
    case 'AWS_IAM': {
      const signed = checkSigV4Shape(request, 'execute-api', accountId);
      if (signed.kind !== 'signed') return httpResponses.forbidden();
      authorizer = iamAuthorizer(signed.caller);
      break;
    }
    case 'CUSTOM':
    case 'JWT': {
      const model = authorizerModel();
      if (!model) return httpResponses.internalError();
      const outcome =
        route.AuthorizationType === 'JWT'
          ? await authorizeJwt(deps.jwks, model, route, request, stage.variables)
          : await authorizeHttpLambda(authorizerInvoke(deps.invoke), deps.httpAuthorizers, model, {
              request,
              routeArn,
              stageVariables: stage.variables,
              requestEvent: event,
            });
      if (outcome.kind === 'refused') return outcome.response;
      authorizer = outcome.authorizer;
      break;
    }
    default:
      return unsupported(`${String(route.AuthorizationType)} authorization`);
  }

  const integrationId = /^integrations\/(.+)$/.exec(String(route.Target ?? ''))?.[1];
  const integration = (parts[HTTP_TYPES.integration] ?? []).find(
    (candidate) => candidate.IntegrationId === integrationId,
  );
  if (!integration) return httpResponses.internalError();
  const uri = String(integration.IntegrationUri ?? '');
  switch (integration.IntegrationType) {
    case 'AWS_PROXY': {
      const arn = lambdaArnOf(uri, stage.variables);
      if (!arn) return unsupported(`the AWS_PROXY integration ${uri} (only Lambda's)`);
      const format = integration.PayloadFormatVersion === '1.0' ? '1.0' : '2.0';
      try {
        const result = await deps.invoke(arn, JSON.stringify(event(format)));
        return format === '2.0'
          ? v2Response(result, httpResponses.internalError)
          : v1Response(result, { binaryMediaTypes: [], accept: undefined }, httpResponses.internalError);
      } catch (error) {
        if (error instanceof SandboxError) return httpResponses.internalError();
        throw error;
      }
    }
    case 'HTTP_PROXY': {
      const url = withStageVariables(uri, stage.variables).replace(
        /\{([^}]+?)\+?\}/g,
        (whole, name: string) =>
          selected.pathParameters[name] !== undefined ? encodeURI(selected.pathParameters[name]) : whole,
      );
      const verb = String(integration.IntegrationMethod ?? 'ANY');
      return forwardHttp(url, verb === 'ANY' ? request.method : verb, request, httpResponses.internalError);
    }
    default:
      return unsupported(`${String(integration.IntegrationType)} integrations`);
  }
}

/**
 * The stage a request reaches and its path below it: the stage a path-style request names,
 * else a named stage matching the path's first segment, else `$default`.
 */
function locateStage(
  stages: readonly StageView[],
  address: ApiAddress,
): { stage: StageView; path: string } | undefined {
  if (address.stage !== undefined) {
    const stage = stages.find((candidate) => candidate.name === address.stage);
    return stage ? { stage, path: address.path } : undefined;
  }
  const [first, ...rest] = pathSegments(address.path);
  const named =
    first === undefined
      ? undefined
      : stages.find((candidate) => candidate.name !== '$default' && candidate.name === decodeSegment(first));
  if (named) return { stage: named, path: `/${rest.join('/')}` };
  const fallback = stages.find((candidate) => candidate.name === '$default');
  return fallback ? { stage: fallback, path: address.path } : undefined;
}
