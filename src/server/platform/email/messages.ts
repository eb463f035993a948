import { PRODUCT_NAME } from '../../../contracts/product.js';

/** One e-mail as the outbox keeps it and a transport sends it. */
export interface EmailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
}

export type EmailKind =
  | 'password_reset'
  | 'password_changed'
  | 'account_created'
  | 'account_offered'
  | 'fund_choice_changed'
  | 'compliance_reminder'
  | 'second_factor_changed'
  | 'new_browser_signin'
  | 'data_protection_reminder'
  | 'benefit_statement_issued'
  | 'ict_incident_reminder';

function escapeHtml(value: string): string {
  return value
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&#39;');
}

function htmlDocument(title: string, paragraphs: string[]): string {
  const body = paragraphs.map((paragraph) => `<p>${paragraph}</p>`).join('\n');
  return `<!doctype html>
<html lang="en-IE">
<head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head>
<body style="font-family: sans-serif; line-height: 1.5; color: #1a1a1a">
${body}
</body>
</html>
`;
}

/**
 * The link carries the token in the fragment: browsers never send a fragment to the server, so
 * the token stays out of access logs, proxies and Referer headers.
 */
export function passwordResetLink(baseUrl: URL, token: string): string {
  return new URL(`/reset-password#token=${token}`, baseUrl).toString();
}

export function passwordResetMessage(
  to: string,
  { link, validMinutes }: { link: string; validMinutes: number },
): EmailMessage {
  const subject = `Reset your ${PRODUCT_NAME} password`;
  const text = [
    'Someone asked to reset the password of your account.',
    '',
    `To choose a new password, open this link within ${validMinutes} minutes:`,
    link,
    '',
    'The link works once. If you did not ask for this, ignore this e-mail: your password stays as it is.',
  ].join('\n');
  const html = htmlDocument(subject, [
    'Someone asked to reset the password of your account.',
    `To choose a new password, open this link within ${validMinutes} minutes:<br><a href="${escapeHtml(link)}">Reset your password</a>`,
    'The link works once. If you did not ask for this, ignore this e-mail: your password stays as it is.',
  ]);
  return { to, subject, text, html };
}

export function passwordChangedMessage(
  to: string,
  { signInUrl }: { signInUrl: string },
): EmailMessage {
  const subject = `Your ${PRODUCT_NAME} password was changed`;
  const text = [
    'The password of your account has just been changed, and every session that was signed in has been ended.',
    '',
    `If this was you, sign in with the new password: ${signInUrl}`,
    'If it was not you, contact your administrator at once.',
  ].join('\n');
  const html = htmlDocument(subject, [
    'The password of your account has just been changed, and every session that was signed in has been ended.',
    `If this was you, <a href="${escapeHtml(signInUrl)}">sign in with the new password</a>.`,
    'If it was not you, contact your administrator at once.',
  ]);
  return { to, subject, text, html };
}

/**
 * The signed-in person changed their password (docs/decisions/0049-changing-ones-own-password.md).
 * The session they changed it in stays signed in and every other one ended. Whoever did not make
 * the change has lost the password, so the way back is a reset link sent to this inbox, not
 * signing in.
 */
export function passwordChangedWhileSignedInMessage(
  to: string,
  { forgotPasswordUrl }: { forgotPasswordUrl: string },
): EmailMessage {
  const subject = `Your ${PRODUCT_NAME} password was changed`;
  const opening =
    'The password of your account has just been changed by someone signed in to it. Every other place where the account was signed in has been signed out.';
  const text = [
    opening,
    '',
    'If this was you, there is nothing more to do.',
    `If it was not you, set a new password at once with a link sent to this address: ${forgotPasswordUrl}`,
    'Then contact your administrator.',
  ].join('\n');
  const html = htmlDocument(subject, [
    opening,
    'If this was you, there is nothing more to do.',
    `If it was not you, <a href="${escapeHtml(forgotPasswordUrl)}">set a new password at once</a> with a link sent to this address.`,
    'Then contact your administrator.',
  ]);
  return { to, subject, text, html };
}

