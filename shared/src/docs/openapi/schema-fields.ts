/**
 * Schemas and parameters rendered as fields (site-look.md `ParamField`/`ResponseField`: "name in
 * monospace, type and `required` badges, description, nested `Expandable` children"), in the same
 * markup as the page renderer's `ParamField`/`ResponseField` (`q-field`, `q-field-head`,
 * `q-field-name`, `q-badge q-badge-type|required|default|deprecated|location`, `q-field-body`):
 * nested object properties open in native `<details>`, `oneOf`/`anyOf` as one `<details>` per option.
 * Cycle-safe: a schema met again among its own ancestors is shown as a circular reference.
 * Bounded: every field spends its markup from the page's {@link PageBudget}; once it is used up,
 * nested fields are replaced by a "too large to show" note (an acyclic schema graph can still be
 * exponentially large when each level refers to the next several times).
 */
import { formatSize } from '../limits';
import { refNameOf } from './lazy-refs';
import { PageBudget } from './page-budget';
import { esc, markdown } from './html';
import {
  mergeAllOf,
  nestedObjectSchema,
  schemaProperties,
  schemaTypeLabel,
  schemaVariants,
  type SchemaMode,
} from './schema-shape';
import type { SpecObject } from './types';

/** How deep nested fields go before the page says "..." instead (beyond any sane API). */
const MAX_FIELD_DEPTH = 10;

/** Walk state of one field tree. */
export interface FieldContext {
  mode: SchemaMode;
  /** schemas being expanded above this point (identity of lazy views) */
  ancestors: Set<unknown>;
  depth: number;
  /** the page's characters (shared by every field list of the page) */
  budget: PageBudget;
}

/** What one field shows. */
export interface FieldSpec {
  name: string;
  schema: SpecObject;
  required?: boolean;
  deprecated?: boolean;
  /** overrides the schema's description (parameters carry their own) */
  description?: string;
  /** `header`, `query`...: shown as a badge (security fields) */
  location?: string;
  example?: unknown;
}

/** A new walk state for a top-level field list; pass the page's budget so all its lists share it. */
export function fieldContext(mode: SchemaMode, budget: PageBudget = new PageBudget()): FieldContext {
  return { mode, ancestors: new Set(), depth: 0, budget };
}

const literal = (v: unknown): string => {
  if (typeof v === 'string') return v;
  try {
    return JSON.stringify(v) ?? String(v);
  } catch {
    return String(v);
  }
};

/** A badge in the page renderer's field markup (`q-badge q-badge-<kind>`). */
const badge = (kind: string, html: string) => `<span class="q-badge q-badge-${kind}">${html}</span>`;

/** Range and length constraints as short phrases (`>= 1`, `length <= 64`, `pattern ^a`). */
function constraints(s: SpecObject): string[] {
  const out: string[] = [];
  const n = (k: string) => (typeof s[k] === 'number' ? (s[k] as number) : undefined);
  const exMin = s.exclusiveMinimum === true ? n('minimum') : n('exclusiveMinimum');
  const exMax = s.exclusiveMaximum === true ? n('maximum') : n('exclusiveMaximum');
  if (exMin !== undefined) out.push(`> ${exMin}`);
  else if (n('minimum') !== undefined) out.push(`>= ${n('minimum')}`);
  if (exMax !== undefined) out.push(`< ${exMax}`);
  else if (n('maximum') !== undefined) out.push(`<= ${n('maximum')}`);
  if (n('minLength') !== undefined) out.push(`length >= ${n('minLength')}`);
  if (n('maxLength') !== undefined) out.push(`length <= ${n('maxLength')}`);
  if (n('minItems') !== undefined) out.push(`items >= ${n('minItems')}`);
  if (n('maxItems') !== undefined) out.push(`items <= ${n('maxItems')}`);
  if (typeof s.pattern === 'string') out.push(`pattern ${s.pattern}`);
  return out;
}

/**
 * Nested fields behind a native disclosure, in the markup of the page renderer's `Expandable`
 * (`q-expandable`, `q-expandable-summary`, `q-expandable-body`). `label` is plain text.
 */
function expandable(label: string, body: string, extraClass = ''): string {
  return (
    `<details class="q-expandable${extraClass ? ` ${extraClass}` : ''}"><summary class="q-expandable-summary"><span>${esc(label)}</span></summary>` +
    `<div class="q-expandable-body q-field-list">${body}</div></details>`
  );
}

