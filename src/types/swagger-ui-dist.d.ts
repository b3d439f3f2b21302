declare module 'swagger-ui-dist/absolute-path.js' {
  /** Directory holding swagger-ui's built assets. */
  const getAbsoluteFSPath: () => string;
  export default getAbsoluteFSPath;
}
