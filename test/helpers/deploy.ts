import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request as httpRequest, type IncomingHttpHeaders, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { connect, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseAllDocuments } from 'yaml';

/** The deployment files (docs/deployment.md), read as the tools that use them would. */
export const DEPLOY_DIR = path.resolve('deploy');

export function deployFile(relative: string): string {
  return readFileSync(path.join(DEPLOY_DIR, relative), 'utf8');
}

/** Every document of a YAML file, as plain objects; a syntax error in any of them throws. */
export function yamlDocuments(relative: string): Record<string, unknown>[] {
  // Merge keys (`<<: *app`) as Compose reads them.
  return parseAllDocuments(deployFile(relative), { merge: true }).map((document) => {
    if (document.errors.length > 0) throw document.errors[0];
    return document.toJS({ maxAliasCount: 100 }) as Record<string, unknown>;
  });
}

const NGINX = '/usr/sbin/nginx';

/** Why nginx cannot be run here, or null when it can (CI installs Debian's nginx-light). */
export const nginxSkipReason: string | null = (() => {
  try {
    execFileSync(NGINX, ['-v'], { stdio: 'ignore' });
    return null;
  } catch {
    return `nginx tests skipped: no nginx at ${NGINX} (apt-get install nginx-light)`;
  }
})();

export interface NginxSetup {
  /** Where the generated configuration, its logs and its temporary files live. */
  dir: string;
  config: string;
  /** nginx's own command line for this configuration: the prefix, error log and file. */
  args: string[];
}

/**
 * The shipped nginx.conf and pension-admin.conf, changed only where a test machine differs from
 * a deployment: loopback listen ports instead of 80 and 443, the given upstream
 * instances instead of app1 and app2, a throwaway certificate, and paths under a temporary
 * directory. Everything else (headers, limits, timeouts, locations) is the file as shipped.
 */
