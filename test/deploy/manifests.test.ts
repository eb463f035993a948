import { readdirSync } from 'node:fs';
import path from 'node:path';
import * as apps from 'kubernetes-models/apps/v1';
import * as batch from 'kubernetes-models/batch/v1';
import * as networking from 'kubernetes-models/networking.k8s.io/v1';
import * as policy from 'kubernetes-models/policy/v1';
import * as core from 'kubernetes-models/v1';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_DOCUMENT_BYTES } from '../../src/contracts/documents.js';
import { ENVIRONMENT_VARIABLES, loadConfig } from '../../src/server/platform/config/config.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { testDataDir } from '../helpers/config.js';
import { DEPLOY_DIR, deployFile, yamlDocuments } from '../helpers/deploy.js';

/**
 * The deployment files (deploy/, docs/deployment.md) against the service they deploy: every
 * Kubernetes object valid for its kind, every variable they set one the service reads, the
 * probes on routes the service has, and the scheduled jobs the same in every file as in the app.
 */

type Manifest = { apiVersion: string; kind: string; metadata: { name: string } } & Record<
  string,
  // biome-ignore lint/suspicious/noExplicitAny: parsed YAML, checked by the models
  any
>;

const MODELS: Record<string, { new (data: never): { validate(): void } }> = {
  'v1/ConfigMap': core.ConfigMap,
  'v1/Secret': core.Secret,
  'v1/Service': core.Service,
  'apps/v1/Deployment': apps.Deployment,
  'batch/v1/CronJob': batch.CronJob,
  'policy/v1/PodDisruptionBudget': policy.PodDisruptionBudget,
  'networking.k8s.io/v1/Ingress': networking.Ingress,
  'networking.k8s.io/v1/NetworkPolicy': networking.NetworkPolicy,
};

const KUBERNETES_DIR = path.join(DEPLOY_DIR, 'kubernetes');
const manifests: Manifest[] = readdirSync(KUBERNETES_DIR)
  .filter((file) => file.endsWith('.yaml'))
  .flatMap((file) => yamlDocuments(path.join('kubernetes', file)) as Manifest[]);
const byKind = (kind: string) => manifests.filter((manifest) => manifest.kind === kind);
const one = (kind: string) => {
  const found = byKind(kind);
  expect(found).toHaveLength(1);
  return found[0] as Manifest;
};

const configMap = () => one('ConfigMap');
const secret = () => one('Secret');
const deployment = () => one('Deployment');
const appContainer = () => deployment().spec.template.spec.containers[0];

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => {
  await t.close();
});

/** The jobs the service registers, as the deployment files must schedule them. */
const registeredJobs = () =>
  t.app.scheduledJobs
    .list()
    .map((job) => ({
      name: job.name,
      crontab: job.cadence.crontab,
      timeZone: job.cadence.timeZone === 'UTC' ? 'Etc/UTC' : job.cadence.timeZone,
    }))
    .sort((a, b) => a.name.localeCompare(b.name));

/** A value of the right shape for each placeholder of the example secrets. */
function filledIn(values: Record<string, string>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(values).map(([name, value]) => [
      name,
      value
        .replace('REPLACE_WITH_64_HEX_CHARACTERS', 'e'.repeat(64))
        .replace('REPLACE_WITH_A_LONG_RANDOM_STRING', `placeholder-${name}-long-enough-000000`)
        .replace(/REPLACE[A-Z_]*/g, 'placeholder'),
    ]),
  );
}

