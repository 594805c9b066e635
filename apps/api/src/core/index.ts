/** What features may take from the app's core: only where things are served (nothing that imports a feature). */
export * from './paths.js';
