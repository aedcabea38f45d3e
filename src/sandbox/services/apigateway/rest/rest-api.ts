import { randomUUID } from 'node:crypto';
import { SandboxError } from '../../../errors.js';
import { v1Event, v1Response, ANONYMOUS, type CallerIdentity } from '../../../../http-events/payload-v1.js';
import { isRecord } from '../../../../http-events/payload-v2.js';
import {
  decodeSegment,
  extendedRequestId,
  matchesMediaTypes,
  queryPairs,
} from '../../../../http-events/request-parts.js';
import { checkSigV4Shape } from '../../../http-events/sigv4-shape.js';
import type { IngressRequest } from '../../../ingress.js';
import type { SandboxResponse } from '../../../request.js';
import type { ResourceModel } from '../../../resources.js';
import { authorizeRest } from '../../../../http-events/authorizers/rest-authorizer.js';
import { REST_TYPES, type LocatedApi } from '../config/reader.js';
import { deployedParts, stagesOf } from '../config/stages.js';
import { apiDomain, authorizerInvoke, executeApiArn, type ApiAddress, type GatewayDeps } from '../gateway.js';
import { restResponses, unsupported } from '../../../../http-events/gateway-responses.js';
import { forwardHttp } from '../integrations/http-proxy.js';
import { lambdaArnOf, withStageVariables } from '../../../../http-events/lambda-target.js';
import { pathSegments } from '../../../../http-events/routing.js';
import { mockIntegration } from '../../../../http-events/rest/mock-integration.js';
import { matchMethod } from '../../../../http-events/rest/rest-routes.js';

/**
 * A request to a REST API's stage, answered from the stage's deployment: the resource and
 * method it reaches, the method's authorization (NONE, AWS_IAM, a Lambda authorizer), then
 * its integration (Lambda proxy, MOCK, HTTP proxy). Every answer carries API Gateway's
 * request id headers.
 */
export async function serveRestApi(
  deps: GatewayDeps,
  request: IngressRequest,
  address: ApiAddress,
  api: LocatedApi,
): Promise<SandboxResponse> {
  const requestId = randomUUID();
  const apigwId = extendedRequestId();
  const response = await answer(deps, request, address, api, requestId, apigwId);
  return {
    ...response,
    headers: { ...response.headers, 'x-amzn-requestid': requestId, 'x-amz-apigw-id': apigwId },
  };
}

