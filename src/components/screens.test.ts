import { describe, expect, it } from 'vitest';
import { ALL_PERMISSION_NAMES } from '../../contract/permissions';
import { ForbiddenError } from '../lib/permissions';
import { mayOpen, screenGuard } from './screens';

type Role = { id: number; name: string; builtIn: boolean } | null;

const person = (role: Role, partnerId: number | null = null) => ({
  permissions: [...ALL_PERMISSION_NAMES] as string[],
  partnerId,
  role,
});

/** A route guard's context with this signed-in user. */
const contextOf = (user: ReturnType<typeof person>) => ({
  context: { session: { getSnapshot: () => ({ context: { session: { user } } }) } },
});

const SUPER = { id: 1, name: 'Super Admin', builtIn: true };
const ALL_HELD = { id: 2, name: 'Everything', builtIn: false };

describe('the Club API keys screen (issue 27): the Super Admin alone', () => {
  const guard = screenGuard('/dashboard/club-keys/');

  it('opens for the Super Admin', () => {
    expect(mayOpen(person(SUPER), '/dashboard/club-keys/')).toBe(true);
    expect(() => guard(contextOf(person(SUPER)))).not.toThrow();
  });

  it('is refused to a role holding every permission, to partner staff and to an old session', () => {
    for (const user of [person(ALL_HELD), person(SUPER, 7), person(ALL_HELD, 7), person(null)]) {
      expect(mayOpen(user, '/dashboard/club-keys/')).toBe(false);
      expect(() => guard(contextOf(user))).toThrow(ForbiddenError);
    }
    // A role that held every permission still opens the permission screens: only this one is special.
    expect(mayOpen(person(ALL_HELD), '/dashboard/webhooks/')).toBe(true);
  });

  it('Add customer needs customers.create', () => {
    const addGuard = screenGuard('/dashboard/clients/add');
    const viewer = { ...person(ALL_HELD), permissions: ['clients.view'] };
    expect(() => addGuard(contextOf(viewer))).toThrow(ForbiddenError);
    expect(() => addGuard(contextOf(person(ALL_HELD)))).not.toThrow();
  });
});

describe('four eyes (issue 35, decision 074)', () => {
  it('the Approvals screen opens for holders of rewards.approve only', () => {
    const approver = { ...person(ALL_HELD), permissions: ['rewards.approve'] };
    const issuer = { ...person(ALL_HELD), permissions: ['rewards.issue', 'rewards.view'] };
    expect(mayOpen(approver, '/dashboard/approvals/')).toBe(true);
    expect(mayOpen(issuer, '/dashboard/approvals/')).toBe(false);
  });

  it('the approval settings open for the Super Admin alone', () => {
    expect(mayOpen(person(SUPER), '/dashboard/settings/approvals')).toBe(true);
    expect(mayOpen(person(ALL_HELD), '/dashboard/settings/approvals')).toBe(false);
  });
});
