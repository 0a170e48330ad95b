// prettier in a worker thread, for generated files that are not already printed in the wanted style (format.ts).
// Plain JavaScript: worker threads get no TypeScript loader. Messages: { id, resolve: file } → { id, options };
// { id, jobs: [{ rel, text, filepath, options }] } → { id, results: [{ rel, text } | { rel, error }] }.
import { parentPort } from 'node:worker_threads';

const prettier = await import('prettier');

/**
 * Formats until prettier's output no longer changes (at most 3 passes): prettier is not always idempotent (a comment
 * or a chain it moves can lay out differently on a second pass), and `prettier --check` compares against one more pass.
 */
async function formatStable(text, options) {
  let out = await prettier.format(text, options);
  for (let pass = 1; pass < 3; pass++) {
    const again = await prettier.format(out, options);
    if (again === out) break;
    out = again;
  }
  return out;
}

parentPort.on('message', async (message) => {
  if (message.resolve) {
    try {
      const options = (await prettier.resolveConfig(message.resolve, { editorconfig: true })) ?? {};
      parentPort.postMessage({ id: message.id, options });
    } catch (error) {
      parentPort.postMessage({ id: message.id, error: error instanceof Error ? error.message : String(error) });
    }
    return;
  }
  const results = [];
  for (const job of message.jobs) {
    try {
      results.push({ rel: job.rel, text: await formatStable(job.text, { ...job.options, filepath: job.filepath }) });
    } catch (error) {
      results.push({ rel: job.rel, error: error instanceof Error ? error.message.split('\n')[0] : String(error) });
    }
  }
  parentPort.postMessage({ id: message.id, results, version: prettier.version });
});
