import { Navigate } from '@tanstack/react-router';

/** SPEC section 2: any unknown path goes to /not-found. */
export function NotFoundRedirect() {
  return <Navigate to="/not-found" replace />;
}
