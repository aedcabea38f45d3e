import { readPath } from '../../patterns/json-path.js';

export interface InputSettings {
  Input?: string;
  InputPath?: string;
  InputTransformer?: { InputPathsMap?: Record<string, string>; InputTemplate: string };
}

export interface RuleFacts {
  arn: string;
  name: string;
}

/**
 * What a target receives for an event: the whole event; or the constant `Input`; or what
 * `InputPath` reads; or `InputTransformer`'s template with each `<name>` replaced by what its
 * path read (or one of EventBridge's own: `aws.events.rule-arn`, `aws.events.rule-name`,
 * `aws.events.event.ingestion-time`, `aws.events.event`, `aws.events.event.json`). Inside a
 * JSON string a value goes in as text; elsewhere as JSON.
 */
export function targetInput(
  settings: InputSettings,
  event: Record<string, unknown>,
  rule: RuleFacts,
): string {
  if (settings.Input !== undefined) return settings.Input;
  if (settings.InputPath !== undefined) return JSON.stringify(readPath(event, settings.InputPath) ?? null);
  if (settings.InputTransformer === undefined) return JSON.stringify(event);
  const values = new Map<string, unknown>([
    ['aws.events.rule-arn', rule.arn],
    ['aws.events.rule-name', rule.name],
    ['aws.events.event.ingestion-time', event.time],
    ['aws.events.event', event],
    ['aws.events.event.json', event],
  ]);
  for (const [name, path] of Object.entries(settings.InputTransformer.InputPathsMap ?? {})) {
    values.set(name, readPath(event, path));
  }
  return render(settings.InputTransformer.InputTemplate, values);
}

function render(template: string, values: Map<string, unknown>): string {
  let out = '';
  let inString = false;
  for (let i = 0; i < template.length; i += 1) {
    const char = template[i]!;
    if (char === '\\' && inString) {
      out += template.slice(i, i + 2);
      i += 1;
      continue;
    }
    if (char === '"') inString = !inString;
    const placeholder = char === '<' ? /^<([^<>\s]+)>/.exec(template.slice(i)) : null;
    if (placeholder && values.has(placeholder[1]!)) {
      out += inString
        ? asText(values.get(placeholder[1]!))
        : JSON.stringify(values.get(placeholder[1]!) ?? null);
      i += placeholder[0].length - 1;
      continue;
    }
    out += char;
  }
  return out;
}

/** A value inside a JSON string: a string as itself (escaped for JSON), anything else as its JSON. */
function asText(value: unknown): string {
  if (value === undefined) return '';
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return JSON.stringify(text).slice(1, -1);
}
