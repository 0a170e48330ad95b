/**
 * The OpenAPI export routes real traffic. For each connector, Prism (@stoplight/prism-cli, the validating proxy
 * users put in front of a server) runs with that connector's document (generated/openapi/<id>.json) in front of the
 * mock, and a valid request of each of the 346 entity–action pairs goes through it, after a source is created
 * through it. Prism must route every request (no NO_PATH_MATCHED or other answer of its own) and report no request
 * or response violation (its sl-violations header). Each JSON answer must also match its own pair's response
 * schema (the request variant's x-response), which Prism cannot check: OpenAPI's response is the union of the
 * pairs'. Controls show the checks bite: a wrong body, a wrong response and an unknown path are each reported.
 */
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import { pairsInOrder, queryParam, sourceAuthConfig, validRequest, type KeyType } from '../generator/emitters/contract-tests/requests.js';
import { RESPONSE_EXTENSION } from '../generator/emitters/openapi/execute.js';
import type { ActionIR, ConnectorIR, EntityIR, SpecIR } from '../generator/ir.js';
import { readSpec } from '../generator/spec/read.js';
import { at } from './contract/rules.js';
import { Fixtures } from './contract/fixtures.js';
import { startPrismProxy, stopAllPrism, type PrismProxy } from './helpers/prism.js';

const repo = path.resolve(import.meta.dirname, '..');
const documentPath = (connector: string) => path.join(repo, 'generated/openapi', `${connector}.json`);
const TOKEN = 'contract-test-token';
/** Prism processes at once: each start-up parses a document (seconds of CPU); the machine has 2 cores. */
const CONCURRENCY = 3;

/**
 * Pairs the mock cannot answer with success (`<connector> <entity> <action>` → why). Their answer is still
 * validated — by Prism against the document's error responses, and against the error body; a listed pair that
 * succeeds is checked like any other. Every pair not listed must succeed. None today: the mock answers all 346.
 */
const ERROR_ANSWERS: Record<string, string> = {};

let ir: SpecIR;
let mockUrl: string;
beforeAll(async () => {
  ir = (await readSpec(path.join(repo, 'spec'))).ir;
  mockUrl = inject('mockUrl');
});
afterAll(stopAllPrism);

/** Runs `jobs` at most `limit` at a time. */
function limiter(limit: number): <T>(job: () => Promise<T>) => Promise<T> {
  let active = 0;
  const waiting: (() => void)[] = [];
  return async (job) => {
    if (active >= limit) await new Promise<void>((resolve) => waiting.push(resolve));
    active++;
    try {
      return await job();
    } finally {
      active--;
      waiting.shift()?.();
    }
  };
}
const slot = limiter(CONCURRENCY);

/** What came back through Prism. */
interface Exchange {
  status: number;
  contentType: string;
  violations: string | null;
  headers: Headers;
  body: Buffer;
}

