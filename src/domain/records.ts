/** Stored records the services return and the converters shape (plain data, no behaviour). */

export interface PublicKeyRecord {
  readonly id: number;
  readonly ownerId: number;
  readonly name: string;
  readonly fingerprint: string;
  readonly content: string;
  readonly keyTypeName: string;
  readonly type: number;
  readonly readOnly: boolean;
  readonly createdUnix: number;
  readonly updatedUnix: number;
}

export interface EmailRecord {
  readonly id: number;
  readonly uid: number;
  readonly email: string;
  readonly isActivated: boolean;
  readonly isPrimary: boolean;
}
export interface EmailSearchRow {
  readonly email: string;
  readonly uid: number;
  readonly username: string;
  readonly isActivated: boolean;
  readonly isPrimary: boolean;
}

export interface TokenRecord {
  readonly id: number;
  readonly uid: number;
  readonly name: string;
  readonly tokenLastEight: string;
  readonly scope: string;
  readonly createdUnix: number;
  readonly updatedUnix: number;
}
