import { useEffect, useState } from 'react';
import { passwordProblem } from '../../contracts/passwords';

/**
 * What the service's rule (src/contracts/passwords.ts) says of a new password as it is typed:
 * null while the field is empty or the password is acceptable. The same check runs here as on
 * the service, without the breached-password list, which only the service holds; the service's
 * answer to the form adds that. The check's dictionaries load with the first password typed.
 */
export function usePasswordProblem(password: string): string | null {
  const [problem, setProblem] = useState<string | null>(null);
  useEffect(() => {
    if (password === '') {
      setProblem(null);
      return;
    }
    let current = true;
    passwordProblem(password).then(
      (found) => {
        if (current) setProblem(found);
      },
      // Its dictionaries failed to load (the connection dropped): the service still checks.
      () => {
        if (current) setProblem(null);
      },
    );
    return () => {
      current = false;
    };
  }, [password]);
  return problem;
}
