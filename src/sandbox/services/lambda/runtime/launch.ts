/** Where a function's code sits on disk, as its runtime needs it. */
export interface RuntimeLayout {
  /** The extracted package: LAMBDA_TASK_ROOT and the working directory. */
  taskRoot: string;
  /** Each layer's extracted content, in the function's order (what Lambda merges into /opt). */
  layers: string[];
}

/** The child process a runtime starts, with the variables only that runtime needs. */
export interface Launch {
  command: string;
  args: string[];
  env: Record<string, string>;
}
