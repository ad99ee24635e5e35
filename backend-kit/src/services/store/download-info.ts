import { PluginHostError, type DownloadInfo } from '@plughost/host-sdk/core';

/**
 * Refuses Download info whose `size` exceeds the package limit, so no download of a package the
 * backend would refuse anyway is started. The info's shape is checked by the registry client.
 *
 * @throws PluginHostError `PACKAGE_TOO_LARGE` when `size` exceeds `maxPackageBytes`.
 */
export function checkDownloadSize(info: DownloadInfo, maxPackageBytes: number): DownloadInfo {
  if (info.size > maxPackageBytes) {
    throw new PluginHostError(
      'PACKAGE_TOO_LARGE',
      `Package too large: the store's package has ${info.size} bytes, more than maxPackageBytes (${maxPackageBytes})`,
      {
        limit: 'maxPackageBytes',
        maximum: maxPackageBytes,
      },
    );
  }
  return info;
}
