import { strToU8, zipSync } from 'fflate';
import type { NestedTemplate } from '../../src/engine/stack-request.js';
import { isCustomResourceType } from '../../src/providers/handled-types.js';
import { PUT_RESPONSE_JS } from '../helpers/response-put.js';
import type { CorpusApp, CorpusStack } from './corpus-apps.js';

type Json = Record<string, unknown>;

/**
 * The corpus has no asset payloads, so every Lambda asset is one stub zip. Its handlers answer a
 * custom resource request as a handler should: SUCCESS to the ResponseURL, the physical id it was
 * given (or a new one on Create), and, for the attributes the corpus reads of that logical id with
 * Fn::GetAtt, a plausible value; any other event gets `{}`. One module per handler file the
 * corpus names, in JavaScript and Python.
 */
export function stubHandlerZip(apps: readonly CorpusApp[]): Uint8Array {
  const entries = handlerEntries(apps);
  const files: Record<string, Uint8Array> = {
    'stub-attributes.json': strToU8(JSON.stringify(Object.fromEntries(customResourceAttributes(apps)))),
  };
  const byModule = new Map<string, Set<string>>();
  for (const { module, fn } of entries) byModule.set(module, (byModule.get(module) ?? new Set()).add(fn));
  for (const [module, fns] of byModule) {
    files[`${module}.js`] = strToU8(jsModule([...fns]));
    files[`${module}.py`] = strToU8(pyModule([...fns]));
  }
  return zipSync(files);
}

/** `path/module.function` of every zip-code function in the corpus (Java and .NET handlers are left out). */
function handlerEntries(apps: readonly CorpusApp[]): Array<{ module: string; fn: string }> {
  const found = new Map<string, { module: string; fn: string }>();
  visitTemplates(apps, (template) => {
    for (const resource of Object.values((template.Resources ?? {}) as Record<string, Json>)) {
      const handler = (resource.Properties as Json | undefined)?.Handler;
      if (resource.Type !== 'AWS::Lambda::Function' || typeof handler !== 'string') continue;
      const match = /^([\w./-]+)\.([A-Za-z_$][\w$]*)$/.exec(handler);
      if (match) found.set(handler, { module: match[1]!, fn: match[2]! });
    }
  });
  return [...found.values()];
}

/**
 * The attributes the corpus reads of each custom resource, by logical id (a union across
 * templates): `list` for one an Fn::Select picks from, `string` for the rest.
 */
export function customResourceAttributes(
  apps: readonly CorpusApp[],
): Map<string, Record<string, 'list' | 'string'>> {
  const read = new Map<string, Record<string, 'list' | 'string'>>();
  visitTemplates(apps, (template) => {
    const resources = (template.Resources ?? {}) as Record<string, Json>;
    const custom = new Set(
      Object.entries(resources)
        .filter(([, resource]) => isCustomResourceType(String(resource.Type)))
        .map(([id]) => id),
    );
    const add = (id: string, attribute: string, shape: 'list' | 'string' = 'string') => {
      if (!custom.has(id)) return;
      const shapes = read.get(id) ?? {};
      if (shapes[attribute] !== 'list') shapes[attribute] = shape;
      read.set(id, shapes);
    };
    const walk = (value: unknown): void => {
      if (Array.isArray(value)) return value.forEach(walk);
      if (value === null || typeof value !== 'object') return;
      for (const [key, inner] of Object.entries(value)) {
        if (key === 'Fn::GetAtt') {
          if (Array.isArray(inner) && typeof inner[0] === 'string' && typeof inner[1] === 'string')
            add(inner[0], inner[1]);
          else if (typeof inner === 'string' && inner.includes('.'))
            add(inner.slice(0, inner.indexOf('.')), inner.slice(inner.indexOf('.') + 1));
        }
        if (key === 'Fn::Select' && Array.isArray(inner)) {
          const getAtt = (inner[1] as Json | undefined)?.['Fn::GetAtt'];
          if (Array.isArray(getAtt) && typeof getAtt[0] === 'string' && typeof getAtt[1] === 'string') {
            add(getAtt[0], getAtt[1], 'list');
          }
        }
        if (key === 'Fn::Sub') {
          const text = Array.isArray(inner) ? inner[0] : inner;
          if (typeof text === 'string') {
            for (const match of text.matchAll(/\$\{([A-Za-z0-9]+)\.([^}]+)\}/g)) add(match[1]!, match[2]!);
          }
        }
        walk(inner);
      }
    };
    walk(template);
  });
  return read;
}