async function post(prism: PrismProxy, urlPath: string, body: unknown): Promise<Exchange> {
  const res = await fetch(`${prism.url}${urlPath}`, { method: 'POST', headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: res.status, contentType: res.headers.get('content-type') ?? '', violations: res.headers.get('sl-violations'), headers: res.headers, body: Buffer.from(await res.arrayBuffer()) };
}

const json = (x: Exchange) => JSON.parse(x.body.toString('utf8')) as Record<string, unknown>;
const executePath = (sourceId: string) => ir.service.execute.path.replace('{source_id}', encodeURIComponent(sourceId));

/** Fixtures plus the keys of records this test created (write-only entities have no fixtures to address). */
class Requests extends Fixtures {
  readonly created = new Map<string, unknown>();
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  override key(entity: string, i = 0, type: KeyType = 'string'): any {
    const keys = this.entity(entity)?.keys ?? [];
    const key = keys.length ? super.key(entity, Math.min(i, keys.length - 1), type) : this.created.get(entity);
    return key === undefined ? undefined : type === 'string' ? String(key) : Number(key);
  }

  /** The execute body of a valid request of the pair. */
  body(connector: ConnectorIR, entity: EntityIR, action: ActionIR): { entity: string; action: string; params: Record<string, unknown> } {
    if (action.name === 'search') return { entity: entity.name, action: action.name, params: { query: {}, limit: 5 } };
    // The same valid request the generated contract tests send (requests.ts).
    const params = this.params(validRequest(connector, entity, action));
    const query = queryParam(connector, entity, action);
    const sample = query && this.sampleString(entity.name, query.fields);
    if (query && sample) params[query.param.name] = this.query(query.param.queryLanguage!, sample);
    return { entity: entity.name, action: action.name, params };
  }
}

/** Sends every pair of one connector through a Prism proxy with its document; returns the problems found. */
async function checkConnector(connector: ConnectorIR): Promise<{ problems: string[]; errorAnswers: string[]; requests: number }> {
  const doc = JSON.parse(readFileSync(documentPath(connector.id), 'utf8')) as { components: { schemas: Record<string, unknown> } };
  const id = `https://openapi.local/${connector.id}.json`;
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  ajv.addSchema({ ...doc, $id: id });
  const conforms = (pointer: string, value: unknown): string | undefined => {
    const validate = ajv.getSchema(`${id}${pointer}`);
    if (!validate) return `no schema at ${pointer}`;
    return validate(value) ? undefined : ajv.errorsText(validate.errors, { dataVar: 'body' });
  };
  const fixtures = new Requests(connector.id);
  const problems: string[] = [];
  const errorAnswers: string[] = [];
  let requests = 0;
  const prism = await startPrismProxy(documentPath(connector.id), mockUrl);
  try {
    /** Checks one exchange: routed by Prism, no violation; returns whether the mock answered with success. */
    const routed = (label: string, x: Exchange): boolean => {
      requests++;
      if (x.contentType.includes('problem+json')) problems.push(`${label}: Prism answered ${x.status} itself (not routed or not forwarded): ${x.body.toString('utf8').slice(0, 300)}`);
      else if (x.violations) problems.push(`${label}: ${x.status}, Prism reports violations: ${x.violations.slice(0, 1_000)}`);
      return x.status >= 200 && x.status < 300 && !x.contentType.includes('problem+json');
    };

    // A source of this connector, created through the proxy (so writes stay in it, and createSource is checked too).
    const auth = fixtures.params(sourceAuthConfig(connector));
    const source = await post(prism, ir.service.createSource.path, { workspace_id: 'openapi-prism', source_template_id: connector.id, name: 'openapi prism test', auth_config: auth });
    if (!routed('createSource', source)) throw new Error(`createSource through Prism failed: ${source.status} ${source.body.toString('utf8')}\n${prism.log()}`);
    const sourceId = String((json(source)[ir.service.envelope.records] as { id: string }).id);

    // The order of the contract tests: every read of the connector before any write.
    for (const [entity, action] of pairsInOrder(connector)) {
      const label = `${connector.id} ${entity.name} ${action.name}`;
      const body = fixtures.body(connector, entity, action);
      const x = await post(prism, executePath(sourceId), body);
      const ok = routed(label, x);
      const why = ERROR_ANSWERS[label];
      if (!ok) {
        if (why) errorAnswers.push(`${label}: ${x.status}`);
        else problems.push(`${label}: ${x.status} ${x.body.toString('utf8').slice(0, 300)} (request ${JSON.stringify(body)})`);
        const wrong = x.contentType.includes('json') ? conforms('#/components/schemas/ErrorBody', json(x)) : 'not JSON';
        if (wrong && !x.contentType.includes('problem+json')) problems.push(`${label}: the ${x.status} answer is not the error body: ${wrong}`);
        continue;
      }
      if (action.result.shape === 'binary') {
        if (x.status !== 200 || x.body.length === 0 || !x.headers.get('content-disposition')) problems.push(`${label}: a download answered ${x.status}, ${x.body.length} bytes, Content-Disposition ${x.headers.get('content-disposition')}`);
        if (action.rangeParam) {
          const part = await post(prism, executePath(sourceId), { ...body, params: { ...body.params, [action.rangeParam]: 'bytes=0-99' } });
          if (routed(`${label} (range)`, part) && (part.status !== 206 || part.body.length !== 100 || !/^bytes 0-99\/\d+$/.test(part.headers.get('content-range') ?? ''))) {
            problems.push(`${label} (range): ${part.status}, ${part.body.length} bytes, Content-Range ${part.headers.get('content-range')}`);
          }
        }
        continue;
      }
      // The pair's own response schema, which the request variant names.
      const pointer = (doc.components.schemas[`pair.${entity.name}.${action.name}.request`] as Record<string, string>)[RESPONSE_EXTENSION]!;
      const wrong = conforms(pointer, json(x));
      if (wrong) problems.push(`${label}: the answer does not match ${pointer}: ${wrong}`);
      // Later writes address what a create made, where the entity has no fixtures.
      const keyPath = fixtures.entity(entity.name)?.keyPath;
      const result = json(x)[ir.service.envelope.records] as Record<string, unknown> | undefined;
      const createdKey = keyPath && result ? at(result, keyPath) : undefined;
      if (action.name === 'create' && createdKey !== undefined) fixtures.created.set(entity.name, createdKey);
    }

    // Control: a body the document rejects is reported (so the document's schemas are live in Prism).
    const wrong = await post(prism, executePath(sourceId), { entity: 'contract_no_such_entity', action: 'list', params: {} });
    requests++;
    if (!wrong.violations?.includes('request')) problems.push(`control: Prism reported no request violation for an unknown entity (${wrong.status})`);
  } catch (error) {
    problems.push(`${(error as Error).message}\nPrism's log:\n${prism.log()}`);
  } finally {
    await prism.stop();
  }
  return { problems, errorAnswers, requests };
}

describe('Prism, as a validating proxy with each connector document, in front of the mock', () => {
  test('the controls: an unknown path, a wrong body and a wrong response are each reported', async () => {
    const connector = ir.connectors[0]!;
    const entity = connector.entities.find((e) => e.actions.some((a) => a.result.shape === 'list' && !a.params.some((p) => p.required)))!;
    // An upstream that answers every call with a body no document allows.
    const upstream: Server = createServer((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ [ir.service.envelope.records]: 42 })));
    await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
    try {
      await slot(async () => {
        const prism = await startPrismProxy(documentPath(connector.id), `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`);
        try {
          // Without --errors, Prism forwards what it cannot route and says so (with --errors: 404 NO_PATH_MATCHED).
          const unrouted = await post(prism, '/api/v1/connectors/sources/x/no-such-endpoint', {});
          expect(unrouted.violations).toContain('Selected route not found');

          const wrongBody = await post(prism, executePath('x'), { entity: entity.name, action: 'list', params: { contract_unknown_param: true } });
          expect(wrongBody.violations).toContain('"request"');

          const wrongResponse = await post(prism, executePath('x'), { entity: entity.name, action: 'list', params: {} });
          expect(wrongResponse.violations).toContain('"response"');
          expect(wrongResponse.violations).not.toContain('"request"');
        } finally {
          await prism.stop();
        }
      });
    } finally {
      await new Promise<void>((resolve) => upstream.close(() => resolve()));
    }
  }, 120_000);

  const connectors = readSpecConnectorIds();
  let pairs = 0;
  test.concurrent.each(connectors)('%s: every pair is routed and answered as its document says', async (id) => {
    const connector = ir.connectors.find((c) => c.id === id)!;
    const { problems, errorAnswers, requests } = await slot(() => checkConnector(connector));
    expect(problems).toEqual([]);
    expect(requests).toBeGreaterThan(connector.entities.length);
    pairs += connector.entities.reduce((n, e) => n + e.actions.length, 0);
    if (errorAnswers.length) console.info(`${id}: answered with a documented error, as listed: ${errorAnswers.join('; ')}`);
  }, 180_000);

  test('all 346 pairs went through Prism', () => {
    expect(pairs).toBe(346);
  });
});

/** Connector ids, known before beforeAll runs (test.each needs them at collection time): the export's index. */
function readSpecConnectorIds(): string[] {
  const index = JSON.parse(readFileSync(path.join(repo, 'generated/openapi/index.json'), 'utf8')) as { documents: { connector: string }[] };
  return index.documents.map((d) => d.connector);
}
