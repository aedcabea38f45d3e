import { s3ObjectReader } from '../../../ports/index.js';
import { sandboxSchemaFor } from '../../../resource-index.js';
import type { SandboxContext } from '../../../service-module.js';
import { isCdkdError } from '../../../../errors.js';
import { buildTemplate, parseTemplateText, type Template } from '../../../../template/index.js';
import { cfnErrors } from '../wire/errors.js';
import type { Params } from '../wire/params.js';

/** CloudFormation's limits on a template given inline and one read from S3. */
const MAX_BODY = 51_200;
const MAX_URL_TEMPLATE = 1_048_576;

/** Types CloudFormation runs itself rather than through a resource provider. */
export const NESTED_STACK = 'AWS::CloudFormation::Stack';
const CDK_METADATA = 'AWS::CDK::Metadata';

export function isCustomResource(type: string): boolean {
  return type === 'AWS::CloudFormation::CustomResource' || type.startsWith('Custom::');
}

/** Types CloudFormation answers without a handler: nothing to make, an id to show. */
export function isInternalType(type: string): boolean {
  return type === CDK_METADATA;
}

/**
 * The template text a request names (TemplateBody, or TemplateURL on the sandbox's S3),
 * or undefined when it names neither.
 */
export async function requestedTemplate(
  context: SandboxContext,
  params: Params,
): Promise<string | undefined> {
  const body = params.optional('TemplateBody');
  const url = params.optional('TemplateURL');
  if (body !== undefined && url !== undefined) {
    throw cfnErrors.validation('Specify exactly one of TemplateBody or TemplateUrl.');
  }
  if (body !== undefined) {
    if (Buffer.byteLength(body) > MAX_BODY) {
      throw cfnErrors.validation(
        `1 validation error detected: Value '${body.slice(0, 32)}...' at 'templateBody' failed to satisfy constraint: Member must have length less than or equal to ${MAX_BODY}`,
      );
    }
    return body;
  }
  return url === undefined ? undefined : readTemplateUrl(context, url);
}

/** A template on S3, by any of the URL shapes S3 answers (path style, virtual host, the sandbox's own). */
export async function readTemplateUrl(context: SandboxContext, url: string): Promise<string> {
  const location = s3Location(url, context.endpoint);
  const reader = s3ObjectReader.of(context);
  const unreadable = () =>
    cfnErrors.validation('TemplateURL must reference a valid S3 object to which you have access.');
  if (!location || !reader) throw unreadable();
  const body = await reader.read(location.bucket, location.key);
  if (typeof body === 'string') throw unreadable();
  if (body.length > MAX_URL_TEMPLATE) {
    throw cfnErrors.validation(`Template may not exceed ${MAX_URL_TEMPLATE} bytes in size.`);
  }
  return body.toString('utf8');
}

function s3Location(url: string, endpoint: string | undefined): { bucket: string; key: string } | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return undefined;
  }
  const path = parsed.pathname.slice(1);
  const pathStyle = (): { bucket: string; key: string } | undefined => {
    const slash = path.indexOf('/');
    if (slash <= 0) return undefined;
    return {
      bucket: decodeURIComponent(path.slice(0, slash)),
      key: decodeURIComponent(path.slice(slash + 1)),
    };
  };
  const sandbox = endpoint ? new URL(endpoint) : undefined;
  if (sandbox && parsed.host === sandbox.host) return pathStyle();
  if (parsed.protocol !== 'https:') return undefined;
  if (/^s3([.-][a-z0-9-]+)?\.amazonaws\.com(\.cn)?$/.test(parsed.hostname)) return pathStyle();
  const virtual = /^(.+)\.s3([.-][a-z0-9-]+)?\.amazonaws\.com(\.cn)?$/.exec(parsed.hostname);
  if (virtual && path !== '') return { bucket: virtual[1]!, key: decodeURIComponent(path) };
  return undefined;
}

/** A template as CloudFormation validates it before anything runs: parsed, well formed, types known. */
export function parseStackTemplate(text: string): Template {
  let template: Template;
  try {
    template = buildTemplate(parseTemplateText(text, 'template'));
  } catch (error) {
    if (isCdkdError(error)) throw cfnErrors.validation(`Template format error: ${error.message}`);
    throw error;
  }
  if (template.transforms.length > 0) {
    throw cfnErrors.validation(
      `Template format error: the cdkd sandbox does not run transforms (${template.transforms.join(', ')}); deploy the processed template instead.`,
    );
  }
  if (template.resources.size === 0) {
    throw cfnErrors.validation('Template format error: At least one Resources member must be defined.');
  }
  const unknown = [...new Set([...template.resources.values()].map((resource) => resource.type))].filter(
    (type) => !isKnownType(type),
  );
  if (unknown.length > 0) {
    throw cfnErrors.validation(`Template format error: Unrecognized resource types: [${unknown.join(', ')}]`);
  }
  return template;
}

function isKnownType(type: string): boolean {
  return (
    type === NESTED_STACK ||
    isCustomResource(type) ||
    isInternalType(type) ||
    sandboxSchemaFor(type) !== undefined
  );
}
