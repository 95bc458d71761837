import { type APIRequestContext, expect, type Locator, type Page, test } from '@playwright/test';
import { adminToken, apiCall } from './support/admin-api';
import { E2E_BASE_URL } from './support/env';
import { signIn } from './support/fixtures';

/**
 * Issue 27 in the console, at a phone's width and a desktop's: the Super Admin's Club API keys (a key
 * shown once, used by the subscriber system to bring a customer in, revoked and refused at once),
 * Add customer by hand (the sync's rules at each field, nothing created on a refusal), and who sees
 * neither (no customers.create: no Add customer; partner admins: no Club API keys, whatever they hold).
 */

const API = `${E2E_BASE_URL}/api/v1`;
const NOT_ALLOWED = 'Not allowed';

/** The page never scrolls sideways (wide tables scroll inside their own box). */
async function expectNoSideScroll(page: Page, where: string) {
  const { scrollWidth, clientWidth } = await page.evaluate(() => {
    const root = document.scrollingElement ?? document.documentElement;
    return { scrollWidth: root.scrollWidth, clientWidth: root.clientWidth };
  });
  expect(
    scrollWidth,
    `${where}: scrollWidth ${scrollWidth} > clientWidth ${clientWidth}`,
  ).toBeLessThanOrEqual(clientWidth);
}

/**
 * Nothing is painted over the dialog: at its centre and at the centre of each of its controls in
 * view, the topmost element is the dialog's own.
 */
async function expectOnTop(dialog: Locator) {
  await expect(dialog).toBeVisible();
  // The opening animation done: the box no longer moves.
  await expect
    .poll(async () => {
      const a = await dialog.boundingBox();
      await new Promise((r) => setTimeout(r, 120));
      const b = await dialog.boundingBox();
      return a && b && a.x === b.x && a.y === b.y && a.width === b.width;
    })
    .toBe(true);
  const covered = await dialog.evaluate((root) => {
    const misses: string[] = [];
    const probe = (el: Element, what: string) => {
      const r = el.getBoundingClientRect();
      const x = r.left + r.width / 2;
      const y = r.top + r.height / 2;
      if (x < 0 || y < 0 || x >= window.innerWidth || y >= window.innerHeight) return;
      const hit = document.elementFromPoint(x, y);
      if (!hit || !root.contains(hit))
        misses.push(`${what} under ${hit?.outerHTML.slice(0, 80) ?? 'nothing'}`);
    };
    probe(root, 'the dialog');
    for (const el of root.querySelectorAll('button, input, select, textarea, h2'))
      probe(el, el.textContent?.trim() || el.getAttribute('aria-label') || el.tagName);
    return misses;
  });
  expect(covered, 'elements painted over the dialog').toEqual([]);
}

/** Opens a club menu entry as a person would: the drawer on a phone, the sidebar on a desktop. */
async function openFromMenu(page: Page, phone: boolean, link: string) {
  if (phone) {
    await page.getByRole('button', { name: 'Open menu' }).click();
    const drawer = page.getByRole('dialog', { name: 'Reward Club' });
    await drawer.getByRole('link', { name: link, exact: true }).click();
    await expect(drawer).toBeHidden();
  } else {
    await page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: link, exact: true })
      .click();
  }
}

/** The menu's entries (read from the drawer on a phone, which is closed again). */
async function menuLinks(page: Page, phone: boolean): Promise<string[]> {
  if (!phone) return page.getByRole('navigation', { name: 'Main' }).getByRole('link').allTextContents();
  await page.getByRole('button', { name: 'Open menu' }).click();
  const drawer = page.getByRole('dialog', { name: 'Reward Club' });
  const links = await drawer.getByRole('navigation', { name: 'Main' }).getByRole('link').allTextContents();
  await page.keyboard.press('Escape');
  await expect(drawer).toBeHidden();
  return links;
}

const stampOf = (width: number) => `${width}${Date.now().toString(36)}${Math.floor(Math.random() * 1000)}`;

