// The calls a bundled (minified) Node.js handler makes, read from its code: the clients it
// requires, then every `new XCommand(`, every `.operation(` the required clients declare,
// every waiter and every credential helper that calls STS.
import {
  canonicalOperation,
  CREDENTIAL_PROVIDER_CALLS,
  hasClient,
  pascalCase,
  waiterOperation,
} from './sdk-clients.js';
import type { FoundCall, GenericHandler } from './types.js';

const REQUIRE = /(?:require\(|from\s*)["']@aws-sdk\/client-([a-z0-9-]+)["']/g;
const DYNAMIC_REQUIRE = /`@aws-sdk\/client-\$\{/;
const COMMAND = /new\s+(?:[\w$]+\.)?([A-Z]\w*?)Command\s*\(/g;
const METHOD = /([\w$]+|\))\s*\.\s*([a-z]\w*)\s*\(/g;
const WAITER = /\bwaitUntil([A-Z]\w*)\b/g;
const CLIENT_BINDING = /([\w$]+)\s*=\s*(?:[\w$]+\()?require\(["']@aws-sdk\/client-([a-z0-9-]+)["']\)/g;
const CLIENT_INSTANCE = /([\w$]+)\s*=\s*new\s+([\w$]+)\.([\w$]+)\s*\(/g;
/** Client methods that are not AWS operations. */
const NOT_OPERATIONS = new Set(['send', 'destroy', 'middlewareStack', 'config']);

function matches(pattern: RegExp, code: string): RegExpExecArray[] {
  return [...code.matchAll(new RegExp(pattern.source, 'g'))];
}

/** Which required client each variable holding a client instance belongs to (`u=new d.CodePipeline` → codepipeline). */
function instances(code: string): Map<string, string> {
  const modules = new Map(matches(CLIENT_BINDING, code).map((m) => [m[1]!, m[2]!]));
  const found = new Map<string, string>();
  for (const m of matches(CLIENT_INSTANCE, code)) {
    const service = modules.get(m[2]!);
    if (service) found.set(m[1]!, service);
  }
  return found;
}

export function extractJs(
  code: string,
  family: string,
  source: string,
): { calls: FoundCall[]; generic?: GenericHandler } {
  const services = [...new Set(matches(REQUIRE, code).map((m) => m[1]!))];
  const clients = instances(code);
  const calls: FoundCall[] = [];
  const add = (service: string, operation: string, via: FoundCall['via'], verified: boolean) =>
    calls.push({ service, operation, family, source, via, verified });
  /** The required clients declaring `name`, narrowed to the receiver's client when the code says which. */
  const owners = (name: string, receiver?: string): string[] => {
    const declaring = services.filter((service) => canonicalOperation(service, name) !== undefined);
    const known = receiver === undefined ? undefined : clients.get(receiver);
    return known && declaring.includes(known) ? [known] : declaring;
  };

  for (const m of matches(COMMAND, code)) {
    const declaring = owners(m[1]!);
    for (const service of declaring) add(service, canonicalOperation(service, m[1]!)!, 'command', true);
    // A command of a client that is not installed: trust the name when only one client is required.
    if (declaring.length === 0 && services.length === 1 && !hasClient(services[0]!))
      add(services[0]!, m[1]!, 'command', false);
  }
  for (const m of matches(METHOD, code)) {
    const [, receiver, method] = m;
    if (NOT_OPERATIONS.has(method!)) continue;
    for (const service of owners(method!, receiver)) {
      add(service, canonicalOperation(service, method!)!, 'method', true);
    }
    const unlisted = clients.get(receiver!);
    if (unlisted && !hasClient(unlisted)) add(unlisted, pascalCase(method!), 'method', false);
  }
  for (const m of matches(WAITER, code)) {
    for (const service of services) {
      const operation = waiterOperation(service, m[1]!);
      if (operation) add(service, operation, 'waiter', true);
    }
  }
  for (const [helper, call] of Object.entries(CREDENTIAL_PROVIDER_CALLS)) {
    if (new RegExp(`\\b${helper}\\b`).test(code)) add(call.service, call.operation, 'credentials', true);
  }
  const generic = DYNAMIC_REQUIRE.test(code)
    ? { family, source, note: 'calls the service and action its event names (`@aws-sdk/client-${service}`)' }
    : undefined;
  return { calls, ...(generic && { generic }) };
}
