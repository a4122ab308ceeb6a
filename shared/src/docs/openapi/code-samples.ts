/**
 * Request code samples generated from an operation (site-look.md: "code samples in a CodeGroup"):
 * cURL, JavaScript `fetch` and Python `requests`, after any samples the spec itself gives
 * (`x-codeSamples`). Values come from examples in the spec, else from {@link exampleFromSchema}
 * placeholders; credentials are placeholders (`<token>`, `<api-key>`).
 */
import type { OperationModel } from './operation-model';
import { fitExample, PageBudget } from './page-budget';
import { pageExample } from './schema-example';

/** One tab of the samples code group. */
export interface CodeSample {
  /** tab label: `cURL`, `JavaScript`, `Python`, or the spec's label */
  label: string;
  /** highlighter language: `bash`, `javascript`, `python`, ... */
  lang: string;
  code: string;
}

/** What a request built from the model sends. */
interface RequestShape {
  method: string;
  url: string;
  headers: [string, string][];
  /** JSON body, or form fields for form media types */
  json?: unknown;
  form?: [string, string][];
}

const LANG_ALIASES: Record<string, string> = {
  curl: 'bash',
  shell: 'bash',
  sh: 'bash',
  node: 'javascript',
  nodejs: 'javascript',
  js: 'javascript',
  ts: 'typescript',
  py: 'python',
  csharp: 'csharp',
  'c#': 'csharp',
};

const LANG_LABELS: Record<string, string> = {
  bash: 'cURL',
  javascript: 'JavaScript',
  typescript: 'TypeScript',
  python: 'Python',
  go: 'Go',
  ruby: 'Ruby',
  java: 'Java',
  php: 'PHP',
  csharp: 'C#',
  rust: 'Rust',
  kotlin: 'Kotlin',
  swift: 'Swift',
};

/** Highlighter language name for a spec sample's `lang` (`curl` → `bash`, `node` → `javascript`). */
export function sampleLanguage(lang: string): string {
  const l = lang.toLowerCase();
  return LANG_ALIASES[l] ?? l;
}

const placeholder = (v: unknown): string => (v === undefined || v === null ? '' : typeof v === 'string' ? v : JSON.stringify(v));

/**
 * The request a sample sends: URL with required query parameters, auth and required headers, body.
 * Example values draw on the page's `budget` (too large ones are truncated or left out, see page-budget.ts).
 */
export function requestShape(model: OperationModel, budget: PageBudget = new PageBudget()): RequestShape {
  const headers: [string, string][] = [];
  const query: [string, string][] = [];
  const auth = model.security[0] ?? [];
  for (const s of auth) {
    if (s.type === 'apiKey' && s.name) {
      if (s.in === 'query') query.push([s.name, '<api-key>']);
      else if (s.in === 'cookie') headers.push(['Cookie', `${s.name}=<api-key>`]);
      else headers.push([s.name, '<api-key>']);
    } else if (s.type === 'http' && s.scheme === 'basic') headers.push(['Authorization', 'Basic <encoded-value>']);
    else if (s.type === 'http' || s.type === 'oauth2' || s.type === 'openIdConnect') headers.push(['Authorization', 'Bearer <token>']);
  }
  for (const p of model.parameters) {
    if (!p.required) continue;
    const what = `parameter ${p.name}`;
    const value = placeholder(p.example !== undefined ? fitExample(p.example, budget, what) : pageExample(p.schema, 'request', budget, what));
    if (p.in === 'query') query.push([p.name, value]);
    else if (p.in === 'header') headers.push([p.name, value]);
    else if (p.in === 'cookie') headers.push(['Cookie', `${p.name}=${value}`]);
  }
  const shape: RequestShape = { method: model.op.method.toUpperCase(), url: '', headers };
  const body = model.body;
  if (body) {
    const value =
      body.example !== undefined ? fitExample(body.example, budget, 'request body') : body.schema ? pageExample(body.schema, 'request', budget, 'request body') : undefined;
    if (/form/i.test(body.contentType)) {
      const fields = typeof value === 'object' && value !== null && !Array.isArray(value) ? Object.entries(value) : [];
      shape.form = fields.map(([k, v]) => [k, placeholder(v)]);
      if (!/multipart/i.test(body.contentType)) headers.push(['Content-Type', body.contentType]);
    } else {
      headers.push(['Content-Type', body.contentType]);
      if (value !== undefined) shape.json = value;
    }
  }
  const qs = query.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&');
  shape.url = `${model.serverUrl}${model.op.path}${qs ? `?${qs}` : ''}`;
  return shape;
}

