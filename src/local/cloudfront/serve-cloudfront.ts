import { v2Event, v2Response } from '../../http-events/payload-v2.js';
import { decodeSegment, groupValues, queryPairs } from '../../http-events/request-parts.js';
import type { HttpAnswer, HttpRequest, Invoke } from '../../http-events/types.js';
import { localFunctionArn } from '../serve/template-refs.js';
import { wildcard } from '../serve/wildcard.js';
import type { BucketReader } from './bucket-source.js';
import { withResponseHeaders } from './response-headers.js';
import type { LocalBehavior, LocalDistribution, LocalOrigin, ViewerFunction } from './distribution-model.js';
import {
  isResponse,
  runViewerFunction,
  unsupportedReason,
  type CfRequest,
  type CfResponse,
} from './viewer-function.js';

export interface CloudFrontDeps {
  invoke: Invoke;
  region: string;
  /** Each S3 origin's bucket by logical ID: a reader, or why its objects cannot be read here. */
  buckets: ReadonlyMap<string, BucketReader | string>;
  onLog: (line: string) => void;
}

/**
 * A viewer's request to a distribution served locally, in CloudFront's order: the behaviour
 * whose PathPattern matches first (CacheBehaviors in order, else the default), its
 * viewer-request function, the origin, a custom error response for an error status, its
 * viewer-response function, its response headers policy.
 */
export async function serveCloudFront(
  distribution: LocalDistribution,
  deps: CloudFrontDeps,
  request: HttpRequest,
): Promise<HttpAnswer> {
  const behavior = behaviorFor(distribution, request.path);
  const answer = await behaviorAnswer(distribution, behavior, deps, request);
  // The behaviour's response headers policy changes what the viewer gets, whatever answered.
  return typeof behavior.responseHeaders === 'object'
    ? withResponseHeaders(answer, behavior.responseHeaders)
    : answer;
}

async function behaviorAnswer(
  distribution: LocalDistribution,
  behavior: LocalBehavior,
  deps: CloudFrontDeps,
  request: HttpRequest,
): Promise<HttpAnswer> {
  const viewerRequest = behavior.functions.find((fn) => fn.eventType === 'viewer-request');
  let forwarded = request;
  if (viewerRequest) {
    const outcome = await viewerFunction(viewerRequest, distribution, deps, request, cfRequest(request));
    if ('answer' in outcome) return outcome.answer;
    if (isResponse(outcome.result)) return fromCfResponse(outcome.result);
    forwarded = fromCfRequest(request, outcome.result);
  }
  let answer = await fromOrigin(distribution, behavior, deps, forwarded);
  answer = await withErrorResponse(distribution, deps, request, answer);
  const viewerResponse = behavior.functions.find((fn) => fn.eventType === 'viewer-response');
  if (!viewerResponse) return answer;
  const outcome = await viewerFunction(viewerResponse, distribution, deps, request, cfRequest(forwarded), {
    statusCode: answer.status,
    headers: Object.fromEntries(Object.entries(answer.headers ?? {}).map(([k, v]) => [k, { value: v }])),
  });
  if ('answer' in outcome) return outcome.answer;
  if (!isResponse(outcome.result)) return answer;
  const changed = fromCfResponse(outcome.result);
  return { ...changed, body: outcome.result.body === undefined ? answer.body : changed.body };
}

/** The behaviour for a path: the first CacheBehavior whose PathPattern matches (case-sensitive), else the default. */
export function behaviorFor(distribution: LocalDistribution, path: string): LocalBehavior {
  return (
    distribution.behaviors.find(
      (behavior) =>
        behavior.pathPattern === undefined ||
        wildcard(
          behavior.pathPattern.startsWith('/') ? behavior.pathPattern : `/${behavior.pathPattern}`,
          false,
        ).test(path),
    ) ?? distribution.behaviors[distribution.behaviors.length - 1]!
  );
}

