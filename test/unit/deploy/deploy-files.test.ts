// The deployment files as shipped: the Kubernetes manifest parses and wires probes, ports, config
// and state (pins shared through Redis, its password from a Secret), and the Dockerfile copies files that exist, runs unprivileged and checks /readyz (building
// the image needs a docker daemon and a registry, which the test machines do not have). That HAProxy
// and nginx accept their configs needs those programs: test/e2e/deploy-checkers.test.ts.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { resolveConfig } from '../../../src/config/load.js';

const ROOT = path.resolve(import.meta.dirname, '../../..');
const read = (file: string): string => fs.readFileSync(path.join(ROOT, file), 'utf8');

describe('deploy/', () => {
  it('the Kubernetes manifest parses, and its probes, ports and volumes fit together', () => {
    const docs = parseAllDocuments(read('deploy/kubernetes/switchboard.yaml')).map((doc) => {
      expect(doc.errors).toEqual([]);
      return doc.toJS() as { kind: string; spec?: any; data?: Record<string, string> };
    });
    expect(docs.map((d) => d.kind)).toEqual(['ConfigMap', 'Deployment', 'Service']);
    const config = JSON.parse(docs[0]?.data?.['proxy.config.json'] ?? '') as { listen: { port: number }; sanitize?: { pins?: string } };
    const pod = docs[1]?.spec.template.spec;
    const container = pod.containers[0];
    expect(container.ports[0].containerPort).toBe(config.listen.port);
    expect(container.readinessProbe.httpGet.path).toBe('/readyz');
    expect(container.livenessProbe.httpGet.path).toBe('/healthz');
    expect(pod.terminationGracePeriodSeconds).toBeGreaterThan(10);
    const mounts = new Set(container.volumeMounts.map((m: { name: string }) => m.name));
    expect(new Set(pod.volumes.map((v: { name: string }) => v.name))).toEqual(mounts);
    expect(docs[2]?.spec.sessionAffinity).toBe('ClientIP');
    expect(container.lifecycle.preStop.exec.command).toEqual(['sleep', '5']);
    // Pins live in Redis, not in a file on a volume the replicas share; the password comes from a Secret.
    expect(config.sanitize?.pins).toBeUndefined();
    const redisPassword = container.env.find((e: { name: string }) => e.name === 'REDIS_PASSWORD');
    expect(redisPassword?.valueFrom?.secretKeyRef).toEqual({ name: 'switchboard-redis', key: 'password' });
    // The ConfigMap's config loads, given its server on PATH and its token in the environment.
    const bin = fs.mkdtempSync(path.join(os.tmpdir(), 'sb-k8s-'));
    try {
      fs.writeFileSync(path.join(bin, 'mcp-server-memory'), '#!/bin/sh\n', { mode: 0o755 });
      const env = { PATH: bin, HOME: bin, SWITCHBOARD_TOKEN_TEAM: 'team-token-0123456789abcdef', REDIS_PASSWORD: 'redis-pw' };
      const loaded = resolveConfig(JSON.parse(docs[0]?.data?.['proxy.config.json'] ?? '') as Record<string, unknown>, { file: 'proxy.config.json', dir: bin }, env);
      expect(loaded.servers.map((server) => server.name)).toEqual(['memory']);
      expect(loaded.state.redis).toEqual({ url: 'redis://:redis-pw@redis:6379/0', prefix: 'switchboard:', from: 'state.redis' });
      // Its one warning is about listening beyond loopback without TLS (an ingress terminates it); none about the pins.
      expect(loaded.warnings.filter((w) => /state|redis|pins/.test(w))).toEqual([]);
    } finally {
      fs.rmSync(bin, { recursive: true, force: true });
    }
    expect(pod.securityContext.fsGroup).toBe(pod.securityContext.runAsUser);
  });

  it('the Dockerfile copies only what exists, runs as a non-root user and checks /readyz', () => {
    const dockerfile = read('Dockerfile');
    expect(dockerfile).toMatch(/^FROM node:24-slim AS build$/m);
    expect(dockerfile).toMatch(/^USER node$/m);
    expect(dockerfile).toMatch(/^HEALTHCHECK .*\n.*\/readyz/m);
    expect(dockerfile).toMatch(/^ENTRYPOINT \["tini", "--", "switchboard", "start"/m);
    for (const line of dockerfile.split('\n').filter((l) => /^COPY (?!--from)/.test(l))) {
      const sources = line.replace(/^COPY /, '').split(/\s+/).slice(0, -1);
      for (const source of sources) expect(fs.existsSync(path.join(ROOT, source)), `${source} in "${line}"`).toBe(true);
    }
  });
});
