import { compileGlob as linearGlob } from './glob.js';
/**
 * EditorConfig (https://spec.editorconfig.org): an INI file of glob sections. The properties of a file
 * are those of every section whose glob matches its path, later sections overriding earlier ones.
 */

export interface EditorConfigSection {
  readonly glob: string;
  readonly properties: ReadonlyMap<string, string>;
}

export interface EditorConfigFile {
  readonly root: boolean;
  readonly sections: readonly EditorConfigSection[];
}

// Values of these properties are case-insensitive in the specification and are lowercased.
const LOWERCASE_VALUES = new Set(['indent_style', 'indent_size', 'tab_width', 'end_of_line', 'charset', 'trim_trailing_whitespace', 'insert_final_newline']);
const MAX_KEY = 1024;
const MAX_VALUE = 4096;
const MAX_GLOB = 4096;

/** Parses the text of a `.editorconfig`; lines that are neither a section, a property nor a comment are skipped. */
export function parseEditorConfig(text: string): EditorConfigFile {
  let root = false;
  const sections: { glob: string; properties: Map<string, string> }[] = [];
  let current: { glob: string; properties: Map<string, string> } | null = null;
  for (const raw of text.replace(/^\uFEFF/u, '').split(/\r?\n/u)) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#') || line.startsWith(';')) continue;
    if (line.startsWith('[') && line.endsWith(']')) {
      const glob = line.slice(1, -1);
      current = glob.length <= MAX_GLOB ? { glob, properties: new Map() } : null;
      if (current) sections.push(current);
      else current = { glob: '', properties: new Map() }; // an oversized section is read but never matches
      continue;
    }
    const eq = line.search(/[=:]/u);
    if (eq <= 0) continue;
    const key = line.slice(0, eq).trim().toLowerCase();
    let value = line.slice(eq + 1).trim();
    if (key.length > MAX_KEY || value.length > MAX_VALUE) continue;
    if (LOWERCASE_VALUES.has(key)) value = value.toLowerCase();
    if (current === null) {
      if (key === 'root') root = value.toLowerCase() === 'true';
      continue;
    }
    current.properties.set(key, value);
  }
  return { root, sections: sections.filter((s) => s.glob !== '') };
}

interface CompiledGlob {
  /** Linear-time matcher (glob.ts) for globs without numeric ranges: section names come from repository content. */
  readonly nfa: { test(s: string): boolean } | null;
  readonly re: RegExp;
  readonly ranges: readonly (readonly [number, number])[];
}

const reEscape = (c: string): string => c.replace(/[.*+?^${}()|[\]\\/-]/gu, '\\$&');

/** Index of the `}` closing the `{` at `open`, or -1. */
function closingBrace(g: string, open: number): number {
  let depth = 0;
  for (let i = open; i < g.length; i++) {
    const c = g[i];
    if (c === '\\') i++;
    else if (c === '{') depth++;
    else if (c === '}' && --depth === 0) return i;
  }
  return -1;
}

/** Splits the inside of braces at top-level commas. */
function splitAlternatives(inner: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < inner.length; i++) {
    const c = inner[i];
    if (c === '\\') i++;
    else if (c === '{') depth++;
    else if (c === '}') depth--;
    else if (c === ',' && depth === 0) {
      out.push(inner.slice(start, i));
      start = i + 1;
    }
  }
  out.push(inner.slice(start));
  return out;
}

function translate(g: string, ranges: [number, number][]): string {
  let out = '';
  for (let i = 0; i < g.length; i++) {
    const c = g[i]!;
    if (c === '\\') {
      out += reEscape(g[i + 1] ?? '\\');
      i++;
    } else if (c === '*') {
      if (g[i + 1] === '*') {
        out += '.*';
        i++;
      } else out += '[^/]*';
    } else if (c === '?') out += '[^/]';
    else if (c === '[') {
      const close = g.indexOf(']', i + 2);
      const body = close < 0 ? '' : g.slice(i + 1, close);
      if (close < 0 || body.includes('/')) {
        out += '\\[';
        continue;
      }
      const negate = body.startsWith('!') || body.startsWith('^');
      const chars = (negate ? body.slice(1) : body).replace(/[\\\]^]/gu, '\\$&');
      out += negate ? `[^/${chars}]` : `[${chars}]`;
      i = close;
    } else if (c === '{') {
      const close = closingBrace(g, i);
      if (close < 0) {
        out += '\\{';
        continue;
      }
      const inner = g.slice(i + 1, close);
      const range = /^([+-]?\d+)\.\.([+-]?\d+)$/u.exec(inner);
      const alts = splitAlternatives(inner);
      if (range) {
        const a = Number(range[1]);
        const b = Number(range[2]);
        ranges.push([Math.min(a, b), Math.max(a, b)]);
        out += '([+-]?\\d+)';
      } else if (alts.length > 1) out += `(?:${alts.map((alt) => translate(alt, ranges)).join('|')})`;
      else out += `\\{${translate(inner, ranges)}\\}`; // `{single}` is literal
      i = close;
    } else out += reEscape(c);
  }
  return out;
}

