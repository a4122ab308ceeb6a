/**
 * One VitePress measurement, run as its own process by build.ts.
 * Usage: tsx vitepress-child.ts <srcDir>   (srcDir holds the Markdown and .vitepress/config.mjs)
 * Prints one JSON line: { ms, maxRssMb }.
 */
import { performance } from 'node:perf_hooks';
import { build } from 'vitepress';

const [srcDir] = process.argv.slice(2);
if (!srcDir) throw new Error('usage: vitepress-child.ts <srcDir>');
const started = performance.now();
const log = console.log;
console.log = () => {}; // VitePress prints progress; keep stdout for the result line
await build(srcDir);
console.log = log;
console.log(JSON.stringify({ ms: Math.round(performance.now() - started), maxRssMb: Math.round(process.resourceUsage().maxRSS / 1024) }));
