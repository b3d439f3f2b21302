import { describe, it, expect } from '@jest/globals';
import { createHash } from 'node:crypto';
import {
  getGitignore,
  getLabelTemplate,
  getLicense,
  listGitignoreNames,
  listLabelTemplateNames,
  listLicenseNames,
} from '../../src/templates/index.js';

const md5 = (text: string): string => createHash('md5').update(text, 'utf8').digest('hex');

const byteSorted = (names: readonly string[]): string[] =>
  [...names].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));

const PATH_LIKE = [
  '',
  '.',
  '..',
  '../MIT',
  '../../etc/passwd',
  '/etc/passwd',
  'MIT/',
  './MIT',
  'MIT/../MIT',
  'Global/macOS',
  'Node\u0000',
  '..\\MIT',
  'Node.gitignore',
  '%2e%2e%2fMIT',
];

describe('gitignore templates', () => {
  const required = [
    'Node', 'Go', 'Python', 'Java', 'C', 'C++', 'Rust', 'Ruby', 'Kotlin', 'Swift',
    'macOS', 'Windows', 'Linux', 'JetBrains', 'VisualStudioCode',
  ];

  it('ships the common templates under their Gitea names', () => {
    const names = listGitignoreNames();
    for (const name of required) {
      expect(names).toContain(name);
      const text = getGitignore(name);
      expect(typeof text).toBe('string');
      expect((text ?? '').length).toBeGreaterThan(0);
      expect(text?.endsWith('\n')).toBe(true);
    }
  });

  it('lists names sorted and unique', () => {
    const names = listGitignoreNames();
    expect(names).toEqual(byteSorted(names));
    expect(new Set(names).size).toBe(names.length);
  });

  it('returns a fresh array each time', () => {
    const names = listGitignoreNames();
    names.pop();
    expect(listGitignoreNames().length).toBe(names.length + 1);
  });

  it('has the expected content', () => {
    expect(getGitignore('Node')).toContain('node_modules/');
    expect(getGitignore('Go')).toContain('# Test binary, built with `go test -c`\n*.test\n');
    expect(getGitignore('Python')).toContain('__pycache__/');
    expect(getGitignore('Java')).toContain('*.class');
    expect(getGitignore('C')).toContain('*.o\n');
    expect(getGitignore('C++')).toContain('*.obj\n');
    expect(getGitignore('Rust')).toContain('target/');
    expect(getGitignore('macOS')).toContain('.DS_Store');
    // The macOS template's "Icon\r\r" line survives the template literal.
    expect(getGitignore('macOS')).toContain('\nIcon\r\r\n');
    expect(getGitignore('macOS')).toContain('# Icon must end with two \\r\n');
    expect(getGitignore('Windows')).toContain('Thumbs.db');
    expect(getGitignore('VisualStudioCode')).toContain('.vscode/*');
    expect(getGitignore('JetBrains')).toContain('.idea/**/workspace.xml');
  });

  it('matches names exactly and case-sensitively', () => {
    expect(getGitignore('node')).toBeUndefined();
    expect(getGitignore('NODE')).toBeUndefined();
    expect(getGitignore(' Node')).toBeUndefined();
    expect(getGitignore('macos')).toBeUndefined();
    expect(getGitignore('NoSuchTemplate')).toBeUndefined();
    for (const name of PATH_LIKE) expect(getGitignore(name)).toBeUndefined();
  });

  it('does not resolve inherited object properties', () => {
    for (const name of ['constructor', '__proto__', 'toString', 'hasOwnProperty']) {
      expect(getGitignore(name)).toBeUndefined();
      expect(getLicense(name)).toBeUndefined();
      expect(getLabelTemplate(name)).toBeUndefined();
    }
  });
});

