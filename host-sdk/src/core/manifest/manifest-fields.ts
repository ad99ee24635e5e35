/**
 * The top-level fields of a manifest. Apart from the validator, so that a reader of installed
 * manifests (the launcher page) does not reach the validator's rules.
 */

/** Every top-level field a manifest may have; anything else gives a warning. */
export const MANIFEST_FIELDS: readonly string[] = [
  '$schema',
  'id',
  'name',
  'version',
  'minLauncherVersion',
  'layers',
  'permissions',
  'entry',
  'render',
  'icon',
  'dependencies',
  'contributes',
  'description',
  'author',
  'homepage',
  'license',
];