/** A staff member of the test's own, with a role of exactly these permissions (at a partner when given). */
async function staffWith(
  request: APIRequestContext,
  token: string,
  tag: string,
  permissions: string[],
  partnerId?: number,
) {
  const stamp = stampOf(0);
  const catalogue = await apiCall<{ id: number; name: string }[]>(request, token, 'GET', '/authz');
  const role = await apiCall<{ id: number }>(request, token, 'POST', '/admin/user/create-role', {
    roleName: `${tag} ${stamp}`,
    permissionIds: catalogue.filter((p) => permissions.includes(p.name)).map((p) => p.id),
    ...(partnerId === undefined ? {} : { partnerRole: true }),
  });
  const person = { email: `${tag.toLowerCase()}.${stamp}@rewardclub.ng`, password: `Desk#${stamp}2026` };
  const created = await apiCall<{ id: number }>(request, token, 'POST', '/admin/user/new-admin-user', {
    firstName: 'Kemi',
    lastName: `${tag}${stamp}`,
    email: person.email,
    roleId: role.id,
    ...(partnerId === undefined ? {} : { partnerId }),
  });
  await apiCall(request, token, 'PATCH', '/admin/user/update-admin-user', {
    userId: created.id,
    password: person.password,
  });
  return person;
}

/** The customer the sync keeps under an external id, or the call's status when there is none. */
async function byExternalId(request: APIRequestContext, token: string, externalId: string) {
  const res = await request.get(`${API}/admin/customers/external/${encodeURIComponent(externalId)}`, {
    headers: { authorization: `Bearer ${token}` },
  });
  return {
    status: res.status(),
    customer: res.ok() ? ((await res.json()).data as Record<string, unknown>) : null,
  };
}