export function nginxConfigFromShipped({
  httpPort,
  httpsPort,
  upstreams,
  certificate,
  extraServerLines = [],
}: {
  httpPort: number;
  httpsPort: number;
  upstreams: string[];
  certificate: { certFile: string; keyFile: string };
  /** Lines added to the TLS server block (a test's own diagnostics). */
  extraServerLines?: string[];
}): NginxSetup {
  const dir = mkdtempSync(path.join(tmpdir(), 'pension-nginx-'));
  // nginx's workers run as an unprivileged user when it starts as root: they write temp files here.
  chmodSync(dir, 0o755);
  const site = path.join(dir, 'pension-admin.conf');
  const upstreamLines = upstreams.map(
    (address) => `  server ${address} max_fails=3 fail_timeout=10s;`,
  );
  const shippedSite = deployFile('nginx/pension-admin.conf');
  const replaced = replaceExactly(shippedSite, [
    [/^ {2}server app\d+:3000 .*;\n/gm, '', 2],
    [
      /^(upstream pension_admin \{\n(?: {2}#.*\n)*\s*zone .*;\n)/m,
      `$1${upstreamLines.join('\n')}\n`,
      1,
    ],
    [/^ {2}listen 80;/m, `  listen 127.0.0.1:${httpPort};`, 1],
    [/^ {2}listen 443 ssl http2;/m, `  listen 127.0.0.1:${httpsPort} ssl http2;`, 1],
    [/^ {2}ssl_certificate .*;/m, `  ssl_certificate ${certificate.certFile};`, 1],
    [/^ {2}ssl_certificate_key .*;/m, `  ssl_certificate_key ${certificate.keyFile};`, 1],
    [
      /^( {2}add_header X-Request-Id .*;\n)/m,
      `$1${extraServerLines.map((line) => `  ${line}\n`).join('')}`,
      1,
    ],
  ]);
  writeFileSync(site, replaced);
  const temp = (name: string) => path.join(dir, name);
  const main = replaceExactly(deployFile('nginx/nginx.conf'), [
    [/^pid .*;/m, `pid ${temp('nginx.pid')};`, 1],
    [/^error_log .*;/m, `error_log ${temp('error.log')} warn;`, 1],
    [/^ {2}access_log .*;/m, `  access_log ${temp('access.log')} pension;`, 1],
    [
      /^ {2}include \/etc\/nginx\/conf\.d\/\*\.conf;/m,
      [
        `  client_body_temp_path ${temp('body')};`,
        `  proxy_temp_path ${temp('proxy')};`,
        `  fastcgi_temp_path ${temp('fastcgi')};`,
        `  uwsgi_temp_path ${temp('uwsgi')};`,
        `  scgi_temp_path ${temp('scgi')};`,
        `  include ${site};`,
      ].join('\n'),
      1,
    ],
  ]);
  const config = path.join(dir, 'nginx.conf');
  writeFileSync(config, main);
  return { dir, config, args: ['-p', dir, '-e', temp('error.log'), '-c', config] };
}

/** Each pattern must match exactly as often as said: a change to the shipped file fails loudly. */
function replaceExactly(text: string, edits: [RegExp, string, number][]): string {
  let result = text;
  for (const [pattern, replacement, expected] of edits) {
    const found = result.match(new RegExp(pattern.source, `${pattern.flags.replace('g', '')}g`));
    if ((found?.length ?? 0) !== expected) {
      throw new Error(`${pattern} matched ${found?.length ?? 0} times, expected ${expected}`);
    }
    result = result.replace(pattern, replacement);
  }
  return result;
}

/** `nginx -t` on a configuration: its verdict and what it printed (nginx reports on stderr). */
export function nginxTest(setup: NginxSetup): { ok: boolean; output: string } {
  const run = spawnSync(NGINX, [...setup.args, '-t'], { encoding: 'utf8' });
  return { ok: run.status === 0, output: `${run.stdout}${run.stderr}` };
}

export interface ProxiedAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

/**
 * One request to nginx on loopback, over HTTPS (its throwaway certificate is not checked) or
 * plain HTTP, from `localAddress` when given: any 127.0.0.0/8 address is this machine, so a test
 * can be several clients.
 */
export function proxyRequest({
  port,
  tls,
  method = 'GET',
  path: target,
  headers = {},
  body,
  localAddress,
}: {
  port: number;
  tls: boolean;
  method?: string;
  path: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
  localAddress?: string;
}): Promise<ProxiedAnswer> {
  return new Promise((resolve, reject) => {
    const options = {
      host: '127.0.0.1',
      port,
      method,
      path: target,
      headers:
        body === undefined
          ? headers
          : { ...headers, 'content-length': String(Buffer.byteLength(body)) },
      ...(localAddress ? { localAddress } : {}),
      agent: false as const,
    };
    const onAnswer = (response: IncomingMessage) => {
      let text = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => {
        text += chunk;
      });
      response.on('end', () =>
        resolve({ status: response.statusCode ?? 0, headers: response.headers, body: text }),
      );
      response.on('error', reject);
    };
    const request = tls
      ? httpsRequest({ ...options, rejectUnauthorized: false }, onAnswer)
      : httpRequest(options, onAnswer);
    request.on('error', reject);
    request.end(body);
  });
}

export interface RunningNginx {
  stop(): Promise<void>;
  errorLog(): string;
  /** The access log as written so far (nginx writes each line as its request ends). */
  accessLog(): string;
}

/** nginx in the foreground on a configuration, once it accepts connections on `port`. */
export async function startNginx(setup: NginxSetup, port: number): Promise<RunningNginx> {
  const child = spawn(NGINX, [...setup.args, '-g', 'daemon off;'], { stdio: 'ignore' });
  const logFile = (name: string) => () => {
    try {
      return readFileSync(path.join(setup.dir, name), 'utf8');
    } catch {
      return '';
    }
  };
  const errorLog = logFile('error.log');
  const deadline = Date.now() + 10_000;
  for (;;) {
    if (child.exitCode !== null)
      throw new Error(`nginx exited (${child.exitCode}):\n${errorLog()}`);
    const open = await new Promise<boolean>((resolve) => {
      const socket = connect(port, '127.0.0.1');
      socket.once('connect', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (open) break;
    if (Date.now() > deadline) throw new Error(`nginx did not listen on ${port}:\n${errorLog()}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return {
    errorLog,
    accessLog: logFile('access.log'),
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGQUIT');
        await exited;
      }
      rmSync(setup.dir, { recursive: true, force: true });
    },
  };
}

/**
 * After nginx is reloaded with an instance marked down, how long its old workers get to finish
 * the requests they had sent there before the instance is stopped (docs/deployment.md, "Rolling
 * restart").
 */
export const NGINX_LETS_GO_MS = 2_000;

/**
 * Takes an upstream instance out of nginx's rotation (`down`) or puts it back, then reloads
 * nginx gracefully: new workers send it nothing, old ones finish what they hold and exit. The
 * first step of a rolling restart behind nginx (docs/deployment.md, "Rolling restart").
 */
export function setUpstreamDown(setup: NginxSetup, address: string, down: boolean): void {
  const site = path.join(setup.dir, 'pension-admin.conf');
  const line = new RegExp(`^( {2}server ${address.replace(/\./g, '\\.')} [^;]*?)( down)?;$`, 'm');
  const text = readFileSync(site, 'utf8');
  if (!line.test(text)) throw new Error(`no upstream ${address} in the configuration`);
  writeFileSync(site, text.replace(line, down ? '$1 down;' : '$1;'));
  const run = spawnSync(NGINX, [...setup.args, '-s', 'reload'], { encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`nginx -s reload failed: ${run.stderr}`);
}

/** A loopback port nothing listens on now: taken by the OS, then let go. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}
