/** The git layer: the only code that runs git. Services import from here. */
export * from './run.js';
export * from './refs.js';
export * from './repo.js';
export * from './branches.js';
export * from './catfile.js';
export * from './smarthttp.js';
