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
 * Reads the body a handler PUT to its ResponseURL as CloudFormation does: JSON within 4096
 * bytes, `Status` SUCCESS or FAILED, a `PhysicalResourceId` on success, `Data` an object.
 * A body that breaks a rule is a CdkdError naming the rule; a FAILED answer is returned.
 */
export function readResponse(body: Uint8Array, context: ResponseContext): HandlerAnswer {
  const bad = (problem: string) =>
    new CdkdError(
      'CUSTOM_RESOURCE_BAD_RESPONSE',
      `${context.logicalId}: the handler's response ${problem}.`,
      {
        hint: "Fix the custom resource's handler so it answers the ResponseURL with CloudFormation's response object, then deploy again.",
      },
    );
  if (body.byteLength > MAX_RESPONSE_BYTES) {
    throw bad(`is ${body.byteLength} bytes, over CloudFormation's limit of ${MAX_RESPONSE_BYTES}`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(body).toString('utf8'));
  } catch {
    throw bad('is not JSON');
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed))
    throw bad('is not a JSON object');
  const response = parsed as Record<string, unknown>;
  if (response.RequestId !== undefined && response.RequestId !== context.requestId) {
    throw bad(`answers request ${String(response.RequestId)}, not ${context.requestId}`);
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

function nonEmptyString(value: unknown): string | undefined {
  return typeof value === 'string' && value.length > 0 ? value : undefined;
}
