/**
 * The commands of `quire-docs` and their help. `runCli` takes the arguments and streams and returns
 * the exit status: 0 clean, 1 an error-level finding (or more warnings than `--max-warnings`),
 * 2 usage or configuration errors (unknown option, missing folder, a docs.json that cannot be used,
 * `dev`'s port taken). `dev` runs until `CliIo.stopped` resolves (Ctrl-C), then returns 0.
 */
import path from 'node:path';
import { parseArgs } from 'node:util';
import { runCheck } from './check';
import { startDevServer } from './dev/dev-server';
import { exitStatus } from './findings';
import { runLint } from './lint-command';
import { createPage } from './new-page';
import { formatReport, FORMATS, type Format } from './report';
import { UsageError } from './usage-error';

/** Where a command writes. */
export interface CliIo {
  out: (text: string) => void;
  err: (text: string) => void;
  cwd: string;
  /** resolves when a long-running command (`dev`) should stop (default: on Ctrl-C or SIGTERM) */
  stopped?: () => Promise<void>;
}

/** The port `dev` listens on unless told. */
const DEFAULT_DEV_PORT = 3333;

const HELP: Record<string, string> = {
  main: `Usage: quire-docs <command> [options]

Commands:
  check [dir]      render every page as a build does, run the lint rules, check links, anchors, images and redirects
  dev [dir]        serve the site on 127.0.0.1 as a build renders it, reloading pages as files change
  lint [dir]       run the project's lint rules (--fix applies their quick fixes)
  new page <path>  create a page and list it in a navigation group of docs.json

Run quire-docs <command> --help for a command's options.
Exit status: 0 clean, 1 errors found (or too many warnings), 2 usage or configuration error.
`,
  check: `Usage: quire-docs check [dir] [options]

Loads the project in dir (default: .) as the build does, renders every page, runs its lint rules
(quire-lint.json) and checks internal links, anchors, images and redirects.

Options:
  --external           also check external links (4 at a time, HEAD then GET, a pause between requests to one host)
  --format <f>         text (default), json, or github (GitHub Actions annotations)
  --max-warnings <n>   exit 1 when there are more than n warnings
  -h, --help           show this help
`,
  dev: `Usage: quire-docs dev [dir] [options]

Serves the project in dir (default: .) at http://127.0.0.1:<port>/, rendered by the code a build
renders it with (theme, navigation, assets). Saving a file renders again the pages it affects and
reloads the open pages; a change to docs.json loads the whole project again. Errors are printed
and shown in place of the page. Ctrl-C stops.

Options:
  --port <n>           the port (default ${DEFAULT_DEV_PORT}; 0 picks a free one)
  -h, --help           show this help
`,
  lint: `Usage: quire-docs lint [dir] [options]

Runs the project's lint rules (quire-lint.json: settings, styleRules, glossary) on every page of dir (default: .).

Options:
  --fix                apply the lint rules' quick fixes to the files, then report what is left
  --format <f>         text (default), json, or github
  --max-warnings <n>   exit 1 when there are more than n warnings
  -h, --help           show this help
`,
  new: `Usage: quire-docs new page <path> --title <title> [options]

Creates <path>.mdx in the docs root (frontmatter title and description) and lists it at the end of a group.

Options:
  --title <title>      the page's title (required)
  --group <group>      the navigation group of docs.json to list it in
  --template <file>    start from this page file of the docs root
  --dir <dir>          the project folder (default: .)
  -h, --help           show this help
`,
};

