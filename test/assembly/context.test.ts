import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  buildContext,
  parseContextArgs,
  readContextFile,
  saveContextValues,
} from '../../src/assembly/context.js';
import { tempDir } from './helpers.js';

describe('parseContextArgs', () => {
  it('keeps values as strings, like the CDK CLI (no JSON parsing)', () => {
    expect(parseContextArgs(['n=3', 'flag=true', 'obj={"a":1}']).values).toEqual({
      n: '3',
      flag: 'true',
      obj: '{"a":1}',
    });
  });

  it('splits at the first = only', () => {
    expect(parseContextArgs(['url=a=b=c']).values).toEqual({ url: 'a=b=c' });
  });

  it('returns arguments without = as ignored', () => {
    expect(parseContextArgs(['novalue', 'k=v'])).toEqual({ values: { k: 'v' }, ignored: ['novalue'] });
  });

  it('refuses aws: keys', () => {
    expect(() => parseContextArgs(['aws:cdk:x=1'])).toThrow(
      expect.objectContaining({ code: 'CONTEXT_KEY_RESERVED' }),
    );
  });
});

describe('buildContext', () => {
  it('ranks -c over cdk.json context over cdk.context.json, as the CDK CLI does', () => {
    const context = buildContext({
      cached: { a: 'cached', b: 'cached', c: 'cached' },
      project: { b: 'project', c: 'project' },
      commandLine: { c: 'cli' },
    });
    expect(context).toMatchObject({ a: 'cached', b: 'project', c: 'cli' });
  });

  it('enables the asset metadata the nested-stack walk needs, and version reporting by default', () => {
    const context = buildContext({ cached: {}, project: {}, commandLine: {} });
    expect(context).toMatchObject({
      'aws:cdk:enable-asset-metadata': true,
      'aws:cdk:enable-path-metadata': true,
      'aws:cdk:version-reporting': true,
    });
    expect(context).not.toHaveProperty('aws:cdk:disable-version-reporting');
  });

  it('honours versionReporting: false from cdk.json', () => {
    const context = buildContext({ cached: {}, project: {}, commandLine: {}, versionReporting: false });
    expect(context).toMatchObject({
      'aws:cdk:version-reporting': false,
      'aws:cdk:disable-version-reporting': true,
    });
  });
});

describe('saveContextValues', () => {
  it('merges into cdk.context.json, keeping other keys, in sorted order', () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'cdk.context.json'), JSON.stringify({ zeta: 1, alpha: 'kept' }));
    saveContextValues(dir, { middle: 'new', zeta: 2 });
    const text = readFileSync(join(dir, 'cdk.context.json'), 'utf8');
    expect(Object.keys(JSON.parse(text))).toEqual(['alpha', 'middle', 'zeta']);
    expect(readContextFile(dir)).toEqual({ alpha: 'kept', middle: 'new', zeta: 2 });
    expect(text.endsWith('\n')).toBe(true);
  });

  it('reports a malformed cdk.context.json clearly', () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'cdk.context.json'), '{ nope');
    expect(() => readContextFile(dir)).toThrow(expect.objectContaining({ code: 'CONTEXT_FILE_INVALID' }));
  });
});
