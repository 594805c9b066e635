export * from './transforms.js';
export * from './trim-strings.pipe.js';
export * from './validation-errors.js';
export * from './validation.pipe.js';
export * from './id-param.js';
export * from './present-fields.js';
export * from './fields.js';
export * from './json-shape.js';
