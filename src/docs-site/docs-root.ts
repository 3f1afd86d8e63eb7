import { fileURLToPath } from 'node:url';

/**
 * The package's docs/ folder: two levels above this file both in src/docs-site/ (run with tsx) and
 * in dist/docs-site/ (built; package.json's "files" ships docs/ beside dist/).
 */
export const PACKAGE_DOCS_ROOT = fileURLToPath(new URL('../../docs/', import.meta.url));
