import { useForm } from '@tanstack/react-form';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useRouteContext } from '@tanstack/react-router';
import { useRef, useState } from 'react';
import { IMAGE_HELPER_TEXT } from '../../../../contract/images';
import { changePasswordFormSchema, type Profile } from '../../../../contract/profile';
import { css, cx } from '../../../../styled-system/css';
import { EDIT_PATHS } from '../../../api/outbox';
import { changePassword, profileKeys, profileQueryOptions } from '../../../api/profile';
import { AppForm } from '../../../components/app-form';
import { LogoSpinner } from '../../../components/logo-spinner';
import { useEditSave } from '../../../components/outbox-edit';
import { useQueuedOverlay } from '../../../components/outbox-provider';
import { PageBody, PageHeader } from '../../../components/page-header';
import { PendingNotice } from '../../../components/pending-mark';
import { QueryErrorText } from '../../../components/query-error-text';
import { Avatar } from '../../../components/ui/avatar';
import { Button } from '../../../components/ui/button';
import { TextField } from '../../../components/ui/field';
import { notify } from '../../../components/ui/notify';
import { PasswordField } from '../../../components/ui/password-input';
import { authErrorMessage } from '../../../lib/error-message';
import { fieldProps, fileToBase64, validateOnChangeAndBlur } from '../../../lib/form';
import { formatDate, fullName } from '../../../lib/format';
import { IMAGE_ACCEPT, imageFileProblem } from '../../../lib/image-file';
import { type ProfileForm, profileFormSchema, toProfileUpdate } from '../../../lib/profile-form';

const card = css({
  layerStyle: 'card',
  p: { base: '5', md: '6' },
});
const cardTitle = css({ fontSize: 'lg', fontWeight: 'semibold', mb: '4' });
const formClass = css({ display: 'flex', flexDirection: 'column', gap: '4' });

export function ProfileScreen() {
  // Queued edits of the profile show here and in its form (issue 17).
  const overlay = useQueuedOverlay('profile');
  const profile = useQuery({ ...profileQueryOptions(), select: overlay.select });
  return (
    <PageBody>
      <PageHeader title="Profile" subtitle="Your details and password" />
      {profile.isPending || !overlay.ready ? (
        <LogoSpinner label="Loading profile" />
      ) : profile.error ? (
        <QueryErrorText error={profile.error} />
      ) : (
        <div
          className={css({ display: 'grid', gap: '6', gridTemplateColumns: { base: '1fr', lg: '1fr 1fr' } })}
        >
          <div>
            <PendingNotice fields={overlay.fieldsOf(profile.data.id)} />
            <ProfileDetails profile={profile.data} />
          </div>
          <div className={css({ display: 'flex', flexDirection: 'column', gap: '6' })}>
            <ProfileUpdateForm
              key={`${profile.data.id}:${profile.data.updatedAt}:${overlay.versionOf(profile.data.id)}`}
              profile={profile.data}
            />
            <ChangePasswordForm />
          </div>
        </div>
      )}
    </PageBody>
  );
}

function ProfileDetails({ profile }: { profile: Profile }) {
  const name = fullName(profile.firstName, profile.lastName);
  const rows: [string, string][] = [
    ['Email', profile.email],
    ['Phone', profile.phone ?? '-'],
    ['Address', profile.address || '-'],
    ['Role', profile.role?.name ?? '-'],
    ['Member since', formatDate(profile.createdAt) || '-'],
  ];
  return (
    <section aria-label="Profile details" className={cx(card, css({ alignSelf: 'start' }))}>
      <div className={css({ display: 'flex', alignItems: 'center', gap: '4', mb: '6' })}>
        <Avatar name={name} src={profile.imageUrl} size="lg" />
        <div>
          <p className={css({ fontSize: 'xl', fontWeight: 'bold' })}>{name}</p>
          <p className={css({ fontSize: 'sm', color: 'fg.muted' })}>{profile.userType}</p>
        </div>
      </div>
      <dl
        className={css({
          display: 'grid',
          gridTemplateColumns: 'max-content 1fr',
          columnGap: '6',
          rowGap: '3',
        })}
      >
        {rows.map(([label, value]) => (
          <div key={label} className={css({ display: 'contents' })}>
            <dt className={css({ fontSize: 'sm', color: 'fg.muted' })}>{label}</dt>
            <dd className={css({ fontSize: 'sm', fontWeight: 'medium', wordBreak: 'break-word' })}>
              {value}
            </dd>
          </div>
        ))}
      </dl>
    </section>
  );
}