const shellQuote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/** Serializes a value as JSON, tolerating cyclic example objects (written as null). */
function toJson(value: unknown, indent = 2): string {
  try {
    return JSON.stringify(value, null, indent) ?? 'null';
  } catch {
    return 'null';
  }
}

function curlSample(r: RequestShape): string {
  const lines = [`curl --request ${r.method}`, `  --url ${shellQuote(r.url)}`];
  for (const [k, v] of r.headers) lines.push(`  --header ${shellQuote(`${k}: ${v}`)}`);
  for (const [k, v] of r.form ?? []) lines.push(`  --form ${shellQuote(`${k}=${v}`)}`);
  if (r.json !== undefined) lines.push(`  --data ${shellQuote(toJson(r.json))}`);
  return lines.join(' \\\n');
}

function fetchSample(r: RequestShape): string {
  const out: string[] = [`const url = ${JSON.stringify(r.url)};`];
  const opts: string[] = [`  method: ${JSON.stringify(r.method)}`];
  if (r.headers.length > 0) {
    const h = r.headers.map(([k, v]) => `    ${JSON.stringify(k)}: ${JSON.stringify(v)}`).join(',\n');
    opts.push(`  headers: {\n${h}\n  }`);
  }
  if (r.form) {
    out.push('const form = new FormData();');
    for (const [k, v] of r.form) out.push(`form.append(${JSON.stringify(k)}, ${JSON.stringify(v)});`);
    opts.push('  body: form');
  } else if (r.json !== undefined) {
    opts.push(`  body: JSON.stringify(${toJson(r.json).split('\n').join('\n  ')})`);
  }
  out.push(`const options = {\n${opts.join(',\n')}\n};`, '');
  out.push(
    'try {',
    '  const response = await fetch(url, options);',
    '  const data = await response.json();',
    '  console.log(data);',
    '} catch (error) {',
    '  console.error(error);',
    '}',
  );
  return out.join('\n');
}

/** A JSON value as a Python literal (`true` → `True`, `null` → `None`). */
export function pythonLiteral(value: unknown, indent = ''): string {
  if (value === null || value === undefined) return 'None';
  if (value === true) return 'True';
  if (value === false) return 'False';
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : 'None';
  if (typeof value === 'string') return JSON.stringify(value);
  const next = `${indent}    `;
  if (Array.isArray(value)) {
    if (value.length === 0) return '[]';
    return `[\n${value.map((v) => `${next}${pythonLiteral(v, next)}`).join(',\n')}\n${indent}]`;
  }
  if (typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>);
    if (entries.length === 0) return '{}';
    return `{\n${entries.map(([k, v]) => `${next}${JSON.stringify(k)}: ${pythonLiteral(v, next)}`).join(',\n')}\n${indent}}`;
  }
  return JSON.stringify(String(value));
}

function pythonSample(r: RequestShape): string {
  const out = ['import requests', '', `url = ${JSON.stringify(r.url)}`, ''];
  const args = ['url'];
  let json: unknown;
  try {
    json = r.json === undefined ? undefined : JSON.parse(toJson(r.json));
  } catch {
    json = null;
  }
  if (r.form) {
    out.push(`data = ${pythonLiteral(Object.fromEntries(r.form))}`);
    args.push('data=data');
  } else if (json !== undefined) {
    out.push(`payload = ${pythonLiteral(json)}`);
    args.push('json=payload');
  }
  if (r.headers.length > 0) {
    out.push(`headers = ${pythonLiteral(Object.fromEntries(r.headers))}`);
    args.push('headers=headers');
  }
  if (out.at(-1) !== '') out.push('');
  out.push(`response = requests.request(${JSON.stringify(r.method)}, ${args.join(', ')})`, '', 'print(response.json())');
  return out.join('\n');
}

/**
 * The samples for an operation: the spec's own (`x-codeSamples`) first, then cURL, JavaScript and
 * Python for the languages the spec's samples do not cover. Webhooks get none (nobody calls them; the page shows the payload instead).
 */
export function generateCodeSamples(model: OperationModel, budget: PageBudget = new PageBudget()): CodeSample[] {
  const own = model.codeSamples.map((s) => {
    const lang = sampleLanguage(s.lang);
    return { label: s.label === s.lang ? (LANG_LABELS[lang] ?? s.label) : s.label, lang, code: s.source };
  });
  if (model.op.kind === 'webhook') return own;
  const r = requestShape(model, budget);
  const generated = [
    { label: 'cURL', lang: 'bash', code: curlSample(r) },
    { label: 'JavaScript', lang: 'javascript', code: fetchSample(r) },
    { label: 'Python', lang: 'python', code: pythonSample(r) },
  ];
  // the spec's own sample for a language replaces the generated one
  return [...own, ...generated.filter((g) => !own.some((o) => o.lang === g.lang))];
}
