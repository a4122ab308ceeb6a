import type { VisualBlock, VisualDocument } from '@quire/shared/docs/visual/index';
import { DeferredInput } from './DeferredInput';
import { KNOWN_PROPS, propLabel } from './visual-model';

/** Props of {@link SidePanel}. */
export interface SidePanelProps {
  doc: VisualDocument;
  /** the component whose props are shown (the selected block or the component around it), or null */
  component: VisualBlock | null;
  onFrontmatter(key: 'title' | 'description', value: string): void;
  onProp(component: VisualBlock, name: string, value: string | boolean): void;
  /** the selected image block (its React key and block), or null */
  image?: { key: string; block: VisualBlock } | null;
  /** the writer's new alt text or URL for the image block `key` (engine `setImage`) */
  onImage?(key: string, change: { alt?: string; src?: string }): void;
}

const text = (v: unknown) => (typeof v === 'string' ? v : v === undefined || v === null ? '' : String(v));

/**
 * The visual mode's side form: the page's frontmatter (title, description) and the props of the
 * selected component, each a labelled field written into the page after a pause in typing.
 * A prop set by an expression (`{...}`) shows disabled: it is edited in MDX mode. A selected image has
 * "Alt text" and "Image URL".
 */
export function SidePanel({ doc, component, onFrontmatter, onProp, image, onImage }: SidePanelProps) {
  const data = doc.frontmatter?.data ?? {};
  const comp = component?.component;
  const names = comp ? [...comp.props.map((p) => p.name), ...(KNOWN_PROPS[comp.name] ?? []).filter((n) => !comp.props.some((p) => p.name === n))] : [];
  return (
    <aside className="visual-side" aria-label="Page and block details">
      <form className="visual-form" aria-label="Page details" onSubmit={(e) => e.preventDefault()}>
        <h2>Page</h2>
        <DeferredInput label="Page title" value={text(data.title)} onCommit={(v) => onFrontmatter('title', v)} />
        <DeferredInput label="Description" value={text(data.description)} onCommit={(v) => onFrontmatter('description', v)} />
      </form>
      {image?.block.image && (
        <form className="visual-form" aria-label="Image properties" onSubmit={(e) => e.preventDefault()}>
          <h2>Image</h2>
          <DeferredInput key={`alt-${image.key}`} label="Alt text" value={image.block.image.alt} onCommit={(v) => onImage?.(image.key, { alt: v })} />
          <DeferredInput key={`src-${image.key}`} label="Image URL" value={image.block.image.src} onCommit={(v) => onImage?.(image.key, { src: v })} />
        </form>
      )}
      {component && comp && (
        <form className="visual-form" aria-label={`${comp.name} properties`} onSubmit={(e) => e.preventDefault()}>
          <h2>{comp.name}</h2>
          {names.length === 0 && <p className="note">No properties.</p>}
          {names.map((name) => {
            const prop = comp.props.find((p) => p.name === name);
            if (prop && typeof prop.value === 'boolean') {
              return (
                <label key={name} className="visual-field check">
                  <input type="checkbox" checked={prop.value} onChange={(e) => onProp(component, name, e.target.checked)} />
                  <span>{propLabel(name)}</span>
                </label>
              );
            }
            const expression = prop !== undefined && prop.value === null;
            return (
              <DeferredInput
                key={name}
                label={propLabel(name)}
                value={expression ? '' : text(prop?.value)}
                disabled={expression}
                placeholder={expression ? 'an expression: edit it in MDX' : undefined}
                onCommit={(v) => onProp(component, name, v)}
              />
            );
          })}
        </form>
      )}
    </aside>
  );
}
