import { isRecord } from '../payload-v2.js';
import type { HttpAnswer, HttpRequest, ResourceModel } from '../types.js';
import { restResponses, unsupported } from '../gateway-responses.js';
import { renderTemplate, type TemplateInput } from './mapping-templates.js';

/**
 * A MOCK integration: the request template (chosen by Content-Type, else application/json)
 * sets the integration's status code; the integration response whose SelectionPattern
 * matches it (else the default one) gives the method's status, its ResponseParameters the
 * headers (`'literal'`, `context.…`, `stageVariables.…`) and its template the body.
 */
export function mockIntegration(
  integration: ResourceModel,
  request: HttpRequest,
  input: TemplateInput,
): HttpAnswer {
  const requestTemplate = pickTemplate(integration.RequestTemplates, request.headers['content-type']);
  let statusCode = '200';
  if (requestTemplate !== undefined) {
    const rendered = renderTemplate(requestTemplate.template, input);
    if (rendered.kind === 'unsupported')
      return unsupported(`the Velocity directive ${rendered.directive} in a mapping template`);
    statusCode = /["']?statusCode["']?\s*:\s*["']?(\d{3})/.exec(rendered.text)?.[1] ?? '200';
  }
  const responses = Array.isArray(integration.IntegrationResponses)
    ? integration.IntegrationResponses.filter(isRecord)
    : [];
  const selected =
    responses.find(
      (response) =>
        typeof response.SelectionPattern === 'string' &&
        response.SelectionPattern !== '' &&
        new RegExp(`^(?:${response.SelectionPattern})$`).test(statusCode),
    ) ?? responses.find((response) => !response.SelectionPattern);
  if (!selected) return restResponses.internalError();
  const headers: Record<string, string> = {};
  if (isRecord(selected.ResponseParameters)) {
    for (const [target, source] of Object.entries(selected.ResponseParameters)) {
      const name = /^method\.response\.header\.(.+)$/.exec(target)?.[1];
      const value = typeof source === 'string' ? parameterValue(source, input) : undefined;
      if (name && value !== undefined) headers[name.toLowerCase()] = value;
    }
  }
  const responseTemplate = pickTemplate(selected.ResponseTemplates, request.headers.accept);
  let body = '';
  if (responseTemplate !== undefined) {
    const rendered = renderTemplate(responseTemplate.template, input);
    if (rendered.kind === 'unsupported')
      return unsupported(`the Velocity directive ${rendered.directive} in a mapping template`);
    body = rendered.text;
  }
  headers['content-type'] ??= responseTemplate?.contentType ?? 'application/json';
  return { status: Number(selected.StatusCode ?? 200), headers, body };
}

/** A mapping source: a quoted literal, or a context / stage variable value. */
function parameterValue(source: string, input: TemplateInput): string | undefined {
  const literal = /^'(.*)'$/s.exec(source);
  if (literal) return literal[1];
  const stageVariable = /^stageVariables\.(.+)$/.exec(source)?.[1];
  if (stageVariable) return input.stageVariables[stageVariable];
  const contextPath = /^context\.(.+)$/.exec(source)?.[1];
  if (contextPath) {
    const value = contextPath
      .split('.')
      .reduce<unknown>((at, part) => (isRecord(at) ? at[part] : undefined), input.context);
    return value === undefined ? undefined : String(value);
  }
  return undefined;
}

/** The template for a media type (its base type), else application/json's, else the only one. */
function pickTemplate(
  templates: unknown,
  mediaType: string | undefined,
): { contentType: string; template: string } | undefined {
  if (!isRecord(templates)) return undefined;
  const entries = Object.entries(templates).filter(
    (entry): entry is [string, string] => typeof entry[1] === 'string',
  );
  const wanted = (mediaType ?? '').split(',').map((type) => type.split(';', 1)[0]!.trim().toLowerCase());
  const found =
    entries.find(([type]) => wanted.includes(type.toLowerCase())) ??
    entries.find(([type]) => type.toLowerCase() === 'application/json') ??
    (entries.length === 1 ? entries[0] : undefined);
  return found ? { contentType: found[0], template: found[1] } : undefined;
}
