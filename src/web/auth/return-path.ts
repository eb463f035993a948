/**
 * Where to go once signed in: the page a person opened (a deep link from an e-mail, say) before
 * being sent to sign in. Only a path of this site is followed, so a crafted sign-in link cannot
 * send someone on to another site (`//host`, `/\host` and `https://host` are all refused).
 */
export function safeReturnPath(value: unknown): string | undefined {
  if (typeof value !== 'string' || value.length > 2_048) return undefined;
  if (!value.startsWith('/') || value.startsWith('//') || value.startsWith('/\\')) return undefined;
  // Control characters have no place in a path, and browsers strip some of them before parsing.
  for (let index = 0; index < value.length; index += 1) {
    const code = value.charCodeAt(index);
    if (code < 0x20 || code === 0x7f) return undefined;
  }
  const path = value.split(/[?#]/, 1)[0] ?? '';
  // Back to a signed-out page after signing in would only bounce.
  if (['/signin', '/forgot-password', '/reset-password', '/accept-invitation'].includes(path))
    return undefined;
  return value;
}

/** The sign-in page's address for someone who was on `path` (nothing to remember for `/`). */
export function signInSearch(path: string): { next?: string } {
  const next = safeReturnPath(path);
  return next && next !== '/' ? { next } : {};
}
