/**
 * A small language table by file extension, in the spirit of Gitea's enry-based statistics: programming
 * and markup languages only (prose, data and configuration formats are not counted), with vendored,
 * generated, minified, hidden and documentation paths left out.
 */

const BY_EXTENSION: Readonly<Record<string, string>> = {
  c: 'C',
  h: 'C',
  cc: 'C++',
  cpp: 'C++',
  cxx: 'C++',
  hpp: 'C++',
  hh: 'C++',
  hxx: 'C++',
  cs: 'C#',
  go: 'Go',
  rs: 'Rust',
  java: 'Java',
  kt: 'Kotlin',
  kts: 'Kotlin',
  scala: 'Scala',
  groovy: 'Groovy',
  js: 'JavaScript',
  mjs: 'JavaScript',
  cjs: 'JavaScript',
  jsx: 'JavaScript',
  ts: 'TypeScript',
  mts: 'TypeScript',
  cts: 'TypeScript',
  tsx: 'TSX',
  py: 'Python',
  rb: 'Ruby',
  php: 'PHP',
  pl: 'Perl',
  pm: 'Perl',
  lua: 'Lua',
  swift: 'Swift',
  m: 'Objective-C',
  mm: 'Objective-C++',
  sh: 'Shell',
  bash: 'Shell',
  zsh: 'Shell',
  ps1: 'PowerShell',
  r: 'R',
  dart: 'Dart',
  ex: 'Elixir',
  exs: 'Elixir',
  erl: 'Erlang',
  hs: 'Haskell',
  ml: 'OCaml',
  clj: 'Clojure',
  zig: 'Zig',
  nim: 'Nim',
  vue: 'Vue',
  svelte: 'Svelte',
  html: 'HTML',
  htm: 'HTML',
  css: 'CSS',
  scss: 'SCSS',
  sass: 'Sass',
  less: 'Less',
  sql: 'SQL',
  tex: 'TeX',
  asm: 'Assembly',
  s: 'Assembly',
  f90: 'Fortran',
  jl: 'Julia',
  vb: 'Visual Basic .NET',
  fs: 'F#',
};

const BY_NAME: Readonly<Record<string, string>> = {
  makefile: 'Makefile',
  gnumakefile: 'Makefile',
  dockerfile: 'Dockerfile',
  'cmakelists.txt': 'CMake',
};

// Directories whose content is someone else's code or build output (enry's vendor and generated rules, abridged).
const EXCLUDED_DIRS = new Set(['node_modules', 'vendor', 'vendors', 'third_party', 'thirdparty', 'dist', 'build', 'bower_components', 'docs', 'doc', 'documentation', 'cache']);
const MINIFIED = /[.-]min\.(?:js|css)$|\.(?:bundle|pack)\.js$|\.pb\.go$|_pb2\.py$|\.generated\.\w+$|\.d\.ts$/u;

/** The language of a file path, or null when it is not counted. */
export function languageOf(path: string): string | null {
  const parts = path.split('/');
  const name = parts[parts.length - 1] ?? '';
  for (const p of parts) {
    if (p.startsWith('.')) return null;
  }
  for (const p of parts.slice(0, -1)) {
    if (EXCLUDED_DIRS.has(p.toLowerCase())) return null;
  }
  const lower = name.toLowerCase();
  if (MINIFIED.test(lower)) return null;
  const dot = lower.lastIndexOf('.');
  const byName = BY_NAME[lower];
  if (byName !== undefined || dot <= 0) return byName ?? null;
  return BY_EXTENSION[lower.slice(dot + 1)] ?? null;
}