for (const width of [375, 1440]) {
  const phone = width < 768;

  test.describe(`at ${width} px`, () => {
    test.use({ viewport: { width, height: phone ? 812 : 900 } });
    // About 30 s each on a quiet machine; the shared 2-core machine under load has taken minutes.
    test.describe.configure({ timeout: 240_000 });

    test('a Super Admin creates a club key (shown once), the subscriber system brings a customer in with it, the key is revoked and refused', async ({
      page,
      request,
      context,
    }) => {
      const stamp = stampOf(width);
      const keyName = `Subscriber sync ${stamp}`;
      const externalId = `SUB-${stamp}`;
      const lastName = `Synced${stamp}`;
      await context.grantPermissions(['clipboard-read', 'clipboard-write']);

      await signIn(page);
      await openFromMenu(page, phone, 'Club API keys');
      await expect(page).toHaveURL(/\/dashboard\/club-keys$/);
      await expect(page.getByRole('heading', { name: 'Club API keys', level: 1 })).toBeVisible();
      await expectNoSideScroll(page, 'club keys');

      await page.getByRole('button', { name: 'Create key' }).click();
      const create = page.getByRole('dialog', { name: 'Create club API key' });
      await expectOnTop(create);
      await create.getByLabel('Name').fill(keyName);
      await expect(create.getByRole('checkbox', { name: 'customers.write' })).toBeChecked();
      await create.getByRole('button', { name: 'Create key' }).click();

      const done = page.getByRole('dialog', { name: 'Club API key created' });
      await expect(done).toContainText('you will not see it again');
      const field = done.getByLabel('API key');
      await expect(field).toHaveValue(/^rcc_[0-9a-f]{12}_[A-Za-z0-9_-]{43}$/);
      const key = await field.inputValue();
      await expectOnTop(done);
      await expectNoSideScroll(page, 'the key shown once');
      await done.getByRole('button', { name: 'Copy key' }).click();
      await expect(page.getByText('Key copied')).toBeVisible();
      expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(key);
      await done.getByRole('button', { name: 'Done' }).click();
      await expect(done).toBeHidden();

      const row = page.getByRole('row').filter({ hasText: keyName });
      await expect(row).toContainText('customers.read, customers.write');
      await expect(row).toContainText('Never');
      await expect(row).toContainText('Active');
      await expect(row).toContainText(key.slice(0, 16));
      // Shown once: the secret is nowhere on the page any more.
      await expect(page.getByText(key.slice(17))).toHaveCount(0);
      expect(await page.content()).not.toContain(key.slice(17));

      // The subscriber system, with the key alone.
      const record = {
        firstName: 'Ifeanyi',
        lastName,
        email: `ifeanyi.${stamp}@subscribers.ng`,
        phone: '+234 803 555 0101',
        address: '4 Bode Thomas Street, Surulere',
        internetAccountNumber: `FBR-${stamp}`,
      };
      const put = await request.put(`${API}/admin/customers/external/${externalId}`, {
        headers: { 'X-Api-Key': key },
        data: record,
      });
      expect(put.status(), await put.text()).toBe(200);
      expect((await put.json()).data.result).toBe('created');

      // It is in the Client list.
      await openFromMenu(page, phone, 'Client');
      await page.getByRole('searchbox', { name: 'Search customers' }).fill(lastName);
      const customerRow = page
        .getByRole('table', { name: 'Customers' })
        .getByRole('row')
        .filter({ hasText: lastName });
      await expect(customerRow).toHaveCount(1);
      await expect(customerRow).toContainText(record.email);
      await expectNoSideScroll(page, 'client list');

      // Its use shows; then it is revoked after a confirmation.
      await openFromMenu(page, phone, 'Club API keys');
      await expect(row).not.toContainText('Never');
      await row.getByRole('button', { name: `Revoke ${keyName}` }).click();
      const confirm = page.getByRole('dialog', { name: 'Revoke club API key' });
      await expectOnTop(confirm);
      await expect(confirm).toContainText(keyName);
      await confirm.getByRole('button', { name: 'Revoke' }).click();
      await expect(page.getByText('API key revoked')).toBeVisible();
      await expect(confirm).toBeHidden();
      await expect(row).toContainText('Revoked');
      await expect(row.getByRole('button', { name: `Revoke ${keyName}` })).toHaveCount(0);

      const refused = await request.put(`${API}/admin/customers/external/${externalId}`, {
        headers: { 'X-Api-Key': key },
        data: { ...record, firstName: 'Changed' },
      });
      expect(refused.status()).toBe(401);
      const token = await adminToken(request);
      expect((await byExternalId(request, token, externalId)).customer?.firstName).toBe('Ifeanyi');
    });

    test('an admin adds a customer by hand: bad email and phone are refused at their fields and create nothing; a taken email is named at its field', async ({
      page,
      request,
    }) => {
      const token = await adminToken(request);
      const stamp = stampOf(width);
      const externalId = `ACC/${stamp}`;
      const lastName = `Handmade${stamp}`;
      const existing = await apiCall<{ records: { email: string }[] }>(
        request,
        token,
        'GET',
        '/admin/user/customers?pageSize=10',
      );
      const takenEmail = existing.records[0]!.email;

      await signIn(page);
      await openFromMenu(page, phone, 'Client');
      await page.getByRole('button', { name: 'Add customer' }).click();
      await expect(page).toHaveURL(/\/dashboard\/clients\/add$/);
      await expect(page.getByRole('heading', { name: 'Add customer', level: 1 })).toBeVisible();
      await expectNoSideScroll(page, 'add customer form');

      const form = page.getByRole('region', { name: 'Add customer' });
      await form.getByLabel('External ID').fill(externalId);
      await form.getByLabel('First Name').fill('Zainab');
      await form.getByLabel('Last Name').fill(lastName);
      await form.getByLabel('Email').fill('zainab@');
      await form.getByLabel('Phone').fill('0803 12');
      await form.getByRole('button', { name: 'Add customer' }).click();
      await expect(form.getByText('pls provide a valid email')).toBeVisible();
      await expect(form.getByText('Phone number cannot be less than 7 digits')).toBeVisible();
      await expect(form.getByLabel('Email')).toHaveAttribute('aria-invalid', 'true');
      await expect(form.getByLabel('Phone')).toHaveAttribute('aria-invalid', 'true');
      await expectNoSideScroll(page, 'add customer form with errors');
      await expect(page).toHaveURL(/\/dashboard\/clients\/add$/);
      expect((await byExternalId(request, token, externalId)).status).toBe(404);

      // The server's refusal lands at its field too: an email another customer holds.
      await form.getByLabel('Email').fill(takenEmail);
      await form.getByLabel('Phone').fill('+234 (803) 123-4567');
      await form.getByRole('button', { name: 'Add customer' }).click();
      await expect(form.getByText(/This email belongs to another customer/)).toBeVisible();
      await expect(form.getByLabel('Email')).toHaveAttribute('aria-invalid', 'true');
      await expect(page).toHaveURL(/\/dashboard\/clients\/add$/);
      expect((await byExternalId(request, token, externalId)).status).toBe(404);

      const email = `zainab.${stamp}@subscribers.ng`;
      await form.getByLabel('Email').fill(email);
      await form.getByLabel('Address').fill('9 Ahmadu Bello Way, Kaduna');
      await form.getByLabel('Internet Account Number').fill(`FBR-${stamp}`);
      await form.getByLabel('Status').selectOption('Blocked');
      await form.getByRole('button', { name: 'Add customer' }).click();
      await expect(page.getByText('Customer added')).toBeVisible();
      await expect(page).toHaveURL(/\/dashboard\/clients\/\d+$/);
      await expect(page.getByText(`Zainab ${lastName}`).first()).toBeVisible();
      await expectNoSideScroll(page, 'the new customer');

      const { customer } = await byExternalId(request, token, externalId);
      expect(customer).toMatchObject({
        externalId,
        firstName: 'Zainab',
        lastName,
        email,
        phone: '08031234567',
        address: '9 Ahmadu Bello Way, Kaduna',
        accountStatus: 'BLOCKED',
        internetAccountNumber: `FBR-${stamp}`,
      });
      expect(page.url()).toMatch(new RegExp(`/dashboard/clients/${customer!.id}$`));
    });

    test('without customers.create there is no Add customer; partner admins never see Club API keys', async ({
      page,
      request,
      browser,
    }) => {
      const token = await adminToken(request);
      const viewer = await staffWith(request, token, 'Viewer', ['dashboard.view', 'clients.view']);
      await signIn(page, viewer);
      await openFromMenu(page, phone, 'Client');
      await expect(page.getByRole('table', { name: 'Customers' })).toBeVisible();
      await expect(page.getByRole('button', { name: 'Add customer' })).toHaveCount(0);
      expect(await menuLinks(page, phone)).not.toContain('Club API keys');
      await page.goto('/dashboard/clients/add');
      await expect(page.getByRole('heading', { name: NOT_ALLOWED })).toBeVisible();
      await expect(page.getByLabel('External ID')).toHaveCount(0);

      // A partner's admin holding every partner-side permission, integrations.manage included.
      const partners = await apiCall<{ records: { id: number }[] }>(
        request,
        token,
        'GET',
        '/admin/partners?pageSize=10&status=ACTIVE',
      );
      const partnerAdmin = await staffWith(
        request,
        token,
        'PartnerAdmin',
        [
          'dashboard.view',
          'partners.view',
          'visits.view',
          'rewards.view',
          'integrations.manage',
          'staff.view',
        ],
        partners.records[0]!.id,
      );
      const other = await browser.newContext({ viewport: { width, height: phone ? 812 : 900 } });
      const partnerPage = await other.newPage();
      await signIn(partnerPage, partnerAdmin);
      expect(await menuLinks(partnerPage, phone)).not.toContain('Club API keys');
      await partnerPage.goto('/dashboard/club-keys');
      await expect(partnerPage.getByRole('heading', { name: NOT_ALLOWED })).toBeVisible();
      await expect(partnerPage.getByRole('button', { name: 'Create key' })).toHaveCount(0);
      await expectNoSideScroll(partnerPage, 'club keys refused');
      const login = await request.post(`${API}/admin/auth/login`, { data: partnerAdmin });
      const partnerToken = (await login.json()).data.accessToken as string;
      const list = await request.get(`${API}/admin/api-keys`, {
        headers: { authorization: `Bearer ${partnerToken}` },
      });
      expect(list.status()).toBe(403);
      await other.close();
    });
  });
}
