/**
 * Runs an upsert, and once more if it lost a race with another upsert of the same `_id` (duplicate key, 11000): the
 * second run finds the document and updates it. Events are handled concurrently, so two can create one document.
 */
export async function retryOnDuplicate<T>(upsert: () => Promise<T>): Promise<T> {
  try {
    return await upsert();
  } catch (err) {
    if ((err as { code?: unknown }).code !== 11000) throw err;
    return upsert();
  }
}
