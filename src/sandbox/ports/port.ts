import type { SandboxContext } from '../service-module.js';

/**
 * One module's offer to the others: the serving module exposes an implementation on the
 * sandbox's context, and another module looks it up, so no module reaches into another's store.
 */
export interface Port<T> {
  /** The implementation of the sandbox the context belongs to; undefined when its service is not served. */
  of(context: SandboxContext): T | undefined;
  expose(context: SandboxContext, implementation: T): void;
}

export function definePort<T>(): Port<T> {
  const implementations = new WeakMap<SandboxContext, T>();
  return {
    of: (context) => implementations.get(context),
    expose: (context, implementation) => void implementations.set(context, implementation),
  };
}
