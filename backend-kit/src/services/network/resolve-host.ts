import { lookup } from 'node:dns/promises';

/** One address a host name resolves to. */
export interface ResolvedAddress {
  readonly address: string;
  readonly family: 4 | 6;
}

/** Resolves a host name to every address the system would use. Injected in tests. */
export type HostResolver = (hostname: string) => Promise<readonly ResolvedAddress[]>;

/**
 * The system resolver (`dns.lookup` with `all: true`, so `/etc/hosts` and the OS's rules apply,
 * exactly as a plain connection would resolve the name).
 */
export const systemResolver: HostResolver = async (hostname) => {
  const answers = await lookup(hostname, { all: true, verbatim: true });
  return answers.map((answer) => ({ address: answer.address, family: answer.family === 6 ? 6 : 4 }));
};
