import { queryOptions } from '@tanstack/react-query';
import { type ChangePasswordBody, type Profile, profileSchema } from '../../contract/profile';
import { z } from '../../contract/zod';
import { api } from './client';

export const profileKeys = {
  all: ['profile'] as const,
  detail: () => [...profileKeys.all, 'detail'] as const,
};

export const fetchProfile = (): Promise<Profile> => api().get('/user/profile', profileSchema);

export const changePassword = async (body: ChangePasswordBody): Promise<string> =>
  (await api().send('PATCH', '/user/profile/update-password', z.unknown(), { body })).message;

export const profileQueryOptions = () =>
  queryOptions({ queryKey: profileKeys.detail(), queryFn: fetchProfile, staleTime: 30_000 });
