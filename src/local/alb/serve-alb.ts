import { functionOutput, FAILED, isRecord, responseBody } from '../../http-events/payload-v2.js';
import { groupValues, isTextContentType, lastValues } from '../../http-events/request-parts.js';
import type { HttpAnswer, HttpRequest, Invoke } from '../../http-events/types.js';
import { localFunctionArn } from '../serve/template-refs.js';
import { wildcard } from '../serve/wildcard.js';
import type { AlbAction, AlbCondition, LocalListener } from './alb-model.js';

/**
 * A request to an ALB listener served locally: the first rule (by priority) whose
 * conditions all match, else the default action; a forward to a Lambda target group runs
 * the function with the load balancer's event and maps its answer back (502 when it fails).
 */
export async function serveAlb(
  listener: LocalListener,
  invoke: Invoke,
  region: string,
  request: HttpRequest,
): Promise<HttpAnswer> {
  const rule = listener.rules.find((candidate) => candidate.conditions.every((c) => matches(c, request)));
  return act(rule?.action ?? listener.defaultAction, invoke, region, request);
}

/** Whether a rule condition holds: path patterns case-sensitive, hosts not, `*` and `?` wildcards. */
export function matches(condition: AlbCondition, request: HttpRequest): boolean {
  switch (condition.field) {
    case 'path-pattern':
      return condition.values.some((pattern) => wildcard(pattern, false).test(request.path));
    case 'host-header': {
      const host = (request.headers.host ?? '').replace(/:\d+$/, '');
      return condition.values.some((pattern) => wildcard(pattern, true).test(host));
    }
    case 'http-request-method':
      return condition.values.includes(request.method);
    case 'http-header': {
      const value = request.headers[(condition.name ?? '').toLowerCase()];
      return value !== undefined && condition.values.some((pattern) => wildcard(pattern, true).test(value));
    }
    case 'query-string': {
      const pairs = queryPairsRaw(request.rawQuery);
      return (condition.pairs ?? []).some((wanted) =>
        pairs.some(
          ([key, value]) =>
            (wanted.key === undefined || wildcard(wanted.key, true).test(key)) &&
            wildcard(wanted.value, true).test(value),
        ),
      );
    }
    default:
      return false;
  }
}

async function act(
  action: AlbAction,
  invoke: Invoke,
  region: string,
  request: HttpRequest,
): Promise<HttpAnswer> {
  switch (action.type) {
    case 'fixed-response':
      return {
        status: action.status,
        headers: { 'content-type': action.contentType ?? 'text/plain; charset=utf-8' },
        body: action.body ?? '',
      };
    case 'unsupported':
      return text(500, `cdkd does not run ${action.what} locally.`);
    case 'forward': {
      if (!action.functionId) return text(503, 'Service Temporarily Unavailable');
      const event = albEvent(request, action.targetGroup, action.multiValueHeaders);
      const result = await invoke(localFunctionArn(region, action.functionId), JSON.stringify(event));
      return albResponse(functionOutput(result), action.multiValueHeaders);
    }
  }
}

/**
 * The event an ALB hands a Lambda target: headers lower-cased, the query string as sent (ALB
 * does not decode it), single values (the last) or, with multi-value headers on, every value.
 */
function albEvent(request: HttpRequest, targetGroup: string, multiValue: boolean): Record<string, unknown> {
  const headers = groupValues(request.headerList, true);
  const query = groupValues(queryPairsRaw(request.rawQuery));
  const hasBody = request.body.length > 0;
  const textBody = isTextContentType(request.headers['content-type']);
  return {
    requestContext: {
      elb: { targetGroupArn: `arn:aws:elasticloadbalancing:local:000000000000:targetgroup/${targetGroup}` },
    },
    httpMethod: request.method,
    path: request.path,
    ...(multiValue
      ? { multiValueQueryStringParameters: query, multiValueHeaders: headers }
      : { queryStringParameters: lastValues(query) ?? {}, headers: lastValues(headers) ?? {} }),
    body: hasBody ? (textBody ? request.body.toString('utf8') : request.body.toString('base64')) : '',
    isBase64Encoded: hasBody && !textBody,
  };
}

function albResponse(output: unknown, multiValue: boolean): HttpAnswer {
  if (output === FAILED || !isRecord(output)) return text(502, '502 Bad Gateway');
  const status = Number(output.statusCode);
  if (!Number.isInteger(status) || status < 100 || status > 599) return text(502, '502 Bad Gateway');
  const headers: Record<string, string> = {};
  const headerLists: Record<string, string[]> = {};
  const source = multiValue ? output.multiValueHeaders : output.headers;
  if (isRecord(source)) {
    for (const [name, value] of Object.entries(source)) {
      if (Array.isArray(value)) headerLists[name.toLowerCase()] = value.map(String);
      else if (value !== null && value !== undefined) headers[name.toLowerCase()] = String(value);
    }
  }
  return {
    status,
    headers,
    ...(Object.keys(headerLists).length > 0 ? { headerLists } : {}),
    body: responseBody(output.body, output.isBase64Encoded === true),
  };
}

function queryPairsRaw(rawQuery: string): Array<[string, string]> {
  return rawQuery
    .split('&')
    .filter((part) => part !== '')
    .map((part) => {
      const equals = part.indexOf('=');
      return equals < 0 ? [part, ''] : [part.slice(0, equals), part.slice(equals + 1)];
    });
}

function text(status: number, body: string): HttpAnswer {
  return { status, headers: { 'content-type': 'text/html' }, body };
}
