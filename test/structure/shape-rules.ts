import { topFolder, type ImportEdge } from './import-graph.js';

/**
 * The floor of each top-level folder of src/ (ARCHITECTURE.md's picture): a file may import
 * only folders on a lower floor, so folders on one floor never import each other. `(root)` is
 * the ground floor's files (errors.ts, error-codes.ts, interrupted.ts ...). A new top-level
 * folder fails the check until it is placed here.
 */
export const FLOORS: Readonly<Record<string, number>> = {
  '(root)': 0,
  aws: 1,
  assembly: 1,
  dag: 1,
  'resource-types': 1,
  // The Lambda runtime the sandbox and `cdkd local` both run handlers on.
  'lambda-runtime': 1,
  // API Gateway's request events, routing and authorizers, shared by the sandbox and `cdkd local start-api`.
  'http-events': 1,
  // Named latency models (AWS's per-type times) the sandbox plays and the ETA predicts from.
  'latency-profiles': 1,
  template: 2,
  // A deploy's ETA: critical path and expected times (from past events, else a latency profile).
  eta: 2,
  state: 2,
  'context-providers': 3,
  assets: 3,
  sandbox: 3,
  'stack-state': 3,
  providers: 4,
  plan: 5,
  'provider-calls': 5,
  messages: 6,
  'rollback-decisions': 6,
  rollback: 7,
  engine: 8,
  toolkit: 9,
  local: 9,
  ui: 10,
  cli: 11,
};

/** The only file outside src/sandbox that may import the sandbox. */
export const SANDBOX_IMPORTER = 'cli/commands/sandbox.ts';

/**
 * Folders whose index.ts is their public face: a file outside one imports its types only
 * through that index. A value import may still name the module that holds it: the index
 * re-exports the whole folder, and a command that loaded it would load every module of the
 * folder at start-up (test/cli/start-up.test.ts), where naming one module loads only that.
 */
export const PUBLIC_FACES: readonly string[] = [
  'aws',
  'assembly',
  'template',
  'state',
  'dag',
  'resource-types',
  'assets',
  'context-providers',
  'stack-state',
  'providers',
  'plan',
  'provider-calls',
  'messages',
  'rollback-decisions',
  'rollback',
  'engine',
  'toolkit',
  'sandbox/ports',
];

/** The browser page: a program of its own (src/ui/page/tsconfig.json) that takes only the types it renders. */
const SEPARATE_PROGRAM = 'ui/page/';

/** Every import that breaks the layer order, the sandbox's isolation or a public face. */
export function shapeViolations(edges: readonly ImportEdge[]): string[] {
  const found = new Set<string>();
  for (const edge of edges) {
    const from = topFolder(edge.from);
    const to = topFolder(edge.to);
    for (const folder of [from, to]) {
      if (FLOORS[folder] === undefined) found.add(`src/${folder}/ has no floor: place it in FLOORS`);
    }
    if (to === 'sandbox' && from !== 'sandbox' && edge.from !== SANDBOX_IMPORTER) {
      found.add(`sandbox imported by ${edge.from} (${edge.to})`);
    }
    const floorFrom = FLOORS[from];
    const floorTo = FLOORS[to];
    if (from !== to && floorFrom !== undefined && floorTo !== undefined && floorFrom <= floorTo) {
      found.add(`upward import ${from} -> ${to}: ${edge.from} imports ${edge.to}`);
    }
    const face = PUBLIC_FACES.find((folder) => edge.to.startsWith(`${folder}/`));
    if (
      face &&
      edge.typeOnly &&
      !edge.from.startsWith(`${face}/`) &&
      edge.to !== `${face}/index.ts` &&
      !edge.from.startsWith(SEPARATE_PROGRAM)
    ) {
      found.add(`deep type import into ${face}/: ${edge.from} imports ${edge.to} (use ${face}/index.ts)`);
    }
  }
  return [...found].sort();
}
