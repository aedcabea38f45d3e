import type { CallerEnvironment } from '../../assembly/index.js';
import type { AwsClients } from '../../aws/index.js';
import { coreSdk } from '../../aws/sdk-modules.js';

/** Synthesis must never wait long on missing credentials (IMDS, an unreachable endpoint). */
const PROBE_TIMEOUT_MS = 3_000;

/**
 * The account (STS GetCallerIdentity) and region synthesis hands the app as
 * CDK_DEFAULT_ACCOUNT / CDK_DEFAULT_REGION. Whatever cannot be found is left
 * undefined, as the CDK CLI does: the app then synthesizes environment-agnostic stacks.
 */
export async function probeCallerEnvironment(
  clients: Pick<AwsClients, 'region' | 'sts'>,
  timeoutMs = PROBE_TIMEOUT_MS,
): Promise<CallerEnvironment> {
  const region = await clients.region().catch(() => undefined);
  if (!region) return {};
  const account = await withTimeout(timeoutMs, async (signal) => {
    const { GetCallerIdentityCommand } = await coreSdk();
    const sts = await clients.sts(region);
    const identity = await sts.send(new GetCallerIdentityCommand({}), { abortSignal: signal });
    return identity.Account;
  }).catch(() => undefined);
  return account ? { account, region } : { region };
}

async function withTimeout<T>(timeoutMs: number, work: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      controller.abort();
      reject(new Error(`no answer within ${timeoutMs} ms`));
    }, timeoutMs);
    timer.unref();
  });
  try {
    return await Promise.race([work(controller.signal), timeout]);
  } finally {
    clearTimeout(timer);
  }
}
