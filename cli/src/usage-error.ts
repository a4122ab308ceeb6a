/** A command that cannot run as given (bad arguments, missing folder, unusable configuration): exit status 2. */
export class UsageError extends Error {
  override name = 'UsageError';
}
