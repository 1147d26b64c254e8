/**
 * How many turns the event loop gave other work while a piece of work ran: a callback re-queued
 * with setImmediate on every turn counts them. Work that never yields lets it run 0 times.
 */
export async function turnsDuring<T>(work: () => Promise<T>): Promise<{ value: T; turns: number }> {
  let turns = 0;
  let pending = true;
  const tick = () => {
    turns++;
    if (pending) setImmediate(tick);
  };
  setImmediate(tick);
  try {
    return { value: await work(), turns };
  } finally {
    pending = false;
  }
}
