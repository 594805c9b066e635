/** Where the app answers: the versioned API, its document, and the routes outside `/v1`. */
export const API_PREFIX = 'v1';
/** The document's `info.version`, also answered by `GET /v1`. */
export const API_VERSION = '1.0.0';
export const OPENAPI_PATH = `${API_PREFIX}/openapi.json`;
export const DOCS_PATH = 'docs';
/** Routes outside `/v1`: the probes and the Prometheus endpoint are not part of the versioned API. */
export const HEALTH_PATHS = ['health', 'health/ready'] as const;
export const METRICS_PATH = 'metrics';
export const DASHBOARD_PATH = 'dashboard';
/** Browsers ask every site for it; the dashboard serves it (`FaviconController`). */
export const FAVICON_PATH = 'favicon.ico';
