/**
 * Credentials that travel in URLs, removed wherever a URL may be written down: the service's log
 * lines (src/server/platform/http/logger.ts), the browser's error telemetry and the server's tunnel
 * for it (telemetry-text.ts). One function, so that no writer can know fewer credential places than
 * another. A URL copied from any of them opens nothing
 * (docs/decisions/0095-url-credentials-never-logged.md: document files are reached through signed
 * URLs only, and the signed token is the whole credential).
 *
 * Two places hold credentials:
 * - the values of query and fragment parameters (reset and invitation links carry their token in
 *   the fragment; any parameter may carry one), names kept;
 * - the path of a signed download, `/files/<documentId>/<token>`: the document id is kept when it
 *   looks like one, everything after it is removed, whatever separators the path was written
 *   with (doubled, backslashes, percent-encoded), in any case and with its letters
 *   percent-encoded, so no spelling of the path that a router or proxy could still serve keeps
 *   its token.
 *
 * Every quantifier that can meet a long run of its characters is bounded or meets each character
 * once: the telemetry tunnel runs this over 200 KiB that anyone may send.
 */

const SEPARATORS = String.raw`(?:\/|\\|%2f|%5c)+`;

/** `files`, any letter of it percent-encoded, as a router that decodes before routing reads it. */
const FILES = '(?:f|%[46]6)(?:i|%[46]9)(?:l|%[46]c)(?:e|%[46]5)(?:s|%[57]3)';

/** Values of URL parameters, in the query or the fragment. */
const PARAMETER_VALUE = /([?#&;][^=?#&;\s"'<>]{1,100}=)[^&#;\s"'<>]*/g;

/**
 * `files` as a whole path segment, then the id segment when there is one, then the credential:
 * the rest of the path. The lookbehind anchors each attempt at one place, so a long run of
 * separators is not re-scanned from each of its characters.
 */
const FILE_TOKEN = new RegExp(
  String.raw`(?<=\/|\\|%2f|%5c)(${FILES}${SEPARATORS})(?:([A-Za-z0-9_-]{1,64})(${SEPARATORS}))?[^?#\s"'<>]+`,
  'gi',
);

/** Any text that could hold either credential contains one of these. */
const MIGHT_HOLD_URL_CREDENTIAL = /[?#&;][^=]{0,100}=|files|%[46]6|%[46]9|%[46]c|%[46]5|%[57]3/i;

/** `text` with every URL credential it holds replaced by `mask`. */
export function redactUrlCredentials(text: string, mask: string): string {
  if (!MIGHT_HOLD_URL_CREDENTIAL.test(text)) return text;
  return text
    .replace(
      FILE_TOKEN,
      (_match, files: string, id: string | undefined, separator: string | undefined) =>
        `${files}${id ?? ''}${separator ?? ''}${mask}`,
    )
    .replace(PARAMETER_VALUE, `$1${mask}`);
}
