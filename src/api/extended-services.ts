import { extendedServiceList, extendedServiceSchema } from '../../contract/extended-services';
import { apiMessage } from './call';
import { listResource } from './list-resource';

const extendedServices = listResource({
  key: ['extended-services'],
  list: extendedServiceList,
  path: '/admin/partners/extended-services',
  item: extendedServiceSchema,
  detail: { path: '/admin/partners/extended-services/{extendedServiceId}' },
});

export const extendedServiceKeys = extendedServices.keys;
export const extendedServiceListQueryOptions = extendedServices.listQueryOptions;
/** Every extended service the list's search and sort match, as CSV. */
export const exportExtendedServices = extendedServices.exportCsv;
export const fetchExtendedService = extendedServices.fetchOne;
export const extendedServiceDetailQueryOptions = extendedServices.detailQueryOptions;

export const deleteExtendedService = async (id: number): Promise<string> =>
  apiMessage('DELETE /admin/partners/extended-services/{extendedServiceId}', {
    params: { extendedServiceId: id },
  });

/** Every service, by title, for the partner forms' multi-select (the largest page size). */
export const extendedServiceChoicesQueryOptions = () =>
  extendedServices.choicesQueryOptions({ sortBy: 'title' }, (s) => ({ id: s.id, title: s.title }));
