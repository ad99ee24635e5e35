/**
 * Checks `layers` and `permissions`: arrays of distinct values from a fixed set.
 */
import { isPermissionId, type PermissionId } from '../permissions.js';
import { describeJsonType, readArray, type FieldReader } from './field-reader.js';
import { LAYERS, type Layer } from './manifest-types.js';

function isLayer(value: unknown): value is Layer {
  return LAYERS.some((layer) => layer === value);
}

/**
 * Reads a required array of distinct strings accepted by `accept`. Returns `undefined` when the
 * field is missing or not an array; otherwise the accepted values (problems reported for the rest).
 */
function readDistinct<T extends string>(
  reader: FieldReader,
  key: string,
  accept: (value: unknown) => value is T,
  explain: (value: unknown) => string,
): T[] | undefined {
  if (!reader.require(key)) return undefined;
  const items = readArray(reader.report, reader.pathOf(key), reader.get(key));
  if (items === null) return undefined;
  const values: T[] = [];
  for (const item of items) {
    if (!accept(item.value)) {
      reader.report.error(item.path, explain(item.value));
    } else if (values.includes(item.value)) {
      reader.report.error(item.path, `repeats "${item.value}"`);
    } else {
      values.push(item.value);
    }
  }
  return values;
}

/** Reads `layers`: a non-empty array of distinct values `l0` to `l4`. */
export function readLayers(reader: FieldReader): Layer[] | undefined {
  const layers = readDistinct(reader, 'layers', isLayer, (value) =>
    typeof value === 'string' ? `must be one of ${LAYERS.join(', ')} (got "${value}")` : `must be a layer string (got ${describeJsonType(value)})`,
  );
  const raw = reader.get('layers');
  if (Array.isArray(raw) && raw.length === 0) {
    reader.report.error(reader.pathOf('layers'), `must list at least one layer (${LAYERS.join(', ')})`);
  }
  return layers;
}

/** Reads `permissions`: an array (possibly empty) of distinct ids of the permission table. */
export function readPermissions(reader: FieldReader): PermissionId[] | undefined {
  return readDistinct(reader, 'permissions', isPermissionId, (value) =>
    typeof value === 'string'
      ? `is not a permission id ("${value}"); see the permission table in docs/package-format.md`
      : `must be a permission id string (got ${describeJsonType(value)})`,
  );
}
