import {
  authorizeHttpLambda,
  type HttpAuthorizerAnswer,
} from '../../http-events/authorizers/http-authorizer.js';
import type { AuthorizerResultCache } from '../../http-events/authorizers/result-cache.js';
import { isPreflight, preflightResponse, withCorsHeaders, type CorsConfig } from '../../http-events/cors.js';
import { httpResponses, unsupported } from '../../http-events/gateway-responses.js';
import { lambdaArnOf } from '../../http-events/lambda-target.js';
import { ANONYMOUS, v1Event, v1Response } from '../../http-events/payload-v1.js';
import { isRecord, v2Event, v2Response } from '../../http-events/payload-v2.js';
import { decodeSegment, extendedRequestId } from '../../http-events/request-parts.js';
import { parseRouteKey, pathSegments, selectRoute } from '../../http-events/routing.js';
import type { HttpAnswer, HttpRequest } from '../../http-events/types.js';
import type { LocalApi } from './api-model.js';
import type { ServeContext } from './serve-rest.js';

const ACCOUNT = '000000000000';
const STAGE = '$default';

/**
 * A request to an HTTP API served locally, as its `$default` stage answers: CORS preflight
 * from the API's CorsConfiguration, the route it selects (else 404), the route's Lambda
 * authorizer (simple responses or an IAM policy), then its Lambda proxy integration in
 * payload format 1.0 or 2.0.
 */
export async function serveHttp(
  api: Extract<LocalApi, { kind: 'http' }>,
  cache: AuthorizerResultCache<HttpAuthorizerAnswer>,
  context: ServeContext,
  request: HttpRequest,
): Promise<HttpAnswer> {
  const cors = isRecord(api.model.CorsConfiguration)
    ? (api.model.CorsConfiguration as CorsConfig)
    : undefined;
  const requestId = extendedRequestId();
  let answer: HttpAnswer;
  if (cors && isPreflight(request)) answer = preflightResponse(cors, request);
  else {
    answer = await route(api, cache, context, request, requestId);
    if (cors) answer = withCorsHeaders(cors, request, answer);
  }
  return { ...answer, headers: { ...answer.headers, 'apigw-requestid': requestId } };
}

async function route(
  api: Extract<LocalApi, { kind: 'http' }>,
  cache: AuthorizerResultCache<HttpAuthorizerAnswer>,
  context: ServeContext,
  request: HttpRequest,
  requestId: string,
): Promise<HttpAnswer> {
  const routes = api.routes.map((candidate) => ({
    route: candidate,
    routeKey: parseRouteKey(String(candidate.RouteKey ?? '')),
  }));
  const selected = selectRoute(routes, request.method, request.path);
  if (!selected) return httpResponses.notFound();
  const { route: chosen } = selected.item;
  const decodedPath = `/${pathSegments(request.path).map(decodeSegment).join('/')}`;
  const routeArn = `arn:aws:execute-api:${context.region}:${ACCOUNT}:${api.logicalId}/${STAGE}/${request.method}${decodedPath}`;
  let authorizer: Record<string, unknown> | undefined;
  const event = (format: '1.0' | '2.0'): Record<string, unknown> =>
    format === '2.0'
      ? v2Event(request, {
          accountId: ACCOUNT,
          apiId: api.logicalId,
          domainName: `127.0.0.1:${context.port}`,
          domainPrefix: api.logicalId,
          routeKey: selected.item.routeKey.key,
          stage: STAGE,
          rawPath: request.path,
          pathParameters: selected.pathParameters,
          stageVariables: {},
          ...(authorizer ? { authorizer } : {}),
          requestId,
          epochMs: Date.now(),
        })
      : v1Event(request, {
          version: '1.0',
          accountId: ACCOUNT,
          apiId: api.logicalId,
          domainName: `127.0.0.1:${context.port}`,
          domainPrefix: api.logicalId,
          stage: STAGE,
          resource: selected.item.routeKey.path || '$default',
          path: request.path,
          stagePath: request.path,
          resourceId: null,
          pathParameters: selected.pathParameters,
          stageVariables: {},
          identity: ANONYMOUS,
          ...(authorizer ? { authorizer } : {}),
          binaryBody: false,
          requestId,
          extendedRequestId: requestId,
          epochMs: Date.now(),
        });
  switch (chosen.AuthorizationType ?? 'NONE') {
    case 'NONE':
      break;
    case 'CUSTOM': {
      const model = api.authorizers.find((candidate) => candidate.AuthorizerId === chosen.AuthorizerId);
      if (!model) return httpResponses.internalError();
      const outcome = await authorizeHttpLambda(context.invoke, cache, model, {
        request,
        routeArn,
        stageVariables: {},
        requestEvent: event,
      });
      if (outcome.kind === 'refused') return outcome.response;
      authorizer = outcome.authorizer;
      break;
    }
    default:
      return unsupported(`${String(chosen.AuthorizationType)} authorization locally`);
  }
  const integrationId = /^integrations\/(.+)$/.exec(String(chosen.Target ?? ''))?.[1];
  const integration = api.integrations.find((candidate) => candidate.IntegrationId === integrationId);
  if (!integration) return httpResponses.internalError();
  const arn =
    integration.IntegrationType === 'AWS_PROXY' && typeof integration.IntegrationUri === 'string'
      ? lambdaArnOf(integration.IntegrationUri, {})
      : undefined;
  if (!arn)
    return unsupported(`${String(integration.IntegrationType)} integrations locally (Lambda proxy only)`);
  const format = integration.PayloadFormatVersion === '1.0' ? '1.0' : '2.0';
  const result = await context.invoke(arn, JSON.stringify(event(format)));
  return format === '2.0'
    ? v2Response(result, httpResponses.internalError)
    : v1Response(result, { binaryMediaTypes: [], accept: undefined }, httpResponses.internalError);
}
