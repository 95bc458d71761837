import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { listSchema } from '../../contract/envelope';
import {
  type ExtendedService,
  extendedServiceList,
  extendedServiceSchema,
} from '../../contract/extended-services';
import { z } from '../../contract/zod';
import { type ListState, toListQuery } from '../lib/list-search';
import { api } from './client';
import { type DownloadOptions, downloadCsv } from './export';

export const extendedServiceListSchema = listSchema(extendedServiceSchema);
export type ExtendedServiceList = z.infer<typeof extendedServiceListSchema>;

const PATH = '/admin/partners/extended-services';

export const extendedServiceKeys = {
  all: ['extended-services'] as const,
  lists: () => [...extendedServiceKeys.all, 'list'] as const,
  list: (state: ListState) =>
    [...extendedServiceKeys.lists(), toListQuery(state, extendedServiceList.sortKeys)] as const,
  choices: () => [...extendedServiceKeys.all, 'choices'] as const,
  details: () => [...extendedServiceKeys.all, 'detail'] as const,
  detail: (id: number) => [...extendedServiceKeys.details(), id] as const,
};

export const fetchExtendedServices = (state: ListState): Promise<ExtendedServiceList> =>
  api().get(PATH, extendedServiceListSchema, { query: toListQuery(state, extendedServiceList.sortKeys) });

/** Every extended service the list's search and sort match, as CSV. */
export const exportExtendedServices = (state: ListState, opts?: DownloadOptions) =>
  downloadCsv(`${PATH}/export`, toListQuery(state, extendedServiceList.sortKeys), opts);

export const fetchExtendedService = (id: number): Promise<ExtendedService> =>
  api().get(`${PATH}/${id}`, extendedServiceSchema);

export const deleteExtendedService = async (id: number): Promise<string> =>
  (await api().send('DELETE', `${PATH}/${id}`, z.unknown())).message;

export const extendedServiceListQueryOptions = (state: ListState) =>
  queryOptions({
    queryKey: extendedServiceKeys.list(state),
    queryFn: () => fetchExtendedServices(state),
    placeholderData: keepPreviousData,
    staleTime: 10_000,
  });

/** Every service, by title, for the partner forms' multi-select (the largest page size). */
export const extendedServiceChoicesQueryOptions = () =>
  queryOptions({
    queryKey: extendedServiceKeys.choices(),
    queryFn: () =>
      fetchExtendedServices({ page: 1, pageSize: 100, search: '', sortBy: 'title', sortOrder: 'asc' }).then(
        (list) => list.records.map((s) => ({ id: s.id, title: s.title })),
      ),
    staleTime: 30_000,
  });

export const extendedServiceDetailQueryOptions = (id: number) =>
  queryOptions({ queryKey: extendedServiceKeys.detail(id), queryFn: () => fetchExtendedService(id) });
