/**
 * The glob patterns of `cdk.json`'s `watch.include` / `watch.exclude`, as the CDK CLI's file
 * watcher reads them: relative to the watched directory, `**` any number of directories,
 * `*` and `?` within one name, `{a,b}` either. A pattern that matches a directory covers
 * everything under it (the CLI's watcher never descends into an excluded directory).
 */
export function globRegExp(pattern: string): RegExp {
  const body = pattern.replace(/^\.\//, '').replace(/\/+$/, '');
  let source = '';
  let braces = 0;
  for (let i = 0; i < body.length; i++) {
    const char = body[i]!;
    if (char === '/' && body.slice(i + 1) === '**') {
      // `dir/**` covers the directory itself too, so a watcher can skip it whole.
      source += '(?:/.*)?';
      break;
    }
    if (char === '*' && body[i + 1] === '*') {
      const slashAfter = body[i + 2] === '/';
      const atSegmentStart = i === 0 || body[i - 1] === '/';
      if (atSegmentStart && slashAfter) {
        source += '(?:.*/)?';
        i += 2;
      } else {
        source += '.*';
        i += 1;
      }
    } else if (char === '*') source += '[^/]*';
    else if (char === '?') source += '[^/]';
    else if (char === '{') {
      source += '(?:';
      braces++;
    } else if (char === '}' && braces > 0) {
      source += ')';
      braces--;
    } else if (char === ',' && braces > 0) source += '|';
    else source += char.replace(/[.+^${}()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${source}$`);
}

/** A set of patterns: does one match `path` (slash-separated, relative) or a directory above it? */
export function globMatcher(patterns: readonly string[]): (path: string) => boolean {
  const expressions = patterns.map(globRegExp);
  return (path) => {
    const segments = path.split('/');
    for (let end = segments.length; end > 0; end--) {
      const prefix = segments.slice(0, end).join('/');
      if (expressions.some((expression) => expression.test(prefix))) return true;
    }
    return false;
  };
}
