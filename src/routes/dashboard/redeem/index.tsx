import { createFileRoute, useNavigate } from '@tanstack/react-router';
import { useSelector } from '@xstate/react';
import { useState } from 'react';
import { z } from '../../../../contract/zod';
import { css } from '../../../../styled-system/css';
import { RouteErrorState } from '../../../components/forbidden-state';
import { PageBody, PageHeader } from '../../../components/page-header';
import { GuidedRedemption } from '../../../components/rewards/guided-redemption';
import { screenGuard } from '../../../components/screens';
import { Button } from '../../../components/ui/button';
import { TextField } from '../../../components/ui/field';

const redeemSearchSchema = z.object({
  /** Admins name the partner; partner staff always redeem at their own partner. */
  partnerId: z.catch(z.optional(z.coerce.number().check(z.int(), z.positive())), undefined),
});

export const Route = createFileRoute('/dashboard/redeem/')({
  validateSearch: redeemSearchSchema,
  beforeLoad: screenGuard('/dashboard/redeem/'),
  errorComponent: RouteErrorState,
  component: RedeemScreen,
});

function RedeemScreen() {
  const { session } = Route.useRouteContext();
  const ownPartnerId = useSelector(session, (s) => s.context.session?.user.partnerId ?? null);
  const search = Route.useSearch();
  const navigate = useNavigate();
  const partnerId = ownPartnerId ?? search.partnerId ?? null;
  const [typed, setTyped] = useState('');
  return (
    <PageBody>
      <PageHeader
        title="Redeem a reward"
        subtitle="Find the customer, pick the reward and enter their code"
      />
      {partnerId ? (
        <GuidedRedemption
          key={partnerId}
          partnerId={partnerId}
          onFinished={() => void navigate({ to: '/dashboard/rewards' })}
        />
      ) : (
        <form
          className={css({ display: 'flex', gap: '2', alignItems: 'flex-end', maxW: 'md' })}
          onSubmit={(e) => {
            e.preventDefault();
            const id = Number(typed);
            if (Number.isInteger(id) && id > 0)
              void navigate({ to: '/dashboard/redeem', search: { partnerId: id } });
          }}
        >
          <TextField
            label="Partner ID"
            inputMode="numeric"
            value={typed}
            onChange={(e) => setTyped(e.target.value)}
          />
          <Button type="submit">Open</Button>
        </form>
      )}
    </PageBody>
  );
}
