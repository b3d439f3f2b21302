import { describe, it, expect } from '@jest/globals';
import { compileGlob, editorConfigFor, globMatches, parseEditorConfig } from '../../src/domain/editorconfig.js';
import { languageOf } from '../../src/domain/languages.js';

const m = (glob: string, path: string) => globMatches(compileGlob(glob), path);

describe('editorconfig globs', () => {
  it('matches a glob without a slash against the file name at any depth', () => {
    expect(m('*.js', 'a.js')).toBe(true);
    expect(m('*.js', 'lib/deep/a.js')).toBe(true);
    expect(m('*.js', 'a.jsx')).toBe(false);
    expect(m('Makefile', 'sub/Makefile')).toBe(true);
  });

  it('anchors a glob with a slash at the root; * stays within a segment, ** crosses them', () => {
    expect(m('lib/*.js', 'lib/a.js')).toBe(true);
    expect(m('lib/*.js', 'lib/x/a.js')).toBe(false);
    expect(m('lib/*.js', 'x/lib/a.js')).toBe(false);
    expect(m('/lib/**.js', 'lib/x/a.js')).toBe(true);
    expect(m('lib/**/a.js', 'lib/x/y/a.js')).toBe(true);
  });

  it('supports ?, classes, negated classes, alternatives and numeric ranges', () => {
    expect(m('a?.txt', 'ab.txt')).toBe(true);
    expect(m('a?.txt', 'a/.txt')).toBe(false);
    expect(m('[a-c].txt', 'b.txt')).toBe(true);
    expect(m('[a-c].txt', 'd.txt')).toBe(false);
    expect(m('[!a-c].txt', 'd.txt')).toBe(true);
    expect(m('[!a-c].txt', 'a.txt')).toBe(false);
    expect(m('*.{js,ts}', 'x.ts')).toBe(true);
    expect(m('*.{js,ts}', 'x.py')).toBe(false);
    expect(m('{a,{b,c}}.md', 'c.md')).toBe(true);
    expect(m('f{1..3}.txt', 'f2.txt')).toBe(true);
    expect(m('f{1..3}.txt', 'f4.txt')).toBe(false);
    expect(m('f{-2..3}.txt', 'f-1.txt')).toBe(true);
    expect(m('{single}.txt', '{single}.txt')).toBe(true);
    expect(m('a\\*b', 'a*b')).toBe(true);
    expect(m('a\\*b', 'axb')).toBe(false);
  });
});

describe('editorconfig properties', () => {
  const file = parseEditorConfig('root = true\n[*]\nIndent_Style = Space\n[*.go]\nindent_style = tab\ntab_width = 8\n# comment\n[*.py]\nindent_size = 4\n');

  it('reads root and sections, lowercases names and known values, later sections win', () => {
    expect(file.root).toBe(true);
    expect(editorConfigFor(file, 'a.txt')).toEqual({ indent_style: 'space' });
    expect(editorConfigFor(file, 'x/a.go')).toEqual({ indent_style: 'tab', tab_width: '8', indent_size: '8' });
    expect(editorConfigFor(file, 'a.py')).toEqual({ indent_style: 'space', indent_size: '4', tab_width: '4' });
  });

  it('answers nothing when no section matches', () => {
    expect(editorConfigFor(parseEditorConfig('[*.md]\ncharset = utf-8\n'), 'a.txt')).toEqual({});
  });
});

describe('languageOf', () => {
  it('knows extensions and file names, and leaves out vendored, minified, hidden and documentation files', () => {
    expect(languageOf('src/a.ts')).toBe('TypeScript');
    expect(languageOf('Makefile')).toBe('Makefile');
    expect(languageOf('CMakeLists.txt')).toBe('CMake');
    expect(languageOf('README.md')).toBeNull();
    expect(languageOf('node_modules/x/index.js')).toBeNull();
    expect(languageOf('vendor/a.go')).toBeNull();
    expect(languageOf('app.min.js')).toBeNull();
    expect(languageOf('.github/x.js')).toBeNull();
    expect(languageOf('docs/conf.py')).toBeNull();
    expect(languageOf('types.d.ts')).toBeNull();
  });
});

describe('section globs match in linear time, like their RegExp form', () => {
  const globs = ['*', '*.js', '**.js', 'lib/**.js', '/lib/*.js', '{a,b}.md', '{a,{b,c}}', 'a{single}b', '[abc].x', '[!a-c].x', '[^x]y', '[a/b]', 'x[', 'x{', '\\*.md', 'a?c', 'docs/**/x.md', '{,pre}fix', 'a,b', 'a]b'];
  const paths = ['a.js', 'lib/a.js', 'lib/x/a.js', 'src/lib/a.js', 'a.md', 'b.md', 'c.md', 'x/b.md', 'a', 'b', 'c', 'a{single}b', 'b.x', 'd.x', '/.x', 'zy', '[a/b]', 'x[', 'x{', '*.md', 'x.md', 'abc', 'a/c', 'docs/x.md', 'docs/a/b/x.md', 'fix', 'prefix', 'a,b', 'a]b'];
  it.each(globs)('%s', (glob) => {
    const g = compileGlob(glob);
    for (const p of paths) expect([glob, p, g.re.test(p)]).toEqual([glob, p, globMatches(g, p)]);
  });
  it('a section glob that makes a RegExp backtrack exponentially is answered at once', () => {
    const t = performance.now();
    expect(m('*a*a*a*a*a*a*a*a*a*a*b', 'a'.repeat(300))).toBe(false);
    expect(m('{1..2}*a*a*a*a*a*a*b', `1${'a'.repeat(300)}`)).toBe(false);
    expect(performance.now() - t).toBeLessThan(500);
  });
});
