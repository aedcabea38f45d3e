import type { Params } from './params.js';
import type { IamStore } from './store.js';

/** One IAM call as an operation handler sees it; handlers return the `<{Action}Result>` children. */
export interface IamCall {
  store: IamStore;
  accountId: string;
  params: Params;
  now: number;
}

export type IamHandler = (call: IamCall) => Promise<string[]> | string[];
