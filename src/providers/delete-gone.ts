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
