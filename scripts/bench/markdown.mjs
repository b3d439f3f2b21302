// Markdown rendering throughput: our full pipeline (marked + our extensions + reference linking + sanitize-html)
// against plain `marked.parse` on the same ~20 KB README, measured in the same run. Target: ours costs at most
// 2x plain marked. Runs against the built code in dist/ (npm run build). Standalone: node scripts/bench/markdown.mjs
import { pathToFileURL } from 'node:url';
import { marked } from 'marked';
import { createMarkupRenderer } from '../../dist/src/markup/index.js';

/** A realistic README: headings, prose with inline markup and links, lists, task lists, tables, code, quotes. */
export function sampleReadme(targetBytes = 20_000) {
  const parts = ['# Anvil\n\n[![build](https://ci.example.com/badge.svg)](https://ci.example.com) [![license](https://img.shields.io/badge/license-MIT-blue.svg)](LICENSE)\n\n'];
  let i = 0;
  while (parts.join('').length < targetBytes) {
    i++;
    parts.push(
      `## Section ${i}: getting things done\n\n`,
      `Anvil is a **self-hosted** git service with a _Gitea-compatible_ API. See [the guide](docs/guide-${i}.md), ` +
        `the [API reference](https://example.com/api/${i}) and \`anvil web --config app.ini\` for details. ` +
        `Issues go to #${i} and mentions like @alice reach people; https://example.com/auto/${i} is autolinked.\n\n`,
      `- install with \`npm ci\`\n- run \`npm run build\`\n  - nested item with *emphasis*\n  - another ~~old~~ new item\n- [x] done task\n- [ ] open task\n\n`,
      `| Setting | Default | Meaning |\n|---|:-:|---|\n| \`HTTP_PORT\` | 3000 | port to listen on |\n| \`ROOT_URL\` | http://localhost:3000/ | public URL |\n| \`LEVEL\` | info | log level |\n\n`,
      '```ts\nimport { createApp } from "./app.js";\n\nconst app = await createApp({ config });\napp.listen(3000, () => console.log("ready"));\n```\n\n',
      `> **Note**\n> Keep the database and repositories on the same disk ${i}.\n\n`,
      `1. first step\n2. second step with a [link](https://example.com/step/${i} "title")\n3. third step\n\n`,
    );
  }
  return parts.join('');
}

/** ms per document over `ms` milliseconds of back-to-back renders. */
function msPerDoc(fn, input, ms) {
  let n = 0;
  const start = performance.now();
  let elapsed = 0;
  while (elapsed < ms) {
    fn(input);
    n++;
    elapsed = performance.now() - start;
  }
  return elapsed / n;
}

const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];

/**
 * Both renderers warmed up, then `rounds` alternating runs of each: JIT tiers and garbage collections land in
 * one run or another, and the median of each side is compared, not two single runs taken a second apart.
 */
function compare(a, b, input, ms, rounds = 7) {
  for (let i = 0; i < 50; i++) {
    a(input);
    b(input);
  }
  const as = [];
  const bs = [];
  for (let r = 0; r < rounds; r++) {
    as.push(msPerDoc(a, input, ms / rounds));
    bs.push(msPerDoc(b, input, ms / rounds));
  }
  return [median(as), median(bs)];
}

/** The same README with the raw HTML many READMEs carry (centred header, collapsible section). */
export function sampleReadmeWithHtml(targetBytes = 20_000) {
  const body = sampleReadme(targetBytes - 400);
  return `<p align="center">\n  <img src="docs/logo.png" alt="logo" width="120">\n</p>\n\n${body}\n<details>\n<summary>Changelog</summary>\n\n- 1.0: <b>first</b> release\n\n</details>\n`;
}

export async function benchMarkdown({ ms = 2100 } = {}) {
  const renderer = createMarkupRenderer();
  const appUrl = 'http://localhost:3000/';
  const req = { kind: 'document', base: `${appUrl}owner/repo/`, appUrl, wiki: false, repoLink: `${appUrl}owner/repo`, mentionable: new Set(['alice']), commits: new Set() };
  const lines = [`\nmarkdown rendering: anvil pipeline (marked + extensions + references + sanitizing) vs plain marked.parse, ${ms} ms each in 7 alternating runs, medians`];
  for (const [name, readme, note] of [
    ['README, markdown only', sampleReadme(), 'renderer output only: no raw HTML to sanitize'],
    ['README with raw HTML', sampleReadmeWithHtml(), 'raw HTML through sanitize-html, our markup kept apart'],
  ]) {
    const [raw, ours] = compare(
      (s) => marked.parse(s, { gfm: true }),
      (s) => renderer.render(s, req),
      readme,
      ms,
    );
    lines.push(
      `  ${name} (${(Buffer.byteLength(readme) / 1024).toFixed(1)} KB): marked ${raw.toFixed(2)} ms/doc, anvil ${ours.toFixed(2)} ms/doc` +
        ` -> cost ratio ${(ours / raw).toFixed(2)}x (target <= 2; ${note})`,
    );
  }
  return lines;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  for (const line of await benchMarkdown()) console.log(line);
}
