/** RFC 3339 in UTC, as clients parse Gitea's times. */
export const isoTime = (unix: number): string => new Date(unix * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');
/** Go's zero time, which Gitea sends for fields a viewer may not see. */
export const ZERO_TIME = '0001-01-01T00:00:00Z';