describe('licence templates', () => {
  const required = [
    'MIT', 'Apache-2.0', 'GPL-3.0', 'GPL-3.0-only', 'GPL-3.0-or-later', 'BSD-2-Clause',
    'BSD-3-Clause', 'MPL-2.0', 'ISC', 'Unlicense', 'LGPL-3.0-only', 'AGPL-3.0-only',
  ];

  it('ships the common licences under their SPDX ids', () => {
    const names = listLicenseNames();
    for (const name of required) {
      expect(names).toContain(name);
      expect((getLicense(name) ?? '').length).toBeGreaterThan(100);
    }
  });

  it('lists names sorted and unique', () => {
    const names = listLicenseNames();
    expect(names).toEqual(byteSorted(names));
    expect(new Set(names).size).toBe(names.length);
  });

  it('has the MIT text with Gitea placeholders', () => {
    const mit = getLicense('MIT') ?? '';
    expect(mit.startsWith('MIT License\n\nCopyright (c) <year> <copyright holders>\n')).toBe(true);
    expect(mit).toContain('Permission is hereby granted');
    expect(mit).toContain('THE SOFTWARE IS PROVIDED "AS IS"');
  });

  it('has the Apache, GNU, MPL and BSD texts', () => {
    const apache = getLicense('Apache-2.0') ?? '';
    expect(apache).toContain('Apache License');
    expect(apache).toContain('Version 2.0');
    expect(apache).toContain('APPENDIX: How to apply the Apache License to your work.');

    const gpl = getLicense('GPL-3.0') ?? '';
    expect(gpl).toContain('GNU GENERAL PUBLIC LICENSE');
    expect(gpl).toContain('Version 3, 29 June 2007');
    expect(gpl).toContain('TERMS AND CONDITIONS');
    expect(gpl).toContain('END OF TERMS AND CONDITIONS');
    // Backticks in "type `show w'" survive the template literal.
    expect(gpl).toContain("type `show w'");

    expect(getLicense('AGPL-3.0-only')).toContain('GNU AFFERO GENERAL PUBLIC LICENSE');
    expect(getLicense('AGPL-3.0-only')).toContain('13. Remote Network Interaction');
    expect(getLicense('LGPL-3.0-only')).toContain('GNU LESSER GENERAL PUBLIC LICENSE');
    expect(getLicense('MPL-2.0')).toContain('Mozilla Public License Version 2.0');
    expect(getLicense('BSD-3-Clause')).toContain('<year> <owner>');
    expect(getLicense('BSD-3-Clause')).toContain('3. Neither the name of the copyright holder');
    expect(getLicense('BSD-2-Clause')).not.toContain('3. Neither');
    expect(getLicense('Unlicense')).toContain('This is free and unencumbered software');
    expect(getLicense('ISC')).toContain('ISC License');
  });

  it('uses one text for the -only, -or-later and legacy ids', () => {
    const gpl = getLicense('GPL-3.0');
    expect(getLicense('GPL-3.0-only')).toBe(gpl);
    expect(getLicense('GPL-3.0-or-later')).toBe(gpl);
    expect(getLicense('LGPL-3.0-or-later')).toBe(getLicense('LGPL-3.0-only'));
    expect(getLicense('AGPL-3.0-or-later')).toBe(getLicense('AGPL-3.0-only'));
    expect(getLicense('GPL-2.0-only')).toBe(getLicense('GPL-2.0'));
  });

  it('keeps the official texts byte for byte', () => {
    // MD5 sums of the published plain-text licences (FSF, ASF, Mozilla, Creative Commons)
    // and of Gitea 1.22's options/license files. A change here means a text was edited.
    const expected: Record<string, string> = {
      'GPL-3.0-only': '1ebbd3e34237af26da5dc08a4e440464',
      'GPL-2.0-only': 'b234ee4d69f5fce4486a80fdaf4a4263',
      'LGPL-3.0-only': '3000208d539ec061b899bce1d9ce9404',
      'LGPL-2.1-only': '4fbd65380cdd255951079008b364516c',
      'AGPL-3.0-only': '73f1eb20517c55bf9493b7dd6e480788',
      'Apache-2.0': '3b83ef96387f14655fc854ddc3c6bd57',
      'MPL-2.0': '815ca599c9df247a0c7f619bab123dad',
      'CC0-1.0': '65d3616852dbf7b1a6d4b53b00626032',
      MIT: '4dd71a82d66fd9e3ca0cc65b8be370c0',
      'BSD-2-Clause': '534956ece1a160a65f088a8f82672ef9',
      'BSD-3-Clause': 'f225922a2c12dfa5218fb70c49db3ea6',
      ISC: '41079f7f3544c501740d9990ea78a28b',
      Unlicense: 'f81ae6426cdf07c7d66b441bebcefc5d',
      '0BSD': 'f4831c6380a0963eb571c92720fbf305',
    };
    for (const [id, sum] of Object.entries(expected)) {
      const text = getLicense(id);
      expect(text).toBeDefined();
      expect([id, md5(text ?? '')]).toEqual([id, sum]);
    }
  });

  it('matches ids exactly and case-sensitively', () => {
    expect(getLicense('mit')).toBeUndefined();
    expect(getLicense('apache-2.0')).toBeUndefined();
    expect(getLicense('GPL-3')).toBeUndefined();
    expect(getLicense('MIT ')).toBeUndefined();
    expect(getLicense('NoSuchLicense')).toBeUndefined();
    for (const name of PATH_LIKE) expect(getLicense(name)).toBeUndefined();
  });
});