function visitTemplates(apps: readonly CorpusApp[], visit: (template: Json) => void): void {
  const walk = (nested: ReadonlyMap<string, NestedTemplate>): void => {
    for (const child of nested.values()) {
      visit(child.template);
      walk(child.nested);
    }
  };
  for (const app of apps) {
    for (const stack of app.stacks) {
      visit(stack.template);
      walk(stack.nested);
    }
  }
}

const JS_STUB = `
${PUT_RESPONSE_JS}const path = require('path');
const attributes = require(path.join(process.env.LAMBDA_TASK_ROOT, 'stub-attributes.json'));
function plausible(attribute, shape) {
  const slug = attribute.toLowerCase().replace(/[^a-z0-9]+/g, '-');
  const value = /arn$/i.test(attribute) ? 'arn:aws:ssm:us-east-1:000000000000:parameter/stub-' + slug : 'stub-' + slug;
  return shape === 'list' ? [value + '-0', value + '-1', value + '-2'] : value;
}
async function answer(event) {
  if (!event || typeof event.ResponseURL !== 'string' || !event.RequestType) return {};
  const data = {};
  if (event.RequestType !== 'Delete') for (const [attribute, shape] of Object.entries(attributes[event.LogicalResourceId] || {})) data[attribute] = plausible(attribute, shape);
  await put(event.ResponseURL, JSON.stringify({
    Status: 'SUCCESS',
    PhysicalResourceId: event.PhysicalResourceId || event.LogicalResourceId + '-' + String(event.RequestId).slice(0, 8),
    StackId: event.StackId,
    RequestId: event.RequestId,
    LogicalResourceId: event.LogicalResourceId,
    Data: data,
  }));
  return {};
}
`;

function jsModule(fns: string[]): string {
  return `${JS_STUB}\n${fns.map((fn) => `exports[${JSON.stringify(fn)}] = answer;`).join('\n')}\n`;
}

const PY_STUB = `
import json, os, re, urllib.request

with open(os.path.join(os.environ.get('LAMBDA_TASK_ROOT', '.'), 'stub-attributes.json')) as f:
    ATTRIBUTES = json.load(f)

def _plausible(attribute, shape):
    slug = re.sub(r'[^a-z0-9]+', '-', attribute.lower())
    value = 'arn:aws:ssm:us-east-1:000000000000:parameter/stub-' + slug if attribute.lower().endswith('arn') else 'stub-' + slug
    return [value + '-0', value + '-1', value + '-2'] if shape == 'list' else value

def _answer(event, context=None):
    if not isinstance(event, dict) or 'ResponseURL' not in event or 'RequestType' not in event:
        return {}
    data = {} if event['RequestType'] == 'Delete' else {a: _plausible(a, shape) for a, shape in ATTRIBUTES.get(event['LogicalResourceId'], {}).items()}
    body = json.dumps({
        'Status': 'SUCCESS',
        'PhysicalResourceId': event.get('PhysicalResourceId') or event['LogicalResourceId'] + '-' + str(event['RequestId'])[:8],
        'StackId': event['StackId'],
        'RequestId': event['RequestId'],
        'LogicalResourceId': event['LogicalResourceId'],
        'Data': data,
    }).encode('utf-8')
    request = urllib.request.Request(event['ResponseURL'], data=body, method='PUT', headers={'content-type': ''})
    urllib.request.urlopen(request).read()
    return {}
`;

function pyModule(fns: string[]): string {
  return `${PY_STUB}\n${fns
    .filter((fn) => /^[A-Za-z_]\w*$/.test(fn))
    .map((fn) => `${fn} = _answer`)
    .join('\n')}\n`;
}

export function hasCustomResources(stack: CorpusStack): boolean {
  return Object.values((stack.template.Resources ?? {}) as Record<string, { Type?: string }>).some(
    (resource) => isCustomResourceType(String(resource.Type)),
  );
}