/** The invitation link: the token in the fragment, as for a reset (never sent to a server). */
export function invitationLink(baseUrl: URL, token: string): string {
  return new URL(`/accept-invitation#token=${token}`, baseUrl).toString();
}

/**
 * Who sends an invitation: the platform's administrators (a firm's first accounts), the firm's own
 * staff, or an employer's administrator, whose staff and members know the employer rather than
 * its broker.
 */
export type Inviter = { by: 'platform' } | { by: 'firm' } | { by: 'employer'; employer: string };

/**
 * A new account is an invitation that names who invites and to what, and whose link lets the
 * person set their password and signs them in (docs/decisions/0044-invitations.md). The firm
 * invites its own people; a firm's first accounts are set up by the platform's administrators,
 * who are then the ones to ask for a new link. An employer's administrator invites in the
 * employer's name, and the e-mail says which broker firm runs the service for it; the employer's
 * administrator can send a new link too (docs/decisions/0143-who-invites-whom.md), so the employer
 * is the one to ask.
 */
export function invitationMessage(
  to: string,
  {
    firm,
    inviter,
    purpose,
    link,
    validHours,
  }: {
    firm: string;
    inviter: Inviter;
    purpose: string;
    link: string;
    validHours: number;
  },
): EmailMessage {
  const subject =
    inviter.by === 'platform'
      ? `Your account at ${firm} on ${PRODUCT_NAME}`
      : `${inviter.by === 'employer' ? inviter.employer : firm} invited you to ${PRODUCT_NAME}`;
  const opening =
    inviter.by === 'platform'
      ? `The administrators of ${PRODUCT_NAME} have set up an account for you at ${firm}, ${purpose}.`
      : inviter.by === 'employer'
        ? `${inviter.employer} has invited you to ${PRODUCT_NAME} ${purpose}. ${PRODUCT_NAME} is run for ${inviter.employer} by its pension broker, ${firm}.`
        : `${firm} has invited you to ${PRODUCT_NAME} ${purpose}.`;
  const resender =
    inviter.by === 'platform'
      ? `the administrators of ${PRODUCT_NAME}`
      : inviter.by === 'employer'
        ? inviter.employer
        : firm;
  const expiry = `The link works once. If it has expired, ask ${resender} to send you a new invitation.`;
  const text = [
    opening,
    '',
    `To set your password and sign in, open this link within ${validHours} hours:`,
    link,
    '',
    expiry,
    'If you did not expect this invitation, you can ignore this e-mail.',
  ].join('\n');
  const html = htmlDocument(subject, [
    escapeHtml(opening),
    `To set your password and sign in, open this link within ${validHours} hours:<br><a href="${escapeHtml(link)}">Set your password</a>`,
    escapeHtml(expiry),
    'If you did not expect this invitation, you can ignore this e-mail.',
  ]);
  return { to, subject, text, html };
}

/**
 * Someone at another firm invited an address that already has an account. Only the holder of the
 * address learns it; the firm sees an invitation like any other, which simply never gets
 * accepted, so it learns nothing about accounts outside its reach
 * (docs/decisions/0044-invitations.md).
 */
export function accountOfferedMessage(
  to: string,
  { firm, signInUrl }: { firm: string; signInUrl: string },
): EmailMessage {
  const subject = `Someone tried to give you a ${PRODUCT_NAME} account`;
  const text = [
    `Someone at ${firm} invited this e-mail address to a ${PRODUCT_NAME} account.`,
    'This address already has an account, so the invitation cannot be accepted and nothing about your account changed.',
    '',
    `If you expected this, contact ${firm}: they have not been told that you already have an account.`,
    'If you did not expect it, you can ignore this e-mail.',
    '',
    `Your own account is unchanged: ${signInUrl}`,
  ].join('\n');
  const html = htmlDocument(subject, [
    `Someone at ${escapeHtml(firm)} invited this e-mail address to a ${PRODUCT_NAME} account.`,
    'This address already has an account, so the invitation cannot be accepted and nothing about your account changed.',
    `If you expected this, contact ${escapeHtml(firm)}: they have not been told that you already have an account.`,
    'If you did not expect it, you can ignore this e-mail.',
    `Your own account is unchanged: <a href="${escapeHtml(signInUrl)}">sign in</a>.`,
  ]);
  return { to, subject, text, html };
}

