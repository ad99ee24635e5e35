/**
 * How the operating system names itself, in the four `Os*` fields of system information. On
 * Linux these are os-release's `NAME`, `VERSION`, `VERSION_ID` and `PRETTY_NAME`; the other
 * platforms fill the same roles.
 */
export interface OsDescription {
  /** The system's name without version, e.g. `Debian GNU/Linux`, `macOS`, `Windows`. */
  readonly name: string;
  /** The version as the system words it, e.g. `12 (bookworm)`, `14.4.1 (23E224)`, `11 (10.0.22631)`. */
  readonly version: string;
  /** The version for machines, e.g. `12`, `14.4.1`, `11`. */
  readonly versionId: string;
  /** A name for people, e.g. `Debian GNU/Linux 12 (bookworm)`, `macOS 14.4.1`, `Windows 11 Pro`. */
  readonly displayName: string;
}
