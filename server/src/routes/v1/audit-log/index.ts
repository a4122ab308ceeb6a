/**
 * The audit log of a project (interface-spec.md "Audit log"): a page newest first with `hasMore`,
 * and a streamed export of the whole log as CSV or JSON Lines. Both need `admin`.
 */
import { Readable } from 'node:stream';
import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorResponses } from '@quire/shared/api/common';
import { AuditEntrySchema, AuditExportQuerySchema, AuditLogQuerySchema } from '@quire/shared/api/audit-log';
import { ProjectParamsSchema } from '@quire/shared/api/projects';
import { getProjectForCaller } from '../../../services/projects';
import { AUDIT_CSV_COLUMNS, auditCsvLine, iterateAudit, listAudit } from '../../../services/audit';

const auditLogRoutes: FastifyPluginAsync = async (base) => {
  const app = base.withTypeProvider<ZodTypeProvider>();
  const tags = ['Audit log'];

  app.get('/projects/:projectId/audit-log', {
    config: { permission: 'admin' },
    schema: {
      tags,
      summary: 'List audit entries',
      description: 'Newest first. page (default 1), limit (default 50, above 100 clamped), actor (case-insensitive substring of the actor email), resource (type). Includes organization-level entries.',
      params: ProjectParamsSchema,
      querystring: AuditLogQuerySchema,
      response: { 200: z.object({ data: z.array(AuditEntrySchema), hasMore: z.boolean() }), ...errorResponses(400, 401, 403, 404, 429) },
    },
  }, async (req) => {
    const project = await getProjectForCaller(app.ctx, req.auth, req.params.projectId);
    return listAudit(app.ctx, project.orgId, project.id, req.query);
  });

  app.get('/projects/:projectId/audit-log/export', {
    config: { permission: 'admin' },
    schema: {
      tags,
      summary: 'Export the audit log',
      description: `Streams every entry, newest first: format=csv (default; columns ${AUDIT_CSV_COLUMNS.join(', ')}; metadata as JSON) or jsonl (one audit entry object per line). Accepts the list's actor and resource filters.`,
      params: ProjectParamsSchema,
      querystring: AuditExportQuerySchema,
      produces: ['text/csv', 'application/x-ndjson'],
      response: { 200: z.string().describe('CSV or JSON Lines'), ...errorResponses(400, 401, 403, 404, 429) },
    },
  }, async (req, reply) => {
    const project = await getProjectForCaller(app.ctx, req.auth, req.params.projectId);
    const { format, ...filters } = req.query;
    const entries = iterateAudit(app.ctx, project.orgId, project.id, filters);
    async function* lines() {
      if (format === 'csv') yield `${AUDIT_CSV_COLUMNS.join(',')}\r\n`;
      for await (const entry of entries) yield format === 'csv' ? auditCsvLine(entry) : `${JSON.stringify(entry)}\n`;
    }
    const ext = format === 'csv' ? 'csv' : 'jsonl';
    return reply
      .type(format === 'csv' ? 'text/csv; charset=utf-8' : 'application/x-ndjson; charset=utf-8')
      .header('content-disposition', `attachment; filename="audit-log-${project.slug}.${ext}"`)
      // A stream is sent as is (the 200 schema documents it; typed providers only know strings).
      .send(Readable.from(lines()) as unknown as string);
  });
};
export default auditLogRoutes;
