/**
 * `/v1/projects/{projectId}/ip-allowlists` (interface-spec.md "Collaboration", Access control):
 * address ranges outside which a site, or some of its paths, cannot be read. Every route needs
 * `admin` (decisions.md section 2); changes are audited and apply to the sites at once.
 */
import { IpAllowlistBodySchema, IpAllowlistParamsSchema, IpAllowlistPatchSchema, IpAllowlistSchema, MAX_ACCESS_RULES, PAGE_GLOB_RULES, REFUSED_PAGE_HIDDEN } from '@quire/shared/api/access';
import { createIpAllowlist, deleteIpAllowlist, getIpAllowlist, listIpAllowlists, updateIpAllowlist } from '../../../services/access-rules';
import { pathListRoutes } from './path-list-routes';

/** How allowlists apply, for the OpenAPI document. */
const ALLOWLIST_SEMANTICS =
  'An enabled allowlist refuses every visitor whose address (behind trusted proxies: QUIRE_TRUSTED_PROXIES) is outside its `cidrs` on the pages its `paths` globs match, or on the whole site when `paths` is empty. ' +
  'Every allowlist guarding a page applies on its own: put alternative ranges in one allowlist. ' +
  `${REFUSED_PAGE_HIDDEN} ` +
  PAGE_GLOB_RULES;

export default pathListRoutes({
  segment: 'ip-allowlists',
  idParam: 'allowlistId',
  noun: 'IP allowlist',
  nouns: 'IP allowlists',
  schemas: { item: IpAllowlistSchema, body: IpAllowlistBodySchema, patch: IpAllowlistPatchSchema, params: IpAllowlistParamsSchema },
  descriptions: {
    create: `Body {name, cidrs (at least one; IPv4 or IPv6 CIDR ranges, a bare address is /32 or /128), paths? (default [] = whole site), enabled?}. ${ALLOWLIST_SEMANTICS} At most ${MAX_ACCESS_RULES} allowlists per project (409). Audited as ip_allowlist.created.`,
    get: '404 for an unknown allowlist or one of another project.',
    update: 'Only the given fields change (`cidrs` cannot become empty). Audited as ip_allowlist.updated.',
    remove: 'Audited as ip_allowlist.deleted.',
  },
  services: { list: listIpAllowlists, create: createIpAllowlist, get: getIpAllowlist, update: updateIpAllowlist, remove: deleteIpAllowlist },
});
