// The cases for a client built on an official SDK's `Client`: the v1 SDK (@modelcontextprotocol/sdk 1.x) over
// Streamable HTTP or through the stdio↔HTTP bridge, and the v2 client (@modelcontextprotocol/client).
// `connect(version)` returns a connected Client that spoke `version` (or throws).
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { CallToolResultSchema, ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { QUESTION_ANSWER, caseRunner, expect, expectVersion, known, labelFor, resetWire, textOf } from './cases.mjs';
import { badArgument, expectAborted, expectAnswered, plainCall, unknownTool } from './common-cases.mjs';
import { offering } from './offering.mjs';
import { refusedQuestion } from './refusal-case.mjs';
import { v1TaskCases } from './v1-task-cases.mjs';

/** Elicitation exists from 2025-06-18 on; tasks from 2025-11-25. */
export const asks = (version) => version >= '2025-06-18';

export function answering(client) {
  client.setRequestHandler(ElicitRequestSchema, async () => ({ action: 'accept', content: QUESTION_ANSWER }));
}

/** A v1 Client as one of `version` would be: elicitation declared and answered where the revision has it. */
export function v1Client(version) {
  const capabilities = asks(version) ? { elicitation: { form: {} } } : {};
  const client = new Client({ name: 'clients-suite', version: '1.0.0' }, { capabilities });
  if (asks(version)) answering(client);
  return client;
}

/** The v1 Client at each of `versions`, over the transport `transportFor()` makes, offering that revision. */
export async function v1Suite(name, url, versions, transportFor) {
  for (const version of versions)
    await sdkCases(name, version, url, {
      tasks: version === '2025-11-25',
      async connect() {
        const client = v1Client(version);
        await client.connect(offering(transportFor(), version));
        return client;
      },
    });
}

/** The v1 Client's callTool; the v2 client's takes no result schema. */
const v1Call = (client, params, options) => client.callTool(params, CallToolResultSchema, options);

/**
 * `o.connect(version)`: a connected Client. `o.callTool(client, params, options)`: its callTool (default: the v1
 * Client's). `o.tasks`: whether this client does tasks at `version` (else the task cases are not run);
 * `o.taskCases(run)` runs them (default: the v1 Client's `experimental.tasks`). `o.gaps`: case name → the reason
 * this client cannot do it (a KNOWN line). `o.cancelFault(url, label)`: when the case failed, the client's fault
 * the wire shows, if any (a KNOWN line; else the case fails). `o.close()`: run before the client closes.
 */
export async function sdkCases(name, version, url, o) {
  const run = caseRunner(name, version);
  const callTool = o.callTool ?? v1Call;
  const gap = (c) => {
    if (o.gaps?.[c]) throw known(o.gaps[c]);
  };
  await resetWire(url);
  let client;
  await run('connect+list', async () => {
    client = await o.connect(version);
    await expectVersion(url, version);
    const { tools } = await client.listTools();
    const names = tools.map((t) => t.name);
    expect(names.includes('publish_release') && names.includes('countdown'), `tools: ${names.join(',')}`);
    return `${tools.length} tools`;
  });
  if (!client) return;
  const call = (tool, args) => callTool(client, { name: tool, arguments: args });
  try {
    await plainCall(run, call);
    await run('progress', async () => {
      gap('progress');
      const seen = [];
      const result = await callTool(
        client,
        { name: 'countdown', arguments: { seconds: 3 } },
        { onprogress: (p) => seen.push(`${p.progress}/${p.total}`) },
      );
      expect(textOf(result) === 'Counted down 3 s.', `result ${JSON.stringify(textOf(result))}`);
      expect(seen.length >= 2, `progress seen: ${seen.join(' ') || 'none'}`);
      return `progress ${seen.join(' ')}`;
    });
    if (asks(version))
      await run('question (plain call)', async () => {
        gap('question (plain call)');
        return expectAnswered(url, version, await call('publish_release', { version: '1.2.0' }));
      });
    else await refusedQuestion(run, url, version, call);
    if (o.tasks) await (o.taskCases ?? ((r) => v1TaskCases(r, client, url, name, version)))(run);
    await run('cancel (AbortSignal)', async () => {
      gap('cancel (AbortSignal)');
      const label = labelFor(name, version, 'cancel');
      const ac = new AbortController();
      const aborted = callTool(
        client,
        { name: 'countdown', arguments: { seconds: 30, label } },
        { signal: ac.signal, onprogress: () => ac.abort('the user stopped it') },
      ).then(
        () => 'resolved',
        () => 'rejected',
      );
      expect((await aborted) === 'rejected', 'the aborted call resolved');
      return expectAborted(url, label, { closeIsCancel: version >= '2026-07-28' }).catch(async (err) => {
        const fault = await o.cancelFault?.(url, label);
        throw fault ? known(fault) : err;
      });
    });
    await unknownTool(run, url, call);
    await badArgument(run, url, call);
  } finally {
    await o.close?.();
    await client.close().catch(() => undefined);
  }
}
