/**
 * Waits until the sandbox answers no request. A request a killed client sent is still carried
 * out on the server, as on AWS; a test that counts what a kill left waits for it rather than
 * for a fixed time, which a loaded machine can outlast.
 */
export async function untilQuiet(sandboxUrl: string): Promise<void> {
  for (;;) {
    const response = await fetch(`${sandboxUrl}/_sandbox/in-flight`);
    const { inFlight } = (await response.json()) as { inFlight: number };
    if (inFlight === 0) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
