/**
 * What every call returns: a real Promise of its result (assignable to `Promise<T>`, usable with `Promise.race`
 * and anything typed for promises) that also gives the HTTP response it came from. The request starts when the
 * method is called, as with any promise.
 */

/** A call's result with the response it came from. */
export interface WithResponse<T> {
  /** What awaiting the call gives. */
  data: T;
  /** The HTTP response (for list calls: of the first page); its body has been read by the SDK. */
  response: Response;
  /** The service's id of the request (its request-id response header), to quote when reporting a problem. */
  requestId: string | undefined;
}

/** What a finished call hands its promise: the result, and the body text `asResponse()` gives back. */
export interface CallResult<T> extends WithResponse<T> {
  /** The response body as read; undefined when it was not read (downloads). */
  text?: string | undefined;
}

/** The result of a call: a Promise of its data, plus `.withResponse()` and `.asResponse()`. */
export class APIPromise<T> extends Promise<T> {
  /** The call's outcome; subclasses read more of it (a page's items). */
  declare protected readonly result: Promise<CallResult<T>>;

  /** Wraps a started call; generated clients and the runtime build these, users only await them. */
  constructor(result: Promise<CallResult<T>>) {
    // The base promise settles at once and is never observed: `then` below reads the call's result instead.
    super((resolve) => resolve(undefined as T));
    this.result = result;
  }

  // Promise methods that build new promises (finally) must build plain ones, not APIPromises.
  static override get [Symbol.species](): PromiseConstructor {
    return Promise;
  }

  /** Like Promise.prototype.then, on the call's data; `catch`, `finally` and `await` go through it. */
  override then<A = T, B = never>(
    onfulfilled?: ((value: T) => A | PromiseLike<A>) | null,
    onrejected?: ((reason: unknown) => B | PromiseLike<B>) | null,
  ): Promise<A | B> {
    return this.result.then(
      (result) => (onfulfilled ? onfulfilled(result.data) : (result.data as unknown as A)),
      onrejected,
    );
  }

  /** The data with the HTTP response it came from and the request id. */
  withResponse(): Promise<WithResponse<T>> {
    return this.result.then(({ data, response, requestId }) => ({ data, response, requestId }));
  }

  /** The HTTP response of the call (of the first page, for list calls), its body readable again. */
  asResponse(): Promise<Response> {
    return this.result.then(({ response, text }) =>
      text === undefined ? response : new Response(text || null, response),
    );
  }
}
