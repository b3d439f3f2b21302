/** section -> key -> raw value; keys before any section header live in section ''. */
export type IniDocument = Record<string, Record<string, string>>;

/**
 * Gitea's app.ini dialect (go-ini): `[section]`, `KEY = value`, `;` or `#` comments on their own line,
 * values optionally wrapped in double quotes or backquotes. Throws with the line number on a malformed line.
 */
export function parseIni(text: string): IniDocument {
  const doc: IniDocument = { '': {} };
  let section = '';
  const lines = text.split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!.trim();
    if (line === '' || line.startsWith(';') || line.startsWith('#')) continue;
    if (line.startsWith('[')) {
      const m = /^\[([^\]]+)\]$/.exec(line);
      if (!m) throw new Error(`line ${i + 1}: malformed section header "${line}"`);
      section = m[1]!.trim();
      doc[section] ??= {};
      continue;
    }
    const eq = line.indexOf('=');
    if (eq <= 0) throw new Error(`line ${i + 1}: expected KEY = value, got "${line}"`);
    const key = line.slice(0, eq).trim();
    let value = line.slice(eq + 1).trim();
    if (value.length >= 2 && ((value.startsWith('"') && value.endsWith('"')) || (value.startsWith('`') && value.endsWith('`')))) {
      value = value.slice(1, -1);
    }
    doc[section]![key] = value;
  }
  return doc;
}
