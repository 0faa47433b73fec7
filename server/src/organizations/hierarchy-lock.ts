/**
 * Runs hierarchy changes one at a time within this process.
 *
 * Why one queue for every change rather than a lock per organisation: a cycle check reads the whole
 * chain of parents above the new parent, so two changes whose own organisations differ can still
 * close a cycle together (A under B while B's ancestor goes under A). Hierarchy changes are rare
 * clicks in a console, so serialising them all costs nothing noticeable and is simple to trust.
 *
 * Across several server instances this gives no guarantee: each has its own queue, and the Backend
 * API offers no compare-and-set on metadata. Two instances changing the same parent at the same
 * moment can lose one of the two list updates, or both pass a cycle check. README "vCISO hierarchy"
 * says so; run one instance (or route these calls to one) where that matters.
 */
export class SerialQueue {
  private tail: Promise<unknown> = Promise.resolve();

  run<T>(task: () => Promise<T>): Promise<T> {
    // The tail never rejects, so the task runs once the previous one has settled, however it ended.
    const result = this.tail.then(task);
    this.tail = result.catch(() => undefined);
    return result;
  }
}

/** The process-wide queue for parent/child changes. */
export const hierarchyChanges = new SerialQueue();
