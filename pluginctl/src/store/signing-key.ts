import { readFile } from 'node:fs/promises';
import { isPluginHostError } from '@plughost/host-sdk/core';
import { readPrivateKey, type Ed25519PrivateKey } from '@plughost/host-sdk/node';
import { CliError } from '../cli-error.js';

/**
 * The signing key of `publish`: `--key` (a file holding a PKCS#8 PEM or base64 seed, or the base64
 * seed itself, as `pack --key` takes it), else `PLUGINCTL_SIGN_KEY` (the key text). Messages never
 * echo key material.
 *
 * @throws CliError `SIGN_KEY_REQUIRED` when neither is given, `INVALID_KEY` when it is unreadable.
 */
export async function loadSigningKey(option: string | undefined, env: Readonly<Record<string, string | undefined>>): Promise<Ed25519PrivateKey> {
  let text: string;
  let where: string;
  if (option !== undefined) {
    where = `--key ${option.length > 60 ? '(inline key)' : option}`;
    try {
      text = await readFile(option, 'utf8');
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'ENOENT' && code !== 'ENAMETOOLONG') throw new CliError('INVALID_KEY', `The key file ${option} cannot be read (${code ?? 'error'}).`);
      if (/[/\\]|\.(pem|key|txt)$/i.test(option))
        throw new CliError('INVALID_KEY', `No key file at ${option}. Give --key a PKCS#8 PEM file or the base64 of a 32-byte seed.`);
      where = '--key';
      text = option;
    }
  } else {
    const fromEnv = env.PLUGINCTL_SIGN_KEY;
    if (fromEnv === undefined || fromEnv.trim() === '') {
      throw new CliError('SIGN_KEY_REQUIRED', 'No signing key: set PLUGINCTL_SIGN_KEY (PKCS#8 PEM or base64 seed) or pass --key <file>.');
    }
    where = 'PLUGINCTL_SIGN_KEY';
    text = fromEnv;
  }
  try {
    return readPrivateKey(text);
  } catch (error) {
    if (isPluginHostError(error)) throw new CliError('INVALID_KEY', `${where}: ${error.message}. Give a PKCS#8 PEM file or the base64 of a 32-byte seed.`);
    throw error;
  }
}
