import { parseArgs } from 'node:util';

/**
 * Argument parsing of the `quire` CLI on top of node:util `parseArgs` (strict: unknown flags are
 * errors). A command declares its positionals and options; mistakes become a {@link UsageError},
 * which the CLI prints with the command's usage on stderr and exits with status 2.
 */

/** Exit status for a usage mistake (unknown command or flag, missing or bad argument). */
export const EXIT_USAGE = 2;
/** Exit status when the command was understood but failed (e.g. the user already exists). */
export const EXIT_FAILURE = 1;

/** A mistake in how the CLI was called; `usage` is the text to show with it. */
export class UsageError extends Error {
  override name = 'UsageError';
  constructor(
    message: string,
    readonly usage: string,
  ) {
    super(message);
  }
}

/** One `--flag <value>` (string) or `--flag` (boolean) option. */
export interface OptionSpec {
  type: 'string' | 'boolean';
  short?: string;
}

/** A command's arguments: positional names in order (all required) and its options. */
export interface CommandSpec<O extends Record<string, OptionSpec>> {
  /** Full usage text, shown by `--help` and with usage errors. */
  usage: string;
  positionals: readonly string[];
  options: O;
}

/** Parsed arguments: positionals by name, option values (undefined when absent), and whether help was asked. */
export interface ParsedArgs<O extends Record<string, OptionSpec>> {
  help: boolean;
  positionals: Record<string, string>;
  options: { [K in keyof O]: (O[K]['type'] extends 'boolean' ? boolean : string) | undefined };
}

/**
 * Parses `argv` (the words after the command name) against `spec`. `--help`/`-h` anywhere sets
 * `help` and skips the other checks.
 * @throws UsageError for unknown flags, a flag without its value, or too few/many positionals.
 */
export function parseCommand<O extends Record<string, OptionSpec>>(spec: CommandSpec<O>, argv: readonly string[]): ParsedArgs<O> {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...argv],
      options: { ...spec.options, help: { type: 'boolean', short: 'h' } },
      allowPositionals: true,
      strict: true,
    });
  } catch (err) {
    throw new UsageError((err as Error).message.split('\n')[0]!, spec.usage);
  }
  const values = parsed.values as Record<string, string | boolean | undefined>;
  const help = values.help === true;
  if (!help) {
    const missing = spec.positionals.slice(parsed.positionals.length);
    if (missing.length > 0) throw new UsageError(`Missing argument: <${missing[0]}>.`, spec.usage);
    const extra = parsed.positionals.slice(spec.positionals.length);
    if (extra.length > 0) throw new UsageError(`Unexpected argument: ${JSON.stringify(extra[0])}.`, spec.usage);
  }
  const positionals = Object.fromEntries(spec.positionals.map((name, i) => [name, parsed.positionals[i] ?? '']));
  const options = Object.fromEntries(Object.keys(spec.options).map((name) => [name, values[name]])) as ParsedArgs<O>['options'];
  return { help, positionals, options };
}

/**
 * Validates one argument value with a zod-like schema.
 * @throws UsageError `<what>: <first issue>` when it fails.
 */
export function argValue<T>(
  schema: { safeParse(v: unknown): { success: true; data: T } | { success: false; error: { issues: { message: string }[] } } },
  value: unknown,
  what: string,
  usage: string,
): T {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  throw new UsageError(`${what}: ${result.error.issues[0]?.message ?? 'invalid value'}.`, usage);
}