/**
 * A member is told when their fund choice changes, whoever changed it, so a change they did not
 * make cannot pass unnoticed (docs/decisions/0047-member-portal.md).
 */
export function fundChoiceChangedMessage(
  to: string,
  {
    effectiveFrom,
    lines,
    byMember,
    signInUrl,
  }: {
    /** DD/MM/YYYY */
    effectiveFrom: string;
    lines: Array<{ fund: string; percent: number }>;
    byMember: boolean;
    signInUrl: string;
  },
): EmailMessage {
  const subject = 'Your pension fund choice has changed';
  const who = byMember ? 'You changed' : 'Your pension administrator changed';
  const opening = `${who} how your pension contributions are invested, from ${effectiveFrom}:`;
  const warning = byMember
    ? 'If this was not you, contact your employer or pension broker at once.'
    : 'If you did not ask for this change, contact your employer or pension broker.';
  const text = [
    opening,
    '',
    ...lines.map((line) => `- ${line.fund}: ${line.percent}%`),
    '',
    warning,
    `See your pension: ${signInUrl}`,
  ].join('\n');
  const html = htmlDocument(subject, [
    escapeHtml(opening),
    lines.map((line) => `${escapeHtml(line.fund)}: ${line.percent}%`).join('<br>'),
    escapeHtml(warning),
    `<a href="${escapeHtml(signInUrl)}">See your pension</a>`,
  ]);
  return { to, subject, text, html };
}

/** One governance date in a reminder: which scheme, what is due and when, and the rule's source. */
export interface ReminderLine {
  scheme: string;
  employer: string;
  what: string;
  /** DD/MM/YYYY */
  dueOn: string;
  overdue: boolean;
  /** The rule's label and citation in words: "Law: Pensions Act 1990 s.64AL(3)". */
  citation: string;
}

/**
 * The compliance reminder (60, 30, 14 and 7 days before, on the day, weekly while overdue:
 * docs/decisions/0059-governance-rules.md), one e-mail per person per run listing every date that
 * reached a new stage for them.
 */
export function complianceReminderMessage(
  to: string,
  { lines, governanceUrl }: { lines: ReminderLine[]; governanceUrl: string },
): EmailMessage {
  const overdue = lines.filter((line) => line.overdue).length;
  const subject =
    overdue > 0
      ? `Governance: ${overdue} overdue and ${lines.length - overdue} coming due`
      : `Governance: ${lines.length} date${lines.length === 1 ? '' : 's'} coming due`;
  const describe = (line: ReminderLine) =>
    `${line.scheme} (${line.employer}): ${line.what}, ${line.overdue ? 'overdue since' : 'due'} ${line.dueOn} [${line.citation}]`;
  const text = [
    'These governance dates of the schemes you look after need attention:',
    '',
    ...lines.map((line) => `- ${describe(line)}`),
    '',
    `See the compliance calendar: ${governanceUrl}`,
  ].join('\n');
  const html = htmlDocument(subject, [
    'These governance dates of the schemes you look after need attention:',
    lines.map((line) => escapeHtml(describe(line))).join('<br>'),
    `<a href="${escapeHtml(governanceUrl)}">See the compliance calendar</a>`,
  ]);
  return { to, subject, text, html };
}

