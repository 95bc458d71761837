import { useQuery, useQueryClient } from '@tanstack/react-query';
import { getRouteApi, useNavigate } from '@tanstack/react-router';
import { useMemo } from 'react';
import { type Partner, partnerMessages, type UpdatePartnerBody } from '../../../../../contract/partners';
import { css } from '../../../../../styled-system/css';
import { EDIT_PATHS } from '../../../../api/outbox';
import { partnerDetailQueryOptions, partnerKeys } from '../../../../api/partners';
import { useEditSave } from '../../../../components/outbox-edit';
import { useQueuedOverlay } from '../../../../components/outbox-provider';
import { PageBody, PageHeader } from '../../../../components/page-header';
import { QueuedEditBody } from '../../../../components/queued-edit-body';
import { Button } from '../../../../components/ui/button';
import { notify } from '../../../../components/ui/notify';
import { errorSentence } from '../../../../lib/error-message';
import { fileToBase64 } from '../../../../lib/form';
import {
  editPartnerFormOf,
  editPartnerFormSchema,
  hasPartnerChanges,
  toPartnerUpdate,
} from '../../../../lib/partner-form';
import { PartnerForm } from './partner-form';

const route = getRouteApi('/dashboard/partners/$partnerId/edit');

/** /dashboard/partners/{id}/edit: all optional, prefilled; only changed fields are sent. */
export function EditPartnerScreen() {
  const { partnerId } = route.useParams();
  const navigate = useNavigate();
  // Queued edits of the partner show in the form (a next edit starts from them, issue 17).
  const overlay = useQueuedOverlay('partner');
  const partner = useQuery({ ...partnerDetailQueryOptions(partnerId), select: overlay.select });
  const back = () => void navigate({ to: '/dashboard/partners/$partnerId', params: { partnerId } });

  return (
    <PageBody>
      <PageHeader
        title="Edit Partner"
        {...(partner.data ? { subtitle: `${partner.data.organizationName} · ${partner.data.email}` } : {})}
        actions={
          <Button variant="outline" onClick={back}>
            Back
          </Button>
        }
      />
      <QueuedEditBody query={partner} overlay={overlay} loadingLabel="Loading partner">
        {(record) => <EditPartnerForm partner={record} />}
      </QueuedEditBody>
    </PageBody>
  );
}

function EditPartnerForm({ partner }: { partner: Partner }) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const schema = useMemo(() => editPartnerFormSchema(partner), [partner]);
  const update = useEditSave({
    onSent: () => {
      // docs/product.md#states: partner edit returns to the list with 'Partner added successfully'.
      notify.success(partnerMessages.added);
      void queryClient.invalidateQueries({ queryKey: partnerKeys.all });
      void navigate({ to: '/dashboard/partners' });
    },
    // Saved on this device: the partner's page shows the edited values until they are sent.
    onQueued: () =>
      void navigate({ to: '/dashboard/partners/$partnerId', params: { partnerId: partner.id } }),
  });
  const save = (body: UpdatePartnerBody) =>
    update.save({
      method: 'PATCH',
      path: EDIT_PATHS.partner,
      body,
      label: `Edit partner ${partner.organizationName}`,
      entity: 'partner',
      entityId: partner.id,
      baseVersion: partner.updatedAt,
    });

  return (
    <>
      {partner.coverImage ? (
        <div className={css({ mb: '4', display: 'flex', alignItems: 'center', gap: '3' })}>
          <img
            src={partner.coverImage}
            alt="Current cover"
            className={css({ w: '24', h: '16', objectFit: 'cover', borderRadius: 'md' })}
          />
          <span className={css({ fontSize: 'sm', color: 'fg.muted' })}>Current cover image</span>
        </div>
      ) : null}
      <PartnerForm
        mode="edit"
        defaultValues={editPartnerFormOf(partner)}
        schema={schema}
        pending={update.isPending}
        onSubmit={(values) =>
          toPartnerUpdate(values, partner, fileToBase64).then(
            (body) => {
              if (!hasPartnerChanges(body)) return notify.info('No changes to save');
              return save(body);
            },
            (error: unknown) => notify.error(errorSentence(error)),
          )
        }
      />
      {update.conflictDialog}
    </>
  );
}
