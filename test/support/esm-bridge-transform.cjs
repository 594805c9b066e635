// @nestjs/throttler 6 is CommonJS and require()s the ESM-only @nestjs/common and @nestjs/core. Node 20
// allows that (require(esm)); Jest's module runtime only does from Node 24.9. For Jest alone, this
// transform points those require() calls at the very module instances the test file imported
// (see esm-bridge.setup.ts), so the real throttler code runs unchanged against the real Nest.
const BRIDGED = /require\("(@nestjs\/(?:common|core))"\)/g;

module.exports = {
  process(source) {
    return { code: source.replace(BRIDGED, (_, name) => `globalThis.__esmBridge[${JSON.stringify(name)}]`) };
  },
  getCacheKey(source, path) {
    return `esm-bridge-v1:${path}:${source.length}`;
  },
};