/**
 * One line of a data-protection reminder: what is due and by when, in words. It names the kind of
 * request or the breach's deadline, never the member or the breach's own words
 * (docs/decisions/0147-data-protection-reminders.md).
 */
export interface DataProtectionReminderLine {
  what: string;
  due: string;
  overdue: boolean;
  /** The register the line is read on. */
  url: string;
}

/** The data-subject requests and breaches of the firm that need an answer soon, or now. */
export function dataProtectionReminderMessage(
  to: string,
  { lines }: { lines: DataProtectionReminderLine[] },
): EmailMessage {
  const overdue = lines.filter((line) => line.overdue).length;
  const subject =
    overdue > 0
      ? `Data protection: ${overdue} overdue and ${lines.length - overdue} coming due`
      : `Data protection: ${lines.length} deadline${lines.length === 1 ? '' : 's'} coming due`;
  const describe = (line: DataProtectionReminderLine) => `${line.what}: ${line.due}`;
  const text = [
    'These data-protection deadlines of your firm need attention:',
    '',
    ...lines.map((line) => `- ${describe(line)}. See ${line.url}`),
  ].join('\n');
  const html = htmlDocument(subject, [
    'These data-protection deadlines of your firm need attention:',
    lines
      .map(
        (line) =>
          `${escapeHtml(describe(line))}. <a href="${escapeHtml(line.url)}">See the register</a>`,
      )
      .join('<br>'),
  ]);
  return { to, subject, text, html };
}

export interface IctIncidentReminderLine {
  /** The report and the incident's instant of awareness, in words. */
  what: string;
  /** The deadline in words, with the time left, or that it has passed. */
  due: string;
  /** Whether the deadline has passed with the report not recorded as sent. */
  overdue: boolean;
}

/**
 * The reports of the firm's major ICT incidents coming due to the Pensions Authority
 * (docs/decisions/0139-dora-ict-incidents.md): each report and its deadline, never the incident's
 * title or description. The link is the register, which a trustee without an account cannot open,
 * so the text says whom to ask.
 */
export function ictIncidentReminderMessage(
  to: string,
  { lines, url }: { lines: IctIncidentReminderLine[]; url: string },
): EmailMessage {
  const overdue = lines.some((line) => line.overdue);
  const subject = overdue
    ? lines.length === 1
      ? 'DORA: a report of a major ICT incident is overdue'
      : `DORA: ${lines.length} reports of major ICT incidents are due or overdue`
    : lines.length === 1
      ? 'DORA: a report of a major ICT incident is coming due'
      : `DORA: ${lines.length} reports of major ICT incidents are coming due`;
  const intro = overdue
    ? 'These reports of major ICT incidents are owed to the Pensions Authority (DORA Art. 19), and at least one is past its deadline:'
    : 'These reports of major ICT incidents are due to the Pensions Authority soon (DORA Art. 19):';
  const after = `The firm's register of ICT incidents: ${url}. If you have no account, ask the firm's administrator.`;
  const text = [intro, '', ...lines.map((line) => `- ${line.what}: ${line.due}.`), '', after].join(
    '\n',
  );
  const html = htmlDocument(subject, [
    intro,
    lines.map((line) => escapeHtml(`${line.what}: ${line.due}.`)).join('<br>'),
    `<a href="${escapeHtml(url)}">The firm's register of ICT incidents</a>. If you have no account, ask the firm's administrator.`,
  ]);
  return { to, subject, text, html };
}

/** What happened to an account's second factors (docs/decisions/0110-second-factor.md). */
export type SecondFactorChange =
  | 'authenticator_added'
  | 'authenticator_removed'
  | 'passkey_added'
  | 'passkey_removed'
  | 'recovery_codes_issued'
  | 'reset_by_administrator';

