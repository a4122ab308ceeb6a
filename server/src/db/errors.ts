/**
 * True for Prisma's unique-constraint violation (error code P2002), the signal that a concurrent
 * write claimed the same unique value first (a slug, an idempotency key).
 */
export function isUniqueViolation(err: unknown): boolean {
  return typeof err === 'object' && err !== null && (err as { code?: unknown }).code === 'P2002';
}
