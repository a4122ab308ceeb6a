/**
 * A page title made from its path when the page has none (MINTLIFY-FORMAT.md section 4): the last
 * segment without extension, dashes and underscores turned into spaces, first letter capitalised.
 * A folder `index` takes its folder's name; the root `index` is 'Home'.
 * @example titleFromPath('guides/getting-started') === 'Getting started'
 * @example titleFromPath('v1/integrations/llama_stack.mdx') === 'Llama stack'
 * @example titleFromPath('cli/index') === 'Cli'
 */
export function titleFromPath(pagePath: string): string {
  const segments = pagePath
    .replace(/\.(mdx|md)$/i, '')
    .split('/')
    .filter((s) => s !== '');
  let last = segments.pop() ?? '';
  if (last.toLowerCase() === 'index') last = segments.pop() ?? 'home';
  const words = last.replace(/[-_]+/g, ' ').replace(/\s+/g, ' ').trim();
  return words ? words.charAt(0).toUpperCase() + words.slice(1) : 'Untitled';
}