async function answer(
  deps: GatewayDeps,
  request: IngressRequest,
  address: ApiAddress,
  api: LocatedApi,
  requestId: string,
  apigwId: string,
): Promise<SandboxResponse> {
  const apiId = String(api.model.RestApiId);
  let stageName = address.stage;
  let path = address.path;
  if (stageName === undefined) {
    const [first, ...rest] = pathSegments(address.path);
    if (first === undefined) return restResponses.forbidden();
    stageName = decodeSegment(first);
    path = `/${rest.join('/')}`;
  }
  const stage = stagesOf(deps.reader, 'rest', api.region, apiId).find(
    (candidate) => candidate.name === stageName,
  );
  if (!stage) return restResponses.forbidden();
  const parts = deployedParts(deps.reader, deps.snapshots, 'rest', api.region, apiId, stage, [
    REST_TYPES.resource,
    REST_TYPES.method,
    REST_TYPES.authorizer,
  ]);
  const matched = matchMethod(
    String(api.model.RootResourceId ?? ''),
    parts[REST_TYPES.resource] ?? [],
    parts[REST_TYPES.method] ?? [],
    request.method,
    path,
  );
  if (!matched) return restResponses.missingAuthenticationToken();
  const { method, resourcePath, resourceId, pathParameters } = matched;
  const accountId = deps.context.accountId;
  const decodedPath = `/${pathSegments(path).map(decodeSegment).join('/')}`;
  const methodArn = executeApiArn(api.region, accountId, apiId, stage.name, request.method, decodedPath);
  const binaryMediaTypes = Array.isArray(api.model.BinaryMediaTypes)
    ? api.model.BinaryMediaTypes.map(String)
    : [];
  let identity: CallerIdentity = ANONYMOUS;
  let authorizer: Record<string, unknown> | undefined;
  const event = (): Record<string, unknown> =>
    v1Event(request, {
      accountId,
      apiId,
      domainName: address.domainName ?? apiDomain(apiId, api.region),
      domainPrefix: apiId,
      stage: stage.name,
      resource: resourcePath,
      path: decodedPath,
      stagePath: `/${stage.name}${decodedPath}`,
      resourceId,
      ...(stage.deploymentId ? { deploymentId: stage.deploymentId } : {}),
      pathParameters,
      stageVariables: stage.variables,
      identity,
      ...(authorizer ? { authorizer } : {}),
      binaryBody: matchesMediaTypes(request.headers['content-type'], binaryMediaTypes),
      requestId,
      extendedRequestId: apigwId,
      epochMs: Date.now(),
    });

  switch (method.AuthorizationType ?? 'NONE') {
    case 'NONE':
      break;
    case 'AWS_IAM': {
      const signed = checkSigV4Shape(request, 'execute-api', accountId);
      if (signed.kind === 'missing') return restResponses.missingAuthenticationToken();
      if (signed.kind === 'malformed') return restResponses.signature(signed.message);
      identity = {
        accessKey: signed.caller.accessKeyId,
        accountId: signed.caller.accountId,
        caller: signed.caller.accountId,
        user: signed.caller.accountId,
        userArn: signed.caller.userArn,
      };
      break;
    }
    case 'CUSTOM': {
      const model = (parts[REST_TYPES.authorizer] ?? []).find(
        (candidate) => candidate.AuthorizerId === method.AuthorizerId,
      );
      if (!model) return restResponses.internalError();
      const outcome = await authorizeRest(authorizerInvoke(deps.invoke), deps.restAuthorizers, model, {
        request,
        methodArn,
        stageVariables: stage.variables,
        requestEvent: event,
      });
      if (outcome.kind === 'refused') return outcome.response;
      authorizer = outcome.authorizer;
      break;
    }
    default:
      return unsupported(`${String(method.AuthorizationType)} authorization`);
  }
  if (method.ApiKeyRequired === true && !request.headers['x-api-key']) return restResponses.forbidden();

  const integration = isRecord(method.Integration) ? method.Integration : {};
  switch (integration.Type) {
    case 'AWS_PROXY': {
      const arn =
        typeof integration.Uri === 'string' ? lambdaArnOf(integration.Uri, stage.variables) : undefined;
      if (!arn) return unsupported(`the AWS_PROXY integration ${String(integration.Uri)} (only Lambda's)`);
      try {
        const result = await deps.invoke(arn, JSON.stringify(event()));
        return v1Response(
          result,
          { binaryMediaTypes, accept: request.headers.accept },
          restResponses.integrationFailure,
        );
      } catch (error) {
        if (error instanceof SandboxError) return restResponses.internalError();
        throw error;
      }
    }
    case 'MOCK':
      return mockIntegration(integration, request, {
        context: templateContext(requestId, stage.name, apiId, resourcePath, request, authorizer, identity),
        stageVariables: stage.variables,
        params: (name) =>
          pathParameters[name] ?? queryValue(request, name) ?? request.headers[name.toLowerCase()],
        body: request.body.toString('utf8'),
      });
    case 'HTTP_PROXY': {
      const url = proxyUrl(integration, pathParameters, stage.variables);
      const verb = String(integration.IntegrationHttpMethod ?? 'ANY');
      return forwardHttp(
        url,
        verb === 'ANY' ? request.method : verb,
        request,
        restResponses.integrationFailure,
      );
    }
    default:
      return unsupported(
        `${String(integration.Type)} integrations with mapping templates (use a proxy integration)`,
      );
  }
}

/** The backend URL: `{name}` filled from the method's path parameters (as CDK's proxy resources map them). */
function proxyUrl(
  integration: ResourceModel,
  pathParameters: Record<string, string>,
  stageVariables: Record<string, string>,
): string {
  const mapped: Record<string, string> = { ...pathParameters };
  if (isRecord(integration.RequestParameters)) {
    for (const [target, source] of Object.entries(integration.RequestParameters)) {
      const name = /^integration\.request\.path\.(.+)$/.exec(target)?.[1];
      const from = typeof source === 'string' ? /^method\.request\.path\.(.+)$/.exec(source)?.[1] : undefined;
      if (name && from && pathParameters[from] !== undefined) mapped[name] = pathParameters[from];
    }
  }
  return withStageVariables(String(integration.Uri ?? ''), stageVariables).replace(
    /\{([^}]+?)\+?\}/g,
    (whole, name: string) => (mapped[name] !== undefined ? encodeURI(mapped[name]) : whole),
  );
}

function queryValue(request: IngressRequest, name: string): string | undefined {
  return queryPairs(request.rawQuery).find(([key]) => key === name)?.[1];
}

/** `$context` as mapping templates read it. */
function templateContext(
  requestId: string,
  stage: string,
  apiId: string,
  resourcePath: string,
  request: IngressRequest,
  authorizer: Record<string, unknown> | undefined,
  identity: CallerIdentity,
): Record<string, unknown> {
  return {
    requestId,
    stage,
    apiId,
    resourcePath,
    httpMethod: request.method,
    identity: { ...identity, sourceIp: request.sourceIp, userAgent: request.headers['user-agent'] ?? '' },
    ...(authorizer ? { authorizer } : {}),
  };
}
