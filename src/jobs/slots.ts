/**
 * Running-job slots: at most `limit` query jobs run at once; a job beyond that stays PENDING
 * (BigQuery: "PENDING: the job is scheduled and waiting to be run", JobStatus.state) until a
 * running job ends, first come first served. Dry runs do not take a slot (nothing runs).
 */

interface Waiter {
  grant: (granted: boolean) => void;
}

/** A request for a slot: `ready` resolves true once the slot is held, false if withdrawn first. */
export interface SlotRequest {
  ready: Promise<boolean>;
  /** Withdraws a request still waiting (a cancelled PENDING job); no effect once granted. */
  withdraw(): void;
}

export class JobSlots {
  private active = 0;
  private waiting: Waiter[] = [];

  /** @param limit how many jobs may run at once (at least 1). */
  constructor(public limit: number) {}

  /** Asks for a slot; granted at once when one is free and nobody waits. */
  take(): SlotRequest {
    if (this.active < Math.max(1, this.limit) && !this.waiting.length) {
      this.active++;
      return { ready: Promise.resolve(true), withdraw: () => undefined };
    }
    const w: Waiter = { grant: () => undefined };
    const ready = new Promise<boolean>((res) => (w.grant = res));
    this.waiting.push(w);
    return {
      ready,
      withdraw: () => {
        const i = this.waiting.indexOf(w);
        if (i < 0) return;
        this.waiting.splice(i, 1);
        w.grant(false);
      },
    };
  }

  /** Gives a held slot back: the longest-waiting request gets it. */
  release(): void {
    const next = this.waiting.shift();
    if (next) next.grant(true);
    else this.active = Math.max(0, this.active - 1);
  }

  /** Jobs waiting for a slot. */
  get pending(): number {
    return this.waiting.length;
  }
}
