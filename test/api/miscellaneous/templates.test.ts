import { describe, it, expect, beforeAll, afterAll } from '@jest/globals';
import { describeDb, startServer, type TestServer } from '../../helpers/server.js';

/** Go's sort.Strings order (byte order: upper case before lower case). */
const byteSorted = (names: readonly string[]): string[] => [...names].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));

/** Names that must not reach outside the template store (BEHAVIOUR.md §9.3: names are path-cleaned). */
const TRAVERSAL = ['..%2F..%2Fetc', '..%2F..%2Fetc%2Fpasswd', '%2e%2e%2FMIT', '..%2FMIT', '%2Fetc%2Fpasswd', 'Node%00', '..%5C..%5Cwindows'];

describeDb('miscellaneous templates', () => {
  let s: TestServer;
  let notFound: { message: string; url: string };
  beforeAll(async () => {
    s = await startServer();
    notFound = { message: "The target couldn't be found.", url: `${s.url}/api/swagger` };
  });
  afterAll(async () => s?.close());

  const expectNotFound = (r: { status: number; body: any }) => {
    expect(r.status).toBe(404);
    expect(r.body).toMatchObject(notFound);
  };

  describe('gitignore', () => {
    it('listGitignoresTemplates: sorted names including the common languages', async () => {
      const r = await s.client.get('/gitignore/templates');
      expect(r.status).toBe(200);
      expect(r.body).toEqual(byteSorted(r.body));
      expect(r.body).toEqual(expect.arrayContaining(['Node', 'Go', 'Python', 'Java', 'C', 'Rust']));
      expect(r.headers.get('x-total-count')).toBeNull();
    });

    it('getGitignoreTemplateInfo: name and source', async () => {
      const r = await s.client.get('/gitignore/templates/Node');
      expect(r.status).toBe(200);
      expect(Object.keys(r.body).sort()).toEqual(['name', 'source']);
      expect(r.body.name).toBe('Node');
      expect(r.body.source).toContain('node_modules/');
    });

    it('every listed template can be fetched', async () => {
      const list = (await s.client.get('/gitignore/templates')).body as string[];
      for (const name of list) {
        const r = await s.client.get(`/gitignore/templates/${encodeURIComponent(name)}`);
        expect(r.status).toBe(200);
        expect(r.body.name).toBe(name);
        expect(r.body.source.length).toBeGreaterThan(0);
      }
    });

    it('unknown names and wrong case are 404', async () => {
      expectNotFound(await s.client.get('/gitignore/templates/NoSuchLanguage'));
      expectNotFound(await s.client.get('/gitignore/templates/node'));
    });

    it.each(TRAVERSAL)('path traversal %s is 404', async (name) => {
      expectNotFound(await s.client.get(`/gitignore/templates/${name}`));
    });
  });

  describe('licenses', () => {
    it('listLicenseTemplates: key, name and url for each, including the common licences', async () => {
      const r = await s.client.get('/licenses');
      expect(r.status).toBe(200);
      const keys = (r.body as { key: string }[]).map((l) => l.key);
      expect(keys).toEqual(byteSorted(keys));
      expect(keys).toEqual(expect.arrayContaining(['MIT', 'Apache-2.0', 'GPL-3.0', 'BSD-3-Clause', 'MPL-2.0']));
      for (const l of r.body as { key: string; name: string; url: string }[]) {
        expect(Object.keys(l).sort()).toEqual(['key', 'name', 'url']);
        expect(l.name).toBe(l.key);
        expect(l.url).toBe(`${s.url}/api/v1/licenses/${encodeURIComponent(l.key)}`);
      }
    });

    it('getLicenseTemplateInfo: key, name, url, body and implementation', async () => {
      const r = await s.client.get('/licenses/MIT');
      expect(r.status).toBe(200);
      expect(Object.keys(r.body).sort()).toEqual(['body', 'implementation', 'key', 'name', 'url']);
      expect(r.body).toMatchObject({ key: 'MIT', name: 'MIT', url: `${s.url}/api/v1/licenses/MIT` });
      expect(r.body.body).toContain('Permission is hereby granted, free of charge');
      expect(r.body.implementation).toMatch(/LICENSE/);
    });

    it('the url of a listed licence leads to its detail', async () => {
      const list = (await s.client.get('/licenses')).body as { key: string; url: string }[];
      const apache = list.find((l) => l.key === 'Apache-2.0')!;
      const res = await fetch(apache.url);
      expect(res.status).toBe(200);
      const detail = (await res.json()) as { key: string; body: string };
      expect(detail.key).toBe('Apache-2.0');
      expect(detail.body).toContain('Apache License');
    });

    it('unknown names are 404', async () => {
      expectNotFound(await s.client.get('/licenses/NOT-A-LICENSE'));
      expectNotFound(await s.client.get('/licenses/mit'));
    });

    it.each(TRAVERSAL)('path traversal %s is 404', async (name) => {
      expectNotFound(await s.client.get(`/licenses/${name}`));
    });
  });

  describe('label templates', () => {
    it('listLabelTemplates: Advanced and Default', async () => {
      const r = await s.client.get('/label/templates');
      expect(r.status).toBe(200);
      expect(r.body).toEqual(byteSorted(r.body));
      expect(r.body).toEqual(expect.arrayContaining(['Advanced', 'Default']));
    });

    it('getLabelTemplateInfo Default: Gitea\'s default labels with lowercase 6-hex colours', async () => {
      const r = await s.client.get('/label/templates/Default');
      expect(r.status).toBe(200);
      const byName = Object.fromEntries((r.body as { name: string; color: string }[]).map((l) => [l.name, l.color]));
      expect(byName).toEqual({
        bug: 'ee0701',
        duplicate: 'cccccc',
        enhancement: '84b6eb',
        'help wanted': '128a0c',
        invalid: 'e6e6e6',
        question: 'cc317c',
        wontfix: 'ffffff',
      });
      for (const l of r.body) {
        expect(Object.keys(l).sort()).toEqual(['color', 'description', 'exclusive', 'name']);
        expect(l.exclusive).toBe(false);
      }
    });

    it('getLabelTemplateInfo Advanced: scoped labels, exclusive where Gitea has them so', async () => {
      const r = await s.client.get('/label/templates/Advanced');
      expect(r.status).toBe(200);
      const labels = r.body as { name: string; color: string; description: string; exclusive: boolean }[];
      for (const prefix of ['Kind/', 'Priority/', 'Reviewed/', 'Status/']) {
        expect(labels.some((l) => l.name.startsWith(prefix))).toBe(true);
      }
      for (const prefix of ['Priority/', 'Reviewed/', 'Status/']) {
        expect(labels.filter((l) => l.name.startsWith(prefix)).every((l) => l.exclusive)).toBe(true);
      }
    });

    it('all label colours are six lowercase hex digits without #', async () => {
      for (const name of (await s.client.get('/label/templates')).body as string[]) {
        const r = await s.client.get(`/label/templates/${encodeURIComponent(name)}`);
        expect(r.status).toBe(200);
        expect(r.body.length).toBeGreaterThan(0);
        for (const l of r.body) expect(l.color).toMatch(/^[0-9a-f]{6}$/);
      }
    });

    it('unknown names are 404', async () => {
      expectNotFound(await s.client.get('/label/templates/Nope'));
      expectNotFound(await s.client.get('/label/templates/default'));
    });

    it.each(TRAVERSAL)('path traversal %s is 404', async (name) => {
      expectNotFound(await s.client.get(`/label/templates/${name}`));
    });
  });
});