async function fromOrigin(
  distribution: LocalDistribution,
  behavior: LocalBehavior,
  deps: CloudFrontDeps,
  request: HttpRequest,
): Promise<HttpAnswer> {
  const origin = distribution.origins.get(behavior.originId);
  if (!origin) return text(502, `The behaviour's origin ${behavior.originId} is not in the distribution.`);
  if (behavior.edgeLambdas.some((event) => event.startsWith('origin-')))
    deps.onLog(
      `${behavior.pathPattern ?? 'default behaviour'}: its Lambda@Edge functions do not run locally`,
    );
  switch (origin.kind) {
    case 's3':
      return fromBucket(distribution, origin, deps, request);
    case 'function-url':
      return fromFunctionUrl(origin, deps, request);
    case 'http':
      return text(
        502,
        `cdkd local start-cloudfront does not forward to the custom origin ${origin.id} (${origin.domain}): only S3 buckets and Lambda function URLs of the app are served locally.`,
      );
  }
}

async function fromBucket(
  distribution: LocalDistribution,
  origin: Extract<LocalOrigin, { kind: 's3' }>,
  deps: CloudFrontDeps,
  request: HttpRequest,
): Promise<HttpAnswer> {
  const reader = deps.buckets.get(origin.bucketId);
  if (typeof reader !== 'function')
    return text(
      502,
      `The S3 origin ${origin.id} (bucket ${origin.bucketId}) cannot be read here: ${reader ?? 'unknown bucket'}.`,
    );
  // S3 origins answer GET and HEAD; CloudFront's default allowed methods are those two.
  if (request.method !== 'GET' && request.method !== 'HEAD')
    return s3Error(403, 'AccessDenied', 'Access Denied');
  const path =
    request.path === '/' && distribution.defaultRootObject
      ? `/${distribution.defaultRootObject}`
      : request.path;
  const key = `${origin.originPath}${path}`.split('/').map(decodeSegment).join('/').replace(/^\/+/, '');
  const object = key === '' ? 'missing' : await reader(key);
  if (object === 'missing') {
    // Without s3:ListBucket (what an origin access control grants) S3 answers a missing key with 403.
    return origin.accessControlled
      ? s3Error(403, 'AccessDenied', 'Access Denied')
      : s3Error(404, 'NoSuchKey', 'The specified key does not exist.');
  }
  return {
    status: 200,
    headers: { 'content-type': object.contentType },
    body: request.method === 'HEAD' ? '' : object.body,
  };
}

async function fromFunctionUrl(
  origin: Extract<LocalOrigin, { kind: 'function-url' }>,
  deps: CloudFrontDeps,
  request: HttpRequest,
): Promise<HttpAnswer> {
  const epochMs = Date.now();
  const urlId = origin.urlId.toLowerCase();
  const event = v2Event(request, {
    accountId: 'anonymous',
    apiId: urlId,
    domainName: `${urlId}.lambda-url.${deps.region}.on.aws`,
    domainPrefix: urlId,
    routeKey: '$default',
    stage: '$default',
    rawPath: `${origin.originPath}${request.path}`,
    requestId: `local-${epochMs.toString(36)}`,
    epochMs,
  });
  const result = await deps.invoke(localFunctionArn(deps.region, origin.functionId), JSON.stringify(event));
  return v2Response(result, () => text(502, 'Internal Server Error'));
}

/**
 * CloudFront's custom error response: an origin status the distribution names is answered
 * with its ResponsePagePath (fetched through the behaviour that path matches) and
 * ResponseCode; when the page cannot be fetched, the origin's own answer stands.
 */
async function withErrorResponse(
  distribution: LocalDistribution,
  deps: CloudFrontDeps,
  request: HttpRequest,
  answer: HttpAnswer,
): Promise<HttpAnswer> {
  if (answer.status < 400) return answer;
  const rule = distribution.errorResponses.find((candidate) => candidate.errorCode === answer.status);
  if (!rule) return answer;
  const status = rule.responseCode ?? answer.status;
  if (!rule.responsePagePath) return { ...answer, status };
  const pageRequest: HttpRequest = {
    ...request,
    method: 'GET',
    path: rule.responsePagePath,
    rawQuery: '',
    body: Buffer.alloc(0),
  };
  const page = await fromOrigin(
    distribution,
    behaviorFor(distribution, rule.responsePagePath),
    deps,
    pageRequest,
  );
  if (page.status >= 400) return answer;
  return { ...page, status };
}

