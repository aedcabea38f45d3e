import { authorizeRest, type PolicyOutput } from '../../http-events/authorizers/rest-authorizer.js';
import type { AuthorizerResultCache } from '../../http-events/authorizers/result-cache.js';
import { restResponses, unsupported } from '../../http-events/gateway-responses.js';
import { lambdaArnOf } from '../../http-events/lambda-target.js';
import { ANONYMOUS, v1Event, v1Response } from '../../http-events/payload-v1.js';
import { isRecord } from '../../http-events/payload-v2.js';
import {
  decodeSegment,
  extendedRequestId,
  matchesMediaTypes,
  queryPairs,
} from '../../http-events/request-parts.js';
import { mockIntegration } from '../../http-events/rest/mock-integration.js';
import { matchMethod } from '../../http-events/rest/rest-routes.js';
import { pathSegments } from '../../http-events/routing.js';
import type { HttpAnswer, HttpRequest, Invoke } from '../../http-events/types.js';
import type { LocalApi } from './api-model.js';

export interface ServeContext {
  invoke: Invoke;
  region: string;
  port: number;
}

const ACCOUNT = '000000000000';

/**
 * A request to a REST API served locally, as API Gateway answers it at its stage (the path
 * has no stage prefix here): the most specific resource and its method (else 403 Missing
 * Authentication Token, as API Gateway answers an unknown route), the method's Lambda
 * authorizer, then its Lambda proxy (payload 1.0) or MOCK integration (CORS preflights).
 */
export async function serveRest(
  api: Extract<LocalApi, { kind: 'rest' }>,
  cache: AuthorizerResultCache<PolicyOutput>,
  context: ServeContext,
  request: HttpRequest,
): Promise<HttpAnswer> {
  const matched = matchMethod(api.rootResourceId, api.resources, api.methods, request.method, request.path);
  if (!matched) return restResponses.missingAuthenticationToken();
  const { method, resourcePath, resourceId, pathParameters } = matched;
  const requestId = extendedRequestId();
  const decodedPath = `/${pathSegments(request.path).map(decodeSegment).join('/')}`;
  const methodArn = `arn:aws:execute-api:${context.region}:${ACCOUNT}:${api.logicalId}/${api.stage}/${request.method}${decodedPath}`;
  let authorizer: Record<string, unknown> | undefined;
  const event = (): Record<string, unknown> =>
    v1Event(request, {
      accountId: ACCOUNT,
      apiId: api.logicalId,
      domainName: `127.0.0.1:${context.port}`,
      domainPrefix: api.logicalId,
      stage: api.stage,
      resource: resourcePath,
      path: decodedPath,
      stagePath: `/${api.stage}${decodedPath}`,
      resourceId,
      pathParameters,
      stageVariables: {},
      identity: ANONYMOUS,
      ...(authorizer ? { authorizer } : {}),
      binaryBody: matchesMediaTypes(request.headers['content-type'], api.binaryMediaTypes),
      requestId,
      extendedRequestId: requestId,
      epochMs: Date.now(),
    });
  switch (method.AuthorizationType ?? 'NONE') {
    case 'NONE':
      break;
    case 'CUSTOM': {
      const model = api.authorizers.find((candidate) => candidate.AuthorizerId === method.AuthorizerId);
      if (!model) return restResponses.internalError();
      const outcome = await authorizeRest(context.invoke, cache, model, {
        request,
        methodArn,
        stageVariables: {},
        requestEvent: event,
      });
      if (outcome.kind === 'refused') return outcome.response;
      authorizer = outcome.authorizer;
      break;
    }
    default:
      return unsupported(`${String(method.AuthorizationType)} authorization locally`);
  }
  const integration = isRecord(method.Integration) ? method.Integration : {};
  switch (integration.Type) {
    case 'AWS_PROXY': {
      const arn = typeof integration.Uri === 'string' ? lambdaArnOf(integration.Uri, {}) : undefined;
      if (!arn) return unsupported('an AWS_PROXY integration with no function of this stack');
      const result = await context.invoke(arn, JSON.stringify(event()));
      return v1Response(
        result,
        { binaryMediaTypes: api.binaryMediaTypes, accept: request.headers.accept },
        restResponses.integrationFailure,
      );
    }
    case 'MOCK':
      return mockIntegration(integration, request, {
        context: { requestId, stage: api.stage, resourcePath, httpMethod: request.method },
        stageVariables: {},
        params: (name) =>
          pathParameters[name] ??
          queryPairs(request.rawQuery).find(([key]) => key === name)?.[1] ??
          request.headers[name.toLowerCase()],
        body: request.body.toString('utf8'),
      });
    default:
      return unsupported(`${String(integration.Type)} integrations locally (Lambda proxy and MOCK only)`);
  }
}
