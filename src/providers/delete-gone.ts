import { awsErrorCode } from '../aws/error-class.js';

/** Runs a delete call; an error `isNotFound` accepts means the resource is already gone, which is what a delete wants. */
export async function deleteTreatingNotFoundAsGone(
  call: () => Promise<unknown>,
  isNotFound: (error: unknown) => boolean,
): Promise<void> {
  try {
    await call();
  } catch (error) {
    if (!isNotFound(error)) throw error;
  }
}

/** The `isNotFound` of a service that says "not found" with one of these error codes. */
export function errorCodeIn(...codes: string[]): (error: unknown) => boolean {
  return (error) => codes.includes(awsErrorCode(error) ?? '');
}