describe('Kubernetes manifests', () => {
  it('every document is a known kind that its Kubernetes schema accepts', () => {
    expect(manifests.length).toBeGreaterThanOrEqual(10);
    for (const manifest of manifests) {
      const Model = MODELS[`${manifest.apiVersion}/${manifest.kind}`];
      expect(Model, `${manifest.apiVersion} ${manifest.kind}`).toBeDefined();
      expect(() =>
        new (Model as NonNullable<typeof Model>)(manifest as never).validate(),
      ).not.toThrow();
    }
  });

  it('the validator refuses a Deployment with a wrongly typed field (it is not a pass-through)', () => {
    const broken = structuredClone(deployment());
    broken.spec.replicas = 'two';
    expect(() => new apps.Deployment(broken as never).validate()).toThrow();
  });

  it('runs two or more replicas, and the disruption budget keeps one of them', () => {
    expect(deployment().spec.replicas).toBeGreaterThanOrEqual(2);
    const budget = one('PodDisruptionBudget');
    expect(budget.spec.minAvailable).toBeGreaterThanOrEqual(1);
    expect(budget.spec.selector.matchLabels).toEqual(deployment().spec.selector.matchLabels);
    expect(one('Service').spec.selector).toEqual(deployment().spec.selector.matchLabels);
  });

  it('lets only the ingress controller reach the pods, on the port the service listens on', () => {
    const policy = one('NetworkPolicy');
    expect(policy.spec.podSelector.matchLabels).toEqual(deployment().spec.selector.matchLabels);
    expect(policy.spec.policyTypes).toEqual(['Ingress']);
    expect(policy.spec.ingress).toHaveLength(1);
    expect(policy.spec.ingress[0].ports).toEqual([
      { port: Number(configMap().data.PORT), protocol: 'TCP' },
    ]);
  });

  it('probes the liveness and readiness routes the app answers, on the port it listens on', async () => {
    const container = appContainer();
    expect(container.livenessProbe.httpGet.path).toBe('/api/health/live');
    expect(container.startupProbe.httpGet.path).toBe('/api/health/live');
    expect(container.readinessProbe.httpGet.path).toBe('/api/health/ready');
    for (const probe of ['livenessProbe', 'readinessProbe', 'startupProbe']) {
      const { path: probePath, port } = container[probe].httpGet;
      expect(port).toBe('http');
      const answer = await t.app.inject({ method: 'GET', url: probePath });
      expect(answer.statusCode, probePath).toBe(200);
    }
    const port = container.ports.find((entry: { name: string }) => entry.name === 'http');
    expect(String(port.containerPort)).toBe(configMap().data.PORT);
  });

  it('runs as a non-root user on a read-only root file system, DATA_DIR on a volume', () => {
    const pod = deployment().spec.template.spec;
    expect(pod.securityContext.runAsNonRoot).toBe(true);
    expect(appContainer().securityContext.readOnlyRootFilesystem).toBe(true);
    expect(appContainer().securityContext.allowPrivilegeEscalation).toBe(false);
    const mounts = appContainer().volumeMounts.map(
      (mount: { mountPath: string }) => mount.mountPath,
    );
    expect(mounts).toContain(configMap().data.DATA_DIR);
    // main.ts gives in-flight requests 10 s after SIGTERM.
    expect(pod.terminationGracePeriodSeconds).toBeGreaterThan(10);
  });

  it('takes its settings from the ConfigMap and its secrets from the Secret, nothing inline', () => {
    expect(appContainer().env).toBeUndefined();
    expect(appContainer().envFrom).toEqual([
      { configMapRef: { name: configMap().metadata.name } },
      { secretRef: { name: secret().metadata.name } },
    ]);
  });

  it('sets only variables the service reads, and with them the service starts in production', () => {
    const settings: Record<string, string> = configMap().data;
    const secrets: Record<string, string> = secret().stringData;
    for (const name of [...Object.keys(settings), ...Object.keys(secrets)]) {
      expect(ENVIRONMENT_VARIABLES, name).toContain(name);
    }
    const config = loadConfig({ ...settings, ...filledIn(secrets), DATA_DIR: testDataDir() });
    expect(config.appEnv).toBe('production');
    expect(config.trustProxy.length).toBeGreaterThan(0);
    expect(config.redisUrl).not.toBeNull();
    expect(config.documents.scanner).not.toBeNull();
    expect(config.documents.storage.kind).toBe('s3');
    expect(config.publicBaseUrl.protocol).toBe('https:');
  });

  it('the example Secret holds placeholders only, which the service refuses as they are', () => {
    const secrets: Record<string, string> = secret().stringData;
    for (const [name, value] of Object.entries(secrets)) {
      if (name !== 'MAIL_FROM') expect(value, name).toMatch(/REPLACE/);
    }
    expect(() => loadConfig({ ...configMap().data, ...secrets, DATA_DIR: testDataDir() })).toThrow(
      /AUTH_SECRET|PPS_ENCRYPTION_KEY/,
    );
  });

  it('has a CronJob for every registered job and none other, on its schedule and zone', () => {
    const cronJobs = byKind('CronJob')
      .map((job) => {
        const container = job.spec.jobTemplate.spec.template.spec.containers[0];
        const called = /\/api\/cron\/([a-z-]+)"?\s*$/.exec(container.args.join(' '))?.[1];
        expect(job.metadata.name).toBe(`pension-admin-${called}`);
        expect(job.spec.concurrencyPolicy).toBe('Forbid');
        expect(container.env).toContainEqual({
          name: 'CRON_SECRET',
          valueFrom: { secretKeyRef: { name: secret().metadata.name, key: 'CRON_SECRET' } },
        });
        return { name: called, crontab: job.spec.schedule, timeZone: job.spec.timeZone };
      })
      .sort((a, b) => String(a.name).localeCompare(String(b.name)));
    expect(cronJobs).toEqual(registeredJobs());
  });
});

