/** Refused because every slot is busy and the queue is full, or the wait ran out: answer 429, change nothing. */
export class WorkLimiterBusyError extends Error {
  constructor() {
    super('Too much work of this kind at once.');
  }
}

export interface WorkLimits {
  concurrency: number;
  maxWaiting: number;
  maxWaitMs: number;
}

interface Waiter {
  start: () => void;
  timer: ReturnType<typeof setTimeout> | null;
}

/**
 * At most `concurrency` tasks at once; up to `maxWaiting` more wait in order, each for `maxWaitMs` at most;
 * any other is refused at once. A slot passes straight to the next waiter, so a freed slot is never raced.
 */
export class WorkLimiter {
  private limits: WorkLimits;
  private active = 0;
  private readonly queue: Waiter[] = [];

  constructor(limits: WorkLimits) {
    this.limits = { ...limits };
  }

  configure(limits: WorkLimits): void {
    this.limits = { ...limits };
  }

  get running(): number {
    return this.active;
  }

  get waiting(): number {
    return this.queue.length;
  }

  async run<T>(task: () => Promise<T>): Promise<T> {
    await this.acquire();
    try {
      return await task();
    } finally {
      this.release();
    }
  }

  private acquire(): Promise<void> {
    if (this.active < this.limits.concurrency) {
      this.active++;
      return Promise.resolve();
    }
    if (this.queue.length >= this.limits.maxWaiting) return Promise.reject(new WorkLimiterBusyError());
    return new Promise((resolve, reject) => {
      const waiter: Waiter = { start: resolve, timer: null };
      waiter.timer = setTimeout(() => {
        const index = this.queue.indexOf(waiter);
        if (index >= 0) this.queue.splice(index, 1);
        reject(new WorkLimiterBusyError());
      }, this.limits.maxWaitMs);
      waiter.timer.unref?.();
      this.queue.push(waiter);
    });
  }

  private release(): void {
    const next = this.queue.shift();
    if (!next) {
      this.active--;
      return;
    }
    if (next.timer) clearTimeout(next.timer);
    next.start();
  }
}
