/** A deploy key: the link of a shared public_key row (type 2) to one repository, with its own title and mode. */
export interface DeployKeyRecord {
  readonly id: number;
  /** The public_key row, shared by every repository using the key. */
  readonly keyId: number;
  readonly repoId: number;
  readonly name: string;
  readonly fingerprint: string;
  /** 1 read, 2 write (Gitea's AccessMode). */
  readonly mode: number;
  readonly content: string;
  readonly createdUnix: number;
}
