/**
 * The product's name as people meet it: in every e-mail the service sends, and on the pages a
 * person reaches before signing in (signing in, an invitation's link, a password reset), so that
 * the page an e-mail's link opens carries the name the e-mail gave (docs/decisions/0131-what-people-read.md).
 */
export const PRODUCT_NAME = 'Pension Administration';
