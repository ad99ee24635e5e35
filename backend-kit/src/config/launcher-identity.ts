/** A person credited in system information. */
export interface LauncherDeveloper {
  name: string;
  role: string;
}

/** A library the launcher is built on, for system information. */
export interface CoreDependency {
  name: string;
  version: string;
  license: string;
}

/** Who the launcher is, reported by `GET /api/systeminfo`. */
export interface LauncherIdentity {
  /** Shown to users, e.g. `"Acme Launcher"`. */
  name: string;
  /** Semver; its pre-release tag gives `VersionType` (`alpha`, `beta`, `rc`, `dev`, else `stable`). */
  version: string;
  /** The commit the launcher was built from. */
  gitCommit?: string;
  developers?: readonly LauncherDeveloper[];
  coreDependencies?: readonly CoreDependency[];
}
