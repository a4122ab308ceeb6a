/**
 * Request logging kept quiet at `info`: Fastify's per-request "incoming request" / "request
 * completed" lines move to `debug` (the top-level `disableRequestLogging` option is deprecated
 * in Fastify 5). Server errors are still logged at `error` by the errors plugin.
 */
import { LogController, type FastifyReply, type FastifyRequest } from 'fastify';

/** Logs each request's start and completion at `debug` instead of `info`. */
export class QuietLogController extends LogController {
  override incomingRequest(request: FastifyRequest): void {
    request.log.debug({ req: request }, 'incoming request');
  }

  override requestCompleted(error: Error | null | undefined, _request: FastifyRequest, reply: FastifyReply): void {
    if (error) reply.log.debug({ err: error, responseTime: reply.elapsedTime }, 'request errored');
    else reply.log.debug({ res: reply, responseTime: reply.elapsedTime }, 'request completed');
  }
}
