/** A failure's CdkdError codes along its cause chain, outermost first, and the innermost one's message and hint. */
export function failureOf(error: unknown): { codes: string[]; message: string; hint: string } {
  const codes: string[] = [];
  let message = '';
  let hint = '';
  for (let at = error; at instanceof Error; at = at.cause) {
    if ('code' in at && typeof at.code === 'string') {
      codes.push(at.code);
      message = at.message;
      hint = 'hint' in at && typeof at.hint === 'string' ? at.hint : '';
    }
  }
  return { codes, message, hint };
}

/** {@link failureOf} what `run` rejects with (empty codes when it resolves). */
export async function failureOfRun(run: Promise<unknown>): Promise<ReturnType<typeof failureOf>> {
  return failureOf(
    await run.then(
      () => undefined,
      (error: unknown) => error,
    ),
  );
}
