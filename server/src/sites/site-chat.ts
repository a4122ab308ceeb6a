import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyBaseLogger } from 'fastify';
import { ApiError } from '@quire/shared/errors';
import type { AppContext } from '../context';
import type { DeploymentSite } from './deployment-site';
import type { SiteAccess } from './site-access';
import { sendSiteError } from './site-json';

/** PLACEHOLDER until the chat endpoint is written: answers 404. */
export async function answerSiteChat(_ctx: AppContext, req: IncomingMessage, res: ServerResponse, _site: DeploymentSite, _access: SiteAccess, _log: FastifyBaseLogger, _rest: string): Promise<void> {
  req.resume();
  sendSiteError(req, res, new ApiError('not_found', 'Not found.'));
}
