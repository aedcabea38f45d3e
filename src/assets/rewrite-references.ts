import { childPath, formatPath, rootPath, type TemplatePath } from '../template/path.js';

export interface AssetReferenceRewrite {
  /** Where the string sits, e.g. `Resources.Fn.Properties.Code.S3Bucket.Fn::Sub`. */
  path: string;
  from: string;
  to: string;
}

export interface AssetRewriteResult<T> {
  /** The input itself when nothing referred to an asset bucket; otherwise a copy sharing unchanged parts. */
  template: T;
  rewrites: AssetReferenceRewrite[];
}

/**
 * Points a template's references to the synthesizer's asset bucket(s) at cdkd's. The
 * names are the manifest destinations' `bucketName`s, written with the same
 * `${AWS::AccountId}` / `${AWS::Region}` placeholders the template's `Fn::Sub` strings
 * carry, so one literal match covers every form CDK emits: a plain string (`S3Bucket`
 * of a stack with a concrete environment), an `Fn::Sub` string, an `Fn::Join` part
 * (`:s3:::bucket/*` in a policy), a URL (a nested stack's `TemplateURL`, a Service
 * Catalog `LoadTemplateFromURL`). Every string value is searched, property names are
 * not. S3 object keys stay as written: cdkd uploads under the destination's objectKey.
 * A name only matches whole: not preceded by a bucket-name character and not followed
 * by a letter, digit, `-` or `_` (a following `.` is a virtual-hosted URL's host).
 */
export function rewriteAssetReferences<T>(
  template: T,
  destinations: readonly { bucketName: string }[],
  assetBucket: string,
): AssetRewriteResult<T> {
  const names = [...new Set(destinations.map((d) => d.bucketName))].filter((name) => name !== '');
  if (names.length === 0) return { template, rewrites: [] };
  // Longest first, so a name that extends another wins the alternation.
  names.sort((a, b) => b.length - a.length);
  const pattern = new RegExp(
    `(?<![A-Za-z0-9._-])(?:${names.map(escapeRegExp).join('|')})(?![A-Za-z0-9_-])`,
    'g',
  );
  const rewrites: AssetReferenceRewrite[] = [];
  const rewrite = (value: unknown, path: TemplatePath | undefined): unknown => {
    if (typeof value === 'string') {
      const to = value.replace(pattern, () => assetBucket);
      if (to !== value) rewrites.push({ path: path === undefined ? '' : formatPath(path), from: value, to });
      return to;
    }
    if (typeof value !== 'object' || value === null) return value;
    const entries: Array<[string | number, unknown]> = Array.isArray(value)
      ? value.map((item, index) => [index, item])
      : Object.entries(value);
    const next = entries.map(([key, item]) => rewrite(item, descend(path, key)));
    if (next.every((item, index) => item === entries[index]![1])) return value;
    return Array.isArray(value)
      ? next
      : Object.fromEntries(next.map((item, index) => [entries[index]![0], item]));
  };
  return { template: rewrite(template, undefined) as T, rewrites };
}

function descend(path: TemplatePath | undefined, key: string | number): TemplatePath {
  return path === undefined ? rootPath(key) : childPath(path, key);
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
