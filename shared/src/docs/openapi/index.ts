/**
 * OpenAPI endpoint pages (MINTLIFY-FORMAT.md section 6; site-look.md "OpenAPI pages"): load the
 * repository's specs, resolve `openapi:` references, name generated pages and render an operation
 * as an HTML endpoint reference; plus schema pages (`openapi-schema:`) and the endpoint bar of
 * manual `api:` pages.
 */
export type { OpenApiRegistry, ResolvedOperation, ResolvedSchema, RenderOperationOptions, HttpMethod, SpecObject } from './types';
export { HTTP_METHODS } from './types';
export { loadOpenApiRegistry } from './registry';
export { operationPagePath, slugify } from './page-path';
export { parseOperationRef, matchSpecFile, type OperationRef } from './operation-ref';
export { renderOperation, operationToc } from './render-operation';
export { renderSchemaPage } from './render-schema';
export { renderApiEndpoint, endpointBarHtml, type EndpointBar } from './endpoint-bar';
export { operationNavGroups, operationNavPage } from './nav-pages';
