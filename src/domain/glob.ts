/** A compiled glob: `test` runs in time linear in the input times the pattern size (no backtracking). */
export interface CompiledGlob {
  test(s: string): boolean;
}

/**
 * Globs in gobwas/glob syntax, the library Gitea compiles branch filters, protected branch rules and protected file
 * patterns with: `*` matches any run of characters except `separators`, `**` any run at all, `?` one
 * non-separator character, `[abc]` / `[a-z]` / `[!a-z]` classes, `{a,b}` alternatives, `\x` a literal x. Null
 * when the pattern does not parse.
 *
 * Matching simulates the pattern's automaton over all states at once. A regular expression built from a pattern
 * such as `*a*a*a*a*a*b` backtracks exponentially, and repository administrators choose these patterns (a denial
 * of service of the whole server). The function is self-contained (it closes over nothing of this module), so the
 * pre-receive hook script embeds its source text (git/hooks.ts).
 */
export function compileGlob(pattern: string, separators = ''): CompiledGlob | null {
  type Test = (c: string) => boolean;
  type State = { kind: 'char'; ok: Test; out: State } | { kind: 'split'; outs: State[] } | { kind: 'accept' };
  type Node = { kind: 'char'; ok: Test } | { kind: 'star'; any: boolean } | { kind: 'alt'; alts: Node[][] };
  const notSeparator: Test = (x) => !separators.includes(x);
  let i = 0;
  let bad = false;
  const parseSeq = (depth: number): Node[] => {
    const seq: Node[] = [];
    while (i < pattern.length && !bad) {
      const c = pattern[i]!;
      if (c === '\\') {
        if (i + 1 >= pattern.length) {
          bad = true;
          return seq;
        }
        const lit = pattern[i + 1]!;
        seq.push({ kind: 'char', ok: (x) => x === lit });
        i += 2;
      } else if (c === '*') {
        let n = 0;
        while (pattern[i] === '*') {
          i++;
          n++;
        }
        seq.push({ kind: 'star', any: n > 1 || separators === '' });
      } else if (c === '?') {
        seq.push({ kind: 'char', ok: notSeparator });
        i++;
      } else if (c === '[') {
        const end = pattern.indexOf(']', i + 1);
        if (end < 0) {
          bad = true;
          return seq;
        }
        let body = pattern.slice(i + 1, end);
        const neg = body.startsWith('!');
        if (neg) body = body.slice(1);
        if (body === '') {
          bad = true;
          return seq;
        }
        const ranges: [string, string][] = [];
        for (let j = 0; j < body.length; ) {
          if (body[j + 1] === '-' && j + 2 < body.length) {
            if (body[j]! > body[j + 2]!) {
              bad = true;
              return seq;
            }
            ranges.push([body[j]!, body[j + 2]!]);
            j += 3;
          } else {
            ranges.push([body[j]!, body[j]!]);
            j++;
          }
        }
        seq.push({ kind: 'char', ok: (x) => ranges.some(([lo, hi]) => x >= lo && x <= hi) !== neg });
        i = end + 1;
      } else if (c === '{') {
        i++;
        const alts: Node[][] = [parseSeq(depth + 1)];
        while (!bad && pattern[i] === ',') {
          i++;
          alts.push(parseSeq(depth + 1));
        }
        if (pattern[i] !== '}') {
          bad = true;
          return seq;
        }
        i++;
        seq.push({ kind: 'alt', alts });
      } else if (c === '}' || (c === ',' && depth > 0)) {
        // The end of an alternative: the caller checks what follows (a stray `}` at the top level is invalid).
        if (depth === 0 && c === '}') bad = true;
        return seq;
      } else if (c === ']') {
        bad = true;
        return seq;
      } else {
        seq.push({ kind: 'char', ok: (x) => x === c });
        i++;
      }
    }
    return seq;
  };
  const top = parseSeq(0);
  if (bad || i !== pattern.length) return null;

  const accept: State = { kind: 'accept' };
  const build = (seq: readonly Node[], next: State): State => {
    let cur = next;
    for (let k = seq.length - 1; k >= 0; k--) {
      const n = seq[k]!;
      if (n.kind === 'char') cur = { kind: 'char', ok: n.ok, out: cur };
      else if (n.kind === 'star') {
        const loop: State & { kind: 'split' } = { kind: 'split', outs: [] };
        loop.outs = [{ kind: 'char', ok: n.any ? () => true : notSeparator, out: loop }, cur];
        cur = loop;
      } else {
        const after = cur;
        cur = { kind: 'split', outs: n.alts.map((a) => build(a, after)) };
      }
    }
    return cur;
  };
  const start = build(top, accept);
  const closure = (states: Iterable<State>): Set<State> => {
    const seen = new Set<State>();
    const stack = [...states];
    while (stack.length) {
      const st = stack.pop()!;
      if (seen.has(st)) continue;
      seen.add(st);
      if (st.kind === 'split') stack.push(...st.outs);
    }
    return seen;
  };
  return {
    test(s: string): boolean {
      let cur = closure([start]);
      for (const c of s) {
        const next: State[] = [];
        for (const st of cur) if (st.kind === 'char' && st.ok(c)) next.push(st.out);
        if (next.length === 0) return false;
        cur = closure(next);
      }
      return cur.has(accept);
    },
  };
}
