import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { testDataDir } from './config.js';

/** A throwaway self-signed certificate for `localhost`, for apps that terminate TLS themselves. */
export function selfSignedCertificate(): { certFile: string; keyFile: string } {
  const dir = testDataDir();
  const certFile = path.join(dir, 'cert.pem');
  const keyFile = path.join(dir, 'key.pem');
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-days',
      '1',
      '-subj',
      '/CN=localhost',
      '-keyout',
      keyFile,
      '-out',
      certFile,
    ],
    { stdio: 'ignore' },
  );
  return { certFile, keyFile };
}
