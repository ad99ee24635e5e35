/**
 * What step one of a store install learnt about a package besides its bytes: which source
 * answered and what its listing said. Step two judges the package against these, never against
 * anything the launcher page sends back.
 */
export interface StorePackageFacts {
  /** Lower-case hex SHA-256 of the package bytes (what the install dialog was built from). */
  readonly sha256: string;
  readonly slug: string;
  /** The exact version the listing names (`latest` resolved). */
  readonly version: string;
  /** The plugin id the package must have: the primary's for this slug when known, else the answering source's listing. */
  readonly listedId: string;
  /** Permission ids the listing showed for this version. */
  readonly listedPermissions: readonly string[];
  /** The source whose listing and Download info were used. */
  readonly source: { readonly url: string; readonly primary: boolean };
  /** The host the bytes came from (the download URL's or the mirror's), for the install log. */
  readonly downloadedFrom: string;
  /** When the package was kept (epoch milliseconds); 0 before. */
  readonly keptAt: number;
}
