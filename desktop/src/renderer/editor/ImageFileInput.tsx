import type { RefObject } from 'react';
import { IMAGE_ACCEPT } from '@quire/shared/docs/image-files';

/**
 * The hidden file chooser of "Insert image" (MDX mode) and the visual mode's "Image" block: image types
 * only (`IMAGE_ACCEPT`), several files at once, named `label`. The chosen files go to `onFiles` (never an
 * empty list), and the chooser is emptied so that choosing the same file again is seen.
 */
export function ImageFileInput({ inputRef, label, onFiles }: { inputRef: RefObject<HTMLInputElement | null>; label: string; onFiles(files: File[]): void }) {
  return (
    <input
      ref={inputRef}
      type="file"
      accept={IMAGE_ACCEPT}
      multiple
      hidden
      aria-label={label}
      onChange={(e) => {
        const files = [...(e.target.files ?? [])];
        e.target.value = '';
        if (files.length) onFiles(files);
      }}
    />
  );
}
