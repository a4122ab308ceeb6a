/** textlint-plugin-mdx ships JavaScript only: it is a textlint plugin (parses `.mdx` into textlint's tree). */
declare module 'textlint-plugin-mdx' {
  import type { TextlintPluginCreator } from '@textlint/types';
  const plugin: TextlintPluginCreator;
  export default plugin;
}
