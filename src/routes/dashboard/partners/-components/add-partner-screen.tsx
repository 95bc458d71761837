import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { type CreatePartnerBody, partnerMessages } from '../../../../../contract/partners';
import { createPartner, partnerKeys } from '../../../../api/partners';
import { statsKeys } from '../../../../api/stats';
import { PageBody, PageHeader } from '../../../../components/page-header';
import { Button } from '../../../../components/ui/button';
import { notify } from '../../../../components/ui/notify';
import { errorSentence } from '../../../../lib/error-message';
import { fileToBase64 } from '../../../../lib/form';
import { addPartnerFormSchema, emptyPartnerForm, toCreatePartnerBody } from '../../../../lib/partner-form';
import { PartnerForm } from './partner-form';

/** /dashboard/partners/add: every rule of docs/product.md#validation; success → the list with the spec's toast. */
export function AddPartnerScreen() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const toList = () => void navigate({ to: '/dashboard/partners' });
  const create = useMutation({
    mutationFn: (body: CreatePartnerBody) => createPartner(body),
    onSuccess: () => {
      notify.success(partnerMessages.added);
      void queryClient.invalidateQueries({ queryKey: partnerKeys.all });
      void queryClient.invalidateQueries({ queryKey: statsKeys.all });
      toList();
    },
    onError: (error) => notify.error(errorSentence(error)),
  });

  return (
    <PageBody>
      <PageHeader
        title="Add Partner"
        subtitle="The partner's contact receives an invitation by email."
        actions={
          <Button variant="outline" onClick={toList}>
            Back
          </Button>
        }
      />
      <PartnerForm
        mode="add"
        defaultValues={emptyPartnerForm}
        schema={addPartnerFormSchema}
        pending={create.isPending}
        onSubmit={(values) =>
          toCreatePartnerBody(values, fileToBase64).then(
            (body) => create.mutateAsync(body),
            (error: unknown) => notify.error(errorSentence(error)),
          )
        }
      />
    </PageBody>
  );
}
