import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { SandboxError } from './errors.js';

export const XML_DECLARATION = '<?xml version="1.0" encoding="UTF-8"?>\n';

/** A child is an element string from `el`, or nothing (skipped, so optional fields read naturally). */
type Child = string | undefined | false;

export function escapeXml(text: string): string {
  return text.replace(
    /[<>&"']/g,
    (c) => `&${{ '<': 'lt', '>': 'gt', '&': 'amp', '"': 'quot', "'": 'apos' }[c]};`,
  );
}

/** `<name>text</name>` for a scalar, or `<name>children</name>` for an array of elements. */
export function el(name: string, content: string | number | boolean | Child[], attributes = ''): string {
  const open = attributes ? `${name} ${attributes}` : name;
  const inner = Array.isArray(content)
    ? content.filter((child): child is string => typeof child === 'string').join('')
    : escapeXml(String(content));
  return inner === '' ? `<${open}/>` : `<${open}>${inner}</${name}>`;
}

/** An element only when the value is present. */
export function optionalEl(name: string, value: string | number | boolean | undefined): string | undefined {
  return value === undefined ? undefined : el(name, value);
}

const parser = new XMLParser({
  ignoreAttributes: true,
  removeNSPrefix: true,
  parseTagValue: false,
  trimValues: true,
  processEntities: true,
});

export type XmlObject = { [name: string]: XmlValue };
export type XmlValue = string | XmlObject | XmlValue[];

/** Parses a request body; anything not well-formed is AWS's MalformedXML. */
export function parseXml(body: Buffer | string): XmlObject {
  const text = body.toString();
  if (text.trim() === '' || XMLValidator.validate(text) !== true) throw malformedXml();
  return parser.parse(text) as XmlObject;
}

export function malformedXml(): SandboxError {
  return new SandboxError(
    'MalformedXML',
    'The XML you provided was not well-formed or did not validate against our published schema',
    400,
  );
}

/** The child element(s) named `name`, always as a list (XML has no arrays of one). */
export function children(node: XmlValue | undefined, name: string): XmlValue[] {
  if (node === undefined || typeof node === 'string' || Array.isArray(node)) return [];
  const value = node[name];
  if (value === undefined) return [];
  return Array.isArray(value) ? value : [value];
}

export function child(node: XmlValue | undefined, name: string): XmlValue | undefined {
  return children(node, name)[0];
}

/** Text content of a child element; an empty element reads as ''. */
export function text(node: XmlValue | undefined, name: string): string | undefined {
  const value = child(node, name);
  if (value === undefined) return undefined;
  return typeof value === 'string' ? value : '';
}
