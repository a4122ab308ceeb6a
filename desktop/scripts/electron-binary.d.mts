/** Types of electron-binary.mjs (plain JavaScript so that e2e/playwright.config.ts and scripts share it). */
export declare function findElectron(): { binary: string; dist: string } | { missing: string };