const REPORT_OPTIONS = {
  format: { type: 'string', default: 'text' },
  'max-warnings': { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

/** Runs `quire-docs` with `argv` (without node and the script). @returns the exit status */
export async function runCli(argv: readonly string[], io: CliIo): Promise<number> {
  const [command, ...rest] = argv;
  try {
    if (command === undefined || command === '--help' || command === '-h' || command === 'help') {
      io.out(HELP.main!);
      return command === undefined ? 2 : 0;
    }
    if (command === 'check') return await check(rest, io);
    if (command === 'dev') return await dev(rest, io);
    if (command === 'lint') return await lint(rest, io);
    if (command === 'new') return newPage(rest, io);
    throw new UsageError(`unknown command "${command}" (commands: check, dev, lint, new page; see quire-docs --help)`);
  } catch (err) {
    const e = err as { name?: string; message?: string; file?: string; line?: number; code?: string };
    if (e.name === 'UsageError' || e.code?.startsWith('ERR_PARSE_ARGS')) {
      io.err(`quire-docs: ${e.message}\n`);
      return 2;
    }
    if (e.name === 'DocsError') {
      io.err(`quire-docs: ${e.file ? `${e.file}${e.line ? `:${e.line}` : ''}: ` : ''}${e.message}\n`);
      return 2;
    }
    throw err;
  }
}

function reportOptions(values: { format?: string; 'max-warnings'?: string }): { format: Format; maxWarnings?: number } {
  const format = values.format as Format;
  if (!FORMATS.includes(format)) throw new UsageError(`--format must be one of ${FORMATS.join(', ')}, not "${values.format}"`);
  const raw = values['max-warnings'];
  if (raw === undefined) return { format };
  const maxWarnings = Number(raw);
  if (!/^\d+$/.test(raw) || !Number.isSafeInteger(maxWarnings)) throw new UsageError(`--max-warnings takes a whole number, not "${raw}"`);
  return { format, maxWarnings };
}

function oneDir(positionals: string[], name: string): string {
  if (positionals.length > 1) throw new UsageError(`${name} takes one folder, not ${positionals.length}: ${positionals.join(' ')}`);
  return positionals[0] ?? '.';
}

async function check(args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseArgs({ args, allowPositionals: true, options: { ...REPORT_OPTIONS, external: { type: 'boolean' } } });
  if (values.help) return help('check', io);
  const { format, maxWarnings } = reportOptions(values);
  const result = await runCheck({ dir: path.resolve(io.cwd, oneDir(positionals, 'check')), cwd: io.cwd, external: values.external === true });
  io.out(formatReport(result.findings, format, { pages: result.pages }));
  return exitStatus(result.findings, maxWarnings);
}

async function dev(args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseArgs({ args, allowPositionals: true, options: { port: { type: 'string' }, help: { type: 'boolean', short: 'h' } } });
  if (values.help) return help('dev', io);
  const raw = values.port ?? String(DEFAULT_DEV_PORT);
  const port = Number(raw);
  if (!/^\d+$/.test(raw) || port > 65535) throw new UsageError(`--port takes a port number from 0 to 65535, not "${raw}"`);
  const server = await startDevServer({ dir: path.resolve(io.cwd, oneDir(positionals, 'dev')), cwd: io.cwd, port, out: io.out, err: io.err });
  io.out(`Serving ${server.url} (Ctrl-C stops)\n`);
  await (io.stopped ?? stopSignal)();
  await server.close();
  io.out('stopped\n');
  return 0;
}

/** Resolves on the first Ctrl-C (SIGINT) or SIGTERM. */
function stopSignal(): Promise<void> {
  return new Promise((resolve) => {
    const stop = () => {
      process.off('SIGINT', stop).off('SIGTERM', stop);
      resolve();
    };
    process.on('SIGINT', stop).on('SIGTERM', stop);
  });
}

async function lint(args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseArgs({ args, allowPositionals: true, options: { ...REPORT_OPTIONS, fix: { type: 'boolean' } } });
  if (values.help) return help('lint', io);
  const { format, maxWarnings } = reportOptions(values);
  const result = await runLint({ dir: path.resolve(io.cwd, oneDir(positionals, 'lint')), fix: values.fix === true, cwd: io.cwd });
  if (format === 'text') for (const f of result.fixed) io.out(`fixed ${f}\n`);
  io.out(formatReport(result.findings, format));
  return exitStatus(result.findings, maxWarnings);
}

function newPage(args: string[], io: CliIo): number {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: { title: { type: 'string' }, group: { type: 'string' }, template: { type: 'string' }, dir: { type: 'string', default: '.' }, help: { type: 'boolean', short: 'h' } },
  });
  if (values.help) return help('new', io);
  const [what, page, ...extra] = positionals;
  if (what !== 'page') throw new UsageError(`"new" creates pages: quire-docs new page <path> --title <title>`);
  if (!page || extra.length > 0) throw new UsageError('new page takes one page path, such as guides/my-page');
  if (values.title === undefined) throw new UsageError('new page needs --title');
  const made = createPage({
    dir: path.resolve(io.cwd, values.dir),
    cwd: io.cwd,
    page,
    title: values.title,
    ...(values.group ? { group: values.group } : {}),
    ...(values.template ? { template: values.template } : {}),
  });
  const rel = (p: string) => path.relative(io.cwd, p).split(path.sep).join('/');
  io.out(`created ${rel(made.file)}${made.config ? `, listed in ${rel(made.config)}` : ''}\n`);
  return 0;
}

function help(command: string, io: CliIo): number {
  io.out(HELP[command]!);
  return 0;
}
