import * as common from '@nestjs/common';
import * as core from '@nestjs/core';

// Read by esm-bridge-transform.cjs; see there.
(globalThis as unknown as { __esmBridge: Record<string, unknown> }).__esmBridge = {
  '@nestjs/common': common,
  '@nestjs/core': core,
};
