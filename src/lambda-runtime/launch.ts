import type { SdkSettings } from './node/sdk-cache.js';

/** Where a function's code sits on disk, as its runtime needs it. */
export interface RuntimeLayout {
  /** The extracted package: LAMBDA_TASK_ROOT and the working directory. */
  taskRoot: string;
  /** Each layer's extracted content, in the function's order (what Lambda merges into /opt). */
  layers: string[];
  /** How a Node.js function installs AWS SDK packages the sandbox does not ship; absent: it cannot. */
  sdk?: SdkSettings;
}

/** The child process a runtime starts, with the variables only that runtime needs. */
export interface Launch {
  command: string;
  args: string[];
  env: Record<string, string>;
}
