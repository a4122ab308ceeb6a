import type { ResolvedAddress, Resolver } from '../../src/net/address-check';

/** A resolver that records the names it was asked for. */
export type ScriptedResolver = Resolver & { calls: string[] };

/**
 * A resolver answering `answers[0]` on the first call, `answers[1]` on the second, ... (the last
 * answer from then on), recording each name asked for: a DNS that changes its answer (rebinding).
 * An empty answer rejects with ENOTFOUND.
 */
export function scriptedResolver(...answers: string[][]): ScriptedResolver {
  const calls: string[] = [];
  const resolve = async (host: string): Promise<ResolvedAddress[]> => {
    const answer = answers[Math.min(calls.length, answers.length - 1)] ?? [];
    calls.push(host);
    if (answer.length === 0) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
    return answer.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  };
  return Object.assign(resolve, { calls });
}
