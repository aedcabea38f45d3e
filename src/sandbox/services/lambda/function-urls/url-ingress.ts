import { randomUUID } from 'node:crypto';
import { SandboxError } from '../../../errors.js';
import {
  isPreflight,
  preflightResponse,
  withCorsHeaders,
  type CorsConfig,
} from '../../../../http-events/cors.js';
import { v2Event, v2Response } from '../../../../http-events/payload-v2.js';
import { jsonAnswer } from '../../../../http-events/request-parts.js';
import { checkSigV4Shape, iamAuthorizer } from '../../../http-events/sigv4-shape.js';
import {
  hostId,
  localAuthority,
  type Ingress,
  type IngressEndpoint,
  type IngressRequest,
} from '../../../ingress.js';
import type { SandboxResponse } from '../../../request.js';
import type { SandboxContext } from '../../../service-module.js';
import type { FunctionRecord, UrlRecord } from '../model.js';
import type { InvokeResult } from '../runtime/function-runner.js';
import type { LambdaStore } from '../store.js';

/** Path-style function URLs on the sandbox's port: `/_lambda-url/{url-id}/…`. */
export const URL_PATH_PREFIX = '/_lambda-url/';

export type ArnInvoker = (functionArn: string, payload: string, requestId: string) => Promise<InvokeResult>;

interface Addressed {
  urlId: string;
  /** The path the function sees. */
  rawPath: string;
  /** The domain the request used (host style), or the function URL's AWS domain. */
  domainName: string | undefined;
}

/**
 * Lambda function URLs over plain HTTP: `{url-id}.lambda-url.{region}.on.aws` (any Host
 * whose second label is `lambda-url`) or `/_lambda-url/{url-id}/…` on the sandbox's port. The
 * request becomes a payload format 2.0 event (routeKey and stage `$default`), the answer is
 * mapped back as Lambda does; AWS_IAM needs a SigV4-shaped signature scoped to `lambda`;
 * a configured `Cors` answers preflights and decorates answers.
 */
export function functionUrlIngress(context: SandboxContext, store: LambdaStore, invoke: ArnInvoker): Ingress {
  return {
    claim: (request) => (address(request) ? 'InvokeFunctionUrl' : undefined),
    async serve(request) {
      const addressed = address(request)!;
      const found = findUrl(store, addressed.urlId);
      if (!found) {
        return jsonAnswer(
          404,
          { Message: `No function URL with id '${addressed.urlId}' is deployed on this sandbox.` },
          { 'x-amzn-errortype': 'ResourceNotFoundException' },
        );
      }
      const { record, url } = found;
      const cors = url.cors as CorsConfig | undefined;
      if (cors && isPreflight(request)) return preflightResponse(cors, request);
      const response = await answer(request, addressed, record, url);
      return cors ? withCorsHeaders(cors, request, response) : response;
    },
    endpoints: () => {
      const { host, port } = localAuthority(context.endpoint);
      return store.allFunctions().flatMap((record) =>
        record.urls.map((url): IngressEndpoint => ({
          kind: 'function-url',
          id: url.urlId,
          region: record.region,
          name: url.qualifier ? `${record.name}:${url.qualifier}` : record.name,
          awsUrl: `https://${url.urlId}.lambda-url.${record.region}.on.aws/`,
          hostStyleUrl: `http://${url.urlId}.lambda-url.localhost:${port}/`,
          pathStyleUrl: `http://${host}:${port}${URL_PATH_PREFIX}${url.urlId}/`,
        })),
      );
    },
  };

  async function answer(
    request: IngressRequest,
    addressed: Addressed,
    record: FunctionRecord,
    url: UrlRecord,
  ): Promise<SandboxResponse> {
    let authorizer: Record<string, unknown> | undefined;
    let accountId = 'anonymous';
    if (url.authType === 'AWS_IAM') {
      const signed = checkSigV4Shape(request, 'lambda', context.accountId);
      if (signed.kind !== 'signed') {
        return jsonAnswer(403, { Message: 'Forbidden' }, { 'x-amzn-errortype': 'AccessDeniedException' });
      }
      accountId = signed.caller.accountId;
      authorizer = iamAuthorizer(signed.caller);
    }
    const requestId = randomUUID();
    const event = v2Event(request, {
      accountId,
      apiId: url.urlId,
      domainName: addressed.domainName ?? `${url.urlId}.lambda-url.${record.region}.on.aws`,
      domainPrefix: url.urlId,
      routeKey: '$default',
      stage: '$default',
      rawPath: addressed.rawPath,
      ...(authorizer ? { authorizer } : {}),
      requestId,
      epochMs: Date.now(),
    });
    const arn = url.qualifier ? `${record.arn}:${url.qualifier}` : record.arn;
    const failure = (): SandboxResponse => ({
      status: 502,
      headers: { 'content-type': 'text/plain', 'x-amzn-requestid': requestId },
      body: 'Internal Server Error',
    });
    let result: InvokeResult;
    try {
      result = await invoke(arn, JSON.stringify(event), requestId);
    } catch (error) {
      if (!(error instanceof SandboxError)) throw error;
      return jsonAnswer(error.status, { Message: error.message }, { 'x-amzn-errortype': error.code });
    }
    const response = v2Response(result, failure);
    return { ...response, headers: { ...response.headers, 'x-amzn-requestid': requestId } };
  }
}

function address(request: IngressRequest): Addressed | undefined {
  // A request signed for another service is that service's (an S3 key can look like anything).
  if (request.signedFor !== undefined && request.signedFor !== 'lambda') return undefined;
  const urlId = hostId(request.host, 'lambda-url');
  if (urlId) return { urlId, rawPath: request.path, domainName: request.host };
  if (!request.path.startsWith(URL_PATH_PREFIX)) return undefined;
  const rest = request.path.slice(URL_PATH_PREFIX.length);
  const slash = rest.indexOf('/');
  const id = slash < 0 ? rest : rest.slice(0, slash);
  if (id === '') return undefined;
  return { urlId: id, rawPath: slash < 0 ? '/' : rest.slice(slash), domainName: undefined };
}

function findUrl(store: LambdaStore, urlId: string): { record: FunctionRecord; url: UrlRecord } | undefined {
  for (const record of store.allFunctions()) {
    const url = record.urls.find((candidate) => candidate.urlId === urlId);
    if (url) return { record, url };
  }
  return undefined;
}
