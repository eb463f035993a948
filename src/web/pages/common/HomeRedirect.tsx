import { Navigate } from '@tanstack/react-router';
import { useSignedIn } from '../../auth/session';
import { homeOf } from '../../layout/navigation';

/** `/`: each role's own start page. */
export function HomeRedirect() {
  return <Navigate to={homeOf(useSignedIn())} replace />;
}
