/**
 * Download results: raw bytes streamed from the response (status 200, or 206 for a range) with the facts
 * its headers give. Nothing is buffered unless the caller asks for arrayBuffer(). A function, not a client
 * method, so that clients without download actions do not bundle it.
 */
import type { AnyClient, CallDescriptor } from './client.js';
import type { RequestOptions } from './options.js';
import { APIPromise } from './promise.js';

/** A streamed download. */
export interface DownloadResponse {
  /** 200, or 206 for a range. */
  status: number;
  contentType: string | undefined;
  /** From Content-Disposition: filename* (RFC 5987) when present, else filename. */
  filename: string | undefined;
  contentLength: number | undefined;
  contentRange: string | undefined;
  /** The bytes, streamed as they arrive; readable once, either as a stream or with `for await`. */
  body: ReadableStream<Uint8Array> & AsyncIterable<Uint8Array>;
  /** Convenience: reads the whole stream into memory. */
  arrayBuffer(): Promise<ArrayBuffer>;
}

/** A download call: the response bytes, streamed, never parsed (generated download methods call it). */
export function callDownload(
  client: AnyClient,
  call: CallDescriptor,
  params: object | undefined,
  options?: RequestOptions,
): APIPromise<DownloadResponse> {
  // One call per statement: prettier formats a chain here differently on a second pass at narrow widths.
  const sent = client.request(call, params, options, true);
  return new APIPromise(
    sent.then((exchange) => ({ ...exchange, data: toDownloadResponse(exchange.response, exchange.headers) })),
  );
}

/** Wraps a 2xx response whose body has not been read; `headers` are the already-sanitized response headers. */
export function toDownloadResponse(response: Response, headers: Record<string, string>): DownloadResponse {
  const body = iterableStream(response.body ?? new ReadableStream<Uint8Array>({ start: (c) => c.close() }));
  const length = Number(headers['content-length'] ?? NaN);
  return {
    status: response.status,
    contentType: headers['content-type'],
    filename: filenameOf(headers['content-disposition']),
    contentLength: Number.isFinite(length) ? length : undefined,
    contentRange: headers['content-range'],
    body,
    arrayBuffer: () => new Response(body).arrayBuffer(),
  };
}

/** The file name a Content-Disposition header gives: filename*=charset''percent-encoded wins over filename. */
export function filenameOf(disposition: string | undefined): string | undefined {
  if (!disposition) return undefined;
  const extended = /filename\*\s*=\s*([^']*)'[^']*'([^;]+)/i.exec(disposition);
  if (extended?.[2]) {
    try {
      return decodeURIComponent(extended[2].trim());
    } catch {
      // Malformed percent-encoding: fall back to the plain parameter.
    }
  }
  const plain = /(?:^|;)\s*filename\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^;]+))/i.exec(disposition);
  if (plain?.[1] !== undefined) return plain[1].replace(/\\(.)/g, '$1');
  return plain?.[2]?.trim();
}

/** The stream itself, made async-iterable where the platform's streams are not (older browsers). */
function iterableStream(stream: ReadableStream<Uint8Array>): ReadableStream<Uint8Array> & AsyncIterable<Uint8Array> {
  const candidate = stream as ReadableStream<Uint8Array> & Partial<AsyncIterable<Uint8Array>>;
  if (typeof candidate[Symbol.asyncIterator] !== 'function') {
    candidate[Symbol.asyncIterator] = async function* () {
      const reader = stream.getReader();
      try {
        for (;;) {
          const { done, value } = await reader.read();
          if (done) return;
          yield value;
        }
      } finally {
        reader.releaseLock();
      }
    };
  }
  return candidate as ReadableStream<Uint8Array> & AsyncIterable<Uint8Array>;
}
