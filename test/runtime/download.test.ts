/** Downloads: raw bytes streamed (not buffered), with status, type, filename and range from the headers. */
import { describe, expect, test } from 'vitest';
import { NotFoundError, type CallDescriptor } from '../../runtime/src/index.js';
import { EXECUTE_URL, SERVICE, TOKEN, TestClient, fakeFetch, json, options, rejection } from './helpers.js';

const download: CallDescriptor = { entity: 'files', action: 'download' };
const encoder = new TextEncoder();

/** A stream whose second and third chunks arrive only after `release()`: proves the call does not buffer. */
function gatedStream() {
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  let step = 0;
  const stream = new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (step === 1) await gate;
      if (step < 3) controller.enqueue(encoder.encode(`chunk${step}|`));
      else controller.close();
      step++;
    },
  });
  return { stream, release };
}

describe('download', () => {
  test('a range request: streams chunks, reports 206, type, filename, length and range; sends the range param', async () => {
    const { stream, release } = gatedStream();
    const { fetch, calls } = fakeFetch(
      () =>
        new Response(stream, {
          status: 206,
          headers: {
            'Content-Type': 'application/pdf',
            'Content-Disposition': `attachment; filename="resume.pdf"; filename*=UTF-8''r%C3%A9sum%C3%A9%20v2.pdf`,
            'Content-Range': 'bytes 0-17/100',
            'Content-Length': '18',
          },
        }),
    );
    const client = new TestClient(options(fetch), SERVICE);
    const file = await client.download(download, { fileId: 'f_1', alt: 'media', range_header: 'bytes=0-17' });

    // The call resolved while the server still holds back chunks: nothing was buffered.
    expect(file.status).toBe(206);
    expect(file.contentType).toBe('application/pdf');
    expect(file.filename).toBe('résumé v2.pdf');
    expect(file.contentRange).toBe('bytes 0-17/100');
    expect(file.contentLength).toBe(18);
    expect(file.body).toBeInstanceOf(ReadableStream);

    const chunks: string[] = [];
    const decoder = new TextDecoder();
    for await (const chunk of file.body) {
      chunks.push(decoder.decode(chunk));
      if (chunks.length === 1) release();
    }
    expect(chunks).toEqual(['chunk0|', 'chunk1|', 'chunk2|']);

    expect(calls[0]?.url).toBe(EXECUTE_URL);
    expect(calls[0]?.headers.get('accept')).toBe('*/*');
    expect(calls[0]?.headers.get('authorization')).toBe(`Bearer ${TOKEN}`);
    expect(calls[0]?.body).toEqual({ entity: 'files', action: 'download', params: { fileId: 'f_1', alt: 'media', range_header: 'bytes=0-17' } });
  });

  test('arrayBuffer() reads the whole stream; plain and unquoted filename forms are understood', async () => {
    const cases: [string | undefined, string | undefined][] = [
      ['attachment; filename="a \\"quoted\\" name.txt"', 'a "quoted" name.txt'],
      ['inline; filename=plain.csv', 'plain.csv'],
      ['attachment', undefined],
      [undefined, undefined],
    ];
    for (const [disposition, filename] of cases) {
      const headers: Record<string, string> = disposition ? { 'content-disposition': disposition } : {};
      const { fetch } = fakeFetch(() => new Response('hello bytes', { status: 200, headers }));
      const file = await new TestClient(options(fetch), SERVICE).download(download, { fileId: 'f' });
      expect(file.filename).toBe(filename);
      expect(file.status).toBe(200);
      expect(new TextDecoder().decode(await file.arrayBuffer())).toBe('hello bytes');
    }
  });

  test('an error status is parsed as a JSON error, not returned as bytes', async () => {
    const { fetch } = fakeFetch(() => json({ message: 'No such file' }, 404));
    const error = await rejection(new TestClient(options(fetch), SERVICE).download(download, { fileId: 'nope' }));
    expect(error).toBeInstanceOf(NotFoundError);
    expect((error as Error).message).toBe('404 No such file (files download)');
  });

  test('an empty body gives an empty stream', async () => {
    const { fetch } = fakeFetch(() => new Response(null, { status: 200 }));
    const file = await new TestClient(options(fetch), SERVICE).download(download, {});
    expect((await file.arrayBuffer()).byteLength).toBe(0);
  });

  test('aborting the call signal after the headers cancels the stream', async () => {
    const controller = new AbortController();
    const { fetch } = fakeFetch((request) => {
      const stream = new ReadableStream<Uint8Array>({
        start(c) {
          c.enqueue(encoder.encode('first'));
          request.signal?.addEventListener('abort', () => c.error(new Error('cancelled')));
        },
      });
      return new Response(stream, { status: 200 });
    });
    const file = await new TestClient(options(fetch), SERVICE).download(download, {}, { signal: controller.signal });
    const reader = file.body.getReader();
    expect((await reader.read()).done).toBe(false);
    controller.abort();
    await expect(reader.read()).rejects.toThrow('cancelled');
  });
});
