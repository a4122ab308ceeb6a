/**
 * The Mintlify components the visual mode edits as blocks (props in a side form, children in place);
 * MINTLIFY-FORMAT.md lists them. Every other JSX element stays a read-only block.
 */

/** Names of the components edited as blocks. */
export const COMPONENT_NAMES: ReadonlySet<string> = new Set([
  'Note',
  'Warning',
  'Info',
  'Tip',
  'Check',
  'Steps',
  'Step',
  'Tabs',
  'Tab',
  'CodeGroup',
  'Accordion',
  'AccordionGroup',
  'Card',
  'CardGroup',
  'Frame',
  'Expandable',
  'ParamField',
  'ResponseField',
]);

/** True when `name` is a component the visual mode edits as a block. */
export function isVisualComponent(name: string | null | undefined): boolean {
  return !!name && COMPONENT_NAMES.has(name);
}
