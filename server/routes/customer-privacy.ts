import { eq } from 'drizzle-orm';
import { customerPrivacyMessages as msg } from '../../contract/customer-privacy';
import { customerServerMessages } from '../../contract/customers';
import { customers } from '../db/schema';
import { customerDataExport, eraseCustomer } from '../domain/customer-privacy';
import { lagosDate } from '../domain/eligibility';
import { actions } from '../domain/events';
import { fullName } from '../domain/users';
import { ApiError } from '../errors';
import { callerChange } from '../http/change';
import type { RouteContext } from '../http/context';
import { ok } from '../http/errors';
import { routeSet } from '../http/route';

/**
 * The customer's rights (issue 28, docs/decisions/054-customer-erasure.md): club admins holding
 * customers.privacy export what the club holds about a customer and erase them. Club-scoped: partner
 * staff, partner keys and club keys never reach these routes.
 */
export function customerPrivacyRoutes(ctx: RouteContext) {
  const { db, guards, log } = ctx;
  return routeSet(guards)
    .on('GET /admin/user/customers/{customerId}/data-export', async (c) => {
      const { customerId } = c.req.valid('param');
      const { now, record } = callerChange(c, ctx);
      const [row] = await db.select().from(customers).where(eq(customers.id, customerId)).limit(1);
      if (!row) throw new ApiError(404, customerServerMessages.notFound);
      if (row.erasedAt) throw new ApiError(409, msg.alreadyErased, [], {}, 'customer_erased');
      // The export is an event of its own (who took the customer's data, when, from where).
      await record(db, {
        action: actions.exportedCustomerData(fullName(row)),
        entity: 'customer',
        entityId: customerId,
        payload: { customerId },
      });
      const pieces = customerDataExport(db, row, now);
      const encoder = new TextEncoder();
      const body = new ReadableStream<Uint8Array>(
        {
          async pull(controller) {
            try {
              const next = await pieces.next();
              if (next.done) controller.close();
              else controller.enqueue(encoder.encode(next.value));
            } catch (err) {
              // A failure mid-way breaks the connection: a partial file is never a whole export.
              log.error('customer data export failed', { customerId, error: String(err) });
              controller.error(err);
            }
          },
          async cancel() {
            await pieces.return(undefined);
          },
        },
        { highWaterMark: 0 },
      );
      return c.body(body, 200, {
        'Content-Type': 'application/json; charset=utf-8',
        'Content-Disposition': `attachment; filename="customer-${customerId}-data-${lagosDate(now)}.json"`,
        'X-Content-Type-Options': 'nosniff',
      });
    })
    .on('POST /admin/user/customers/{customerId}/erase', async (c) => {
      const { customerId } = c.req.valid('param');
      const { now, commit } = callerChange(c, ctx);
      let answer: Awaited<ReturnType<typeof eraseCustomer>>['answer'] | undefined;
      await commit(async (tx) => {
        const done = await eraseCustomer(tx, customerId, now);
        answer = done.answer;
        return done.event;
      });
      return ok(c, answer!, msg.erased);
    }).router;
}
