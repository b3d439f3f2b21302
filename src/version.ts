/** Anvil's own version; a contract test keeps it equal to package.json's. */
export const ANVIL_VERSION = '0.1.0';
/**
 * What GET /version reports. Clients (the Go SDK, tea, Renovate) gate features on the Gitea version they
 * see, so we claim the API level we implement and carry our own version as build metadata.
 */
export const API_COMPAT_VERSION = `1.22.0+anvil-${ANVIL_VERSION}`;
