import { createRequire } from 'node:module';
import { CdkdError } from '../errors.js';
import { TemplateErrorCode } from './errors.js';
import { validateTemplate, type Template } from './model.js';
import { jsonErrorOffset } from './json-location.js';
import { CLOUDFORMATION_YAML_TAGS } from './yaml-tags.js';

/**
 * Parse a template's text (JSON, or YAML with CloudFormation short-form tags) and validate
 * its structure. `fileName` only feeds error messages.
 */
export function parseTemplate(text: string, fileName = 'template'): Template {
  return validateTemplate(parseTemplateText(text, fileName), fileName);
}

/** Text → plain JS value, without structural checks. */
export function parseTemplateText(text: string, fileName = 'template'): unknown {
  const looksJson = text.trimStart().startsWith('{') || /\.json$/i.test(fileName);
  return looksJson ? parseJson(text, fileName) : parseYaml(text, fileName);
}

function parseJson(text: string, fileName: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    // Node 20 quotes the offending text over several lines; keep the message on one.
    const message = (error instanceof Error ? error.message : String(error)).replace(/\s+/g, ' ');
    throw new CdkdError(
      TemplateErrorCode.Parse,
      `${fileName}${jsonLocation(text)}: invalid JSON: ${message}`,
      { hint: 'Fix the template syntax (re-run `cdk synth` if the file was generated).', cause: error },
    );
  }
}

/** `:line:column` of the first syntax error, 1-based. */
function jsonLocation(text: string): string {
  const offset = jsonErrorOffset(text);
  if (offset === undefined) return '';
  const before = text.slice(0, offset);
  const line = before.split('\n').length;
  const column = offset - before.lastIndexOf('\n');
  return `:${line}:${column}`;
}

/** Loaded on the first YAML template (parsing stays synchronous): CDK writes JSON. */
const requireModule = createRequire(import.meta.url);

function parseYaml(text: string, fileName: string): unknown {
  const { parseDocument } = requireModule('yaml') as typeof import('yaml');
  const doc = parseDocument(text, { customTags: CLOUDFORMATION_YAML_TAGS });
  const first = doc.errors[0];
  if (first) {
    const pos = first.linePos?.[0];
    const where = pos ? `:${pos.line}:${pos.col}` : '';
    // The message carries its own " at line L, column C:" and a code frame; keep the sentence.
    const message = first.message.split('\n')[0]!.replace(/ at line \d+, column \d+:?$/, '');
    throw new CdkdError(TemplateErrorCode.Parse, `${fileName}${where}: invalid YAML: ${message}`, {
      hint: 'Fix the template syntax (re-run `cdk synth` if the file was generated).',
      cause: first,
    });
  }
  return doc.toJS({ maxAliasCount: 10_000 });
}
