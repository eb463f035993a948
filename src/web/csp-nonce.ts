/**
 * The nonce of this page load, from the meta tag the server fills in. Browsers hide nonce
 * attributes from getAttribute, so it is read from the element's `nonce` property.
 */
export function pageNonce(): string | undefined {
  const meta = document.querySelector<HTMLMetaElement>('meta[property="csp-nonce"]');
  return meta?.nonce || undefined;
}
