import { randomUUID } from 'node:crypto';
import type { SandboxError } from '../errors.js';
import { randomBytesPooled, s3RequestId } from '../ids.js';
import type { SandboxRequest, SandboxResponse } from '../request.js';
import type { Codec } from '../service-module.js';
import { el, XML_DECLARATION } from '../xml.js';

/**
 * REST-XML (S3). Errors: `<Error><Code/><Message/>[fields]<RequestId/><HostId/></Error>`.
 * A HEAD response never has a body, so a HEAD error is the status alone (the SDK then
 * names it from the status, e.g. 404 → NotFound).
 */
export const restXmlCodec: Codec = {
  protocol: 'rest-xml',
  renderError(error: SandboxError, request: SandboxRequest): SandboxResponse {
    const headers = { ...error.headers };
    if (request.method === 'HEAD') return { status: error.status, headers };
    const fields = Object.entries(error.fields).map(([name, value]) => el(name, value));
    const body =
      XML_DECLARATION +
      el('Error', [
        el('Code', error.code),
        el('Message', error.message),
        ...fields,
        el('RequestId', request.requestId),
        el('HostId', hostId(request.requestId)),
      ]);
    return { status: error.status, headers: { ...headers, 'content-type': 'application/xml' }, body };
  },
  newRequestId: s3RequestId,
  requestIdHeaders(requestId: string): Record<string, string> {
    return { 'x-amz-request-id': requestId, 'x-amz-id-2': hostId(requestId) };
  },
};

function hostId(requestId: string): string {
  return Buffer.concat([Buffer.from(requestId), randomBytesPooled(24)]).toString('base64');
}

/** A 200 XML document response, with the S3 namespace on the root element. */
export function xmlResult(root: string, content: Parameters<typeof el>[1], status = 200): SandboxResponse {
  return {
    status,
    headers: { 'content-type': 'application/xml' },
    body: XML_DECLARATION + el(root, content, 'xmlns="http://s3.amazonaws.com/doc/2006-03-01/"'),
  };
}

/**
 * REST-XML as Route 53 and CloudFront speak it: results under the API namespace `xmlns`,
 * errors as `<ErrorResponse><Error><Type/><Code/><Message/></Error><RequestId/>`.
 */
export function namespacedRestXmlCodec(xmlns: string, requestIdHeader: string): Codec {
  return {
    protocol: 'rest-xml',
    renderError(error: SandboxError, request: SandboxRequest): SandboxResponse {
      const body =
        XML_DECLARATION +
        el(
          'ErrorResponse',
          [
            el('Error', [el('Type', error.type), el('Code', error.code), el('Message', error.message)]),
            el('RequestId', request.requestId),
          ],
          `xmlns="${xmlns}"`,
        );
      return { status: error.status, headers: { ...error.headers, 'content-type': 'text/xml' }, body };
    },
    newRequestId: randomUUID,
    requestIdHeaders: (requestId) => ({ [requestIdHeader]: requestId }),
  };
}
