import { describe, expect, it } from 'vitest';
import { decisionRefusal, type DecidingCaller } from '../../src/collab/decision-rights';

const session = (role: DecidingCaller['role']): DecidingCaller => ({ userId: 'usr_a', role, viaKey: false, permissions: [] });
const key = (role: DecidingCaller['role'], permissions: DecidingCaller['permissions']): DecidingCaller => ({ userId: 'usr_a', role, viaKey: true, permissions });

describe('decisionRefusal', () => {
  it('lets people with a reviewing role decide, through a session or a key holding projects:write (or admin)', () => {
    for (const role of ['owner', 'admin', 'editor', 'reviewer'] as const) expect(decisionRefusal(session(role), 'Reviewing')).toBeNull();
    expect(decisionRefusal(key('reviewer', ['projects:read', 'projects:write']), 'Reviewing')).toBeNull();
    expect(decisionRefusal(key('editor', ['admin']), 'Reviewing')).toBeNull();
  });

  it('refuses a viewer, a former member and a key without projects:write, whatever else they hold', () => {
    expect(decisionRefusal(session('viewer'), 'Reviewing')).toEqual({ code: 'forbidden', message: 'Reviewing needs the reviewer role or above; your role (viewer) only reads.' });
    expect(decisionRefusal(key('viewer', ['admin']), 'Approving a deploy')?.message).toMatch(/your role \(viewer\)/);
    expect(decisionRefusal(session(null), 'Reviewing')?.message).toMatch(/member of the organization/);
    expect(decisionRefusal(key('owner', ['projects:read', 'builds:write']), 'Reviewing')).toEqual({
      code: 'forbidden',
      message: 'Reviewing needs an API key with the "projects:write" permission.',
      details: { permission: 'projects:write' },
    });
    expect(decisionRefusal({ userId: null, role: null, viaKey: true, permissions: ['admin'] }, 'Reviewing')?.message).toMatch(/needs a person/);
  });
});