/** Renders one field: head (name, type, badges), description, enum/default/example, children. */
export function renderField(f: FieldSpec, ctx: FieldContext): string {
  const s = mergeAllOf(f.schema);
  const head = [`<code class="q-field-name">${esc(f.name)}</code>`, badge('type', esc(schemaTypeLabel(f.schema)))];
  if (f.location) head.push(badge('location', esc(f.location)));
  if (f.required) head.push(badge('required', 'required'));
  if (f.deprecated || s.deprecated === true) head.push(badge('deprecated', 'deprecated'));
  if (ctx.mode !== 'request' && s.readOnly === true) head.push(badge('readonly', 'read-only'));
  if (ctx.mode === 'schema' && s.writeOnly === true) head.push(badge('writeonly', 'write-only'));
  if (s.default !== undefined) head.push(badge('default', `default: <code>${esc(literal(s.default))}</code>`));
  for (const c of constraints(s)) head.push(badge('constraint', esc(c)));

  const body: string[] = [];
  const description = f.description ?? (typeof s.description === 'string' ? s.description : undefined);
  const desc = markdown(description);
  if (desc) body.push(`<div class="q-field-description">${desc}</div>`);
  const enumValues = Array.isArray(s.enum) ? s.enum : undefined;
  if (enumValues && enumValues.length > 0) {
    const items = enumValues.map((v) => `<code>${esc(literal(v))}</code>`).join(', ');
    body.push(`<div class="q-field-enum">Available options: ${items}</div>`);
  }
  const example = f.example ?? s.example;
  if (example !== undefined && (typeof example !== 'object' || example === null)) {
    body.push(`<div class="q-field-example">Example: <code>${esc(literal(example))}</code></div>`);
  }
  ctx.budget.spend(head.join('').length + body.join('').length + 200);
  body.push(renderChildren(f.schema, ctx));
  const kind = ctx.mode === 'request' ? 'param' : 'response';
  return (
    `<div class="q-field q-field-${kind}" data-field="${esc(f.name)}"><div class="q-field-head">${head.join('')}</div>` +
    `<div class="q-field-body">${body.join('')}</div></div>`
  );
}

/** Nested properties (or options) of a field's schema, in `<details>`; '' for leaves. */
function renderChildren(schema: SpecObject, ctx: FieldContext): string {
  const nested = nestedObjectSchema(schema);
  const variants = schemaVariants(mergeAllOf(schema));
  if (!nested && !variants) return '';
  const target = nested?.schema ?? schema;
  if (ctx.ancestors.has(target) || ctx.ancestors.has(schema)) {
    const name = refNameOf(target) ?? refNameOf(schema);
    return `<div class="q-field-note">Circular reference${name ? ` to <code>${esc(name)}</code>` : ''}: see above.</div>`;
  }
  if (ctx.depth >= MAX_FIELD_DEPTH) return '<div class="q-field-note">Nested too deep to show.</div>';
  if (ctx.budget.exhausted) return tooLarge(ctx.budget);
  const inner: FieldContext = { ...ctx, ancestors: new Set(ctx.ancestors).add(schema).add(target), depth: ctx.depth + 1 };
  if (nested) {
    const label = nested.via === 'items' ? 'Show item attributes' : nested.via === 'values' ? 'Show value attributes' : 'Show child attributes';
    const content = nested.via === 'values' ? renderField({ name: '{key}', schema: nested.schema }, inner) : renderSchemaBody(nested.schema, inner);
    return expandable(label, content);
  }
  return renderVariants(variants!, inner);
}

/** The note shown instead of nested fields once the page's budget is used up (noted once for a warning). */
function tooLarge(budget: PageBudget): string {
  budget.notes.add(`fields cut after ${formatSize(budget.limit)} (the schemas expand too far)`);
  return '<div class="q-field-note">Too large to show: the schema expands too far for one page.</div>';
}

/** `oneOf`/`anyOf` options, each a `<details>` titled by the option's title, component name or type. */
function renderVariants(v: NonNullable<ReturnType<typeof schemaVariants>>, ctx: FieldContext): string {
  const options = v.variants.map((variant, i) => {
    const title = typeof variant.title === 'string' ? variant.title : refNameOf(variant) ?? schemaTypeLabel(variant);
    const m = mergeAllOf(variant);
    ctx.budget.spend(200 + title.length);
    const fields = schemaProperties(m, ctx.mode).length > 0 || schemaVariants(m) ? renderSchemaBody(variant, ctx) : '';
    const desc = markdown(typeof m.description === 'string' ? m.description : undefined);
    return expandable(`Option ${i + 1} · ${title}`, `${desc ? `<div class="q-field-description">${desc}</div>` : ''}${fields}`, 'q-field-variant');
  });
  const label = v.kind === 'oneOf' ? 'One of' : 'Any of';
  return `<div class="q-field-variants"><div class="q-field-variants-label">${label}:</div>${options.join('')}</div>`;
}

/**
 * The fields of a body or response schema: its properties; or its options when it is a
 * `oneOf`/`anyOf`; or, for anything else (arrays, primitives), a single field named `fallbackName`.
 */
export function renderSchemaBody(schema: SpecObject, ctx: FieldContext, fallbackName = 'body'): string {
  if (ctx.budget.exhausted) return tooLarge(ctx.budget);
  const merged = mergeAllOf(schema);
  const props = schemaProperties(merged, ctx.mode);
  const inner: FieldContext = { ...ctx, ancestors: new Set(ctx.ancestors).add(schema) };
  if (props.length > 0) {
    const fields = props.map((p) => renderField({ name: p.name, schema: p.schema, required: p.required }, inner)).join('');
    const variants = schemaVariants(merged);
    return fields + (variants ? renderVariants(variants, inner) : '');
  }
  const variants = schemaVariants(merged);
  if (variants) return renderVariants(variants, inner);
  if (typeof merged.$ref === 'string' && Object.keys(merged).length === 1) {
    return `<div class="q-field-note">Schema <code>${esc(merged.$ref)}</code> is not available.</div>`;
  }
  return renderField({ name: fallbackName, schema }, ctx);
}
