import globalTeardown from './global-teardown.mjs';

export default async function poolerGlobalTeardown() {
  try {
    await globalThis.__pgbouncerStop?.();
  } finally {
    await globalTeardown();
  }
}