async function viewerFunction(
  fn: ViewerFunction,
  distribution: LocalDistribution,
  deps: CloudFrontDeps,
  viewer: HttpRequest,
  request: CfRequest,
  response?: CfResponse,
): Promise<{ result: CfRequest | CfResponse } | { answer: HttpAnswer }> {
  const reason = unsupportedReason(fn);
  if (reason)
    return { answer: text(502, `The CloudFront Function ${fn.logicalId} cannot run locally: ${reason}.`) };
  try {
    return {
      result: await runViewerFunction(
        fn,
        {
          eventType: fn.eventType,
          distributionId: distribution.logicalId,
          viewerIp: viewer.sourceIp,
          request,
          ...(response ? { response } : {}),
        },
        deps.onLog,
      ),
    };
  } catch (error) {
    // An error thrown inside the function's own context is not an Error of this realm.
    const message = (error as { message?: unknown } | undefined)?.message;
    deps.onLog(`${fn.logicalId} failed: ${typeof message === 'string' ? message : String(error)}`);
    // What CloudFront answers when a function throws or returns something invalid.
    return {
      answer: text(
        503,
        'The CloudFront function associated with the CloudFront distribution is invalid or could not run.',
      ),
    };
  }
}

/** The request as a CloudFront Function sees it: lower-cased headers, parsed query string and cookies. */
export function cfRequest(request: HttpRequest): CfRequest {
  const headers: CfRequest['headers'] = {};
  const cookies: CfRequest['cookies'] = {};
  for (const [name, value] of Object.entries(request.headers)) {
    if (name === 'cookie') {
      for (const part of value.split(/;\s*/)) {
        const equals = part.indexOf('=');
        if (equals > 0) cookies[part.slice(0, equals)] = { value: part.slice(equals + 1) };
      }
    } else headers[name] = { value };
  }
  const querystring: CfRequest['querystring'] = {};
  for (const [name, values] of Object.entries(groupValues(queryPairs(request.rawQuery)))) {
    querystring[name] = {
      value: values[0]!,
      ...(values.length > 1 ? { multiValue: values.map((value) => ({ value })) } : {}),
    };
  }
  return { method: request.method, uri: request.path, querystring, headers, cookies };
}

/** The viewer's request changed as the function returned it (its URI, query string, headers). */
function fromCfRequest(original: HttpRequest, changed: CfRequest): HttpRequest {
  const headers: Record<string, string> = {};
  for (const [name, entry] of Object.entries(changed.headers ?? {}))
    headers[name.toLowerCase()] = entry.value;
  const cookies = Object.entries(changed.cookies ?? {}).map(([name, entry]) => `${name}=${entry.value}`);
  if (cookies.length > 0) headers.cookie = cookies.join('; ');
  const rawQuery = Object.entries(changed.querystring ?? {})
    .flatMap(([name, entry]) =>
      (entry.multiValue ?? [entry]).map(
        (item) =>
          `${encodeURIComponent(name)}${item.value === '' ? '' : `=${encodeURIComponent(item.value)}`}`,
      ),
    )
    .join('&');
  return {
    ...original,
    path: typeof changed.uri === 'string' ? changed.uri : original.path,
    rawQuery,
    headers,
    headerList: Object.entries(headers),
  };
}

function fromCfResponse(response: CfResponse): HttpAnswer {
  const headers: Record<string, string> = {};
  for (const [name, entry] of Object.entries(response.headers ?? {}))
    headers[name.toLowerCase()] = entry.value;
  const body = response.body;
  return {
    status: Number(response.statusCode),
    headers,
    body:
      body === undefined
        ? ''
        : typeof body === 'string'
          ? body
          : body.encoding === 'base64'
            ? Buffer.from(body.data, 'base64')
            : body.data,
  };
}

function s3Error(status: number, code: string, message: string): HttpAnswer {
  return {
    status,
    headers: { 'content-type': 'application/xml' },
    body: `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${code}</Code><Message>${message}</Message></Error>`,
  };
}

function text(status: number, body: string): HttpAnswer {
  return { status, headers: { 'content-type': 'text/plain; charset=utf-8' }, body };
}