const SECOND_FACTOR_CHANGE_TEXT: Record<SecondFactorChange, string> = {
  authenticator_added: 'An authenticator app was set up as a second factor for your account.',
  authenticator_removed: 'The authenticator app was removed from your account.',
  passkey_added: 'A passkey was added to your account.',
  passkey_removed: 'A passkey was removed from your account.',
  recovery_codes_issued:
    'New recovery codes were issued for your account; the earlier ones no longer work.',
  reset_by_administrator:
    'An administrator removed the second factors of your account, as asked when a phone or key is lost. You will set up a new one when you next sign in.',
};

/**
 * A change to how the account signs in. Whoever did not make it may hold the account's password
 * and session, so the way back is a new password by e-mail, then the administrator.
 */
export function secondFactorChangedMessage(
  to: string,
  { change, forgotPasswordUrl }: { change: SecondFactorChange; forgotPasswordUrl: string },
): EmailMessage {
  const subject = `How you sign in to ${PRODUCT_NAME} has changed`;
  const opening = SECOND_FACTOR_CHANGE_TEXT[change];
  const sessions =
    change === 'recovery_codes_issued'
      ? null
      : 'Every other place where the account was signed in has been signed out.';
  const text = [
    opening,
    ...(sessions ? [sessions] : []),
    '',
    'If this was you, there is nothing more to do.',
    `If it was not you, set a new password at once with a link sent to this address: ${forgotPasswordUrl}`,
    'Then contact your administrator.',
  ].join('\n');
  const html = htmlDocument(subject, [
    escapeHtml(opening),
    ...(sessions ? [sessions] : []),
    'If this was you, there is nothing more to do.',
    `If it was not you, <a href="${escapeHtml(forgotPasswordUrl)}">set a new password at once</a> with a link sent to this address.`,
    'Then contact your administrator.',
  ]);
  return { to, subject, text, html };
}

/**
 * A sign-in from a browser this account had not signed in from before
 * (docs/decisions/0110-second-factor.md). It names the browser as it named itself and when, in
 * Irish time; never the address it came from.
 */
export function newBrowserSignInMessage(
  to: string,
  { browser, at, forgotPasswordUrl }: { browser: string; at: string; forgotPasswordUrl: string },
): EmailMessage {
  const subject = `New sign-in to ${PRODUCT_NAME}`;
  const opening = `Your account was signed in to from a browser it had not been used from before, at ${at}.`;
  const which = `The browser described itself as: ${browser}`;
  const text = [
    opening,
    which,
    '',
    'If this was you, there is nothing more to do.',
    `If it was not you, set a new password at once with a link sent to this address: ${forgotPasswordUrl}`,
    'Then contact your administrator.',
  ].join('\n');
  const html = htmlDocument(subject, [
    escapeHtml(opening),
    escapeHtml(which),
    'If this was you, there is nothing more to do.',
    `If it was not you, <a href="${escapeHtml(forgotPasswordUrl)}">set a new password at once</a> with a link sent to this address.`,
    'Then contact your administrator.',
  ]);
  return { to, subject, text, html };
}

/**
 * A member's notice that their Pension Benefit Statement is ready to read
 * (docs/decisions/0141-pension-benefit-statements.md). It names the scheme and the date of the
 * statement and no figure: the statement itself is read after signing in.
 */
export function benefitStatementIssuedMessage(
  to: string,
  {
    scheme,
    informationDate,
    signInUrl,
  }: { scheme: string; informationDate: string; signInUrl: string },
): EmailMessage {
  const subject = 'Your Pension Benefit Statement is ready';
  const opening = `Your Pension Benefit Statement from ${scheme}, with your benefits as at ${informationDate}, is ready to read.`;
  const paper =
    'If you would like it on paper, ask your pension administrator and one will be posted to you.';
  const text = [opening, '', `Read it after signing in: ${signInUrl}`, '', paper].join('\n');
  const html = htmlDocument(subject, [
    escapeHtml(opening),
    `<a href="${escapeHtml(signInUrl)}">Read your statement</a>`,
    escapeHtml(paper),
  ]);
  return { to, subject, text, html };
}
