/**
 * The handlers of the site endpoints that need the server's services: feedback
 * (`/_quire/feedback/...`: site-feedback.ts), the assistant (`/_quire/chat...`: site-chat.ts) and the
 * MCP server (`/mcp`, its setup page `/_quire/mcp`: site-mcp.ts). Bound to the app context once per
 * app (`siteAccessOf`), so the gate stays free of the database.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyBaseLogger } from 'fastify';
import type { AppContext } from '../context';
import type { DeploymentSite } from './deployment-site';
import type { SiteAccess } from './site-access';
import type { HandledEndpoint } from './site-endpoints';
import { answerSiteFeedback } from './site-feedback';
import { answerSiteChat } from './site-chat';
import { answerSiteMcp } from './site-mcp';

/**
 * Answers one request of a handled endpoint completely (any method: 405 with `Allow` for others).
 * @param rest the path after the endpoint's prefix (site-endpoints.ts)
 * @returns a promise that settles when the answer is sent; a rejection is answered 500 by the gate
 */
export type SiteEndpointHandler = (
  req: IncomingMessage,
  res: ServerResponse,
  site: DeploymentSite,
  access: SiteAccess,
  log: FastifyBaseLogger,
  rest: string,
) => Promise<void>;

/** One handler per handled endpoint. */
export type SiteEndpointHandlers = Record<HandledEndpoint, SiteEndpointHandler>;

/** The handlers of an app. */
export function siteEndpointHandlersOf(ctx: AppContext): SiteEndpointHandlers {
  return {
    feedback: (req, res, site, access, log, rest) => answerSiteFeedback(ctx, req, res, site, access, log, rest),
    chat: (req, res, site, access, log, rest) => answerSiteChat(ctx, req, res, site, access, log, rest),
    mcp: (req, res, site, access, log, rest) => answerSiteMcp(ctx, req, res, site, access, log, rest),
  };
}
