// Issue 35: every AWS call the custom-resource handlers bundled in the installed aws-cdk-lib
// make, and for AwsCustomResource the calls aws-cdk-lib's constructs and the corpus's
// templates ask for, each sent to a fresh sandbox to say whether it is served.
// Usage: npx tsx scripts/cdk-handler-calls.ts
//   (rewrites docs/_generated/cdk-handler-calls.{json,md}; CDKD_CORPUS_DIR overrides where
//   the corpus templates are, ../shared/corpus/templates from the repo root by default)
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { format, resolveConfig } from 'prettier';
import { startSandbox } from '../src/sandbox/server.js';
import { corpusCalls, corpusDir } from './handler-calls/aws-custom-resource.js';
import { extractBundled } from './handler-calls/extract.js';
import { REPO_ROOT } from './handler-calls/sdk-clients.js';
import { markdown, rows, totals, type CallList } from './handler-calls/table.js';
import { verdictFor, type Verdict } from './handler-calls/verdicts.js';

export const CALLS_JSON = fileURLToPath(
  new URL('../docs/_generated/cdk-handler-calls.json', import.meta.url),
);
export const CALLS_DOC = fileURLToPath(new URL('../docs/_generated/cdk-handler-calls.md', import.meta.url));

async function main(): Promise<void> {
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';
  const bundled = extractBundled();
  const corpus = process.env.CDKD_CORPUS_DIR ?? corpusDir(REPO_ROOT);
  if (!corpus)
    console.error('The corpus is absent: listing the calls of the bundled handlers and aws-cdk-lib only.');
  const calls = [...bundled.calls, ...(corpus ? corpusCalls(corpus) : [])];

  const sandbox = await startSandbox({ port: 0 });
  const verdicts = new Map<string, Verdict>();
  try {
    for (const call of calls) {
      const key = `${call.service} ${call.operation}`;
      if (!verdicts.has(key)) verdicts.set(key, await verdictFor(sandbox.url, call.service, call.operation));
    }
  } finally {
    await sandbox.stop();
  }
  const list: CallList = {
    awsCdkLib: bundled.version,
    corpus: corpus ? 'read' : 'absent',
    families: bundled.families,
    generic: bundled.generic,
    calls: rows(calls, verdicts),
  };
  const options = (await resolveConfig(CALLS_DOC)) ?? {};
  writeFileSync(CALLS_JSON, await format(JSON.stringify(list), { ...options, parser: 'json' }));
  writeFileSync(CALLS_DOC, await format(markdown(list), { ...options, parser: 'markdown' }));
  console.log(JSON.stringify(totals(list)));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await main();
