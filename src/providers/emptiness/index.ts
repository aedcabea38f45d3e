export { probeEmptiness, type ProbeContext, type ProbeTarget } from './probes.js';
export { bucketVerdict, logGroupVerdict, type ProbeAnswer, type ProbeResult } from './verdicts.js';
export { PROBE_RETRY_DELAYS_MS, withProbeRetry } from './throttle-retry.js';
