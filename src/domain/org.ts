import { AccessMode } from './repo.js';
import type { User } from './user.js';

/** Repository units a team can be given (Gitea's unit keys). */
export const TEAM_UNITS = [
  'repo.code',
  'repo.issues',
  'repo.ext_issues',
  'repo.wiki',
  'repo.ext_wiki',
  'repo.pulls',
  'repo.releases',
  'repo.projects',
  'repo.packages',
  'repo.actions',
] as const;
export type TeamUnit = (typeof TEAM_UNITS)[number];
/** External units can never be written: Gitea caps them at read. */
export const EXTERNAL_UNITS: readonly string[] = ['repo.ext_issues', 'repo.ext_wiki'];

export const MODE_NAMES = ['none', 'read', 'write', 'admin', 'owner'] as const;
export type ModeName = (typeof MODE_NAMES)[number];
export const modeName = (m: number): ModeName => MODE_NAMES[m] ?? 'none';
export const parseModeName = (s: string | undefined): number => {
  const i = MODE_NAMES.indexOf((s ?? '') as ModeName);
  return i < 0 ? AccessMode.none : i;
};

export const OWNERS_TEAM = 'Owners';

export interface Team {
  readonly id: number;
  readonly orgId: number;
  readonly name: string;
  readonly lowerName: string;
  readonly description: string;
  /** Team access mode (1 read .. 4 owner). */
  readonly mode: number;
  /** Unit name -> access mode. */
  readonly units: Readonly<Record<string, number>>;
  readonly includesAllRepositories: boolean;
  readonly canCreateOrgRepo: boolean;
}

export const isOwnersTeam = (t: Team): boolean => t.mode >= AccessMode.owner;

/** Every unit at `mode`, external ones at read (how Gitea equips admin and owner teams). */
export function allUnits(mode: number): Record<string, number> {
  const out: Record<string, number> = {};
  for (const u of TEAM_UNITS) out[u] = EXTERNAL_UNITS.includes(u) ? AccessMode.read : mode;
  return out;
}

/** What a user may do in an organization, from their teams (GET /users/{u}/orgs/{org}/permissions). */
export interface OrgPermissions {
  readonly isOwner: boolean;
  readonly isAdmin: boolean;
  readonly canWrite: boolean;
  readonly canRead: boolean;
  readonly canCreateRepository: boolean;
}

export interface Label {
  readonly id: number;
  readonly repoId: number;
  readonly orgId: number;
  readonly name: string;
  readonly exclusive: boolean;
  readonly description: string;
  /** Stored as Gitea does: '#' and six lower-case hex digits (the API shows it without '#'). */
  readonly color: string;
  readonly archivedUnix: number;
}

/**
 * Gitea's HasOrgOrUserVisible for organizations: anonymous callers see public ones; site admins all;
 * private organizations only their members, and restricted users only organizations they belong to.
 */
export function canSeeOrg(org: User, viewer: User | null, isMember: boolean): boolean {
  if (!viewer) return org.visibility === 'public';
  if (viewer.isAdmin || viewer.id === org.id) return true;
  if ((org.visibility === 'private' || viewer.isRestricted) && !isMember) return false;
  return true;
}

/**
 * Gitea's label.NormalizeColor: lower-cased and trimmed, '#' added to 3 or 6 characters, then #rgb or
 * #rrggbb; short forms are expanded. Returns the stored form (`#rrggbb`) or Gitea's error text.
 */
export function normalizeLabelColor(input: string): { color: string } | { error: string } {
  let c = input.trim().toLowerCase();
  if (c.length === 6 || c.length === 3) c = `#${c}`;
  if (!/^#([0-9a-f]{6}|[0-9a-f]{3})$/.test(c)) return { error: `bad color code: ${c}` };
  if (c.length === 4) c = `#${c[1]}${c[1]}${c[2]}${c[2]}${c[3]}${c[3]}`;
  return { color: c };
}