describe('compose file', () => {
  const compose = () => yamlDocuments('compose.yaml')[0] as Manifest;

  it('runs two app instances from the image, nginx, PostgreSQL, Redis, clamd and a scheduler', () => {
    const services = compose().services;
    expect(Object.keys(services).sort()).toEqual(
      ['app1', 'app2', 'clamd', 'nginx', 'postgres', 'redis', 'scheduler'].sort(),
    );
    expect(services.app1.image).toBe(services.app2.image);
    expect(services.app1.build.target).toBe('runtime');
    expect(services.scheduler.build.target).toBe('scheduler');
  });

  it('sets only variables the service reads, no secret inline, and trusts nginx alone as proxy', () => {
    const services = compose().services;
    const environment: Record<string, string> = services.app1.environment;
    for (const name of Object.keys(environment))
      expect(ENVIRONMENT_VARIABLES, name).toContain(name);
    for (const secretName of ['AUTH_SECRET', 'CRON_SECRET', 'DATABASE_URL', 'PPS_ENCRYPTION_KEY']) {
      expect(environment[secretName]).toBeUndefined();
    }
    expect(environment.TRUST_PROXY).toBe(services.nginx.networks.internal.ipv4_address);
    expect(environment.PORT).toBe('3000');
    expect(deployFile('nginx/pension-admin.conf')).toMatch(/server app1:3000 /);
    expect(deployFile('nginx/pension-admin.conf')).toMatch(/server app2:3000 /);
  });

  it('the secrets file it names is git-ignored, and its example sets only variables the service reads', () => {
    expect(compose()['x-app'].env_file).toEqual(['./secrets/app.env']);
    expect(deployFile('.gitignore')).toMatch(/^secrets\/$/m);
    const example = Object.fromEntries(
      deployFile('secrets.example.env')
        .split('\n')
        .filter((line) => line && !line.startsWith('#'))
        .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]),
    );
    for (const name of Object.keys(example)) expect(ENVIRONMENT_VARIABLES, name).toContain(name);
    const config = loadConfig({
      ...compose().services.app1.environment,
      ...filledIn(example),
      DATA_DIR: testDataDir(),
    });
    expect(config.appEnv).toBe('production');
  });

  it("the scheduler's crontab calls every registered job on its schedule, in Irish time", () => {
    expect(deployFile('Dockerfile')).toMatch(/^ENV TZ=Europe\/Dublin$/m);
    const lines = deployFile('scheduler/crontab')
      .split('\n')
      .filter((line) => line.trim() && !line.startsWith('#'));
    const scheduled = lines
      .map((line) => {
        const fields = line.trim().split(/\s+/);
        return { name: fields[6], crontab: fields.slice(0, 5).join(' ') };
      })
      .sort((a, b) => String(a.name).localeCompare(String(b.name)));
    // Every-minute jobs are the same in any zone; the others must be Irish-time jobs.
    for (const job of registeredJobs()) {
      if (job.crontab !== '* * * * *') expect(job.timeZone).toBe('Europe/Dublin');
    }
    expect(scheduled).toEqual(registeredJobs().map(({ name, crontab }) => ({ name, crontab })));
  });
});

describe('image definition', () => {
  const dockerfile = () => deployFile('Dockerfile');

  it('builds in stages on the Node.js 24 image and runs as the unprivileged node user', () => {
    expect(dockerfile()).toMatch(/^ARG NODE_IMAGE=node:24-bookworm-slim$/m);
    expect(dockerfile()).toMatch(/^FROM \$\{NODE_IMAGE\} AS build$/m);
    expect(dockerfile()).toMatch(/^FROM \$\{NODE_IMAGE\} AS runtime$/m);
    expect(dockerfile()).toMatch(/npm ci --omit=dev/);
    const runtime = dockerfile().slice(
      dockerfile().indexOf('AS runtime'),
      dockerfile().indexOf('AS scheduler'),
    );
    expect(runtime).toMatch(/^USER node$/m);
    expect(runtime).toMatch(/^EXPOSE 3000$/m);
    expect(runtime).not.toMatch(/SECRET|PASSWORD|_KEY=/);
  });

  it('checks its health on the liveness route with the node it ships', () => {
    expect(dockerfile()).toMatch(
      /^HEALTHCHECK .*\\\n\s+CMD \["node", "-e", ".*\/api\/health\/live/m,
    );
  });

  it('leaves dependencies, build output, data and secrets out of the build context', () => {
    const ignored = deployFile('../.dockerignore').split('\n');
    for (const entry of ['node_modules', 'dist', '.data', '.git', '.env', 'deploy/secrets']) {
      expect(ignored).toContain(entry);
    }
  });
});

describe('nginx configuration', () => {
  it('admits the largest document upload the service accepts, with its form', () => {
    const size = /client_max_body_size (\d+)m;/.exec(deployFile('nginx/pension-admin.conf'))?.[1];
    // 64 KiB of multipart form around the file (documents.service.ts).
    expect(Number(size) * 1024 * 1024).toBeGreaterThanOrEqual(MAX_DOCUMENT_BYTES + 64 * 1024);
  });

  it('replaces X-Forwarded-For with the client address and passes the scheme', () => {
    const site = deployFile('nginx/pension-admin.conf');
    expect(site).toMatch(/proxy_set_header X-Forwarded-For \$remote_addr;/);
    expect(site).toMatch(/proxy_set_header X-Forwarded-Proto \$scheme;/);
    expect(site).not.toMatch(/proxy_add_x_forwarded_for/);
    expect(site).toMatch(/return 301 https:\/\/\$server_name\$request_uri;/);
    expect(site).toMatch(
      /add_header Strict-Transport-Security "max-age=\d+; includeSubDomains; preload" always;/,
    );
  });
});
