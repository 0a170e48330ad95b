/** Whether `fd` is a terminal (one fstat for a pipe, socket or file; the tty module only for a character device). */
export declare function isTerminal(fd: number): boolean;
/** Writes `text` to `fd` whole (partial writes, a full non-blocking pipe, a reader gone: the run ends quietly). */
export declare function writeAll(fd: number, text: string): void;
/** A writer to standard output (1) or error (2): the stream for a terminal, else the descriptor itself. */
export declare function outputTo(fd: 1 | 2): (text: string) => void;
/** Makes a reader that goes away end the run quietly, through a descriptor or a stream (created on first use). */
export declare function endQuietlyWhenReaderGoes(): void;