function ProfileUpdateForm({ profile }: { profile: Profile }) {
  const queryClient = useQueryClient();
  const { session } = useRouteContext({ from: '__root__' });
  const fileInput = useRef<HTMLInputElement>(null);
  const [image, setImage] = useState<File | null>(null);
  const [imageError, setImageError] = useState<string | null>(null);
  const clearImage = () => {
    setImage(null);
    setImageError(null);
    if (fileInput.current) fileInput.current.value = '';
  };
  const update = useEditSave({
    onSent: ({ data }) => {
      const updated = data as Profile;
      queryClient.setQueryData(profileKeys.detail(), updated);
      session.send({ type: 'profile.updated', profile: updated });
      clearImage();
      notify.success('Profile updated successfully');
    },
    // Saved on this device: the details show the edited values until they are sent.
    onQueued: clearImage,
  });
  const submit = async (values: ProfileForm) => {
    let body: ReturnType<typeof toProfileUpdate>;
    try {
      body = toProfileUpdate(values, profile, image ? await fileToBase64(image) : null);
    } catch (error) {
      notify.error(authErrorMessage(error));
      return;
    }
    return update.save({
      method: 'PATCH',
      path: EDIT_PATHS.profile,
      body,
      label: 'Edit your profile',
      entity: 'profile',
      entityId: profile.id,
      baseVersion: profile.updatedAt ?? null,
    });
  };
  const defaultValues: ProfileForm = {
    firstName: profile.firstName,
    lastName: profile.lastName,
    address: profile.address ?? '',
  };
  const form = useForm({
    defaultValues,
    validationLogic: validateOnChangeAndBlur,
    validators: { onChange: profileFormSchema },
    onSubmit: ({ value }) => submit(value),
  });

  return (
    <section aria-labelledby="profile-update-title" className={card}>
      <h2 id="profile-update-title" className={cardTitle}>
        Update profile
      </h2>
      <AppForm form={form} className={formClass}>
        <div
          className={css({ display: 'grid', gap: '4', gridTemplateColumns: { base: '1fr', md: '1fr 1fr' } })}
        >
          {(['firstName', 'lastName'] as const).map((name) => (
            <form.Field key={name} name={name}>
              {(field) => (
                <TextField label={name === 'firstName' ? 'First Name' : 'Last Name'} {...fieldProps(field)} />
              )}
            </form.Field>
          ))}
        </div>
        <form.Field name="address">
          {(field) => <TextField label="Address" {...fieldProps(field)} />}
        </form.Field>
        <TextField
          ref={fileInput}
          label="Profile Image"
          name="profileImage"
          type="file"
          accept={IMAGE_ACCEPT}
          helperText={IMAGE_HELPER_TEXT}
          error={imageError ?? undefined}
          onChange={(e) => {
            // Checked here, before any upload, against the limit the helper text gives.
            const file = e.target.files?.[0] ?? null;
            const problem = file ? imageFileProblem(file) : null;
            setImageError(problem);
            setImage(problem ? null : file);
          }}
        />
        <div className={css({ display: 'flex', justifyContent: 'flex-end' })}>
          <Button type="submit" loading={update.isPending} loadingText="Updating profile">
            Update Profile
          </Button>
        </div>
      </AppForm>
      {update.conflictDialog}
    </section>
  );
}

function ChangePasswordForm() {
  const change = useMutation({
    mutationFn: changePassword,
    onSuccess: (message) => {
      notify.success(message || 'Password changed successfully');
      form.reset();
    },
    onError: (error) => notify.error(authErrorMessage(error)),
  });
  const form = useForm({
    defaultValues: { oldPassword: '', newPassword: '', confirmPassword: '' },
    validationLogic: validateOnChangeAndBlur,
    validators: { onChange: changePasswordFormSchema },
    onSubmit: ({ value }) =>
      change.mutateAsync({ oldPassword: value.oldPassword, newPassword: value.newPassword }),
  });
  const fields = [
    { name: 'oldPassword', label: 'Old Password', autoComplete: 'current-password' },
    { name: 'newPassword', label: 'New Password', autoComplete: 'new-password' },
    { name: 'confirmPassword', label: 'Confirm Password', autoComplete: 'new-password' },
  ] as const;

  return (
    <section aria-labelledby="change-password-title" className={card}>
      <h2 id="change-password-title" className={cardTitle}>
        Change password
      </h2>
      <AppForm form={form} className={formClass}>
        {fields.map(({ name, label, autoComplete }) => (
          <form.Field key={name} name={name}>
            {(field) => <PasswordField label={label} autoComplete={autoComplete} {...fieldProps(field)} />}
          </form.Field>
        ))}
        <div className={css({ display: 'flex', justifyContent: 'flex-end' })}>
          <Button type="submit" loading={change.isPending} loadingText="Changing password">
            Change Password
          </Button>
        </div>
      </AppForm>
    </section>
  );
}
