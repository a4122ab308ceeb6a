#!/usr/bin/env node
// Runs the CLI's TypeScript entry under tsx (the workspace runs its TypeScript sources directly).
import { register } from 'tsx/esm/api';

register();
await import('../src/main.ts');
