import type { LogLevel } from './env';

export type Logger = {
  debug: (msg: string, fields?: Record<string, unknown>) => void;
  info: (msg: string, fields?: Record<string, unknown>) => void;
  warn: (msg: string, fields?: Record<string, unknown>) => void;
  error: (msg: string, fields?: Record<string, unknown>) => void;
};

const order: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 };

/** How long a warning or an error with one cause is written once, the repeats counted (issue 33 item 4). */
export const REPEAT_WINDOW_MS = 10_000;

type Repeat = { count: number; level: 'warn' | 'error'; msg: string; fields?: Record<string, unknown> };

/**
 * One JSON line per entry on stderr (errors, warnings) or stdout. Never pass secrets, codes or tokens.
 *
 * Warnings and errors are collapsed per cause (the message and its `error` field): the first of a
 * window of REPEAT_WINDOW_MS is written at once, the others of that window are only counted, and when
 * the window ends one line more says how many there were (`repeated`, `windowSeconds`, the last
 * one's fields). A 30-s database outage under load writes a few lines per cause, not one per failed
 * request. Info lines (the access log) are never collapsed.
 */
export function createLogger(level: LogLevel, opts: { repeatWindowMs?: number } = {}): Logger {
  const windowMs = opts.repeatWindowMs ?? REPEAT_WINDOW_MS;
  const write = (at: Exclude<LogLevel, 'silent'>, msg: string, fields?: Record<string, unknown>) => {
    const line = JSON.stringify({ time: new Date().toISOString(), level: at, msg, ...fields });
    if (at === 'error' || at === 'warn') process.stderr.write(`${line}\n`);
    else process.stdout.write(`${line}\n`);
  };
  /** The causes seen in the current window, with how many times each came again. */
  let window = new Map<string, Repeat>();
  let timer: NodeJS.Timeout | undefined;
  const endWindow = () => {
    const ended = window;
    window = new Map();
    timer = undefined;
    for (const r of ended.values()) {
      if (r.count > 0)
        write(r.level, r.msg, { ...r.fields, repeated: r.count, windowSeconds: windowMs / 1000 });
    }
  };
  const emit = (at: Exclude<LogLevel, 'silent'>) => (msg: string, fields?: Record<string, unknown>) => {
    if (order[at] < order[level]) return;
    if (at !== 'warn' && at !== 'error') return write(at, msg, fields);
    const key = `${at}\u0000${msg}\u0000${typeof fields?.error === 'string' ? fields.error : ''}`;
    const seen = window.get(key);
    if (seen) {
      seen.count++;
      seen.fields = fields;
      return;
    }
    window.set(key, { count: 0, level: at, msg, fields });
    if (!timer) {
      timer = setTimeout(endWindow, windowMs);
      timer.unref();
    }
    write(at, msg, fields);
  };
  // The counts of the last window are not lost when the process ends.
  if (level !== 'silent')
    process.once('exit', () => {
      if (timer) clearTimeout(timer);
      endWindow();
    });
  return { debug: emit('debug'), info: emit('info'), warn: emit('warn'), error: emit('error') };
}

export const silentLogger: Logger = createLogger('silent');

/** An error's message with its causes (drizzle puts the driver's message in `cause`). */
export function describeError(err: unknown): string {
  const parts: string[] = [];
  let e: unknown = err;
  for (let depth = 0; e && depth < 4; depth++) {
    parts.push(e instanceof Error ? e.message : String(e));
    e = e instanceof Error ? e.cause : undefined;
  }
  return parts.join(' | caused by: ');
}
