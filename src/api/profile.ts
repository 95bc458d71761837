import { queryOptions } from '@tanstack/react-query';
import type { ChangePasswordBody, Profile } from '../../contract/profile';
import { apiData, apiMessage } from './call';

export const profileKeys = {
  all: ['profile'] as const,
  detail: () => [...profileKeys.all, 'detail'] as const,
};

export const fetchProfile = (): Promise<Profile> => apiData('GET /user/profile');

export const changePassword = async (body: ChangePasswordBody): Promise<string> =>
  apiMessage('PATCH /user/profile/update-password', { body });

export const profileQueryOptions = () =>
  queryOptions({ queryKey: profileKeys.detail(), queryFn: fetchProfile, staleTime: 30_000 });
