import { lazy, Suspense } from 'react';
import { useToasterRequested } from './notify';

const AppToaster = lazy(() => import('./toast').then((m) => ({ default: m.AppToaster })));

/** The app's <Toaster>, rendered once the toaster has been asked for (see ./notify). */
export function LazyToaster() {
  return useToasterRequested() ? (
    <Suspense fallback={null}>
      <AppToaster />
    </Suspense>
  ) : null;
}