const GOBWAS_SPECIAL = /[*?[\]{},\\]/u;

/**
 * The same glob in gobwas syntax for glob.ts's automaton, or null when it has a numeric range (`{1..3}`), which
 * only the RegExp form can check.
 */
function toGobwas(g: string): string | null {
  let out = '';
  for (let i = 0; i < g.length; i++) {
    const c = g[i]!;
    if (c === '\\') {
      out += `\\${g[i + 1] ?? '\\'}`;
      i++;
    } else if (c === '*' || c === '?') out += c;
    else if (c === '[') {
      const close = g.indexOf(']', i + 2);
      const body = close < 0 ? '' : g.slice(i + 1, close);
      if (close < 0 || body.includes('/')) {
        out += '\\[';
        continue;
      }
      const negate = body.startsWith('!') || body.startsWith('^');
      // A negated class never matches the separator, as in the RegExp form.
      out += negate ? `[!/${body.slice(1)}]` : `[${body}]`;
      i = close;
    } else if (c === '{') {
      const close = closingBrace(g, i);
      if (close < 0) {
        out += '\\{';
        continue;
      }
      const inner = g.slice(i + 1, close);
      if (/^([+-]?\d+)\.\.([+-]?\d+)$/u.test(inner)) return null;
      const alts = splitAlternatives(inner).map(toGobwas);
      if (alts.some((a) => a === null)) return null;
      out += alts.length > 1 ? `{${alts.join(',')}}` : `\\{${alts[0]}\\}`;
      i = close;
    } else out += GOBWAS_SPECIAL.test(c) ? `\\${c}` : c;
  }
  return out;
}

/** Compiles a section glob: one without a slash matches the file name at any depth, one with a slash is anchored at the root. */
export function compileGlob(glob: string): CompiledGlob {
  const ranges: [number, number][] = [];
  const anchored = glob.includes('/');
  const g = glob.startsWith('/') ? glob.slice(1) : glob;
  const converted = toGobwas(g);
  const nfa = converted === null ? null : linearGlob(`${anchored ? '' : '{**/,}'}${converted}`, '/');
  // Numeric-range groups are the only capturing groups, so their indexes follow `ranges`.
  const body = translate(g, ranges);
  // The RegExp form serves only globs with numeric ranges; with many stars it could backtrack for ages, so such
  // a (contrived) section matches nothing.
  const tooComplex = nfa === null && (g.match(/\*+/gu)?.length ?? 0) > 2;
  return { nfa, re: tooComplex ? /(?!)/u : new RegExp(`^${anchored ? '' : '(?:.*/)?'}${body}$`, 'su'), ranges };
}

export function globMatches(glob: CompiledGlob, path: string): boolean {
  if (glob.nfa) return glob.nfa.test(path);
  if (path.length > 4096) return false;
  const m = glob.re.exec(path);
  if (!m) return false;
  return glob.ranges.every(([lo, hi], k) => {
    const n = Number(m[k + 1]);
    return Number.isInteger(n) && n >= lo && n <= hi;
  });
}

/**
 * The properties for `path` (relative to the directory of the file, no leading slash): every matching
 * section in order, later ones winning. `indent_size` defaults to `tab` with `indent_style = tab`, and
 * `tab_width` to a numeric `indent_size`, as the specification says.
 */
export function editorConfigFor(file: EditorConfigFile, path: string): Record<string, string> {
  const props = new Map<string, string>();
  const p = path.replace(/^\/+/u, '');
  for (const s of file.sections) {
    if (!globMatches(compileGlob(s.glob), p)) continue;
    for (const [k, v] of s.properties) props.set(k, v);
  }
  if (props.get('indent_style') === 'tab' && !props.has('indent_size')) props.set('indent_size', 'tab');
  const size = props.get('indent_size');
  if (size !== undefined && /^\d+$/u.test(size) && !props.has('tab_width')) props.set('tab_width', size);
  if (size === 'tab' && props.has('tab_width')) props.set('indent_size', props.get('tab_width')!);
  return Object.fromEntries(props);
}
