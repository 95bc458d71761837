import { Navigate } from '@tanstack/react-router';

/** docs/product.md#screens: any unknown path goes to /not-found. */
export function NotFoundRedirect() {
  return <Navigate to="/not-found" replace />;
}