describe('label templates', () => {
  it('lists Advanced and Default', () => {
    expect(listLabelTemplateNames()).toEqual(['Advanced', 'Default']);
  });

  it('has the seven Default labels with Gitea colours and descriptions', () => {
    const labels = getLabelTemplate('Default');
    expect(labels).toBeDefined();
    expect((labels ?? []).map((l) => [l.name, l.color])).toEqual([
      ['bug', 'ee0701'],
      ['duplicate', 'cccccc'],
      ['enhancement', '84b6eb'],
      ['help wanted', '128a0c'],
      ['invalid', 'e6e6e6'],
      ['question', 'cc317c'],
      ['wontfix', 'ffffff'],
    ]);
    const bug = (labels ?? []).find((l) => l.name === 'bug');
    expect(bug).toEqual({ name: 'bug', color: 'ee0701', description: 'Something is not working', exclusive: false });
    expect((labels ?? []).find((l) => l.name === 'wontfix')?.description).toBe("This won't be fixed");
    expect((labels ?? []).every((l) => !l.exclusive && l.description.length > 0)).toBe(true);
  });

  it('has exclusive scoped labels in Advanced', () => {
    const labels = getLabelTemplate('Advanced') ?? [];
    expect(labels.length).toBeGreaterThan(0);
    const scope = (name: string): string => name.slice(0, name.lastIndexOf('/'));
    for (const l of labels) {
      expect(l.name).toMatch(/^[^/]+\/[^/]+$/);
      expect(l.description.length).toBeGreaterThan(0);
      const s = scope(l.name);
      if (s === 'Priority' || s === 'Reviewed' || s === 'Status') expect(l.exclusive).toBe(true);
      if (s === 'Kind' || s === 'Compat') expect(l.exclusive).toBe(false);
    }
    const scopes = new Set(labels.map((l) => scope(l.name)));
    for (const s of ['Kind', 'Priority', 'Reviewed', 'Status']) expect(scopes.has(s)).toBe(true);
    expect(labels.find((l) => l.name === 'Priority/Critical')).toEqual({
      name: 'Priority/Critical',
      color: 'b71c1c',
      description: 'The priority is critical',
      exclusive: true,
    });
    expect(labels.find((l) => l.name === 'Kind/Bug')?.color).toBe('ee0701');
    expect(labels.find((l) => l.name === 'Status/Abandoned')?.color).toBe('222222');
  });

  it('stores every colour as 6 lowercase hex digits without #', () => {
    for (const name of listLabelTemplateNames()) {
      for (const l of getLabelTemplate(name) ?? []) expect(l.color).toMatch(/^[0-9a-f]{6}$/);
    }
  });

  it('has unique label names within a set', () => {
    for (const name of listLabelTemplateNames()) {
      const labels = getLabelTemplate(name) ?? [];
      expect(new Set(labels.map((l) => l.name)).size).toBe(labels.length);
    }
  });

  it('cannot be modified through the returned arrays', () => {
    const labels = getLabelTemplate('Default');
    expect(Object.isFrozen(labels)).toBe(true);
    expect(Object.isFrozen(labels?.[0])).toBe(true);
  });

  it('matches names exactly and case-sensitively', () => {
    expect(getLabelTemplate('default')).toBeUndefined();
    expect(getLabelTemplate('ADVANCED')).toBeUndefined();
    expect(getLabelTemplate('Default.yaml')).toBeUndefined();
    expect(getLabelTemplate('NoSuchSet')).toBeUndefined();
    for (const name of PATH_LIKE) expect(getLabelTemplate(name)).toBeUndefined();
  });
});
