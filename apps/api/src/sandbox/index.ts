export * from './sandbox.module.js';
export * from './sandbox.service.js';
export * from './sample-portfolio.js';
export * from './dto/sandbox-reset.response.js';
