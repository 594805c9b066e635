/**
 * Waits until `condition` holds, checking every `everyMs`; fails naming `what` after `timeoutMs`. For work the app
 * does in the background (deliveries, shutdown, reconnection), never to assert how fast it is.
 */
export async function until(
  condition: () => boolean | Promise<boolean>,
  what: string,
  timeoutMs = 60_000,
  everyMs = 20,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}
