import { jsonAnswer } from './request-parts.js';
import type { HttpAnswer } from './types.js';

/**
 * The answers API Gateway gives itself (its gateway responses), in the body and error type
 * header it uses: REST APIs and HTTP APIs word some of them differently.
 */
const answer = (status: number, body: Record<string, unknown>, errorType: string) => (): HttpAnswer =>
  jsonAnswer(status, body, { 'x-amzn-errortype': errorType });

export const restResponses = {
  missingAuthenticationToken: answer(
    403,
    { message: 'Missing Authentication Token' },
    'MissingAuthenticationTokenException',
  ),
  forbidden: answer(403, { message: 'Forbidden' }, 'ForbiddenException'),
  unauthorized: answer(401, { message: 'Unauthorized' }, 'UnauthorizedException'),
  explicitDeny: answer(
    403,
    { Message: 'User is not authorized to access this resource with an explicit deny' },
    'AccessDeniedException',
  ),
  notAuthorized: answer(
    403,
    { Message: 'User is not authorized to access this resource' },
    'AccessDeniedException',
  ),
  authorizerConfiguration: answer(500, { message: null }, 'AuthorizerConfigurationException'),
  integrationFailure: answer(502, { message: 'Internal server error' }, 'InternalServerErrorException'),
  internalError: answer(500, { message: 'Internal server error' }, 'InternalServerErrorException'),
  signature: (message: string): HttpAnswer =>
    jsonAnswer(403, { message }, { 'x-amzn-errortype': 'IncompleteSignatureException' }),
};

export const httpResponses = {
  notFound: answer(404, { message: 'Not Found' }, 'NotFoundException'),
  forbidden: answer(403, { message: 'Forbidden' }, 'ForbiddenException'),
  unauthorized: answer(401, { message: 'Unauthorized' }, 'UnauthorizedException'),
  internalError: answer(500, { message: 'Internal Server Error' }, 'InternalServerErrorException'),
  serviceUnavailable: answer(503, { message: 'Service Unavailable' }, 'ServiceUnavailableException'),
};

/** What cdkd (the sandbox, `cdkd local start-api`) cannot do for an API: a 500 that names it, so the gap is not a silent wrong answer. */
export function unsupported(what: string): HttpAnswer {
  return jsonAnswer(
    500,
    { message: `cdkd does not run ${what}.` },
    { 'x-amzn-errortype': 'InternalServerErrorException' },
  );
}
