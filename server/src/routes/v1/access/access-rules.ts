/**
 * `/v1/projects/{projectId}/access-rules` (interface-spec.md "Collaboration", Access control): path
 * globs readable only by given audiences or address ranges. Every route needs `admin`
 * (decisions.md section 2); changes are audited and apply to the sites at once.
 */
import { AccessRuleBodySchema, AccessRuleParamsSchema, AccessRulePatchSchema, AccessRuleSchema, MAX_ACCESS_RULES, PAGE_GLOB_RULES, REFUSED_PAGE_HIDDEN } from '@quire/shared/api/access';
import { createAccessRule, deleteAccessRule, getAccessRule, listAccessRules, updateAccessRule } from '../../../services/access-rules';
import { pathListRoutes } from './path-list-routes';

/** How rules apply, for the OpenAPI document. */
const RULE_SEMANTICS =
  'A visitor passes a rule with an audience token opening one of its `audiences` or an address in one of its `cidrs` (IPv4 or IPv6 CIDR ranges; a bare address is /32 or /128). ' +
  'Every enabled rule matching a page applies on its own (none widens another), after the IP allowlists; pages gated by frontmatter `audience` still need their token. ' +
  `${REFUSED_PAGE_HIDDEN} ` +
  PAGE_GLOB_RULES;

export default pathListRoutes({
  segment: 'access-rules',
  idParam: 'ruleId',
  noun: 'access rule',
  nouns: 'access rules',
  schemas: { item: AccessRuleSchema, body: AccessRuleBodySchema, patch: AccessRulePatchSchema, params: AccessRuleParamsSchema },
  descriptions: {
    create: `Body {name, pathPattern, audiences?, cidrs?, enabled?}: at least one audience or CIDR range (400 naming audiences otherwise). ${RULE_SEMANTICS} At most ${MAX_ACCESS_RULES} rules per project (409). Audited as access_rule.created.`,
    get: '404 for an unknown rule or one of another project.',
    update: 'Only the given fields change; the rule must still name an audience or a CIDR range (400 naming audiences). `enabled: false` keeps the rule without applying it. Audited as access_rule.updated.',
    remove: 'Its pages open at once (unless other rules apply). Audited as access_rule.deleted.',
  },
  services: { list: listAccessRules, create: createAccessRule, get: getAccessRule, update: updateAccessRule, remove: deleteAccessRule },
});
