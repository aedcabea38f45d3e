import { CdkdError } from '../../errors.js';
import type { JsonObject } from '../provider.js';

/** CloudFormation refuses a custom resource response larger than this. */
export const MAX_RESPONSE_BYTES = 4096;

/** A handler's answer, checked: what the request asked for, or why it failed. */
export type HandlerAnswer =
  | { status: 'SUCCESS'; physicalId: string; data: JsonObject; noEcho: boolean }
  | { status: 'FAILED'; reason: string; physicalId?: string };

export interface ResponseContext {
  logicalId: string;
  requestId: string;
}

/**
 * A response that breaks one of CloudFormation's rules: the request failed. `physicalId` is
 * the PhysicalResourceId the body still names where it can be read (an answer over the size
 * limit, or with a bad Status or Data): the handler may have made that resource, so a failed
 * Create that names one gets a Delete, as a FAILED answer naming one does.
 */
export class BadResponseError extends CdkdError {
  constructor(
    context: ResponseContext,
    problem: string,
    readonly physicalId?: string,
  ) {
    super('CUSTOM_RESOURCE_BAD_RESPONSE', `${context.logicalId}: the handler's response ${problem}.`, {
      hint: "Fix the custom resource's handler so it answers the ResponseURL with CloudFormation's response object, then deploy again.",
    });
  }
}

/**
 * Reads the body a handler PUT to its ResponseURL as CloudFormation does: JSON within 4096
 * bytes, `Status` SUCCESS or FAILED, a `PhysicalResourceId` on success, `Data` an object.
 * A body that breaks a rule is a BadResponseError naming the rule; a FAILED answer is returned.
 */
export function readResponse(body: Uint8Array, context: ResponseContext): HandlerAnswer {
  const text = Buffer.from(body).toString('utf8');
  const bad = (problem: string) => new BadResponseError(context, problem, namedPhysicalId(text, context));
  if (body.byteLength > MAX_RESPONSE_BYTES) {
    throw bad(`is ${body.byteLength} bytes, over CloudFormation's limit of ${MAX_RESPONSE_BYTES}`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw bad('is not JSON');
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed))
    throw bad('is not a JSON object');
  const response = parsed as Record<string, unknown>;
  if (response.RequestId !== undefined && response.RequestId !== context.requestId) {
    throw new BadResponseError(
      context,
      `answers request ${String(response.RequestId)}, not ${context.requestId}`,
    );
  }
  const physicalId = nonEmptyString(response.PhysicalResourceId);
  if (response.Status === 'FAILED') {
    const reason = nonEmptyString(response.Reason) ?? 'the handler gave no Reason';
    return { status: 'FAILED', reason, ...(physicalId ? { physicalId } : {}) };
  }
  if (response.Status !== 'SUCCESS') {
    throw bad(`has Status ${JSON.stringify(response.Status) ?? '(none)'}; it must be SUCCESS or FAILED`);
  }
  if (!physicalId) throw bad('has no PhysicalResourceId');
  const data = response.Data ?? {};
  if (data === null || typeof data !== 'object' || Array.isArray(data))
    throw bad('has a Data that is not an object');
  return {
    status: 'SUCCESS',
    physicalId,
    data: data as JsonObject,
    noEcho: response.NoEcho === true || response.NoEcho === 'true',
  };
}

/**
 * The PhysicalResourceId an invalid body names, where it can be read: its JSON's field, or,
 * in a body that does not parse (cut short, say), the field's string as written. Never one
 * from an answer to another request.
 */
function namedPhysicalId(text: string, context: ResponseContext): string | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    const requestId = stringField(text, 'RequestId');
    if (requestId !== undefined && requestId !== context.requestId) return undefined;
    return nonEmptyString(stringField(text, 'PhysicalResourceId'));
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) return undefined;
  const response = parsed as Record<string, unknown>;
  if (response.RequestId !== undefined && response.RequestId !== context.requestId) return undefined;
  return nonEmptyString(response.PhysicalResourceId);
}

/** The first `"name": "..."` string in `text`, unescaped; undefined when there is none. */
function stringField(text: string, name: string): string | undefined {
  const match = new RegExp(`"${name}"\\s*:\\s*("(?:[^"\\\\]|\\\\.)*")`).exec(text);
  if (!match) return undefined;
  try {
    return JSON.parse(match[1]!) as string;
  } catch {
    return undefined;
  }
}

function nonEmptyString(value: unknown): string | undefined {
  return typeof value === 'string' && value.length > 0 ? value : undefined;
}
