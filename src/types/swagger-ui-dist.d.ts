declare module 'swagger-ui-dist' {
  /** Directory holding swagger-ui's built assets. */
  export function getAbsoluteFSPath(): string;
  const dist: { getAbsoluteFSPath(): string };
  export default dist;
}
