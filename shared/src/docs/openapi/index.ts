/**
 * OpenAPI endpoint pages (issue 3): load the repository's specs, resolve `openapi:` references,
 * name generated pages and render an operation as an HTML endpoint reference.
 */
export type { OpenApiRegistry, ResolvedOperation, RenderOperationOptions, HttpMethod, SpecObject } from './types';
export { HTTP_METHODS } from './types';
export { loadOpenApiRegistry } from './registry';
export { operationPagePath, slugify } from './page-path';
export { parseOperationRef, matchSpecFile, type OperationRef } from './operation-ref';
export { renderOperation, operationToc } from './render-operation';
